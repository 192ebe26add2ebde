/**
 * In-memory state of the emulator: records per kind, deterministic fixtures, id generation and the cross-kind
 * invariants (cascading deletes, default site spaces/sections, counters).
 */
import { createHash, randomBytes } from "node:crypto";
import type { DefaultLevel, MemberRole } from "./validate";

// ---------------------------------------------------------------------------------------------------------------
// Records (internal shapes; routes render them into API objects)

export interface OrgRec {
  id: string;
  title: string;
  hostname: string;
  createdAt: string;
  emailDomains: string[];
  defaultRole: MemberRole | null;
  inviteLinks: boolean;
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
  emoji: string;
  visibility: string;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
  parentId?: string;
  revision: string;
  defaultLevel: DefaultLevel;
  editMode: "live" | "locked";
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
}

export interface ShareLinkRec {
  id: string;
  siteId: string;
  name: string;
  active: boolean;
  token: string;
  createdAt: string;
}

export interface AdaptiveSchemaRec {
  siteId: string;
  jsonSchema: unknown;
  updatedAt: string;
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

// ---------------------------------------------------------------------------------------------------------------
// Ids

const ALPHANUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Random 20-character alphanumeric id, like GitBook's. */
export function randomId(length = 20): string {
  const bytes = randomBytes(length * 2);
  let out = "";
  for (let i = 0; i < bytes.length && out.length < length; i++) {
    const b = bytes[i]!;
    if (b < 248) out += ALPHANUM[b % 62];
  }
  while (out.length < length) out += ALPHANUM[randomBytes(1)[0]! % 62];
  return out;
}

/** Deterministic 20-character alphanumeric id derived from a seed (stable across resets and processes). */
export function stableId(seed: string, length = 20): string {
  const digest = createHash("sha256").update(`docs-platform-emulator:${seed}`).digest();
  let out = "";
  for (let i = 0; out.length < length; i++) out += ALPHANUM[digest[i % digest.length]! % 62];
  return out;
}

export function randomToken(length = 32): string {
  return randomId(length);
}

/** Lower-case URL slug of a title, 1..100 characters. */
export function slugify(title: string, fallback: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 90)
    .replace(/-+$/g, "");
  return slug || fallback;
}

// ---------------------------------------------------------------------------------------------------------------
// Fixtures

export interface FixtureInfo {
  organizationId: string;
  secondOrganizationId: string;
  spaceIds: string[];
  secondOrganizationSpaceIds: string[];
  userIds: string[];
}

const FIXTURE_TIME = "2024-01-15T09:00:00.000Z";

function fixtureTime(minutes: number): string {
  return new Date(Date.parse(FIXTURE_TIME) + minutes * 60_000).toISOString();
}

// ---------------------------------------------------------------------------------------------------------------

export class Store {
  orgs = new Map<string, OrgRec>();
  users = new Map<string, UserRec>();
  /** key `${orgId}/${userId}` */
  members = new Map<string, MemberRec>();
  spaces = new Map<string, SpaceRec>();
  collections = new Map<string, CollectionRec>();
  sites = new Map<string, SiteRec>();
  sections = new Map<string, SectionRec>();
  sectionGroups = new Map<string, SectionGroupRec>();
  siteSpaces = new Map<string, SiteSpaceRec>();
  shareLinks = new Map<string, ShareLinkRec>();
  adaptiveSchemas = new Map<string, AdaptiveSchemaRec>();
  samlProviders = new Map<string, SamlRec>();
  teams = new Map<string, TeamRec>();
  openApiSpecs = new Map<string, OpenApiSpecRec>();
  openApiVersions = new Map<string, OpenApiVersionRec>();

  readonly fixtures: FixtureInfo;
  private positionCounter = 0;

  /** Milliseconds since the epoch; replaceable (EmulatorOptions.clock) so tests can drive time. */
  readonly clock: () => number;

  constructor(clock: () => number = Date.now) {
    this.clock = clock;
    this.fixtures = this.loadFixtures();
  }

