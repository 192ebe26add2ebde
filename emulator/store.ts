/**
 * In-memory state of the emulator, after moto's backends: routes parse and render, the store owns every invariant
 * and every operation that touches more than one record (cascading deletes, records one operation creates or moves
 * in another table). Layers: tables.ts (the tables, ids, reset), siteStore.ts (the site structure), this file (the
 * other kinds). Record shapes: records.ts; fixtures: fixtures.ts.
 */
import { BadRequestError } from "./errors";
import type {
  CollectionRec,
  MemberRec,
  OpenApiErrorCode,
  OpenApiSpecRec,
  OpenApiVersionRec,
  OrgRec,
  PermissionRec,
  Placement,
  SpaceRec,
  TeamRec,
} from "./records";
import { SiteStore } from "./siteStore";

export type { FixtureInfo } from "./fixtures";

/** An item of an organization's content tree. */
/** How long a deleted space can be restored (the API reference's lifecycle table). */
export const SPACE_RESTORE_WINDOW_MS = 7 * 24 * 3600 * 1000;

const grantKey = (g: Pick<PermissionRec, "target" | "targetId" | "grantee" | "granteeId">) =>
  `${g.target}/${g.targetId}/${g.grantee}/${g.granteeId}`;

export type ContentItem = { kind: "space"; rec: SpaceRec } | { kind: "collection"; rec: CollectionRec };

export class Store extends SiteStore {
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

