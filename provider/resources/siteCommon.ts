/**
 * What the site-family kinds (Site and what lives under a site) share: the parent ids every path needs, reads of
 * objects the API can only list, and the rules for `default` and failed creates.
 */
import { z } from "zod";
import { getSiteObjects, parseResponse, type SiteObjects, sitePath, siteStructurePath } from "../client";
import { apiId, type ResourceContext } from "../framework/kind";

export const organizationId = apiId.describe("The organization of the site.");
export const siteId = apiId.describe("The site, e.g. `site.id`.");

/**
 * `default` of a section or site space: `true` makes the object its level's default. The API always keeps exactly
 * one default per level, so an object cannot stop being the default by itself; `false` therefore means "not
 * managed" (exactly like leaving it out), which lets programs write `default: index === 0`. To move the default,
 * set `default: true` on the object that should become it.
 */
export const defaultFlag = z
  .boolean()
  .optional()
  .transform((value) => (value === true ? true : undefined))
  .describe("`true` makes it its level's default; `false` or omitted: not managed (exactly one default per level).");

/**
 * `default` as a state records it: only for an object whose program declares `default: true`. Whether any other
 * object is its level's default depends on its siblings (the first one created becomes it, a later `true` takes it
 * away), so storing it would leave the state stale after every sibling's create.
 */
export const managedDefault = z
  .boolean()
  .nullable()
  .default(null)
  .describe("Whether it is its level's default; `null` unless the program declares `default: true`.");

/** Whether a read reports `default`: the program declared it (or, adopting, the inputs set it). */
export function managesDefault(
  known: { default?: boolean | null },
  declared: ReadonlySet<string> | undefined,
): boolean {
  return declared ? declared.has("default") : known.default === true;
}

/**
 * One object of a listing of its site, shared by every resource read in the same run (one request per site and
 * kind in a refresh). `undefined` when the listing lacks it; a 404 (the whole site is gone) propagates.
 */
export async function findListed<T extends { id: string }>(
  ctx: ResourceContext,
  path: string,
  load: () => Promise<T[]>,
  id: string,
): Promise<T | undefined> {
  return (await ctx.listings.get(path, load)).find((item) => item.id === id);
}

/**
 * The site's structure with every object in it, shared like a listing (one request per site in a refresh). `fresh`
 * reads it now instead: for a write's read-back, which a shared listing would load again after every write of the
 * process that overlapped it (with eight resources written at once, nearly every time).
 */
export async function siteObjects(
  ctx: ResourceContext,
  organization: string,
  site: string,
  fresh = false,
): Promise<SiteObjects> {
  if (fresh) return getSiteObjects(ctx.client, organization, site);
  const path = siteStructurePath(organization, site);
  const [objects] = await ctx.listings.get(path, async () => [await getSiteObjects(ctx.client, organization, site)]);
  return objects!;
}

/**
 * One section, section group or site space (`object`: its API `object`) of a site, from the site's shared
 * structure: `undefined` when the structure, which holds every one of them at any depth, lacks it.
 */
export async function findInStructure<S extends z.ZodType>(
  ctx: ResourceContext,
  organization: string,
  site: string,
  object: "site-section" | "site-section-group" | "site-space",
  schema: S,
  id: string,
  fresh = false,
): Promise<z.infer<S> | undefined> {
  const found = (await siteObjects(ctx, organization, site, fresh)).byKey.get(`${object}/${id}`);
  if (found === undefined) return undefined;
  return parseResponse(schema, found, "GET", ctx.client.displayPath(siteStructurePath(organization, site)));
}

/**
 * Runs writes under a site, then drops the site's shared listings (sections, groups, site spaces and share links all
 * embed one another), also when a write failed half-way; reads that follow load them again.
 */
export async function writeUnder<T>(
  ctx: ResourceContext,
  organization: string,
  site: string,
  writes: () => Promise<T>,
) {
  try {
    return await writes();
  } finally {
    // The trailing slash keeps site "ab" from dropping the listings of site "abc".
    ctx.listings.invalidate(`${sitePath(organization, site)}/`);
  }
}
