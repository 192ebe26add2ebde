import { z } from "zod";
import type { HttpClient } from "../client";
import {
  type ApiSite,
  BadRequestError,
  createSite,
  deleteSite,
  getSite,
  listSites,
  publishSite,
  SITE_TYPES,
  SITE_VISIBILITIES,
  type SitePatch,
  sitesPath,
  unpublishSite,
  updateSite,
} from "../client";
import { undoOnFailure } from "../framework/cleanup";
import { ResourceError } from "../framework/explain";
import { defineKind, idRef } from "../framework/kind";
import { readListed } from "../framework/listings";
import { changedFields } from "../framework/patch";
import { createdSince } from "../framework/recovery";
import { DEFAULT_LEVELS } from "./common";
import { organizationId, prefetchUnderSite, writeUnder } from "./siteCommon";

/** SiteProxyOrigin: a host name followed by at least one path segment, such as example.com/docs. */
const PROXY_ORIGIN = /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/;

const inputs = z.strictObject({
  organizationId,
  title: z.string().min(2).max(128).describe("The site's title."),
  type: z
    .enum(SITE_TYPES)
    .optional()
    .describe(
      "The site's plan type; chosen by the API from the organization's plan when omitted. Create-only: a change " +
        "fails at preview unless `allowReplace: true`.",
    ),
  visibility: z.enum(SITE_VISIBILITIES).optional().describe("Who can see the published site."),
  basename: z.string().min(1).max(100).optional().describe("The site's URL segment."),
  proxy: z
    .string()
    .max(512)
    .regex(PROXY_ORIGIN)
    .nullable()
    .optional()
    .describe(
      "Where the site is served through a reverse proxy, e.g. `www.example.com/docs`; `null` removes the proxy.",
    ),
  adaptiveContent: z
    .boolean()
    .optional()
    .describe("Whether content adapts to visitor claims (see SiteAdaptiveSchema)."),
  defaultLevel: z
    .enum(DEFAULT_LEVELS)
    .nullable()
    .optional()
    .describe(
      "The access every organization member gets to the site: a role, `inherit` (from the organization) or `null` " +
        "(none). Omitted: not managed.",
    ),
  styleguide: idRef("Space")
    .nullable()
    .optional()
    .describe(
      "The site's style guide: the id of a style guide space of the organization (made by `POST " +
        "…/sites/{siteId}/styleguide`), whose rules the editing agent checks edits against; `null` detaches it. " +
        "Omitted: not managed.",
    ),
  published: z
    .boolean()
    .optional()
    .describe("Whether the site is published (`POST …/publish` or `…/unpublish`); a new site is unpublished."),
  allowReplace: z
    .boolean()
    .optional()
    .describe(
      "Lets a change of `type` or `organizationId` replace the site (deleting everything under it); without it, such " +
        "a change fails at preview. Never sent to the API.",
    ),
});