  /** Collections and live spaces under a parent collection (or the organization root), in order. */
  contentChildren(orgId: string, parentId: string | undefined): ContentItem[] {
    const items: ContentItem[] = [];
    for (const c of this.collections.values()) {
      if (c.orgId === orgId && c.parentId === parentId) items.push({ kind: "collection", rec: c });
    }
    for (const s of this.spaces.values()) {
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
    for (const s of siblings) s.rec.position = this.nextPosition();
    if (item.kind === "space") item.rec.updatedAt = this.now();
  }

  /** A new empty space in an organization (what `spaceId: null` in a site structure body asks for). */
  createSpace(orgId: string, title: string): SpaceRec {
    const now = this.now();
    const space: SpaceRec = {
      id: this.newId(),
      orgId,
      title: title.slice(0, 50),
      emoji: "1f4c4",
      visibility: "private",
      createdAt: now,
      updatedAt: now,
      revision: this.newId(),
      defaultLevel: "inherit",
      editMode: "live",
      position: this.nextPosition(),
    };
    this.spaces.set(space.id, space);
    return space;
  }

  /** Soft-deletes a live space: it answers 404 until restored, within 7 days (official). False when not live. */
  deleteSpace(id: string): boolean {
    const space = this.liveSpace(id);
    if (!space) return false;
    space.deletedAt = this.now();
    return true;
  }

  /** Brings back a space deleted less than 7 days ago, at the end of its parent; undefined when there is none. */
  restoreSpace(id: string): SpaceRec | undefined {
    const space = this.spaces.get(id);
    if (!space?.deletedAt) return undefined;
    if (Date.parse(this.now()) - Date.parse(space.deletedAt) > SPACE_RESTORE_WINDOW_MS) return undefined;
    space.deletedAt = undefined;
    if (space.parentId && !this.collections.has(space.parentId)) space.parentId = undefined;
    space.position = this.nextPosition();
    space.updatedAt = this.now();
    return space;
  }

  /** Moves a collection, its descendant collections and their spaces to another organization, at its top level. */
  transferCollection(collection: CollectionRec, orgId: string): void {
    const subtree = this.collectionSubtree(collection.id);
    const ids = new Set(subtree.map((x) => x.id));
    for (const x of subtree) x.orgId = orgId;
    for (const s of this.spaces.values()) {
      if (s.parentId && ids.has(s.parentId)) {
        s.orgId = orgId;
        s.updatedAt = this.now();
      }
    }
    collection.parentId = undefined;
    collection.position = this.nextPosition();
  }

  // -------------------------------------------------------------------------------------------------------------
  // Content permissions (grants of a role on a space, collection or site to a team or a user)

  grantsOf(target: PermissionRec["target"], targetId: string, grantee: PermissionRec["grantee"]): PermissionRec[] {
    return [...this.permissions.values()].filter(
      (g) => g.target === target && g.targetId === targetId && g.grantee === grantee && this.granteeExists(g),
    );
  }

  grant(rec: PermissionRec): void {
    this.permissions.set(grantKey(rec), rec);
  }

  findGrant(target: PermissionRec["target"], targetId: string, grantee: PermissionRec["grantee"], granteeId: string) {
    const found = this.permissions.get(grantKey({ target, targetId, grantee, granteeId }));
    return found && this.granteeExists(found) ? found : undefined;
  }

  revoke(rec: Pick<PermissionRec, "target" | "targetId" | "grantee" | "granteeId">): boolean {
    return this.permissions.delete(grantKey(rec));
  }

  /** A grant to a deleted team, or to a user who left the organization, is no longer reported. */
  private granteeExists(g: PermissionRec): boolean {
    return g.grantee === "team" ? this.teams.has(g.granteeId) : this.users.has(g.granteeId);
  }

  // -------------------------------------------------------------------------------------------------------------
  // Teams

  teamsOf(orgId: string): TeamRec[] {
    return [...this.teams.values()].filter((t) => t.orgId === orgId);
  }

  deleteSamlProvider(id: string): boolean {
    return this.samlProviders.delete(id);
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

  /** Ends a spec's processing job: success records a version (the spec's latest), failure the error. */
  finishOpenApiJob(
    spec: OpenApiSpecRec,
    at: string,
    outcome: { format: "json" | "yaml"; parsed?: unknown } | { code?: OpenApiErrorCode; message: string },
  ): void {
    const job = spec.job;
    if (!job) return;
    if ("format" in outcome) {
      const version: OpenApiVersionRec = {
        id: job.versionId,
        specId: spec.id,
        createdAt: at,
        source: job.source,
        ...outcome,
      };
      this.openApiVersions.set(version.id, version);
      spec.lastVersionId = version.id;
      spec.lastProcessErrorCode = undefined;
      spec.lastProcessedErrors = undefined;
    } else {
      spec.lastProcessErrorCode = outcome.code;
      spec.lastProcessedErrors = [{ message: outcome.message, code: outcome.code }];
    }
    spec.lastProcessedAt = at;
    spec.job = undefined;
  }

  deleteOpenApiSpec(id: string): boolean {
    if (!this.openApiSpecs.delete(id)) return false;
    for (const [k, v] of this.openApiVersions) if (v.specId === id) this.openApiVersions.delete(k);
    return true;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Organization settings and membership

  /** The organization's default site, while that site exists (a deleted site is no longer the default content). */
  defaultSiteOf(org: OrgRec): string | undefined {
    const site = org.defaultSiteId ? this.sites.get(org.defaultSiteId) : undefined;
    return site && site.orgId === org.id ? site.id : undefined;
  }

  /** Another organization using `hostname` (hostnames name public content, so they are unique). */
  hostnameTaken(org: OrgRec, hostname: string): boolean {
    const lower = hostname.toLowerCase();
    return [...this.orgs.values()].some((o) => o.id !== org.id && o.hostname.toLowerCase() === lower);
  }

  /**
   * Removes a user from the organization with what hangs on the membership: their team memberships and the grants
   * made to them on the organization's spaces, collections and sites. False when they were not a member.
   */
  removeMember(orgId: string, userId: string): boolean {
    if (!this.members.delete(`${orgId}/${userId}`)) return false;
    for (const t of this.teamsOf(orgId)) t.members.delete(userId);
    const inOrg = (g: PermissionRec) =>
      (g.target === "space" ? this.spaces : g.target === "collection" ? this.collections : this.sites).get(g.targetId)
        ?.orgId === orgId;
    for (const [key, g] of this.permissions) {
      if (g.grantee === "user" && g.granteeId === userId && inOrg(g)) this.permissions.delete(key);
    }
    return true;
  }
}
