/**
 * Site structure helpers shared by sites, sections, section groups and site spaces: lookups, adding site
 * spaces with their default/path rules, and reordering among siblings.
 */
import { BadRequestError, NotFoundError } from "../errors";
import type { SectionGroupRec, SectionRec, SiteRec, SiteSpaceRec, SpaceRec } from "../records";
import type { Store } from "../store";
import type { RouteContext } from "../types";
import { type Check, isPlainObject, obj, opt, record, req, str } from "../validate";
import { param } from "./common";

export function requireSection(ctx: RouteContext, site: SiteRec, id = param(ctx, "siteSectionId")): SectionRec {
  const s = ctx.store.sections.get(id);
  if (!s || s.siteId !== site.id) throw new NotFoundError(`Site section "${id}" not found in site "${site.id}"`);
  return s;
}

export function requireGroup(ctx: RouteContext, site: SiteRec, id = param(ctx, "siteSectionGroupId")): SectionGroupRec {
  const g = ctx.store.sectionGroups.get(id);
  if (!g || g.siteId !== site.id) throw new NotFoundError(`Site section group "${id}" not found in site "${site.id}"`);
  return g;
}

export function requireSiteSpace(ctx: RouteContext, site: SiteRec, id = param(ctx, "siteSpaceId")): SiteSpaceRec {
  const s = ctx.store.siteSpaces.get(id);
  if (!s || s.siteId !== site.id) throw new NotFoundError(`Site space "${id}" not found in site "${site.id}"`);
  return s;
}

/** A section of the site referenced from a body field (unknown → 400 naming the field). */
export function sectionRef(store: Store, site: SiteRec, id: string, field: string): SectionRec {
  const s = store.sections.get(id);
  if (!s || s.siteId !== site.id)
    throw new BadRequestError(`${field}: site section "${id}" not found in site "${site.id}"`);
  return s;
}

export function groupRef(store: Store, site: SiteRec, id: string, field: string): SectionGroupRec {
  const g = store.sectionGroups.get(id);
  if (!g || g.siteId !== site.id) {
    throw new BadRequestError(`${field}: site section group "${id}" not found in site "${site.id}"`);
  }
  return g;
}

/**
 * Resolves a `spaceId` of a body: a live space of the site's organization, or — when null, as the official
 * document allows — a new space created in that organization.
 */
export function spaceForSite(
  store: Store,
  site: SiteRec,
  spaceId: string | null,
  field: string,
  title?: string,
): SpaceRec {
  if (spaceId === null) return store.createSpace(site.orgId, title ?? "Untitled");
  const space = store.liveSpace(spaceId);
  if (!space || space.orgId !== site.orgId) {
    throw new BadRequestError(`${field}: space "${spaceId}" not found in organization "${site.orgId}"`);
  }
  return space;
}

/** Structural siblings (sections and groups) under a group, or the site root when parent is undefined. */
export function structureSiblings(store: Store, siteId: string, parentGroupId: string | undefined) {
  const items: { kind: "site-section" | "site-section-group"; rec: SectionRec | SectionGroupRec }[] = [];
  for (const s of store.sectionsOf(siteId))
    if (s.groupId === parentGroupId) items.push({ kind: "site-section", rec: s });
  for (const g of store.groupsOf(siteId)) {
    if (g.parentGroupId === parentGroupId) items.push({ kind: "site-section-group", rec: g });
  }
  return items.sort((a, b) => a.rec.position - b.rec.position);
}

export interface Pointer {
  kind: string;
  id: string;
}

/** Where a move puts an item: before or after a sibling (at the end when neither is given). */
export interface Position {
  before?: Pointer;
  after?: Pointer;
}

/**
 * Moves `item` among `siblings` (which must contain it) before/after a sibling pointer. Unknown pointer ids → 404,
 * pointers to items that are not siblings → 400.
 */
function reorder<T extends { rec: { id: string; position: number }; kind: string }>(
  store: Store,
  siblings: T[],
  item: T,
  position: Position | undefined,
  exists: (p: Pointer) => boolean,
): void {
  const others = siblings.filter((s) => s.rec.id !== item.rec.id);
  let index = others.length;
  const pointer = position?.before ?? position?.after;
  if (pointer) {
    const field = position?.before ? "position.before" : "position.after";
    if (pointer.id === item.rec.id) throw new BadRequestError(`${field}: cannot position an item relative to itself`);
    const at = others.findIndex((s) => s.kind === pointer.kind && s.rec.id === pointer.id);
    if (at < 0) {
      if (!exists(pointer)) throw new NotFoundError(`${field}: ${pointer.kind} "${pointer.id}" not found`);
      throw new BadRequestError(`${field}: ${pointer.kind} "${pointer.id}" is not at the same level`);
    }
    index = position?.before ? at : at + 1;
  }
  others.splice(index, 0, item);
  for (const s of others) s.rec.position = store.nextPosition();
}

/**
 * Whether a pointer names a site space, section or section group of `site`: what tells an unknown pointer (404) from
 * one that is not a sibling (400) in every move of the site's structure.
 */
export function siteItemExists(store: Store, site: SiteRec): (p: Pointer) => boolean {
  return (p) => {
    const items =
      p.kind === "site-space" ? store.siteSpaces : p.kind === "site-section" ? store.sections : store.sectionGroups;
    return (items as Map<string, { siteId: string }>).get(p.id)?.siteId === site.id;
  };
}

/** Moves a site space among the site spaces of its level (its section, or the site root). */
export function moveSiteSpace(store: Store, site: SiteRec, ss: SiteSpaceRec, position: Position | undefined): void {
  const siblings = store.siteSpacesIn(site.id, ss.sectionId).map((rec) => ({ kind: "site-space", rec }));
  reorder(store, siblings, { kind: "site-space", rec: ss }, position, siteItemExists(store, site));
}

/** Moves a section or section group among the sections and groups of its parent group (or the site root). */
export function moveInStructure(
  store: Store,
  site: SiteRec,
  id: string,
  parentGroupId: string | undefined,
  position: Position | undefined,
): void {
  const siblings = structureSiblings(store, site.id, parentGroupId);
  const self = siblings.find((s) => s.rec.id === id)!;
  reorder(store, siblings, self, position, siteItemExists(store, site));
}

/** `{ before?: {type, <idKey>}, after?: ... }` of the deprecated move operations, as pointers. */
export function movePosition(types: readonly string[], idKey: string | ((type: string) => string)): Check<Position> {
  const pointer: Check<Pointer> = (value, path) => {
    if (!isPlainObject(value)) throw new BadRequestError(`${path}: must be an object`);
    if (typeof value.type !== "string" || !types.includes(value.type)) {
      throw new BadRequestError(`${path}.type: must be one of ${types.join(", ")}`);
    }
    const key = typeof idKey === "string" ? idKey : idKey(value.type);
    const parsed = obj({ type: req(str()), [key]: req(str({ min: 1 })) })(value, path) as Record<string, string>;
    return { kind: value.type, id: parsed[key]! };
  };
  return obj({ before: opt(pointer), after: opt(pointer) });
}

/** Official `ApplySpaceTemplate` (accepted, not applied: the emulator has no templates). */
export const spaceTemplate = obj({
  id: req(str({ min: 1 })),
  params: opt(
    obj({
      contentRefs: opt(
        record((v, p) => {
          if (!isPlainObject(v) || typeof v.kind !== "string")
            throw new BadRequestError(`${p}: must be a content reference`);
          return v;
        }),
      ),
    }),
  ),
});

export const localized128 = record(str({ max: 128 }));
export const localized256 = record(str({ max: 256 }));
