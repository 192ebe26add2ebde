import { z } from "zod";
import {
  type ApiSiteSectionGroup,
  addSectionToGroup,
  createSiteSectionGroup,
  deleteSiteSectionGroup,
  groupSectionIds,
  listSiteSectionGroups,
  parseResponse,
  removeSectionFromGroup,
  type SiteSectionGroupPatch,
  SiteSectionGroupSchema,
  siteSectionGroupsPath,
  siteStructurePath,
  updateSiteSectionGroup,
} from "../client";
import { undoOnFailure } from "../framework/cleanup";
import { defineKind, idRef, type ResourceContext } from "../framework/kind";
import { changedFields } from "../framework/patch";
import { draft, draftState, localizedOf, localizedState, localizedTitle } from "./navigationFields";
import { organizationId, siteId, siteIdsOf, siteObjects, UNDER_SITE, underSiteTitled, writeUnder } from "./siteCommon";
import { applyMoves, movesToOrder } from "./siteOrder";

const inputs = z.strictObject({
  organizationId,
  siteId,
  title: z.string().min(1).max(100).describe("The group's title in the site's navigation."),
  icon: z.string().max(50).nullable().optional().describe("An icon name, or `null`."),
  parentId: idRef("SiteSectionGroup")
    .nullable()
    .optional()
    .describe("The group this one is nested in; `null` puts it at the site's top level. Omitted: not managed."),
  sectionIds: z
    .array(idRef("SiteSection"))
    .refine((ids) => new Set(ids).size === ids.length, "must not list a section twice")
    .optional()
    .describe("The sections directly in the group, in navigation order; `[]` empties the group."),
  draft,
  localizedTitle,
});

