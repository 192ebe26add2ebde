/**
 * In-memory state of the emulator, after moto's backends: routes parse and render, the stores own every write. Each
 * family store is composed over the same `Tables` (tables.ts: declarations, ids, clock, the derived cascade); `Store`
 * (this file: organization, content, teams) is what routes get, holding the others and handing the tables out
 * read-only, so a route changes a record only through a store (`update`, `insert`, `remove`, or a family store's
 * operation).
 */
import { BadRequestError } from "./errors";
import type { AuditEventRec } from "./families/audit/records";
import type { CollectionRec, Placement, SpaceRec } from "./families/content/records";
import { GitSyncStore } from "./families/gitSync/gitSyncStore";
import { IntegrationStore } from "./families/integrations/integrationStore";
import { OpenApiStore } from "./families/openapi/openApiStore";
import type { MemberRec, OrgRec } from "./families/organization/records";
import { RedirectStore } from "./families/redirects/redirectStore";
import { SiteSettingsStore } from "./families/siteSettings/siteSettingsStore";
import type { SiteSpaceRec } from "./families/siteStructure/records";
import { SiteStructureStore } from "./families/siteStructure/siteStructureStore";
import { SiteStore } from "./families/sites/siteStore";
import { PermissionStore } from "./families/teams/permissionStore";
import type { PermissionRec, TeamRec, TeamRole } from "./families/teams/records";
import { TranslationStore } from "./families/translations/translationStore";
import type { FixtureInfo } from "./fixtures";
import { type RecordOf, TABLE_NAMES, type TableName, Tables } from "./tables";

export type { FixtureInfo } from "./fixtures";

/** How long a deleted space can be restored (the API reference's lifecycle table). */
export const SPACE_RESTORE_WINDOW_MS = 7 * 24 * 3600 * 1000;

export type { GrantRef } from "./families/teams/permissionStore";

/** An item of an organization's content tree. */
export type ContentItem = { kind: "space"; rec: SpaceRec } | { kind: "collection"; rec: CollectionRec };

/** The tables as the Store hands them out, one property per declared table: readable, not writable. */
type ReadTables = { readonly [N in TableName]: ReadonlyMap<string, RecordOf<N>> };

/** Audit events kept, the newest (about 300 bytes each). */
export const MAX_AUDIT_EVENTS = 100_000;

// The table properties are made from the declarations (tables.ts) in the constructor: a new table needs no getter.
export interface Store extends ReadTables {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: see above
export class Store {
  /** The tables every store writes. Routes go through the stores; tests may seed records here directly. */
  readonly tables: Tables;
  readonly siteStore: SiteStore;
  readonly siteStructureStore: SiteStructureStore;
  readonly siteSettingsStore: SiteSettingsStore;
  readonly redirectStore: RedirectStore;
  readonly openApiStore: OpenApiStore;
  readonly translationStore: TranslationStore;
  readonly integrationStore: IntegrationStore;
  readonly gitSyncStore: GitSyncStore;
  readonly permissionStore: PermissionStore;

  /** `openApiStepMs`: the time per OpenAPI processing step (EmulatorOptions.openApiStepMs). */
  constructor(clock: () => number = Date.now, openApiStepMs = 50, translationStepMs = 0) {
    this.tables = new Tables(clock);
    for (const name of TABLE_NAMES) Object.defineProperty(this, name, { get: () => this.tables.table(name) });
    this.siteStore = new SiteStore(this.tables);
    this.siteStructureStore = new SiteStructureStore(this.tables, this.siteStore);
    this.siteSettingsStore = new SiteSettingsStore(this.tables);
    this.redirectStore = new RedirectStore(this.tables);
    this.openApiStore = new OpenApiStore(this.tables, openApiStepMs);
    this.translationStore = new TranslationStore(
      this.tables,
      (orgId, title, language) => this.createSpace(orgId, title, { language }),
      translationStepMs,
    );
    this.integrationStore = new IntegrationStore(this.tables);
    this.permissionStore = new PermissionStore(this.tables);
    // The emulator's token is its first fixture user's (the organization's admin): who installs Git Sync.
    this.gitSyncStore = new GitSyncStore(this.tables, () => this.tables.users.keys().next().value ?? "");
  }

