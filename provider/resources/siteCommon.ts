/**
 * What the site-family kinds (Site and what lives under a site) share: the parent ids every path needs, reads of
 * objects the API can only list, and the rules for `default` and failed creates.
 */
import { z } from "zod";
import {
  type ApiContextConnection,
  type ApiRedirect,
  type ApiShareLink,
  type ApiSiteChannel,
  type ApiSiteMcpServer,
  getSiteObjects,
  type HttpClient,
  listSiteChannels,
  listSiteContextConnections,
  listSiteMcpServers,
  listSiteRedirects,
  listSiteShareLinks,
  parseResponse,
  type SiteObjects,
  siteChannelsPath,
  siteContextConnectionsPath,
  siteMcpServersPath,
  sitePath,
  siteRedirectsPath,
  siteShareLinksPath,
  siteStructurePath,
} from "../client";
import { apiId, idRef, type KindListing, type Props, type ResourceContext } from "../framework/kind";

export const organizationId = apiId.describe("The organization of the site.");
export const siteId = idRef("Site").describe("The site, e.g. `site.id`.");

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

/** The parent of every kind under a site (KindDefinition.parent): the site, whose id the `siteId` input names. */
export const UNDER_SITE = { kind: "Site", input: "siteId" } as const;

/** The organization and site ids a listing under a site is made with. */
export function siteIdsOf(ids: Props): [organization: string, site: string] {
  return [String(ids.organizationId), String(ids.siteId)];
}

/** `site "Docs"`: where an object listed under a site lives, for reports. */
export const underSiteTitled = (title: string) => `site "${title}"`;

/**
 * The listing facet of a kind whose objects are the items of one of its site's listings, each named by `titleOf`,
 * reported by `unmanaged` when no resource declares it.
 */
export function itemsUnderSite<T extends { id: string }>(
  listing: SiteListing<T>,
  titleOf: (item: T) => string,
  noun: string,
): KindListing {
  return {
    path: (ids) => listing.path(...siteIdsOf(ids)),
    async list(ctx, { ids, title }) {
      const [organizationId, siteId] = siteIdsOf(ids);
      return (await sharedUnderSite(ctx, listing, organizationId, siteId)).map((item) => ({
        id: item.id,
        title: titleOf(item),
        known: { organizationId, siteId },
        under: underSiteTitled(title),
      }));
    },
    noun,
    unmanaged: true,
  };
}

/** A listing under one site that several resources read: one request per site in a refresh, shared by them. */
export interface SiteListing<T> {
  name: string;
  path: (organization: string, site: string) => string;
  list: (client: HttpClient, organization: string, site: string) => Promise<T[]>;
}

/** The site's structure: its sections, section groups and site spaces at any depth, as one item. */
export const structureListing: SiteListing<SiteObjects> = {
  name: "structure",
  path: siteStructurePath,
  list: async (client, organization, site) => [await getSiteObjects(client, organization, site)],
};
export const shareLinkListing: SiteListing<ApiShareLink> = {
  name: "share links",
  path: siteShareLinksPath,
  list: listSiteShareLinks,
};
export const redirectListing: SiteListing<ApiRedirect> = {
  name: "redirects",
  path: siteRedirectsPath,
  list: listSiteRedirects,
};
export const mcpServerListing: SiteListing<ApiSiteMcpServer> = {
  name: "MCP servers",
  path: siteMcpServersPath,
  list: listSiteMcpServers,
};
export const channelListing: SiteListing<ApiSiteChannel> = {
  name: "channels",
  path: siteChannelsPath,
  list: listSiteChannels,
};
export const contextConnectionListing: SiteListing<ApiContextConnection> = {
  name: "context connections",
  path: siteContextConnectionsPath,
  list: listSiteContextConnections,
};
const SITE_LISTINGS: SiteListing<unknown>[] = [
  structureListing,
  shareLinkListing,
  redirectListing,
  mcpServerListing,
  channelListing,
  contextConnectionListing,
];
/** `Listings.demanded` groups: the listings this operation read under sites, and the sites it read. */
const LISTED_UNDER_SITES = "listed under sites";
const SITES_READ = "sites read";

/*
 * Prefetching. In a refresh the engine gives each read one of its `--parallel` slots, and reads every site before
 * any of their sections or share links (a resource's dependents come after it). A site's children all wait on the
 * same two listings, so without prefetching they hold several slots for one request each, and the sites' listings go
 * out a couple at a time. So the first read that needs a kind of listing under one site starts it under every site
 * read so far, and a site read after that starts it at once. A site whose children of that kind this stack does not
 * manage costs one listing for nothing; a stack that manages nothing under its sites never pays.
 */

/**
 * Marks a listing as one this operation reads under sites. The first time, starts it, without waiting, under every
 * site this operation has read (`prefetchUnderSite`).
 */
export function needsUnderSites(ctx: ResourceContext, listing: SiteListing<unknown>): void {
  if (ctx.listings.demandedKeys(LISTED_UNDER_SITES).has(listing.name)) return;
  ctx.listings.demanded(LISTED_UNDER_SITES, listing.name);
  for (const key of ctx.listings.demandedKeys(SITES_READ)) {
    const [organization, site] = JSON.parse(key) as [string, string];
    prefetch(ctx, listing, organization, site);
  }
}

/** The site's listing, shared by every read of it in this operation (`needsUnderSites`). */
export function listUnderSite<T>(ctx: ResourceContext, listing: SiteListing<T>, organization: string, site: string) {
  needsUnderSites(ctx, listing);
  return sharedUnderSite(ctx, listing, organization, site);
}

/** A `Site` read: starts under the site every listing this operation has read under another one. */
export function prefetchUnderSite(ctx: ResourceContext, organization: string, site: string): void {
  ctx.listings.demanded(SITES_READ, JSON.stringify([organization, site]));
  for (const listing of SITE_LISTINGS)
    if (ctx.listings.demandedKeys(LISTED_UNDER_SITES).has(listing.name)) prefetch(ctx, listing, organization, site);
}

function prefetch(ctx: ResourceContext, listing: SiteListing<unknown>, organization: string, site: string): void {
  // A failure is the child's to report: its own read lists again, then falls back as it would have.
  sharedUnderSite(ctx, listing, organization, site).catch(() => undefined);
}

/**
 * A site listing through the reads' shared cache, without marking it for prefetching under every site: what the
 * listing facets use to enumerate (`listUnderSite` is for reads, which prefetch).
 */
export function sharedUnderSite<T>(ctx: ResourceContext, listing: SiteListing<T>, organization: string, site: string) {
  return ctx.listings.get(listing.path(organization, site), () => listing.list(ctx.client, organization, site));
}

/**
 * One object of a listing of its site, shared by every resource read in the same run (one request per site and
 * kind in a refresh). `undefined` when the listing lacks it; a 404 (the whole site is gone) propagates.
 */
export async function findListed<T extends { id: string }>(
  ctx: ResourceContext,
  listing: SiteListing<T>,
  organization: string,
  site: string,
  id: string,
): Promise<T | undefined> {
  return (await listUnderSite(ctx, listing, organization, site)).find((item) => item.id === id);
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
  const [objects] = await listUnderSite(ctx, structureListing, organization, site);
  return objects!;
}

/**
 * One section, section group, site space or external link (`object`: its API `object`) of a site, from the site's shared
 * structure: `undefined` when the structure, which holds every one of them at any depth, lacks it.
 */
export async function findInStructure<S extends z.ZodType>(
  ctx: ResourceContext,
  organization: string,
  site: string,
  object: "site-section" | "site-section-group" | "site-space" | "site-external-link",
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
