import { z } from "zod";
import { listAll } from "./pagination";
import { call } from "./parse";
import { sitePath } from "./sites";
import type { HttpClient } from "./transport";

export const SiteSpaceSchema = z.object({
  id: z.string(),
  path: z.string(),
  /** The containing section; absent at the site's root level. */
  section: z.string().nullish(),
  space: z.object({ id: z.string() }),
  title: z.string().optional(),
  default: z.boolean().optional(),
  condition: z.string().nullish(),
  /** Left out of the site's navigation (still reachable by its URL); absent means false. */
  hidden: z.boolean().optional(),
  /** The page shown at the site space's root instead of the space's first page; null or absent: none. */
  pageId: z.string().nullish(),
  /** A draft site space is not live (the published site leaves it out). */
  draft: z.boolean().optional(),
  localizedTitle: z.record(z.string(), z.string()).nullish(),
  urls: z.object({ published: z.string() }).partial().optional(),
});
export type ApiSiteSpace = z.infer<typeof SiteSpaceSchema>;

export interface SiteSpacePatch {
  path?: string;
  /** null removes the condition. */
  condition?: string | null;
  /** Points the site space at another space. */
  spaceId?: string;
  hidden?: boolean;
  /** null removes the custom home page; a change of `spaceId` removes it too unless it is given. */
  pageId?: string | null;
  draft?: boolean;
}

export interface SiteSpaceCreate {
  spaceId: string;
  sectionId?: string;
  draft?: boolean;
  pageId?: string;
}

export function siteSpacesPath(organizationId: string, siteId: string): string {
  return `${sitePath(organizationId, siteId)}/site-spaces`;
}

export function listSiteSpaces(client: HttpClient, organizationId: string, siteId: string): Promise<ApiSiteSpace[]> {
  const path = siteSpacesPath(organizationId, siteId);
  return listAll(client, path, {}, SiteSpaceSchema);
}

/** Without sectionId the API puts the space in the site's default section, or at the root when there is none. */
export async function createSiteSpace(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  body: SiteSpaceCreate,
): Promise<ApiSiteSpace> {
  const path = siteSpacesPath(organizationId, siteId);
  return call(client, SiteSpaceSchema, "POST", path, { body });
}

export async function updateSiteSpace(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  id: string,
  patch: SiteSpacePatch,
): Promise<ApiSiteSpace> {
  const path = `${siteSpacesPath(organizationId, siteId)}/${encodeURIComponent(id)}`;
  return call(client, SiteSpaceSchema, "PATCH", path, { body: patch });
}

export function deleteSiteSpace(client: HttpClient, organizationId: string, siteId: string, id: string) {
  return client.delete(`${siteSpacesPath(organizationId, siteId)}/${encodeURIComponent(id)}`);
}