const state = z.object({
  organizationId: z.string(),
  siteId: z.string(),
  title: z.string(),
  icon: z.string().nullable().default(null),
  parentId: z.string().nullable().default(null),
  sectionIds: z.array(z.string()).default([]),
  draft: draftState,
  localizedTitle: localizedState,
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

function toState(group: ApiSiteSectionGroup, parents: { organizationId: string; siteId: string }): State {
  return {
    organizationId: parents.organizationId,
    siteId: parents.siteId,
    title: group.title,
    icon: group.icon ?? null,
    parentId: group.sectionGroup ?? null,
    sectionIds: groupSectionIds(group),
    draft: group.draft ?? false,
    localizedTitle: localizedOf(group.localizedTitle),
  };
}

/**
 * A group as the site's structure reports it (one request per site for every kind under it). A site without
 * sections reports its site spaces as its structure, which leaves out any (empty) groups: those are listed.
 */
async function listed(ctx: ResourceContext, org: string, site: string, id: string, fresh = false) {
  const objects = await siteObjects(ctx, org, site, fresh);
  if (objects.structure.type === "siteSpaces") {
    const list = () => listSiteSectionGroups(ctx.client, org, site);
    if (fresh) return (await list()).find((group) => group.id === id);
    return (await ctx.listings.get(siteSectionGroupsPath(org, site), list)).find((group) => group.id === id);
  }
  const found = objects.byKey.get(`site-section-group/${id}`);
  const path = ctx.client.displayPath(siteStructurePath(org, site));
  return found === undefined ? undefined : parseResponse(SiteSectionGroupSchema, found, "GET", path);
}

/**
 * Sorts the group's sections into the declared order (`PATCH …/structure/sort`, one move per section out of place)
 * and returns the group as listed afterwards.
 */
async function sortSections(ctx: ResourceContext, id: string, news: Inputs): Promise<ApiSiteSectionGroup> {
  const { organizationId: org, siteId: site } = news;
  // Under writeUnder: the listings read here must not outlive this write.
  return writeUnder(ctx, org, site, async () => {
    const group = await listed(ctx, org, site, id, true);
    if (!group) throw new Error(`SiteSectionGroup "${id}": the group disappeared while it was being written`);
    const moves = news.sectionIds ? movesToOrder(groupSectionIds(group), news.sectionIds) : [];
    if (moves.length === 0) return group;
    await applyMoves(ctx.client, org, site, moves, () => "site-section");
    const sorted = await listed(ctx, org, site, id, true);
    if (!sorted) throw new Error(`SiteSectionGroup "${id}": the group disappeared while it was being sorted`);
    return sorted;
  });
}

export const siteSectionGroupKind = defineKind<Inputs, State>({
  kind: "SiteSectionGroup",
  docs: {
    description: "A group of sections in a site's navigation.",
    adoption: '`importId: "<sectionGroupId>"`.',
    notes: [
      "- `sectionIds` is sent with the `POST` on create; later changes make one `DELETE …/section-groups/{id}/sections/" +
        "{sectionId}` per section removed and one `POST …/section-groups/{id}/sections` per section added, operations " +
        "that only the API reference lists (the official document moves a section with its own `PATCH`).",
      "- A section is in at most one group: adding it to this group takes it out of its previous one. Do not list a " +
        "section in two groups; they would take it from each other on every `up`.",
      "- Deleting a group does not delete its sections: the API moves them up to the group's parent level.",
      "- `sectionIds` is ordered: the sections appear in the group in that order, applied with `PATCH …/structure/sort` " +
        "(one move per section out of place) after the membership changes; a reorder by hand is drift. The group's own " +
        "place in the site's top level belongs to [SiteStructure](#sitestructure).",
      "- `parentId` nests the group in another group of the site (`parent` in the create, `parentSectionGroupId` in a " +
        "move: the official document's two names for one field); a moved group goes last in its new level. A group " +
        "cannot go inside itself or one of its own groups (the API answers 400).",
      "- `draft: true` stages the group: the site's structure (what editors and this provider read) keeps it in its " +
        "place, the published site leaves it out until `draft: false`. `localizedTitle` goes with a `PATCH` after the " +
        "create (the official create body has no such field).",
    ],
    example: `new docs.SiteSectionGroup("product", {
  organizationId,
  siteId: site.id,
  title: "Product",
  sectionIds: [guides.id, apiReference.id],
});`,
  },
  scope: "site",
  inputs,
  state,
  parent: UNDER_SITE,
  listing: {
    path: (ids) => siteSectionGroupsPath(...siteIdsOf(ids)),
    async list(ctx, { ids, title }) {
      const [org, site] = siteIdsOf(ids);
      const load = () => listSiteSectionGroups(ctx.client, org, site);
      return (await ctx.listings.get(siteSectionGroupsPath(org, site), load)).map((g) => ({
        id: g.id,
        title: g.title,
        known: { organizationId: org, siteId: site },
        under: underSiteTitled(title),
      }));
    },
    noun: "section group of the site",
    unmanaged: true,
  },
  imported: { word: "group" },
  outputs: [],
  idFormat: "the section group id (listed by `GET /orgs/<organizationId>/sites/<siteId>/section-groups`)",
  replaceOnChanges: ["organizationId", "siteId"],

  // The API reports no createdAt for groups: every group of the site with the declared title counts.
  async findCreated({ client }, news) {
    const all = await listSiteSectionGroups(client, news.organizationId, news.siteId);
    return all.filter((group) => group.title === news.title).map((group) => ({ id: group.id, title: group.title }));
  },
  async create(ctx, news) {
    const { organizationId: org, siteId: site } = news;
    const group = await writeUnder(ctx, org, site, () =>
      createSiteSectionGroup(ctx.client, org, site, {
        title: news.title,
        ...(news.icon != null ? { icon: news.icon } : {}),
        ...(news.parentId != null ? { parent: news.parentId } : {}),
        ...(news.sectionIds?.length ? { sections: news.sectionIds } : {}),
        ...(news.draft !== undefined ? { draft: news.draft } : {}),
      }),
    );
    // The POST takes no localized titles: a PATCH follows when there are some.
    const labels = news.localizedTitle && Object.keys(news.localizedTitle).length > 0 ? news.localizedTitle : undefined;
    // A failed step removes the new group again (its sections go back to the site's level): no state records it.
    const finished =
      news.sectionIds?.length || labels
        ? await undoOnFailure(
            { kind: "SiteSectionGroup", id: group.id, title: news.title },
            () => writeUnder(ctx, org, site, () => deleteSiteSectionGroup(ctx.client, org, site, group.id)),
            async () => {
              const labelled = labels
                ? await writeUnder(ctx, org, site, () =>
                    updateSiteSectionGroup(ctx.client, org, site, group.id, { localizedTitle: labels }),
                  )
                : group;
              return news.sectionIds?.length ? sortSections(ctx, group.id, news) : labelled;
            },
          )
        : group;
    return { id: group.id, state: toState(finished, news) };
  },

  async read(ctx, id, known) {
    const group = await listed(ctx, known.organizationId, known.siteId, id);
    return group && { id, state: toState(group, known) };
  },

  async update(ctx, id, olds, news, changed) {
    const { client } = ctx;
    const { organizationId: org, siteId: site } = news;
    await writeUnder(ctx, org, site, async () => {
      const patch = changedFields<SiteSectionGroupPatch>(news, changed, {
        title: "title",
        icon: "icon",
        parentId: "parentSectionGroupId",
        draft: "draft",
        localizedTitle: "localizedTitle",
      });
      if (patch) await updateSiteSectionGroup(client, org, site, id, patch);
      if (!changed.has("sectionIds") || !news.sectionIds) return;
      // One section at a time (the official PATCH of the section); a section joining leaves its old group.
      const wanted = new Set(news.sectionIds);
      for (const section of olds.sectionIds) {
        if (!wanted.has(section)) await removeSectionFromGroup(client, org, site, section);
      }
      for (const section of wanted) {
        if (!olds.sectionIds.includes(section)) await addSectionToGroup(client, org, site, id, section);
      }
    });
    return toState(await sortSections(ctx, id, news), news);
  },

  // Its sections move up to the group's parent level (the API does it); they are not deleted.
  delete: (ctx, id, olds) =>
    writeUnder(ctx, olds.organizationId, olds.siteId, () =>
      deleteSiteSectionGroup(ctx.client, olds.organizationId, olds.siteId, id),
    ),
});