  /**
   * Sets the given fields of a record of `table` (a field given as undefined is cleared): the plain field writes of
   * a PATCH, so that routes never write a record themselves. The record must be the table's.
   */
  update<N extends TableName>(table: N, rec: RecordOf<N>, changes: Partial<RecordOf<N>>): RecordOf<N> {
    if (![...this.tables.table(table).values()].includes(rec)) throw new Error(`update: not a record of ${table}`);
    return Object.assign(rec as object, changes) as RecordOf<N>;
  }

  /**
   * Plain records, for an object with no invariant but its parent's existence (which its route checked): adds one
   * under its key (`newId()` for an own id), and deletes one with what hangs on it (`tables.remove`).
   */
  insert<N extends TableName>(table: N, key: string, rec: RecordOf<N>): RecordOf<N> {
    this.tables.table(table).set(key, rec);
    return rec;
  }

  remove(table: TableName, key: string): boolean {
    return this.tables.remove(table, key);
  }

  /** An id no table uses. */
  newId(): string {
    return this.tables.newId();
  }

  /**
   * Appends one event to the audit trail (audit.ts decides what it says), dropping the oldest beyond
   * MAX_AUDIT_EVENTS: a long-running emulator's every write leaves one, and it must stay bounded (the real trail
   * keeps a retention period).
   */
  recordAuditEvent(event: AuditEventRec): void {
    const trail = this.tables.auditEvents;
    trail.set(event.id, event);
    if (trail.size > MAX_AUDIT_EVENTS) this.tables.remove("auditEvents", trail.keys().next().value as string);
  }

  get fixtures(): FixtureInfo {
    return this.tables.fixtures;
  }

  /** Milliseconds since the epoch, from the emulator's clock. */
  clock(): number {
    return this.tables.clock();
  }

  /** Current time as an ISO 8601 timestamp (from the clock). */
  now(): string {
    return this.tables.now();
  }

  /** Back to the fixtures (same ids as before). */
  reset(): void {
    this.tables.reset();
  }

  /** A level's site spaces (siteStore.ts), as tests read them. */
  siteSpacesIn(siteId: string, sectionId: string | undefined): SiteSpaceRec[] {
    return this.siteStore.siteSpacesIn(siteId, sectionId);
  }

  // Members and users

  member(orgId: string, userId: string): MemberRec | undefined {
    return this.tables.members.get(`${orgId}/${userId}`);
  }

  membersOf(orgId: string): MemberRec[] {
    return [...this.tables.members.values()].filter((m) => m.orgId === orgId);
  }

  /** Resolves an organization member by user id or (case-insensitive) email. */
  findMember(orgId: string, idOrEmail: string): MemberRec | undefined {
    const direct = this.member(orgId, idOrEmail);
    if (direct) return direct;
    const lower = idOrEmail.toLowerCase();
    return this.membersOf(orgId).find((m) => this.tables.users.get(m.userId)?.email.toLowerCase() === lower);
  }

  teamCountForMember(orgId: string, userId: string): number {
    let n = 0;
    for (const t of this.tables.teams.values()) if (t.orgId === orgId && t.members.has(userId)) n++;
    return n;
  }

  // Spaces and collections

  liveSpace(id: string): SpaceRec | undefined {
    const s = this.tables.spaces.get(id);
    return s && !s.deletedAt ? s : undefined;
  }

  collectionChildren(id: string): CollectionRec[] {
    return [...this.tables.collections.values()].filter((c) => c.parentId === id);
  }

  /** The collection and all its descendant collections (depth-first, parent first). */
  collectionSubtree(id: string): CollectionRec[] {
    const root = this.tables.collections.get(id);
    if (!root) return [];
    const out: CollectionRec[] = [root];
    for (let i = 0; i < out.length; i++) out.push(...this.collectionChildren(out[i]!.id));
    return out;
  }

  /** Deletes a collection, its descendant collections, and (soft-)deletes the spaces they contain. */
  deleteCollection(id: string): boolean {
    return this.tables.remove("collections", id);
  }

  /** Collections and live spaces under a parent collection (or the organization root), in order. */
  contentChildren(orgId: string, parentId: string | undefined): ContentItem[] {
    const items: ContentItem[] = [];
    for (const c of this.tables.collections.values()) {
      if (c.orgId === orgId && c.parentId === parentId) items.push({ kind: "collection", rec: c });
    }
    for (const s of this.tables.spaces.values()) {
      if (s.orgId === orgId && !s.deletedAt && s.parentId === parentId) items.push({ kind: "space", rec: s });
    }
    return items.sort((a, b) => a.rec.position - b.rec.position);
  }