  /** Back to the fixtures (same ids as before). */
  reset(): void {
    for (const map of [
      this.orgs,
      this.users,
      this.members,
      this.spaces,
      this.collections,
      this.sites,
      this.sections,
      this.sectionGroups,
      this.siteSpaces,
      this.shareLinks,
      this.adaptiveSchemas,
      this.samlProviders,
      this.teams,
      this.openApiSpecs,
      this.openApiVersions,
    ]) {
      map.clear();
    }
    this.positionCounter = 0;
    this.loadFixtures();
  }

  newId(): string {
    let id = randomId();
    while (this.idTaken(id)) id = randomId();
    return id;
  }

  private idTaken(id: string): boolean {
    return (
      this.orgs.has(id) ||
      this.users.has(id) ||
      this.spaces.has(id) ||
      this.collections.has(id) ||
      this.sites.has(id) ||
      this.sections.has(id) ||
      this.sectionGroups.has(id) ||
      this.siteSpaces.has(id) ||
      this.shareLinks.has(id) ||
      this.samlProviders.has(id) ||
      this.teams.has(id) ||
      this.openApiSpecs.has(id) ||
      this.openApiVersions.has(id)
    );
  }

  nextPosition(): number {
    this.positionCounter += 1;
    return this.positionCounter;
  }

  /** Current time as an ISO 8601 timestamp (from the clock). */
  now(): string {
    return new Date(this.clock()).toISOString();
  }

  private loadFixtures(): FixtureInfo {
    const orgA: OrgRec = {
      id: stableId("org:acme"),
      title: "Acme Docs",
      hostname: "acme",
      createdAt: fixtureTime(0),
      emailDomains: ["example.com"],
      defaultRole: "read",
      inviteLinks: true,
    };
    const orgB: OrgRec = {
      id: stableId("org:globex"),
      title: "Globex Archive",
      hostname: "globex",
      createdAt: fixtureTime(5),
      emailDomains: ["globex.example.com"],
      defaultRole: null,
      inviteLinks: false,
    };
    this.orgs.set(orgA.id, orgA);
    this.orgs.set(orgB.id, orgB);

    const users: UserRec[] = [
      { id: stableId("user:ada"), displayName: "Ada Lovelace", email: "ada@example.com" },
      { id: stableId("user:grace"), displayName: "Grace Hopper", email: "grace@example.com" },
      { id: stableId("user:linus"), displayName: "Linus Torvalds", email: "linus@example.com" },
      { id: stableId("user:margaret"), displayName: "Margaret Hamilton", email: "margaret@globex.example.com" },
    ];
    for (const u of users) {
      u.photoURL = `https://avatars.gitbook.example/${u.id}.png`;
      this.users.set(u.id, u);
    }
    const [ada, grace, linus, margaret] = users as [UserRec, UserRec, UserRec, UserRec];
    const roleA: [UserRec, MemberRole][] = [
      [ada, "admin"],
      [grace, "create"],
      [linus, "read"],
    ];
    roleA.forEach(([u, role], i) => {
      this.members.set(`${orgA.id}/${u.id}`, {
        orgId: orgA.id,
        userId: u.id,
        role,
        joinedAt: fixtureTime(10 + i),
        lastSeenAt: fixtureTime(1000 + i),
        sso: false,
        disabled: false,
      });
    });
    const roleB: [UserRec, MemberRole][] = [
      [ada, "admin"],
      [margaret, "edit"],
    ];
    roleB.forEach(([u, role], i) => {
      this.members.set(`${orgB.id}/${u.id}`, {
        orgId: orgB.id,
        userId: u.id,
        role,
        joinedAt: fixtureTime(20 + i),
        lastSeenAt: fixtureTime(2000 + i),
        sso: false,
        disabled: false,
      });
    });

    const spaceDefs: [string, OrgRec, string, string][] = [
      ["space:product", orgA, "Product Guide", "1f4d8"],
      ["space:api", orgA, "API Reference", "1f527"],
      ["space:changelog", orgA, "Changelog", "1f4dd"],
      ["space:handbook", orgA, "Team Handbook", "1f4d2"],
      ["space:legacy", orgB, "Legacy Manual", "1f4da"],
    ];
    spaceDefs.forEach(([seed, org, title, emoji], i) => {
      const space: SpaceRec = {
        id: stableId(seed),
        orgId: org.id,
        title,
        emoji,
        visibility: "private",
        createdAt: fixtureTime(30 + i),
        updatedAt: fixtureTime(60 + i),
        revision: stableId(`${seed}:revision`),
        defaultLevel: "inherit",
        editMode: "live",
        position: this.nextPosition(),
      };
      this.spaces.set(space.id, space);
    });

    return {
      organizationId: orgA.id,
      secondOrganizationId: orgB.id,
      spaceIds: spaceDefs.filter((d) => d[1] === orgA).map((d) => stableId(d[0])),
      secondOrganizationSpaceIds: spaceDefs.filter((d) => d[1] === orgB).map((d) => stableId(d[0])),
      userIds: [ada.id, grace.id, linus.id],
    };
  }

