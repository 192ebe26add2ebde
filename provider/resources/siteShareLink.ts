import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  type ApiShareLink,
  createSiteShareLink,
  deleteSiteShareLink,
  listSiteShareLinks,
  siteShareLinksPath,
  updateSiteShareLink,
} from "../client";
import { undoOnFailure } from "../framework/cleanup";
import { type AdoptionArgs, type ArgsOf, DocsResource } from "../framework/resource";
import { defineResource, type ResourceContext } from "../framework/spec";
import { findListed, organizationId, siteId, writeUnder } from "./siteCommon";

const inputs = z.strictObject({
  organizationId,
  siteId,
  name: z.string().max(50),
  /** Omitted means active, so a link deactivated by hand is drift that the next `up` undoes. */
  active: z.boolean().default(true),
});

const state = z.object({
  organizationId: z.string(),
  siteId: z.string(),
  name: z.string(),
  active: z.boolean().default(true),
  /** The site's URL with the link's secret token: stored and shown as a secret. */
  url: z.string().nullable().default(null),
  createdAt: z.string().nullable().default(null),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

function toState(link: ApiShareLink, parents: { organizationId: string; siteId: string }): State {
  return {
    organizationId: parents.organizationId,
    siteId: parents.siteId,
    name: link.name ?? "",
    // New links are active; the official document makes the field optional.
    active: link.active ?? true,
    url: link.urls?.published ?? null,
    createdAt: link.createdAt ?? null,
  };
}

const listed = (ctx: ResourceContext, org: string, site: string, id: string) =>
  findListed(ctx, siteShareLinksPath(org, site), () => listSiteShareLinks(ctx.client, org, site), id);

export const siteShareLinkSpec = defineResource<Inputs, State>({
  kind: "SiteShareLink",
  inputs,
  state,
  outputs: ["url", "createdAt"],
  secretOutputs: ["url"],
  idFormat: "the share link id (listed by GET /orgs/<organizationId>/sites/<siteId>/share-links)",
  replaceOnChanges: ["organizationId", "siteId"],

  async create(ctx, news) {
    const { client } = ctx;
    const { organizationId: org, siteId: site } = news;
    const link = await writeUnder(ctx, org, site, async () => {
      const created = await createSiteShareLink(client, org, site, { name: news.name });
      // POST takes only the name, and makes an active link.
      if (news.active) return created;
      return undoOnFailure(
        () => deleteSiteShareLink(client, org, site, created.id),
        () => updateSiteShareLink(client, org, site, created.id, { active: false }),
      );
    });
    return { id: link.id, state: toState(link, news) };
  },

  async read(ctx, id, known) {
    const parents = known as State;
    const link = await listed(ctx, parents.organizationId, parents.siteId, id);
    return link && { id, state: toState(link, parents) };
  },

  async update(ctx, id, _olds, news, changed) {
    const patch: { name?: string; active?: boolean } = {};
    if (changed.has("name")) patch.name = news.name;
    if (changed.has("active")) patch.active = news.active;
    const { organizationId: org, siteId: site } = news;
    return toState(await writeUnder(ctx, org, site, () => updateSiteShareLink(ctx.client, org, site, id, patch)), news);
  },

  delete: (ctx, id, olds) =>
    writeUnder(ctx, olds.organizationId, olds.siteId, () =>
      deleteSiteShareLink(ctx.client, olds.organizationId, olds.siteId, id),
    ),
});

export type SiteShareLinkArgs = ArgsOf<z.input<typeof inputs>> & AdoptionArgs;

/** A secret link to a site with visibility `share-link`. Id: the share link id. */
export class SiteShareLink extends DocsResource {
  declare readonly organizationId: pulumi.Output<string>;
  declare readonly siteId: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly active: pulumi.Output<boolean>;
  /** The site's URL with the secret token (a Pulumi secret). */
  declare readonly url: pulumi.Output<string | null>;
  declare readonly createdAt: pulumi.Output<string | null>;

  constructor(name: string, args: SiteShareLinkArgs, opts?: pulumi.CustomResourceOptions) {
    super(siteShareLinkSpec, name, args, opts);
  }
}
