import { z } from "zod";
import { listAll } from "./pagination";
import { call } from "./parse";
import { sitePath } from "./sites";
import type { HttpClient } from "./transport";

/** The official SiteRedirectSourcePath: `/a/b`, optionally ending in `/*` or `*` (a wildcard), at most 512. */
export const REDIRECT_SOURCE_PATTERN =
  /^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$/;
export const REDIRECT_SOURCE_MAX = 512;
/** The official bulk PUT's `maxItems`: operations per request. */
export const REDIRECT_BULK_MAX = 500;

/** The official SiteRedirectDestination (what PATCH takes and every answer reports). */
export const RedirectDestinationSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("external"), url: z.string() }),
  z.object({ kind: z.literal("site-section"), siteSectionId: z.string() }),
  z.object({ kind: z.literal("site-space"), siteSpaceId: z.string() }),
  z.object({ kind: z.literal("site-page"), siteSpaceId: z.string(), pageId: z.string() }),
]);
export type ApiRedirectDestination = z.infer<typeof RedirectDestinationSchema>;

export const RedirectSchema = z.object({
  id: z.string(),
  source: z.string(),
  draft: z.boolean().optional(),
  captureWildcard: z.boolean().optional(),
  permanent: z.boolean().optional(),
  destination: RedirectDestinationSchema,
  createdAt: z.string().optional(),
});
export type ApiRedirect = z.infer<typeof RedirectSchema>;

/** What a live redirect is made of (createSiteRedirect's body without `draft`). */
export interface RedirectRule {
  source: string;
  destination: ApiRedirectDestination;
  permanent: boolean;
  captureWildcard: boolean;
}

/** One operation of the bulk PUT: upsert a live redirect, or delete it (`destination: null`). */
export type BulkRedirectOperation =
  | (RedirectRule & { intent: "live" })
  | { source: string; intent: "live"; destination: null };

const BulkResultSchema = z.object({
  results: z.array(
    z.object({
      status: z.string(),
      source: z.string(),
      draft: z.boolean().optional(),
      id: z.string().optional(),
      error: z.string().optional(),
    }),
  ),
});
export type BulkRedirectResult = z.infer<typeof BulkResultSchema>["results"][number];

export function siteRedirectsPath(organizationId: string, siteId: string): string {
  return `${sitePath(organizationId, siteId)}/redirects`;
}

const redirectPath = (organizationId: string, siteId: string, id: string) =>
  `${siteRedirectsPath(organizationId, siteId)}/${encodeURIComponent(id)}`;

/** The site's live redirects (the listing's `draft` filter defaults to false). */
export function listSiteRedirects(client: HttpClient, organizationId: string, siteId: string): Promise<ApiRedirect[]> {
  return listAll(client, siteRedirectsPath(organizationId, siteId), {}, RedirectSchema);
}

/** The redirect of `source` (`GET …/redirect?source=`); a 404 when there is none. */
export async function getSiteRedirectBySource(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  source: string,
): Promise<ApiRedirect> {
  const path = `${sitePath(organizationId, siteId)}/redirect`;
  const answer = await call(client, z.object({ redirect: RedirectSchema }), "GET", path, { query: { source } });
  return answer.redirect;
}

export function createSiteRedirect(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  body: RedirectRule,
): Promise<ApiRedirect> {
  return call(client, RedirectSchema, "POST", siteRedirectsPath(organizationId, siteId), { body });
}

export function updateSiteRedirect(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  id: string,
  patch: Partial<RedirectRule>,
): Promise<ApiRedirect> {
  return call(client, RedirectSchema, "PATCH", redirectPath(organizationId, siteId, id), { body: patch });
}

export function deleteSiteRedirect(client: HttpClient, organizationId: string, siteId: string, id: string) {
  return client.delete(redirectPath(organizationId, siteId, id));
}

/**
 * Applies operations with the bulk PUT, at most REDIRECT_BULK_MAX per request, and returns every item's result.
 * Each operation is keyed by its source, so repeating a request changes nothing more: the PUT is idempotent.
 */
export async function bulkSiteRedirects(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  operations: readonly BulkRedirectOperation[],
): Promise<BulkRedirectResult[]> {
  const results: BulkRedirectResult[] = [];
  for (let start = 0; start < operations.length; start += REDIRECT_BULK_MAX) {
    const redirects = operations.slice(start, start + REDIRECT_BULK_MAX);
    const path = siteRedirectsPath(organizationId, siteId);
    results.push(...(await call(client, BulkResultSchema, "PUT", path, { body: { redirects } })).results);
  }
  return results;
}
