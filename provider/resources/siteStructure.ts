import { z } from "zod";
import { getSiteObjects, getSiteStructure, type HttpClient, type SiteObjects, siteStructurePath } from "../client";
import { apiId, defineKind } from "../framework/kind";
import { organizationId, siteId, siteIdsOf, siteObjects, UNDER_SITE, underSiteTitled, writeUnder } from "./siteCommon";
import { applyMoves, describeMoves, movesToOrder, sectionsIn, typeOfListed } from "./siteOrder";

const uniqueIds = (what: string) =>
  z
    .array(apiId)
    .refine((ids) => new Set(ids).size === ids.length, `must not list an id twice (${what} appear once each)`);

const inputs = z.strictObject({
  organizationId,
  siteId,
  order: uniqueIds("items")
    .optional()
    .describe(
      "The ids of every top-level item of the site's navigation, in order: its sections, section groups and external " +
        "links (or its site spaces, for a site without sections). Omitted: the order is not managed.",
    ),
  siteSpaces: z
    .array(
      z.strictObject({
        sectionId: apiId.describe("The section."),
        siteSpaceIds: uniqueIds("site spaces")
          .min(1)
          .describe("The ids of every site space in the section, in order (a SiteSection's `siteSpaceId` first, say)."),
      }),
    )
    .refine(
      (levels) => new Set(levels.map((level) => level.sectionId)).size === levels.length,
      "must not list a section twice",
    )
    .optional()
    .describe("The order of site spaces within sections, one entry per section whose order is managed."),
});