  /**
   * Puts a collection or space under `parentId`, before/after one of its new siblings (at the end by default); a
   * sibling that is not an item of the target parent → 400. A moved space's updatedAt changes.
   */
  moveInContentTree(item: ContentItem, parentId: string | undefined, placement: Placement | undefined): void {
    const siblings = this.contentChildren(item.rec.orgId, parentId).filter((s) => s.rec.id !== item.rec.id);
    let index = siblings.length;
    const pointer = placement?.before ?? placement?.after;
    if (pointer) {
      const field = placement?.before ? "position.before" : "position.after";
      const at = siblings.findIndex((s) => s.kind === pointer.kind && s.rec.id === pointer.id);
      if (at < 0) {
        throw new BadRequestError(`${field}: ${pointer.kind} "${pointer.id}" is not an item of the target parent`);
      }
      index = placement?.before ? at : at + 1;
    }
    item.rec.parentId = parentId;
    siblings.splice(index, 0, item);
    for (const s of siblings) s.rec.position = this.tables.nextPosition();
    if (item.kind === "space") item.rec.updatedAt = this.tables.now();
  }

  /** Moves a collection (see moveInContentTree); collections form a tree, so not into itself or a descendant (400). */
  moveCollection(collection: CollectionRec, parentId: string | undefined, placement: Placement | undefined): void {
    if (parentId !== undefined && this.collectionSubtree(collection.id).some((x) => x.id === parentId)) {
      throw new BadRequestError(
        `parent: cannot move collection "${collection.id}" into itself or one of its descendant collections ("${parentId}")`,
      );
    }
    this.moveInContentTree({ kind: "collection", rec: collection }, parentId, placement);
  }

  /**
   * A new empty space in an organization, at the end of its parent: `POST /orgs/{o}/spaces`, or `spaceId: null` in a
   * site structure body (which takes the defaults). The parent must be a collection of the organization (400).
   */
  createSpace(
    orgId: string,
    title: string,
    fields: Partial<Pick<SpaceRec, "emoji" | "parentId" | "language" | "editMode" | "computedSource" | "type">> = {},
  ): SpaceRec {
    if (fields.parentId !== undefined) this.parentCollection(orgId, fields.parentId);
    const now = this.tables.now();
    const space: SpaceRec = {
      id: this.tables.newId(),
      orgId,
      title: title.slice(0, 50),
      emoji: fields.emoji ?? "1f4c4",
      visibility: "private",
      createdAt: now,
      updatedAt: now,
      revision: this.tables.newId(),
      defaultLevel: "inherit",
      editMode: fields.editMode ?? "live",
      position: this.tables.nextPosition(),
    };
    if (fields.parentId !== undefined) space.parentId = fields.parentId;
    if (fields.language !== undefined) space.language = fields.language;
    if (fields.computedSource !== undefined) space.computedSource = fields.computedSource;
    // Stryker disable next-line ConditionalExpression: a `type` set to undefined is left out of every JSON answer, as an absent one
    if (fields.type !== undefined) space.type = fields.type;
    this.tables.spaces.set(space.id, space);
    return space;
  }

  /** A new collection, at the end of its parent (a collection of the same organization, else 400) or the root. */
  createCollection(orgId: string, fields: { title: string; parentId?: string }): CollectionRec {
    if (fields.parentId !== undefined) this.parentCollection(orgId, fields.parentId);
    const collection: CollectionRec = {
      id: this.tables.newId(),
      orgId,
      title: fields.title,
      parentId: fields.parentId,
      defaultLevel: "inherit",
      createdAt: this.tables.now(),
      position: this.tables.nextPosition(),
    };
    this.tables.collections.set(collection.id, collection);
    return collection;
  }

  /** Content stays within its organization: a new item's parent is one of the organization's collections. */
  private parentCollection(orgId: string, id: string): CollectionRec {
    const parent = this.tables.collections.get(id);
    if (!parent || parent.orgId !== orgId) {
      throw new BadRequestError(`parent: collection "${id}" not found in organization "${orgId}"`);
    }
    return parent;
  }

  /** Soft-deletes a live space: it answers 404 until restored, within 7 days (official). False when not live. */
  deleteSpace(id: string): boolean {
    const space = this.liveSpace(id);
    if (!space) return false;
    space.deletedAt = this.tables.now();
    return true;
  }

