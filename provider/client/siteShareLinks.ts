import { z } from "zod";
import { listAll } from "./pagination";
import { call } from "./parse";
import { sitePath } from "./sites";
import type { HttpClient } from "./transport";

export const ShareLinkSchema = z.object({
  id: z.string(),
  createdAt: z.string().optional(),
  name: z.string().optional(),
  active: z.boolean().optional(),
  /** `published` carries the link's secret token. */
  urls: z.object({ published: z.string() }).partial().optional(),
});
export type ApiShareLink = z.infer<typeof ShareLinkSchema>;

export function siteShareLinksPath(organizationId: string, siteId: string): string {
  return `${sitePath(organizationId, siteId)}/share-links`;
}

export function listSiteShareLinks(
  client: HttpClient,
  organizationId: string,
  siteId: string,
): Promise<ApiShareLink[]> {
  const path = siteShareLinksPath(organizationId, siteId);
  return listAll(client, path, {}, ShareLinkSchema);
}

export async function createSiteShareLink(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  body: { name: string },
): Promise<ApiShareLink> {
  const path = siteShareLinksPath(organizationId, siteId);
  return call(client, ShareLinkSchema, "POST", path, { body });
}

export async function updateSiteShareLink(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  id: string,
  patch: { name?: string; active?: boolean },
): Promise<ApiShareLink> {
  const path = `${siteShareLinksPath(organizationId, siteId)}/${encodeURIComponent(id)}`;
  return call(client, ShareLinkSchema, "PATCH", path, { body: patch });
}

export function deleteSiteShareLink(client: HttpClient, organizationId: string, siteId: string, id: string) {
  return client.delete(`${siteShareLinksPath(organizationId, siteId)}/${encodeURIComponent(id)}`);
}
