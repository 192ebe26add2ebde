/** Internal record shapes of the store, one per kind; routes render them into API objects (render.ts). */
import type { DefaultLevel, MemberRole, MergeRules } from "./validate";

export * from "./siteRecords";

export interface OrgRec {
  id: string;
  title: string;
  hostname: string;
  createdAt: string;
  emailDomains: string[];
  defaultRole: MemberRole | null;
  inviteLinks: boolean;
  /** SSO enforced organization-wide; absent means false. */
  sso?: boolean;
  /** The AI features; absent means on. */
  ai?: boolean;
  /** The logo's URL (reported as `urls.logo`). */
  logo?: string;
  /** The site of `defaultContent` (`{ type: "site", site }`). */
  defaultSiteId?: string;
  /** As the last PATCH sent it; absent means `{ type: "none" }`. */
  mergeRules?: MergeRules;
}

export interface UserRec {
  id: string;
  displayName: string;
  email: string;
  photoURL?: string;
}

export interface MemberRec {
  orgId: string;
  userId: string;
  role: MemberRole | null;
  joinedAt: string;
  lastSeenAt?: string;
  sso: boolean;
  disabled: boolean;
}

export interface SpaceRec {
  id: string;
  orgId: string;
  title: string;
  /** `""` when the space has none (an icon, or both removed). */
  emoji: string;
  /** The icon's URL; set, it replaces the emoji. */
  icon?: string;
  language?: string;
  visibility: string;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
  parentId?: string;
  revision: string;
  defaultLevel: DefaultLevel;
  editMode: "live" | "locked";
  /** Absent: `inherit` (a new space follows its organization's merge rules). */
  mergeRules?: MergeRules;
  position: number;
}

export interface CollectionRec {
  id: string;
  orgId: string;
  title: string;
  description?: string;
  parentId?: string;
  defaultLevel: DefaultLevel;
  createdAt: string;
  position: number;
}

export interface SamlRec {
  id: string;
  orgId: string;
  label: string;
  ssoURL?: string;
  entityID: string;
  certificate: string;
  defaultTeamId?: string;
  defaultRole: MemberRole | null;
  createdAt: string;
}

export type TeamRole = "owner" | "member";

export interface TeamRec {
  id: string;
  orgId: string;
  title: string;
  createdAt: string;
  /** userId → role, in insertion order. */
  members: Map<string, TeamRole>;
}

export type OpenApiSource = { url: string } | { text: string };
export type OpenApiErrorCode = "FETCH_TIMEOUT" | "FETCH_ERROR" | "PARSE_ERROR";

export interface OpenApiJob {
  acceptedAtMs: number;
  source: OpenApiSource;
  versionId: string;
}

export interface OpenApiSpecRec {
  id: string;
  orgId: string;
  slug: string;
  createdAt: string;
  updatedAt: string;
  visibility?: "private" | "public";
  sourceURL?: string;
  /** Processing job in flight (processingState pending/progress while it runs). */
  job?: OpenApiJob;
  lastVersionId?: string;
  lastProcessedAt?: string;
  lastProcessErrorCode?: OpenApiErrorCode;
  lastProcessedErrors?: { message: string; code?: string }[];
}

export interface OpenApiVersionRec {
  id: string;
  specId: string;
  createdAt: string;
  source: OpenApiSource;
  format: "json" | "yaml";
  parsed?: unknown;
}

/** An item of an ordered level named by kind and id (`site-section`, `space`, …). */
export interface ItemRef {
  kind: string;
  id: string;
}

/** Where a move puts an item: before or after a sibling (at the end when neither is given). */
export interface Placement {
  before?: ItemRef;
  after?: ItemRef;
}

/** A grant of a role on a space, collection or site to a team or a user (`…/permissions`). */
export interface PermissionRec {
  target: "space" | "collection" | "site";
  targetId: string;
  grantee: "team" | "user";
  granteeId: string;
  /** Sites also take `null` (guest). */
  role: MemberRole | null;
}

/** A translation of a space into another language (`/orgs/{o}/translations`); its runs are settled by the clock. */
export interface TranslationRec {
  id: string;
  orgId: string;
  sourceSpaceId: string;
  sourceLanguage: string;
  language: string;
  /** The official `JSONDocument`, as the last POST or PUT sent it (an empty document when none was sent). */
  instructions: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  /** When the latest run began (a create starts the first one). */
  runStartedAtMs: number;
  /** Completed runs, counted when a run is settled. */
  runs: number;
  /** `runStartedAtMs` of the latest settled run: equal to it once the latest run is completed. */
  settledRunAtMs?: number;
  /** The space the runs write into, made by the first completed run. */
  resultSpaceId?: string;
  resultRevision?: string;
}

/** An entry of an organization's translation glossary: a term by language code. */
export interface GlossaryEntryRec {
  id: string;
  orgId: string;
  translations: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}
/** An integration installed in an organization (official `IntegrationInstallation`). */
export interface IntegrationInstallationRec {
  id: string;
  orgId: string;
  /** The catalogue's integration (integrationCatalogue.ts): every path names it. */
  integrationName: string;
  status: "active" | "pending" | "paused";
  spaceSelection: "all" | "selected";
  siteSelection: "all" | "selected";
  /** Open JSON: what the program sends and what the integration writes itself. */
  configuration: Record<string, unknown>;
  externalIds: string[];
  createdAt: string;
  updatedAt: string;
}

/** An organization installation enabled on one of its sites (official `IntegrationSiteInstallation`). */
export interface IntegrationSiteInstallationRec {
  installationId: string;
  siteId: string;
  /** Open JSON, checked against the integration's site-level schema. */
  configuration: Record<string, unknown>;
  externalIds: string[];
}

/** An organization installation enabled on one of its spaces (official `IntegrationSpaceInstallation`). */
export interface IntegrationSpaceInstallationRec {
  installationId: string;
  spaceId: string;
  /** Open JSON, checked against the integration's space-level schema. */
  configuration: Record<string, unknown>;
  externalIds: string[];
}

/** A Git Sync installation (official `GitSyncInstallation`): one space or site synced with a repository. */
export interface GitSyncInstallationRec {
  id: string;
  orgId: string;
  provider: "github" | "gitlab";
  target: { type: "space"; spaceId: string } | { type: "site"; siteId: string };
  /** GitHub's `repositoryId` or GitLab's `projectId`, once set. */
  repositoryId?: number;
  branch?: string;
  /** GitLab only: kept to decide the status, never rendered. */
  accessToken?: string;
  customInstanceURL?: string | null;
  projectDirectory?: string;
  commitMessageTemplate?: string;
  previewExternalBranches?: boolean;
  priority?: "git" | "gitbook";
  /** Agent instruction files exported at the repository root (official `agentInstructions`). */
  agentInstructions?: ("agents" | "claude")[];
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  /** Syncs the PATCHes queued (every PATCH queues one): what tests count. */
  syncs: number;
}

/**
 * One recorded change (the official `AuditEvent`): written by the server for every successful write (audit.ts), never
 * by a route.
 */
export interface AuditEventRec {
  id: string;
  orgId: string;
  occurredAt: string;
  action: string;
  actor: { type: "user"; id: string; label: string };
  source: AuditSource;
  target: { type: string; id: string };
}

/** The official `AuditEvent.source`: where a change came from. */
export const AUDIT_SOURCES = ["ui", "api", "integration", "webhook", "workflow", "script", "support"] as const;
export type AuditSource = (typeof AUDIT_SOURCES)[number];