  /** Brings back a space deleted less than 7 days ago, at the end of its parent; undefined when there is none. */
  restoreSpace(id: string): SpaceRec | undefined {
    const space = this.tables.spaces.get(id);
    if (!space?.deletedAt) return undefined;
    if (Date.parse(this.tables.now()) - Date.parse(space.deletedAt) > SPACE_RESTORE_WINDOW_MS) return undefined;
    space.deletedAt = undefined;
    if (space.parentId && !this.tables.collections.has(space.parentId)) space.parentId = undefined;
    space.position = this.tables.nextPosition();
    space.updatedAt = this.tables.now();
    return space;
  }

  /** Moves a collection, its descendant collections and their spaces to another organization, at its top level. */
  transferCollection(collection: CollectionRec, orgId: string): void {
    const subtree = this.collectionSubtree(collection.id);
    const ids = new Set(subtree.map((x) => x.id));
    for (const x of subtree) x.orgId = orgId;
    for (const s of this.tables.spaces.values()) {
      if (s.parentId && ids.has(s.parentId)) {
        s.orgId = orgId;
        s.updatedAt = this.tables.now();
      }
    }
    collection.parentId = undefined;
    collection.position = this.tables.nextPosition();
  }

  // Teams

  teamsOf(orgId: string): TeamRec[] {
    return [...this.tables.teams.values()].filter((t) => t.orgId === orgId);
  }

  /** A new team; `memberIds` (members of the organization, resolved by the caller) join as plain members. */
  createTeam(orgId: string, title: string, memberIds: readonly string[]): TeamRec {
    const team: TeamRec = {
      id: this.tables.newId(),
      orgId,
      title,
      createdAt: this.tables.now(),
      members: new Map(memberIds.map((userId) => [userId, "member"])),
    };
    this.tables.teams.set(team.id, team);
    return team;
  }

  /**
   * The bulk membership change: `add` joins new members (existing ones keep their role), `memberships` sets roles
   * (adding whoever is missing), and `remove` applies last, so a user in both `add` and `remove` ends up removed.
   */
  updateTeamMembers(
    team: TeamRec,
    change: { add: readonly string[]; memberships: readonly (readonly [string, TeamRole])[]; remove: Iterable<string> },
  ): void {
    for (const userId of change.add) if (!team.members.has(userId)) team.members.set(userId, "member");
    for (const [userId, role] of change.memberships) team.members.set(userId, role);
    for (const userId of change.remove) team.members.delete(userId);
  }

  /** Adds a member to a team or changes their role; without a role, a new member is a plain member. */
  setTeamMember(team: TeamRec, userId: string, role: TeamRole | undefined): void {
    team.members.set(userId, role ?? team.members.get(userId) ?? "member");
  }

  removeTeamMember(team: TeamRec, userId: string): boolean {
    return team.members.delete(userId);
  }

  // Organization settings and membership

  /** The organization's default site, while that site exists (a deleted site is no longer the default content). */
  defaultSiteOf(org: OrgRec): string | undefined {
    const site = org.defaultSiteId ? this.tables.sites.get(org.defaultSiteId) : undefined;
    return site && site.orgId === org.id ? site.id : undefined;
  }

  /** Another organization using `hostname` (hostnames name public content, so they are unique). */
  hostnameTaken(org: OrgRec, hostname: string): boolean {
    const lower = hostname.toLowerCase();
    return [...this.tables.orgs.values()].some((o) => o.id !== org.id && o.hostname.toLowerCase() === lower);
  }

  /**
   * Removes a user from the organization with what hangs on the membership: their team memberships and the grants
   * made to them on the organization's spaces, collections and sites. False when they were not a member.
   */
  removeMember(orgId: string, userId: string): boolean {
    if (!this.tables.remove("members", `${orgId}/${userId}`)) return false;
    for (const t of this.teamsOf(orgId)) t.members.delete(userId);
    const { spaces, collections, sites } = this.tables;
    const targets = { space: spaces, collection: collections, site: sites };
    const inOrg = (g: PermissionRec) => targets[g.target].get(g.targetId)?.orgId === orgId;
    for (const [key, g] of this.tables.permissions) {
      if (g.grantee === "user" && g.granteeId === userId && inOrg(g)) this.tables.remove("permissions", key);
    }
    return true;
  }
}
