import { z } from "zod";
import { NotFoundError } from "./errors";
import { listAll } from "./pagination";
import { call } from "./parse";
import { updateSiteSection } from "./siteSections";
import { sitePath } from "./sites";
import type { HttpClient } from "./transport";

const Member = z.object({ id: z.string(), object: z.string().optional() });

export const SiteSectionGroupSchema = z.object({
  id: z.string(),
  title: z.string(),
  icon: z.string().nullish(),
  draft: z.boolean().optional(),
  localizedTitle: z.record(z.string(), z.string()).nullish(),
  /** The group this one is nested in; absent at the site's top level. */
  sectionGroup: z.string().nullish(),
  /** Member sections (deprecated in the official document in favour of `children`, but still required there). */
  sections: z.array(Member).optional(),
  /** Sections, nested groups and external links. */
  children: z.array(Member).optional(),
});
export type ApiSiteSectionGroup = z.infer<typeof SiteSectionGroupSchema>;

/** Ids of the sections directly in the group, from `sections`, else from the section children. */
export function groupSectionIds(group: ApiSiteSectionGroup): string[] {
  if (group.sections) return group.sections.map((s) => s.id);
  return (group.children ?? []).filter((c) => c.object === "site-section").map((c) => c.id);
}

export interface SiteSectionGroupPatch {
  title?: string;
  icon?: string | null;
  draft?: boolean;
  /** Overrides per language; the object replaces the group's (`{}` removes them all). */
  localizedTitle?: Record<string, string>;
  /**
   * The group to nest this one in, or null for the top level. The official document names it `parent` in the POST
   * and `parentSectionGroupId` in the PATCH.
   */
  parentSectionGroupId?: string | null;
}

export function siteSectionGroupsPath(organizationId: string, siteId: string): string {
  return `${sitePath(organizationId, siteId)}/section-groups`;
}

function groupPath(organizationId: string, siteId: string, id: string): string {
  return `${siteSectionGroupsPath(organizationId, siteId)}/${encodeURIComponent(id)}`;
}

export function listSiteSectionGroups(
  client: HttpClient,
  organizationId: string,
  siteId: string,
): Promise<ApiSiteSectionGroup[]> {
  const path = siteSectionGroupsPath(organizationId, siteId);
  return listAll(client, path, {}, SiteSectionGroupSchema);
}

export async function createSiteSectionGroup(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  body: { title: string; icon?: string; sections?: string[]; parent?: string; draft?: boolean },
): Promise<ApiSiteSectionGroup> {
  const path = siteSectionGroupsPath(organizationId, siteId);
  return call(client, SiteSectionGroupSchema, "POST", path, { body });
}

export async function updateSiteSectionGroup(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  id: string,
  patch: SiteSectionGroupPatch,
): Promise<ApiSiteSectionGroup> {
  const path = groupPath(organizationId, siteId, id);
  return call(client, SiteSectionGroupSchema, "PATCH", path, { body: patch });
}

/** The sections of a deleted group move up to the group's parent level. */
export function deleteSiteSectionGroup(client: HttpClient, organizationId: string, siteId: string, id: string) {
  return client.delete(groupPath(organizationId, siteId, id));
}

/**
 * Puts a section in the group: the official way is the section's own PATCH of `siteSectionGroupId` (the API
 * reference's `…/section-groups/{id}/sections` is in no official document, and the real API answers it 404). A section
 * is in one group at most, so joining leaves its old group.
 */
export async function addSectionToGroup(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  id: string,
  sectionId: string,
): Promise<void> {
  await updateSiteSection(client, organizationId, siteId, sectionId, { siteSectionGroupId: id });
}

/** Takes a section out of the group, to the site's top level; a section already gone is out of it. */
export async function removeSectionFromGroup(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  sectionId: string,
): Promise<void> {
  try {
    await updateSiteSection(client, organizationId, siteId, sectionId, { siteSectionGroupId: null });
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
}
