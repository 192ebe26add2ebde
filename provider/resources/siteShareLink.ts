import { z } from "zod";
import {
  type ApiShareLink,
  createSiteShareLink,
  deleteSiteShareLink,
  listSiteShareLinks,
  updateSiteShareLink,
} from "../client";
import { undoOnFailure } from "../framework/cleanup";
import { defineKind, type ResourceContext } from "../framework/kind";
import { createdSince } from "../framework/recovery";
import {
  findListed,
  itemsUnderSite,
  organizationId,
  shareLinkListing,
  siteId,
  UNDER_SITE,
  writeUnder,
} from "./siteCommon";

const inputs = z.strictObject({
  organizationId,
  siteId,
  name: z.string().max(50).describe("The link's name (may be empty)."),
  active: z
    .boolean()
    .default(true)
    .describe("Whether the link works; omitted means active, so a link deactivated by hand is drift that `up` undoes."),
});

const state = z.object({
  organizationId: z.string(),
  siteId: z.string(),
  name: z.string(),
  active: z.boolean().default(true),
  url: z
    .string()
    .nullable()
    .default(null)
    .describe(
      "The site's URL with the link's secret token; a Pulumi secret (`pulumi stack output <name> --show-secrets`).",
    ),
  createdAt: z.string().nullable().default(null).describe("When the link was created."),
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
  findListed(ctx, shareLinkListing, org, site, id);

export const siteShareLinkKind = defineKind<Inputs, State>({
  kind: "SiteShareLink",
  docs: {
    description: "A secret link to a site, for sites with visibility `share-link`.",
    adoption: '`importId: "<shareLinkId>"`.',
    notes: [
      "- Create is `POST …/share-links` with the name, which makes an active link, then a `PATCH` when `active: false` " +
        "(the link is deleted again if that fails).",
      "- The token cannot be changed. To issue a new one, replace the resource (`pulumi up --replace <urn>`); the old " +
        "link stops working when it is deleted. `active: false` disables a link without deleting it.",
      "- Preview warns when the link's site, managed by the same program, has a visibility other than `share-link`.",
    ],
    example: `const reviewers = new docs.SiteShareLink("reviewers", { organizationId, siteId: site.id, name: "Reviewers" });
export const reviewUrl = reviewers.url; // a secret`,
  },
  scope: "site",
  inputs,
  state,
  parent: UNDER_SITE,
  listing: itemsUnderSite(shareLinkListing, (link) => link.name ?? "share link", "share link of the site"),
  imported: { word: "link" },
  outputs: ["url", "createdAt"],
  secretOutputs: ["url"],
  idFormat: "the share link id (listed by `GET /orgs/<organizationId>/sites/<siteId>/share-links`)",
  replaceOnChanges: ["organizationId", "siteId"],
  programRules: {
    expectsOfReferenced: {
      reference: "siteId",
      kind: "Site",
      property: "visibility",
      value: "share-link",
      why: "a share link only takes effect on a site whose visibility is `share-link`, so this one opens nothing.",
    },
  },

  async findCreated({ client }, news, since) {
    const all = await listSiteShareLinks(client, news.organizationId, news.siteId);
    return all
      .filter((link) => link.name === news.name && createdSince(link.createdAt, since))
      .map((link) => ({ id: link.id, title: link.name ?? "" }));
  },
  async create(ctx, news) {
    const { client } = ctx;
    const { organizationId: org, siteId: site } = news;
    const link = await writeUnder(ctx, org, site, async () => {
      const created = await createSiteShareLink(client, org, site, { name: news.name });
      // POST takes only the name, and makes an active link.
      if (news.active) return created;
      return undoOnFailure(
        { kind: "SiteShareLink", id: created.id, title: news.name },
        () => deleteSiteShareLink(client, org, site, created.id),
        () => updateSiteShareLink(client, org, site, created.id, { active: false }),
      );
    });
    return { id: link.id, state: toState(link, news) };
  },

  async read(ctx, id, known) {
    const link = await listed(ctx, known.organizationId, known.siteId, id);
    return link && { id, state: toState(link, known) };
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
