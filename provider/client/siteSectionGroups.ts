import { z } from "zod";
import { listAll } from "./pagination";
import { parseResponse } from "./parse";
import { sitePath } from "./sites";
import type { HttpClient } from "./transport";

const Member = z.object({ id: z.string(), object: z.string().optional() });

export const SiteSectionGroupSchema = z.object({
  id: z.string(),
  title: z.string(),
  icon: z.string().nullish(),
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

const one = (client: HttpClient, method: string, path: string) => (body: unknown) =>
  parseResponse(SiteSectionGroupSchema, body, method, `${client.baseUrl.pathname}${path}`);

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
  return listAll(client, path, {}, one(client, "GET", path));
}

export async function createSiteSectionGroup(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  body: { title: string; icon?: string; sections?: string[] },
): Promise<ApiSiteSectionGroup> {
  const path = siteSectionGroupsPath(organizationId, siteId);
  return one(client, "POST", path)(await client.post(path, body));
}

export async function updateSiteSectionGroup(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  id: string,
  patch: { title?: string; icon?: string | null },
): Promise<ApiSiteSectionGroup> {
  const path = groupPath(organizationId, siteId, id);
  return one(client, "PATCH", path)(await client.patch(path, patch));
}

/** The sections of a deleted group move up to the group's parent level. */
export function deleteSiteSectionGroup(client: HttpClient, organizationId: string, siteId: string, id: string) {
  return client.delete(groupPath(organizationId, siteId, id));
}

/** Spec-only membership operation (the official document moves a section with the section's own PATCH). */
export async function addSectionToGroup(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  id: string,
  sectionId: string,
): Promise<ApiSiteSectionGroup> {
  const path = `${groupPath(organizationId, siteId, id)}/sections`;
  return one(client, "POST", path)(await client.post(path, { sectionId }));
}

/** Spec-only, like addSectionToGroup. */
export function removeSectionFromGroup(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  id: string,
  sectionId: string,
): Promise<void> {
  return client.delete(`${groupPath(organizationId, siteId, id)}/sections/${encodeURIComponent(sectionId)}`);
}