const state = z.object({
  organizationId: z.string(),
  title: z.string(),
  type: z.string(),
  visibility: z.string(),
  basename: z.string().nullable().default(null),
  proxy: z.string().nullable().default(null),
  adaptiveContent: z.boolean().default(false),
  defaultLevel: z.string().nullable().default(null),
  styleguide: z.string().nullable().default(null),
  published: z.boolean().default(false),
  hostname: z.string().nullable().default(null).describe("The site's custom hostname, when one is set up."),
  urls: z
    .object({ location: z.string(), app: z.string(), preview: z.string(), published: z.string() })
    .partial()
    .default({})
    .describe("`location` (API URL), `app` (the site in the web app), `preview`, and `published` once published."),
  createdAt: z.string().nullable().default(null).describe("When the site was created."),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

function toState(site: ApiSite, organization: string): State {
  return {
    organizationId: organization,
    title: site.title,
    type: site.type,
    visibility: site.visibility,
    basename: site.basename ?? null,
    proxy: site.proxy?.origin ?? null,
    adaptiveContent: site.adaptiveContent?.enabled ?? false,
    defaultLevel: site.defaultLevel ?? null,
    styleguide: site.styleguide?.space ?? null,
    published: site.published,
    hostname: site.hostname ?? null,
    urls: { ...site.urls },
    createdAt: site.createdAt ?? null,
  };
}

async function setPublished(client: HttpClient, organization: string, id: string, published: boolean) {
  if (!published) return unpublishSite(client, organization, id);
  const result = await publishSite(client, organization, id);
  if ("site" in result) return result.site;
  throw new Error(
    `Site "${id}" publish: the organization's plan does not allow publishing this site (the API answered with a ` +
      "checkout session for a plan upgrade instead of publishing it). Upgrade the plan in the GitBook app, or set published: false.",
  );
}

/** The site's PATCH; a style guide the API refuses is explained with how a style guide space is made. */
async function patchSite(client: HttpClient, organization: string, id: string, patch: SitePatch) {
  try {
    return await updateSite(client, organization, id, patch);
  } catch (error) {
    const guide = patch.styleguide;
    if (!(error instanceof BadRequestError) || typeof guide !== "string") throw error;
    if (!/style ?guide/i.test(error.message) && !error.message.includes(guide)) throw error;
    throw new ResourceError({
      what:
        `styleguide "${guide}": the API refused it as the site's style guide (${error.message}); it must be a style ` +
        "guide space of the site's organization, which only createSiteStyleguideById makes (POST " +
        "/orgs/{organizationId}/sites/{siteId}/styleguide, on any site): a space made as usual is not one. Make it " +
        "that way once, adopt it as a Space with importId, and set styleguide: <that Space>.id",
      cause: error,
    });
  }
}

/** Applies the changed fields (one PATCH), then publishes or unpublishes; the last answer is the site. */
async function apply(client: HttpClient, id: string, news: Inputs, changed: ReadonlySet<string>) {
  const patch: SitePatch = {
    ...changedFields<SitePatch>(news, changed, {
      title: "title",
      visibility: "visibility",
      basename: "basename",
      proxy: "proxy",
      defaultLevel: "defaultLevel",
      styleguide: "styleguide",
    }),
  };
  const wants = (key: keyof Inputs) => changed.has(key) && news[key] !== undefined;
  if (wants("adaptiveContent")) patch.adaptiveContent = { enabled: news.adaptiveContent === true };
  let site: ApiSite | undefined;
  if (Object.keys(patch).length > 0) site = await patchSite(client, news.organizationId, id, patch);
  if (wants("published")) site = await setPublished(client, news.organizationId, id, news.published === true);
  return site;
}

export const siteKind = defineKind<Inputs, State>({
  kind: "Site",
  docs: {
    description:
      "A site that publishes spaces to an audience. Everything else in the site family lives under a site and takes " +
      "its id as `siteId`.",
    adoption: '`importId: "<siteId>"`.',
    notes: [
      "- Create is `POST /orgs/{organizationId}/sites` with `title`, `type` and `visibility`, then one `PATCH` for " +
        "`basename`, `proxy`, `adaptiveContent`, `defaultLevel` and `styleguide` when declared, then `publish` when `published: " +
        "true`. If a step after the `POST` fails, the new site is deleted again and `up` fails.",
      "- Publishing can need a plan upgrade: the API then answers with a checkout session instead of publishing, and " +
        "`up` fails saying so. Upgrade the plan in the web app, or set `published: false`.",
      "- Deleting a site deletes everything under it: sections, section groups, site spaces, share links and its " +
        "adaptive schema. Replacing a site (a change of `type` or `organizationId`) also replaces every resource that " +
        "takes its id.",
      "- **Create-only `type` and `organizationId`.** A site cannot change either in place, and a replacement deletes " +
        "the site with everything under it (sections, site spaces, share links, adaptive schema, customization) and " +
        "gives it new URLs. So a change of either fails at preview (`check` compares with the previous inputs), " +
        "naming the old value. To replace the site anyway, set `allowReplace: true` on it for that `up` (a provider " +
        "option: never sent, never a diff). Pulumi's `replaceOnChanges` resource option cannot opt in here: the " +
        "properties already replace; what they lacked was a stop.",
      "- `type`: when omitted, the API reference says new sites are `basic`, while the official API document says the " +
        "default depends on the plan. Before you add `type` to the program of an existing site, check its `type` " +
        "output: any other value replaces the site.",
      "- `styleguide` takes the id of an existing style guide space (`updateSiteById`'s `styleguide`): the API " +
        "refuses any other space, and a style guide space is made only by `createSiteStyleguideById` (`POST " +
        "/orgs/{organizationId}/sites/{siteId}/styleguide`, which also attaches it to that site), never by `POST " +
        "/orgs/{organizationId}/spaces`. So make it once that way, declare the space as a [Space](#space) " +
        "(`importId`, or `docs-platform import`), and set `styleguide: styleguideSpace.id`. The refresh reads it " +
        'from the site itself (`styleguide: {kind: "space", space}`), with no request of its own. `null` detaches ' +
        "it and the space stays; leaving it out of the program leaves the site's style guide as it is.",
      "- Not managed: the site's custom hostname, and which section or site space is the " +
        "default (set that with `default: true` on a [SiteSection](#sitesection) or [SiteSpace](#sitespace)).",
      "- No `agentsContext`: the API reference shows one (`excluded` or `included`), but the official API document " +
        "has it neither in the site nor in `PATCH /orgs/{organizationId}/sites/{siteId}`, so it would not reach the " +
        "real API. (The document's `…/agent-settings` are other settings: scans, findings and editing instructions.)",
    ],
    example: `const site = new docs.Site("docs", {
  organizationId,
  title: "Acme Docs",
  visibility: "share-link",
  adaptiveContent: true,
  published: true,
});
export const siteUrl = site.urls.apply((urls) => urls.published ?? urls.app);`,
  },
  scope: "site",
  inputs,
  state,
  listing: {
    path: ({ organizationId }) => sitesPath(String(organizationId)),
    async list(ctx, { ids }) {
      const org = String(ids.organizationId);
      const all = await ctx.listings.get(sitesPath(org), () => listSites(ctx.client, org));
      return all.map((s) => ({ id: s.id, title: s.title, known: ids, siteId: s.id, item: s }));
    },
    unmanaged: true,
  },
  imported: { word: "site" },
  outputs: ["hostname", "urls", "createdAt"],
  idFormat: "the site id, as in `https://app.gitbook.com/o/<organizationId>/sites/<siteId>`",
  // Sites cannot change type or move to another organization.
  replaceOnChanges: ["organizationId", "type"],
  programRules: {
    companion: {
      when: { property: "visibility", equals: "visitor-auth" },
      kind: "SiteVisitorAuth",
      parent: "siteId",
      why: "its readers are asked to sign in, but nothing declares where (fallbackURL) or exports the signing key. Declare a SiteVisitorAuth with siteId: site.id.",
    },
  },
  guardedReplaces: {
    properties: ["organizationId", "type"],
    why:
      "the site is deleted with everything under it (sections, site spaces, share links, adaptive schema, " +
      "customization), and the new site gets new URLs.",
  },
  providerOptions: ["allowReplace"],

  async findCreated({ client }, news, since) {
    const all = await listSites(client, news.organizationId);
    return all
      .filter((site) => site.title === news.title && createdSince(site.createdAt, since))
      .map((site) => ({ id: site.id, title: site.title }));
  },
  async create({ client }, news) {
    const created = await createSite(client, news.organizationId, {
      title: news.title,
      ...(news.type ? { type: news.type } : {}),
      ...(news.visibility ? { visibility: news.visibility } : {}),
    });
    // POST takes only type, title and visibility; a new site is unpublished, with no basename, proxy or style guide
    // (a declared null of those is its state already), but its members' access is `inherit`: a declared null is sent.
    const rest = new Set<string>(
      (["basename", "proxy", "adaptiveContent", "defaultLevel", "styleguide"] as const).filter(
        (key) => news[key] !== undefined && (news[key] !== null || key === "defaultLevel"),
      ),
    );
    if (news.published) rest.add("published");
    const site = await undoOnFailure(
      { kind: "Site", id: created.id, title: news.title },
      () => deleteSite(client, news.organizationId, created.id),
      () => apply(client, created.id, news, rest),
    );
    return { id: created.id, state: toState(site ?? created, news.organizationId) };
  },

  // One listing of the organization's sites serves every site of a refresh: it reports the same Site objects as
  // GET /orgs/{organizationId}/sites/{siteId}, and a site missing from it is gone.
  async read(ctx, id, known) {
    const { client } = ctx;
    const organization = known.organizationId;
    const site = await readListed(ctx.listings, {
      path: sitesPath(organization),
      list: () => listSites(client, organization),
      matches: (item) => item.id === id,
      single: () => getSite(client, organization, id),
    });
    if (site) prefetchUnderSite(ctx, organization, id);
    return site && { id, state: toState(site, organization) };
  },

  async update({ client }, id, _olds, news, changed) {
    const site = (await apply(client, id, news, changed)) ?? (await getSite(client, news.organizationId, id));
    return toState(site, news.organizationId);
  },

  // Everything under the site goes with it (sections, groups, site spaces, share links, adaptive schema).
  delete: (ctx, id, olds) =>
    writeUnder(ctx, olds.organizationId, id, () => deleteSite(ctx.client, olds.organizationId, id)),
});