  // -------------------------------------------------------------------------------------------------------------
  // Members and users

  member(orgId: string, userId: string): MemberRec | undefined {
    return this.members.get(`${orgId}/${userId}`);
  }

  membersOf(orgId: string): MemberRec[] {
    return [...this.members.values()].filter((m) => m.orgId === orgId);
  }

  /** Resolves an organization member by user id or (case-insensitive) email. */
  findMember(orgId: string, idOrEmail: string): MemberRec | undefined {
    const direct = this.member(orgId, idOrEmail);
    if (direct) return direct;
    const lower = idOrEmail.toLowerCase();
    return this.membersOf(orgId).find((m) => this.users.get(m.userId)?.email.toLowerCase() === lower);
  }

  teamCountForMember(orgId: string, userId: string): number {
    let n = 0;
    for (const t of this.teams.values()) if (t.orgId === orgId && t.members.has(userId)) n++;
    return n;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Spaces and collections

  liveSpace(id: string): SpaceRec | undefined {
    const s = this.spaces.get(id);
    return s && !s.deletedAt ? s : undefined;
  }

  collectionChildren(id: string): CollectionRec[] {
    return [...this.collections.values()].filter((c) => c.parentId === id);
  }

  /** The collection and all its descendant collections (depth-first, parent first). */
  collectionSubtree(id: string): CollectionRec[] {
    const root = this.collections.get(id);
    if (!root) return [];
    const out: CollectionRec[] = [root];
    for (let i = 0; i < out.length; i++) out.push(...this.collectionChildren(out[i]!.id));
    return out;
  }

  /** Deletes a collection, its descendant collections, and (soft-)deletes the spaces they contain. */
  deleteCollection(id: string): boolean {
    const subtree = this.collectionSubtree(id);
    if (subtree.length === 0) return false;
    const ids = new Set(subtree.map((c) => c.id));
    const now = this.now();
    for (const space of this.spaces.values()) {
      if (space.parentId && ids.has(space.parentId) && !space.deletedAt) space.deletedAt = now;
    }
    for (const cid of ids) this.collections.delete(cid);
    return true;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Sites

  sectionsOf(siteId: string): SectionRec[] {
    return [...this.sections.values()].filter((s) => s.siteId === siteId).sort((a, b) => a.position - b.position);
  }

  groupsOf(siteId: string): SectionGroupRec[] {
    return [...this.sectionGroups.values()].filter((g) => g.siteId === siteId).sort((a, b) => a.position - b.position);
  }

  siteSpacesOf(siteId: string): SiteSpaceRec[] {
    return [...this.siteSpaces.values()].filter((s) => s.siteId === siteId).sort((a, b) => a.position - b.position);
  }

  /** Site spaces of one level: a section, or the root level (sectionId undefined). */
  siteSpacesIn(siteId: string, sectionId: string | undefined): SiteSpaceRec[] {
    return this.siteSpacesOf(siteId).filter((s) => s.sectionId === sectionId);
  }

  defaultSection(siteId: string): SectionRec | undefined {
    return this.sectionsOf(siteId).find((s) => s.isDefault);
  }

  /** Makes sure a level with site spaces has exactly one default (the first one when none is). */
  ensureDefaultSiteSpace(siteId: string, sectionId: string | undefined): void {
    const level = this.siteSpacesIn(siteId, sectionId);
    const defaults = level.filter((s) => s.isDefault);
    if (defaults.length === 1) return;
    level.forEach((s, i) => {
      s.isDefault = defaults.length === 0 ? i === 0 : s === defaults[0];
    });
  }

  setDefaultSiteSpace(siteSpace: SiteSpaceRec): void {
    for (const s of this.siteSpacesIn(siteSpace.siteId, siteSpace.sectionId)) s.isDefault = s.id === siteSpace.id;
  }

  ensureDefaultSection(siteId: string): void {
    const sections = this.sectionsOf(siteId);
    const defaults = sections.filter((s) => s.isDefault);
    if (defaults.length === 1) return;
    sections.forEach((s, i) => {
      s.isDefault = defaults.length === 0 ? i === 0 : s === defaults[0];
    });
  }

  setDefaultSection(section: SectionRec): void {
    for (const s of this.sectionsOf(section.siteId)) s.isDefault = s.id === section.id;
  }

  /** A path derived from `base`, unique among `taken`. */
  uniquePath(base: string, taken: Iterable<string>): string {
    const used = new Set(taken);
    if (!used.has(base)) return base;
    for (let i = 2; ; i++) {
      const suffix = `-${i}`;
      const candidate = `${base.slice(0, 100 - suffix.length)}${suffix}`;
      if (!used.has(candidate)) return candidate;
    }
  }

  deleteSiteSpace(id: string): boolean {
    const ss = this.siteSpaces.get(id);
    if (!ss) return false;
    this.siteSpaces.delete(id);
    this.ensureDefaultSiteSpace(ss.siteId, ss.sectionId);
    return true;
  }

  /** Deletes a section with its site spaces (and thereby its group membership). */
  deleteSection(id: string): boolean {
    const section = this.sections.get(id);
    if (!section) return false;
    for (const ss of this.siteSpacesIn(section.siteId, section.id)) this.siteSpaces.delete(ss.id);
    this.sections.delete(id);
    this.ensureDefaultSection(section.siteId);
    return true;
  }

  /** Deletes a section group: its sections and child groups move up to the group's parent level. */
  deleteSectionGroup(id: string): boolean {
    const group = this.sectionGroups.get(id);
    if (!group) return false;
    for (const s of this.sections.values()) if (s.groupId === id) s.groupId = group.parentGroupId;
    for (const g of this.sectionGroups.values()) if (g.parentGroupId === id) g.parentGroupId = group.parentGroupId;
    this.sectionGroups.delete(id);
    return true;
  }

  /** Deletes a site and everything that belongs to it. */
  deleteSite(id: string): boolean {
    if (!this.sites.has(id)) return false;
    for (const [k, v] of this.siteSpaces) if (v.siteId === id) this.siteSpaces.delete(k);
    for (const [k, v] of this.sections) if (v.siteId === id) this.sections.delete(k);
    for (const [k, v] of this.sectionGroups) if (v.siteId === id) this.sectionGroups.delete(k);
    for (const [k, v] of this.shareLinks) if (v.siteId === id) this.shareLinks.delete(k);
    this.adaptiveSchemas.delete(id);
    this.sites.delete(id);
    return true;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Teams

  teamsOf(orgId: string): TeamRec[] {
    return [...this.teams.values()].filter((t) => t.orgId === orgId);
  }

  deleteTeam(id: string): boolean {
    if (!this.teams.delete(id)) return false;
    for (const p of this.samlProviders.values()) if (p.defaultTeamId === id) p.defaultTeamId = undefined;
    return true;
  }

  // -------------------------------------------------------------------------------------------------------------
  // OpenAPI

  openApiSpecBySlug(orgId: string, slug: string): OpenApiSpecRec | undefined {
    for (const s of this.openApiSpecs.values()) if (s.orgId === orgId && s.slug === slug) return s;
    return undefined;
  }

  versionsOf(specId: string): OpenApiVersionRec[] {
    return [...this.openApiVersions.values()].filter((v) => v.specId === specId);
  }

  deleteOpenApiSpec(id: string): boolean {
    if (!this.openApiSpecs.delete(id)) return false;
    for (const [k, v] of this.openApiVersions) if (v.specId === id) this.openApiVersions.delete(k);
    return true;
  }
}
