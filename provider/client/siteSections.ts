import { z } from "zod";
import { listAll } from "./pagination";
import { call } from "./parse";
import { SiteSpaceSchema } from "./siteSpaces";
import { sitePath } from "./sites";
import type { HttpClient } from "./transport";

export const SiteSectionSchema = z.object({
  id: z.string(),
  title: z.string(),
  path: z.string(),
  description: z.string().nullish(),
  default: z.boolean().optional(),
  condition: z.string().nullish(),
  sectionGroup: z.string().nullish(),
  icon: z.string().nullish(),
  draft: z.boolean().optional(),
  localizedTitle: z.record(z.string(), z.string()).nullish(),
  localizedDescription: z.record(z.string(), z.string()).nullish(),
  siteSpaces: z.array(SiteSpaceSchema).default([]),
  urls: z.object({ published: z.string() }).partial().optional(),
});
export type ApiSiteSection = z.infer<typeof SiteSectionSchema>;

export interface SiteSectionCreate {
  spaceId: string;
  title?: string;
  icon?: string;
  draft?: boolean;
  /** A page of `spaceId` shown at the section's root: it becomes the first site space's `pageId`. */
  pageId?: string;
}

export interface SiteSectionPatch {
  title?: string;
  path?: string;
  defaultSiteSpace?: string;
  /** null removes the condition. */
  condition?: string | null;
  icon?: string | null;
  description?: string | null;
  draft?: boolean;
  /** Overrides per language; the object replaces the section's (`{}` removes them all). */
  localizedTitle?: Record<string, string>;
  localizedDescription?: Record<string, string>;
  /** Moves the section into a group, or out of any with null (official; see addSectionToGroup). */
  siteSectionGroupId?: string | null;
}

export function siteSectionsPath(organizationId: string, siteId: string): string {
  return `${sitePath(organizationId, siteId)}/sections`;
}

export function listSiteSections(
  client: HttpClient,
  organizationId: string,
  siteId: string,
): Promise<ApiSiteSection[]> {
  const path = siteSectionsPath(organizationId, siteId);
  return listAll(client, path, {}, SiteSectionSchema);
}

/** Creates the section together with a site space for `spaceId`. */
export async function createSiteSection(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  body: SiteSectionCreate,
): Promise<ApiSiteSection> {
  const path = siteSectionsPath(organizationId, siteId);
  return call(client, SiteSectionSchema, "POST", path, { body });
}

export async function updateSiteSection(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  id: string,
  patch: SiteSectionPatch,
): Promise<ApiSiteSection> {
  const path = `${siteSectionsPath(organizationId, siteId)}/${encodeURIComponent(id)}`;
  return call(client, SiteSectionSchema, "PATCH", path, { body: patch });
}

/** The API deletes the section's site spaces with it. */
export function deleteSiteSection(client: HttpClient, organizationId: string, siteId: string, id: string) {
  return client.delete(`${siteSectionsPath(organizationId, siteId)}/${encodeURIComponent(id)}`);
}