const state = z.object({
  organizationId: z.string(),
  siteId: z.string(),
  order: z.array(z.string()).default([]),
  siteSpaces: z.array(z.object({ sectionId: z.string(), siteSpaceIds: z.array(z.string()) })).default([]),
  type: z
    .string()
    .default("sections")
    .describe(
      "What the top level holds: `sections` (sections, groups and external links) or `siteSpaces` (a site without sections).",
    ),
  titles: z
    .record(z.string(), z.string())
    .default({})
    .describe(
      "The title of each top-level item, and of each section `siteSpaces` orders and its site spaces, by id, as last " +
        'read: a preview names the items a new order moves by these (`order: "Guides" moves from 2 to 1`).',
    ),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;
type Levels = State["siteSpaces"];

/**
 * The structure as state: the whole top level, and the site spaces of the sections whose order is managed, with the
 * titles of all these items (the structure embeds each object as its own listing reports it).
 */
function toState(objects: SiteObjects, parents: { organizationId: string; siteId: string }, levels?: Levels): State {
  const { structure, byKey } = objects;
  const sections = sectionsIn(structure.structure);
  const siteSpaces = (levels ?? []).map(({ sectionId }) => ({
    sectionId,
    siteSpaceIds: (sections.find((s) => s.id === sectionId)?.siteSpaces ?? []).map((ss) => ss.id),
  }));
  const titles: Record<string, string> = {};
  const addTitle = (object: string, id: string) => {
    const title = (byKey.get(`${object}/${id}`) as { title?: unknown } | undefined)?.title;
    if (typeof title === "string") titles[id] = title;
  };
  for (const item of structure.structure) addTitle(item.object, item.id);
  for (const level of siteSpaces) {
    addTitle("site-section", level.sectionId);
    for (const id of level.siteSpaceIds) addTitle("site-space", id);
  }
  return {
    organizationId: parents.organizationId,
    siteId: parents.siteId,
    order: structure.structure.map((item) => item.id),
    siteSpaces,
    type: structure.type,
    titles,
  };
}

/** What a change of order moves, by title: the preview's own diff shows only ids at positions. */
function describeChange(id: string, olds: State, news: Inputs, changed: ReadonlySet<string>): string | undefined {
  // A replacement orders another site: nothing moves within this one.
  if (changed.has("siteId") || changed.has("organizationId")) return undefined;
  const nameOf = (item: string) => `"${olds.titles[item] ?? item}"`;
  const levels: string[] = [];
  if (news.order && changed.has("order") && olds.order.length > 0) {
    const moves = describeMoves(olds.order, news.order, nameOf);
    if (moves.length > 0) levels.push(`order: ${moves.join(", ")}`);
  }
  for (const { sectionId, siteSpaceIds } of changed.has("siteSpaces") ? (news.siteSpaces ?? []) : []) {
    const before = olds.siteSpaces.find((level) => level.sectionId === sectionId)?.siteSpaceIds ?? [];
    const moves = before.length > 0 ? describeMoves(before, siteSpaceIds, nameOf) : [];
    if (moves.length > 0) levels.push(`site spaces of ${nameOf(sectionId)}: ${moves.join(", ")}`);
  }
  return levels.length > 0 ? `SiteStructure "${id}": ${levels.join("; ")}.` : undefined;
}

/** Ids of `desired` missing from `current`, and ids of `current` missing from `desired`, in words. */
function mismatch(level: string, current: readonly string[], desired: readonly string[]): string | undefined {
  const unknown = desired.filter((id) => !current.includes(id));
  const missing = current.filter((id) => !desired.includes(id));
  if (unknown.length === 0 && missing.length === 0) return undefined;
  return [
    unknown.length > 0 ? `it names ${quoted(unknown)}, not in ${level}` : "",
    missing.length > 0 ? `it leaves out ${quoted(missing)}, which ${level} also holds` : "",
  ]
    .filter(Boolean)
    .join("; ");
}

const quoted = (ids: readonly string[]) => ids.map((id) => `"${id}"`).join(", ");

/** Sorts the top level, then each declared section's site spaces; each level must be listed whole. */
async function applyOrder(client: HttpClient, news: Inputs, changed: ReadonlySet<string>) {
  const { organizationId: org, siteId: site } = news;
  const structure = await getSiteStructure(client, org, site);
  if (news.order && changed.has("order")) {
    const current = structure.structure.map((item) => item.id);
    const problem = mismatch("the site's top level", current, news.order);
    if (problem) {
      throw new Error(
        `SiteStructure "${site}": order must list every top-level item of the site exactly once: ${problem}. A ` +
          "section inside a group is ordered by its SiteSectionGroup's sectionIds; add new sections, groups and external " +
          "links to order.",
      );
    }
    await applyMoves(client, org, site, movesToOrder(current, news.order), typeOfListed(structure.structure));
  }
  if (news.siteSpaces && changed.has("siteSpaces")) {
    const sections = sectionsIn(structure.structure);
    for (const { sectionId, siteSpaceIds } of news.siteSpaces) {
      const section = sections.find((s) => s.id === sectionId);
      if (!section)
        throw new Error(`SiteStructure "${site}": siteSpaces names section "${sectionId}", not in the site`);
      const current = (section.siteSpaces ?? []).map((ss) => ss.id);
      const problem = mismatch(`section "${sectionId}"`, current, siteSpaceIds);
      if (problem) {
        throw new Error(
          `SiteStructure "${site}": siteSpaces of section "${sectionId}" must list each of its site spaces once: ${problem}.`,
        );
      }
      await applyMoves(client, org, site, movesToOrder(current, siteSpaceIds), () => "site-space");
    }
  }
}

export const siteStructureKind = defineKind<Inputs, State>({
  kind: "SiteStructure",
  docs: {
    description:
      "The navigation order of a site: its top-level sections, section groups and external links, and the site spaces " +
      "within sections.",
    adoption: '`importId: "<siteId>"`: the order is read, and sorted only where it differs from the declared one.',
    notes: [
      "- Pulumi creates independent resources in parallel, so without a SiteStructure two runs of one program can give " +
        "the same site different navigation orders. Declare it once per site, after its sections, groups and links " +
        "(it takes their ids, so the engine creates it last).",
      "- Each list is authoritative for its level: `order` must name every top-level item, and each `siteSpaces` entry " +
        "every site space of its section; `up` fails naming the ids missing or unknown. A reorder by hand is drift, " +
        "which the next `up` sorts back. A list left out is not managed.",
      "- Applied with `PATCH …/structure/sort` (one move per item out of place, none when the order already matches), " +
        "read back from `GET …/structure`.",
      "- The order of sections inside a group belongs to the group: [SiteSectionGroup](#sitesectiongroup) `sectionIds`.",
      "- Deleting a SiteStructure leaves the order as it is; the API has nothing to delete.",
    ],
    example: `new docs.SiteStructure("navigation", {
  organizationId,
  siteId: site.id,
  order: [guides.id, product.id, apiReference.id],
  siteSpaces: [{ sectionId: guides.id, siteSpaceIds: [guides.siteSpaceId, guidesV1.id] }],
});`,
  },
  scope: "site",
  inputs,
  state,
  parent: UNDER_SITE,
  id: "parent",
  listing: {
    path: (ids) => siteStructurePath(...siteIdsOf(ids)),
    list: async (_ctx, { ids, title }) => [
      { id: String(ids.siteId), title: `${title} navigation`, known: ids, under: underSiteTitled(title) },
    ],
    unmanaged: false,
  },
  // Its navigation order as it is (adopting it sorts nothing); the sections' site spaces are left unmanaged.
  imported: { word: "navigation", leaveOut: ["siteSpaces"] },
  outputs: ["type", "titles"],
  idFormat: "the site id (one SiteStructure per site)",
  replaceOnChanges: ["organizationId", "siteId"],
  describeChange,

  async create(ctx, news) {
    const { organizationId: org, siteId: site } = news;
    const declared = new Set(["order", "siteSpaces"]);
    await writeUnder(ctx, org, site, () => applyOrder(ctx.client, news, declared));
    return { id: site, state: toState(await getSiteObjects(ctx.client, org, site), news, news.siteSpaces) };
  },

  async read(ctx, id, known) {
    if (id !== known.siteId) return undefined;
    // The same request its sections, groups and site spaces are read from in a refresh.
    const objects = await siteObjects(ctx, known.organizationId, known.siteId);
    return { id, state: toState(objects, known, known.siteSpaces) };
  },

  async update(ctx, _id, _olds, news, changed) {
    const { organizationId: org, siteId: site } = news;
    await writeUnder(ctx, org, site, () => applyOrder(ctx.client, news, changed));
    return toState(await getSiteObjects(ctx.client, org, site), news, news.siteSpaces);
  },

  // The order stays as it is: there is nothing to delete.
  async delete() {},
});
