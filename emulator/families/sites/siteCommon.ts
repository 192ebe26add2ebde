/**
 * Site structure helpers shared by the routes of sites, sections, section groups and site spaces: lookups of path
 * ids (404) and of body references (400, resolved by the SiteStore), and the body checks they share.
 */
import { BadRequestError, NotFoundError } from "../../errors";
import type { Store } from "../../store";
import type { RouteContext } from "../../types";
import { type Check, isPlainObject, obj, opt, record, req, str } from "../../validate";
import { param } from "../common";
import type { ItemRef, Placement, SpaceRec } from "../content/records";
import type { ExternalLinkRec, SectionGroupRec, SectionRec, SiteSpaceRec } from "../siteStructure/records";
import type { SiteRec } from "./records";

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

export function requireExternalLink(
  ctx: RouteContext,
  site: SiteRec,
  id = param(ctx, "siteExternalLinkId"),
): ExternalLinkRec {
  const link = ctx.store.externalLinks.get(id);
  if (!link || link.siteId !== site.id)
    throw new NotFoundError(`Site external link "${id}" not found in site "${site.id}"`);
  return link;
}

export function requireSiteSpace(ctx: RouteContext, site: SiteRec, id = param(ctx, "siteSpaceId")): SiteSpaceRec {
  const s = ctx.store.siteSpaces.get(id);
  if (!s || s.siteId !== site.id) throw new NotFoundError(`Site space "${id}" not found in site "${site.id}"`);
  return s;
}

/** A section of the site referenced from a body field (unknown → 400 naming the field). */
export function sectionRef(store: Store, site: SiteRec, id: string, field: string): SectionRec {
  return store.siteStore.sectionRef(site, id, field);
}

export function groupRef(store: Store, site: SiteRec, id: string, field: string): SectionGroupRec {
  return store.siteStore.groupRef(site, id, field);
}

/**
 * Resolves a `spaceId` of a body: a live space of the site's organization, or — when null, as the official
 * document allows — a new space created in that organization.
 */
export function spaceForSite(
  store: Store,
  site: Pick<SiteRec, "orgId">,
  spaceId: string | null,
  field: string,
  title?: string,
): SpaceRec {
  if (spaceId === null) return store.createSpace(site.orgId, title ?? "Untitled");
  return store.siteStore.spaceRef(site.orgId, spaceId, field);
}

export type { ItemRef as Pointer, Placement as Position } from "../content/records";

/** `{ before?: {type, <idKey>}, after?: ... }` of the deprecated move operations, as pointers. */
export function movePosition(types: readonly string[], idKey: string | ((type: string) => string)): Check<Placement> {
  const pointer: Check<ItemRef> = (value, path) => {
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
