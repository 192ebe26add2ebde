/** Lookups shared by the route modules: unknown ids become typed 404s. */
import { NotFoundError } from "../errors";
import type { HandlerResult, RouteContext } from "../types";
import type { CollectionRec, SpaceRec } from "./content/records";
import type { OrgRec } from "./organization/records";
import type { SiteRec } from "./sites/records";

export function param(ctx: RouteContext, name: string): string {
  const v = ctx.params[name];
  if (v === undefined) throw new Error(`route has no parameter ${name}`);
  return v;
}

export function requireOrg(ctx: RouteContext, name = "organizationId"): OrgRec {
  const id = param(ctx, name);
  const org = ctx.store.orgs.get(id);
  if (!org) throw new NotFoundError(`Organization "${id}" not found`);
  return org;
}

export function requireSpace(ctx: RouteContext, id = param(ctx, "spaceId")): SpaceRec {
  const space = ctx.store.liveSpace(id);
  if (!space) throw new NotFoundError(`Space "${id}" not found`);
  return space;
}

export function requireCollection(ctx: RouteContext, id = param(ctx, "collectionId")): CollectionRec {
  const c = ctx.store.collections.get(id);
  if (!c) throw new NotFoundError(`Collection "${id}" not found`);
  return c;
}

/** The site of `{organizationId}/sites/{siteId}`; a site of another organization is not found. */
export function requireSite(ctx: RouteContext): SiteRec {
  const org = requireOrg(ctx);
  const id = param(ctx, "siteId");
  const site = ctx.store.sites.get(id);
  if (!site || site.orgId !== org.id) throw new NotFoundError(`Site "${id}" not found in organization "${org.id}"`);
  return site;
}

export function ok(body: unknown): HandlerResult {
  return { status: 200, body };
}

export function created(body: unknown, location?: string): HandlerResult {
  return location ? { status: 201, body, headers: { Location: location } } : { status: 201, body };
}

/** Official DELETE semantics: 205 when something was deleted, 204 when it did not exist. */
export function deleted(didDelete: boolean): HandlerResult {
  return { status: didDelete ? 205 : 204 };
}

export function noContent(): HandlerResult {
  return { status: 204 };
}

/** The fields a PATCH body gives: those it left out (undefined) are not changes. */
export function given<T extends object>(fields: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
