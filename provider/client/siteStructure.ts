import { z } from "zod";
import { call, parseResponse } from "./parse";
import { sitePath } from "./sites";
import type { HttpClient } from "./transport";

/** The kinds of item the site's structure holds, as the official `SiteStructureItemPointer` names them. */
export const STRUCTURE_ITEM_TYPES = ["site-space", "site-section", "site-section-group", "site-external-link"] as const;
export type StructureItemType = (typeof STRUCTURE_ITEM_TYPES)[number];

/** One item of the structure listing: a section (with its site spaces), a section group, a site space, a link. */
export interface ApiStructureItem {
  id: string;
  object: string;
  /** A section's site spaces, in navigation order. */
  siteSpaces?: { id: string }[] | undefined;
  /** A group's sections, groups and links, in navigation order. */
  children?: ApiStructureItem[] | undefined;
}

const StructureItemSchema: z.ZodType<ApiStructureItem> = z.lazy(() =>
  z.object({
    id: z.string(),
    object: z.string(),
    siteSpaces: z.array(z.object({ id: z.string() })).optional(),
    children: z.array(StructureItemSchema).optional(),
  }),
);

/** `GET …/structure`: the site's top level in navigation order; `sections`, or `siteSpaces` for a site without any. */
const SiteStructureSchema = z.object({
  type: z.enum(["sections", "siteSpaces"]),
  structure: z.array(StructureItemSchema),
});
export type ApiSiteStructure = z.infer<typeof SiteStructureSchema>;

export interface StructurePointer {
  type: StructureItemType;
  id: string;
}

export function siteStructurePath(organizationId: string, siteId: string): string {
  return `${sitePath(organizationId, siteId)}/structure`;
}

export function getSiteStructure(client: HttpClient, organizationId: string, siteId: string) {
  // Stryker disable next-line StringLiteral: undici's request() sends an empty method as GET, or as PUT with a body.
  return call(client, SiteStructureSchema, "GET", siteStructurePath(organizationId, siteId));
}

/** A site's structure and, by `<object>/<id>`, each object in it at any depth, unparsed. */
export interface SiteObjects {
  structure: ApiSiteStructure;
  byKey: ReadonlyMap<string, unknown>;
}

/**
 * Every section, section group and site space of a site from one `GET …/structure`: the official document renders
 * them there as the same `SiteSection` (with its `siteSpaces`), `SiteSectionGroup` (with its `children`) and
 * `SiteSpace` objects as their own listings, so one request per site replaces a listing per kind. Objects stay
 * unparsed: each kind reads its own with its own schema.
 */
export async function getSiteObjects(client: HttpClient, organizationId: string, siteId: string): Promise<SiteObjects> {
  const path = siteStructurePath(organizationId, siteId);
  // Stryker disable next-line StringLiteral: undici's request() sends an empty method as GET, or as PUT with a body.
  const answer = await client.request("GET", path);
  const structure = parseResponse(SiteStructureSchema, answer, "GET", client.displayPath(path));
  const byKey = new Map<string, unknown>();
  const visit = (item: unknown) => {
    if (!item || typeof item !== "object") return;
    const { object, id, siteSpaces, children, sections } = item as Record<string, unknown>;
    const key = `${String(object)}/${String(id)}`;
    // Stryker disable next-line ConditionalExpression: visiting an object twice sets the same key to the same item
    // (a Map keeps the first insertion's order) and JSON has no cycles; this only saves the walk.
    if (byKey.has(key)) return;
    byKey.set(key, item);
    // A group's deprecated `sections` repeats its section children; visiting both keeps either one's sections.
    for (const nested of [siteSpaces, children, sections]) if (Array.isArray(nested)) nested.forEach(visit);
  };
  ((answer as { structure?: unknown[] }).structure ?? []).forEach(visit);
  return { structure, byKey };
}

/** Every object of one type (its API `object`, e.g. `site-external-link`) at any depth, each read with its schema. */
export function objectsOfType<S extends z.ZodType>(
  { byKey }: SiteObjects,
  object: string,
  schema: S,
  displayPath: string,
): z.infer<S>[] {
  return [...byKey.entries()]
    .filter(([key]) => key.startsWith(`${object}/`))
    .map(([, item]) => parseResponse(schema, item, "GET", displayPath));
}

/**
 * `PATCH …/structure/sort`: moves one item before or after a sibling of its level (the top level, a group, or a
 * section's site spaces). The answer (the moved item, or 204) is not needed: callers read the structure again.
 */
export async function sortSiteStructure(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  item: StructurePointer,
  position: { before: StructurePointer } | { after: StructurePointer },
): Promise<void> {
  await client.request("PATCH", `${siteStructurePath(organizationId, siteId)}/sort`, { body: { item, position } });
}

/** The pointer type of a listed item (`object` of a section is `site-section`, and so on). */
export function pointerType(object: string): StructureItemType | undefined {
  return (STRUCTURE_ITEM_TYPES as readonly string[]).includes(object) ? (object as StructureItemType) : undefined;
}
