import { z } from "zod";
import { GitSyncStateSchema } from "./gitSync";
import { call, parseResponse } from "./parse";
import type { HttpClient } from "./transport";

/** The official SiteType enum (the spec showed only `basic`). */
export const SITE_TYPES = ["basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium"] as const;
export const SITE_VISIBILITIES = ["public", "unlisted", "share-link", "visitor-auth"] as const;

export const SiteSchema = z.object({
  id: z.string(),
  type: z.string(),
  title: z.string(),
  hostname: z.string().nullish(),
  basename: z.string().nullish(),
  proxy: z.object({ origin: z.string(), target: z.string().optional() }).nullish(),
  visibility: z.string(),
  published: z.boolean(),
  createdAt: z.string().optional(),
  adaptiveContent: z.object({ enabled: z.boolean() }).nullish(),
  /** A role, `inherit`, or null (the official `DefaultLevel`). */
  defaultLevel: z.string().nullish(),
  /** The site's style guide space (the official `ContentRefSpace`), absent when it has none. */
  styleguide: z.object({ kind: z.literal("space"), space: z.string() }).nullish(),
  /** The Git Sync installation syncing it (the official `GitSyncState`), if any. */
  gitSync: GitSyncStateSchema.nullish(),
  urls: z
    .object({ location: z.string(), app: z.string(), preview: z.string(), published: z.string() })
    .partial()
    .optional(),
});
export type ApiSite = z.infer<typeof SiteSchema>;

/** What `POST …/publish` answers instead of the site when the organization's plan must be upgraded first. */
const CheckoutSchema = z.object({ type: z.literal("checkout"), sessionId: z.string() });

export interface SiteCreate {
  type?: string;
  title?: string;
  visibility?: string;
}

export interface SitePatch {
  title?: string;
  visibility?: string;
  basename?: string;
  adaptiveContent?: { enabled: boolean };
  /** A role, `inherit`, or null for none. */
  defaultLevel?: string | null;
  defaultSiteSpace?: string;
  defaultSiteSection?: string;
  /** A host name followed by path segments; null removes the proxy. */
  proxy?: string | null;
  /** The id of a style guide space of the organization; null detaches the site's style guide. */
  styleguide?: string | null;
}

/** The organization's sites: listed and created here. */
export function sitesPath(organizationId: string): string {
  return `/orgs/${encodeURIComponent(organizationId)}/sites`;
}

/** The base of every site-family path; sections, groups, site spaces and share links live under it. */
export function sitePath(organizationId: string, siteId: string): string {
  return `${sitesPath(organizationId)}/${encodeURIComponent(siteId)}`;
}

export async function getSite(client: HttpClient, organizationId: string, id: string): Promise<ApiSite> {
  const path = sitePath(organizationId, id);
  return call(client, SiteSchema, "GET", path);
}

export async function createSite(client: HttpClient, organizationId: string, body: SiteCreate): Promise<ApiSite> {
  return call(client, SiteSchema, "POST", sitesPath(organizationId), { body });
}

export async function updateSite(
  client: HttpClient,
  organizationId: string,
  id: string,
  patch: SitePatch,
): Promise<ApiSite> {
  const path = sitePath(organizationId, id);
  return call(client, SiteSchema, "PATCH", path, { body: patch });
}

export function deleteSite(client: HttpClient, organizationId: string, id: string): Promise<void> {
  return client.delete(sitePath(organizationId, id));
}

/** The published site, or the checkout session the API asks for when the plan does not allow publishing. */
export type PublishResult = { site: ApiSite } | { checkoutSessionId: string };

export async function publishSite(client: HttpClient, organizationId: string, id: string): Promise<PublishResult> {
  const path = `${sitePath(organizationId, id)}/publish`;
  // Publishing a published site changes nothing, so a lost answer is retried rather than failing the update.
  const body = await client.request("POST", path, { idempotent: true });
  const checkout = CheckoutSchema.safeParse(body);
  if (checkout.success) return { checkoutSessionId: checkout.data.sessionId };
  return { site: parseResponse(SiteSchema, body, "POST", client.displayPath(path)) };
}

export async function unpublishSite(client: HttpClient, organizationId: string, id: string): Promise<ApiSite> {
  const path = `${sitePath(organizationId, id)}/unpublish`;
  return call(client, SiteSchema, "POST", path, { idempotent: true });
}

/**
 * Which listings a write to `writePath` can change, by the listing's path. A write inside a site (its sections,
 * groups, site spaces, share links, redirects, permissions, settings: every path under `sitePath`) changes only that
 * site's listings and the organization's sites, whose objects carry counts and settings of what a site holds. Any other
 * write (a site itself, a space, a collection, a team, a grant outside a site, an installation) may change listings
 * elsewhere (a deleted team leaves every grant of it; a moved space changes its collection's), so it changes them all.
 */
export function listingsChangedBy(writePath: string): (listingPath: string) => boolean {
  const inside = /^\/orgs\/[^/?]+\/sites\/[^/?]+\//.exec(writePath)?.[0];
  if (inside === undefined) return () => true;
  const sites = inside.slice(0, inside.lastIndexOf("/", inside.length - 2));
  return (listingPath) => listingPath.startsWith(inside) || listingPath === sites;
}
