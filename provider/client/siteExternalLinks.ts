import { z } from "zod";
import { call } from "./parse";
import { sitePath } from "./sites";
import type { HttpClient } from "./transport";

export const SiteExternalLinkSchema = z.object({
  id: z.string(),
  title: z.string(),
  url: z.string(),
  description: z.string().nullish(),
  icon: z.string().nullish(),
  condition: z.string().nullish(),
  /** The group the link is in; absent for a link at the site's top level. */
  sectionGroup: z.string().nullish(),
  draft: z.boolean().optional(),
  localizedTitle: z.record(z.string(), z.string()).nullish(),
  localizedDescription: z.record(z.string(), z.string()).nullish(),
});
export type ApiSiteExternalLink = z.infer<typeof SiteExternalLinkSchema>;

export interface SiteExternalLinkCreate {
  title: string;
  url: string;
  description?: string;
  icon?: string;
  condition?: string;
  /** A section group of the site; absent = the top level. */
  parent?: string;
  draft?: boolean;
  localizedTitle?: Record<string, string>;
  localizedDescription?: Record<string, string>;
}

export interface SiteExternalLinkPatch {
  title?: string;
  url?: string;
  description?: string | null;
  icon?: string | null;
  condition?: string | null;
  /** A section group of the site, or null for the top level. */
  parent?: string | null;
  draft?: boolean;
  /** null removes every override. */
  localizedTitle?: Record<string, string> | null;
  localizedDescription?: Record<string, string> | null;
}

/**
 * The official document has no operation that reads a link or lists a site's links: they are items of the site's
 * structure (`GET …/structure`), at the top level or among a group's children.
 */
export function siteExternalLinksPath(organizationId: string, siteId: string): string {
  return `${sitePath(organizationId, siteId)}/external-links`;
}

function linkPath(organizationId: string, siteId: string, id: string): string {
  return `${siteExternalLinksPath(organizationId, siteId)}/${encodeURIComponent(id)}`;
}

/** A new link goes last in its level; `PATCH …/structure/sort` places it. */
export function createSiteExternalLink(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  body: SiteExternalLinkCreate,
): Promise<ApiSiteExternalLink> {
  return call(client, SiteExternalLinkSchema, "POST", siteExternalLinksPath(organizationId, siteId), { body });
}

export function updateSiteExternalLink(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  id: string,
  patch: SiteExternalLinkPatch,
): Promise<ApiSiteExternalLink> {
  return call(client, SiteExternalLinkSchema, "PATCH", linkPath(organizationId, siteId, id), { body: patch });
}

export function deleteSiteExternalLink(client: HttpClient, organizationId: string, siteId: string, id: string) {
  return client.delete(linkPath(organizationId, siteId, id));
}
