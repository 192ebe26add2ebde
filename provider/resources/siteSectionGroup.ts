import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  type ApiSiteSectionGroup,
  addSectionToGroup,
  createSiteSectionGroup,
  deleteSiteSectionGroup,
  groupSectionIds,
  listSiteSectionGroups,
  removeSectionFromGroup,
  siteSectionGroupsPath,
  updateSiteSectionGroup,
} from "../client";
import { type AdoptionArgs, type ArgsOf, DocsResource } from "../framework/resource";
import { defineResource, type ResourceContext } from "../framework/spec";
import { findListed, organizationId, siteId, writeUnder } from "./siteCommon";

const inputs = z.strictObject({
  organizationId,
  siteId,
  title: z.string().min(1).max(100),
  icon: z.string().max(50).nullable().optional(),
  /** The sections in the group, in any order; unmanaged when omitted, [] empties the group. */
  sectionIds: z.array(z.string().min(1)).optional(),
});

const state = z.object({
  organizationId: z.string(),
  siteId: z.string(),
  title: z.string(),
  icon: z.string().nullable().default(null),
  sectionIds: z.array(z.string()).default([]),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

function toState(group: ApiSiteSectionGroup, parents: { organizationId: string; siteId: string }): State {
  return {
    organizationId: parents.organizationId,
    siteId: parents.siteId,
    title: group.title,
    icon: group.icon ?? null,
    sectionIds: groupSectionIds(group),
  };
}

const listed = (ctx: ResourceContext, org: string, site: string, id: string) =>
  findListed(ctx, siteSectionGroupsPath(org, site), () => listSiteSectionGroups(ctx.client, org, site), id);

export const siteSectionGroupSpec = defineResource<Inputs, State>({
  kind: "SiteSectionGroup",
  inputs,
  state,
  outputs: [],
  idFormat: "the section group id (listed by GET /orgs/<organizationId>/sites/<siteId>/section-groups)",
  replaceOnChanges: ["organizationId", "siteId"],
  setProperties: ["sectionIds"],

  async create(ctx, news) {
    const { organizationId: org, siteId: site } = news;
    const group = await writeUnder(ctx, org, site, () =>
      createSiteSectionGroup(ctx.client, org, site, {
        title: news.title,
        ...(news.icon != null ? { icon: news.icon } : {}),
        ...(news.sectionIds?.length ? { sections: news.sectionIds } : {}),
      }),
    );
    return { id: group.id, state: toState(group, news) };
  },

  async read(ctx, id, known) {
    const parents = known as State;
    const group = await listed(ctx, parents.organizationId, parents.siteId, id);
    return group && { id, state: toState(group, parents) };
  },

  async update(ctx, id, olds, news, changed) {
    const { client } = ctx;
    const { organizationId: org, siteId: site } = news;
    await writeUnder(ctx, org, site, async () => {
      const patch: { title?: string; icon?: string | null } = {};
      if (changed.has("title")) patch.title = news.title;
      if (changed.has("icon") && news.icon !== undefined) patch.icon = news.icon;
      if (Object.keys(patch).length > 0) await updateSiteSectionGroup(client, org, site, id, patch);
      if (!changed.has("sectionIds") || !news.sectionIds) return;
      // The spec's membership operations, one section at a time; a section joining leaves its old group.
      const wanted = new Set(news.sectionIds);
      for (const section of olds.sectionIds) {
        if (!wanted.has(section)) await removeSectionFromGroup(client, org, site, id, section);
      }
      for (const section of wanted) {
        if (!olds.sectionIds.includes(section)) await addSectionToGroup(client, org, site, id, section);
      }
    });
    const group = await listed(ctx, org, site, id);
    if (!group) throw new Error(`SiteSectionGroup "${id}" update: the group disappeared while it was being updated`);
    return toState(group, news);
  },

  // Its sections move up to the group's parent level (the API does it); they are not deleted.
  delete: (ctx, id, olds) =>
    writeUnder(ctx, olds.organizationId, olds.siteId, () =>
      deleteSiteSectionGroup(ctx.client, olds.organizationId, olds.siteId, id),
    ),
});

export type SiteSectionGroupArgs = ArgsOf<z.input<typeof inputs>> & AdoptionArgs;

/** A group of sections in a site's navigation. Id: the section group id. */
export class SiteSectionGroup extends DocsResource {
  declare readonly organizationId: pulumi.Output<string>;
  declare readonly siteId: pulumi.Output<string>;
  declare readonly title: pulumi.Output<string>;
  declare readonly icon: pulumi.Output<string | null>;
  declare readonly sectionIds: pulumi.Output<string[]>;

  constructor(name: string, args: SiteSectionGroupArgs, opts?: pulumi.CustomResourceOptions) {
    super(siteSectionGroupSpec, name, args, opts);
  }
}
