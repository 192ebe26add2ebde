/** Record shapes of a site and what belongs to it (records.ts re-exports them). */
import type { DefaultLevel } from "./validate";

export interface SiteRec {
  id: string;
  orgId: string;
  title: string;
  type: string;
  visibility: string;
  published: boolean;
  createdAt: string;
  basename?: string;
  proxy?: string;
  adaptiveContent?: boolean;
  agentsContext: "excluded" | "included";
  defaultLevel: DefaultLevel;
  styleguideSpaceId?: string;
}

export interface SectionRec {
  id: string;
  siteId: string;
  title: string;
  description?: string;
  path: string;
  condition?: string;
  icon?: string;
  groupId?: string;
  isDefault: boolean;
  draft: boolean;
  position: number;
  createdAt: string;
  localizedTitle?: Record<string, string>;
  localizedDescription?: Record<string, string>;
}

export interface SectionGroupRec {
  id: string;
  siteId: string;
  title: string;
  icon?: string;
  parentGroupId?: string;
  draft: boolean;
  position: number;
  localizedTitle?: Record<string, string>;
}

/** A navigation item that points outside the site; it sits at the root or in a group, among sections and groups. */
export interface ExternalLinkRec {
  id: string;
  siteId: string;
  title: string;
  url: string;
  description?: string;
  icon?: string;
  condition?: string;
  groupId?: string;
  draft: boolean;
  position: number;
  localizedTitle?: Record<string, string>;
  localizedDescription?: Record<string, string>;
}

export interface SiteSpaceRec {
  id: string;
  siteId: string;
  sectionId?: string;
  spaceId: string;
  path: string;
  condition?: string;
  isDefault: boolean;
  draft: boolean;
  hidden?: boolean;
  pageId?: string | null;
  /** Site-specific title (defaults to the space title). */
  title?: string;
  position: number;
  /** The customization overrides (`…/site-spaces/{id}/customization`); gone with the site space. */
  customization?: { overrides: Record<string, unknown>; updatedAt: string };
}

export interface ShareLinkRec {
  id: string;
  siteId: string;
  name: string;
  active: boolean;
  token: string;
  createdAt: string;
}

export interface SiteCustomizationRec {
  siteId: string;
  settings: Record<string, unknown>;
  updatedAt: string;
}

/** A Model Context Protocol server whose tools the site's AI Assistant may call (official `SiteMcpServer`). */
export interface SiteMcpServerRec {
  id: string;
  siteId: string;
  name: string;
  url: string;
  transport: "sse" | "http";
  /** Sent to the server with every request; values are secrets (API keys), the API echoes them in its answers. */
  headers: Record<string, string>;
  condition?: string;
}

/** The official `SiteAgentSettingsInput` (the editor's AI agent), as the last PUT sent it. */
export interface SiteAgentSettings {
  scans: { topics: "auto" | "never" };
  findings: { changeRequests: "always" | "auto-fixable" | "never" };
  /** `customInstructions` is a JSONDocument, kept as sent. */
  editing: { customInstructions: Record<string, unknown> };
}

export interface SiteAgentSettingsRec {
  siteId: string;
  settings: SiteAgentSettings;
  /** Absent: never written, the new-site values. */
  updatedAt?: string;
}

export interface PublishingAuthRec {
  siteId: string;
  backend: "custom" | "integration";
  privateKey: string;
  fallbackURL?: string;
  logoutURL?: string;
}

/** The official SiteRedirectDestination. */
export type RedirectDestination =
  | { kind: "external"; url: string }
  | { kind: "site-section"; siteSectionId: string }
  | { kind: "site-space"; siteSpaceId: string }
  | { kind: "site-page"; siteSpaceId: string; pageId: string };

export interface SiteRedirectRec {
  id: string;
  siteId: string;
  /** Unique per site among redirects of the same `draft`. */
  source: string;
  draft: boolean;
  captureWildcard: boolean;
  permanent: boolean;
  destination: RedirectDestination;
  createdAt: string;
  updatedAt?: string;
}

export interface AdaptiveSchemaRec {
  siteId: string;
  jsonSchema: unknown;
  updatedAt: string;
}
