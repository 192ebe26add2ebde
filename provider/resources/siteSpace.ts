import { z } from "zod";
import {
  type ApiSiteSpace,
  createSiteSpace,
  deleteSiteSpace,
  type HttpClient,
  listSiteSpaces,
  type SiteSpacePatch,
  SiteSpaceSchema,
  siteSpacesPath,
  updateSite,
  updateSiteSection,
  updateSiteSpace,
} from "../client";
import { undoOnFailure } from "../framework/cleanup";
import { defineKind, idRef, type ResourceContext } from "../framework/kind";
import { changedFields } from "../framework/patch";
import { checkPageId, draft, draftState, pageId } from "./navigationFields";
import {
  defaultFlag,
  findInStructure,
  managedDefault,
  managesDefault,
  organizationId,
  siteId,
  siteIdsOf,
  UNDER_SITE,
  underSiteTitled,
  writeUnder,
} from "./siteCommon";

const inputs = z.strictObject({
  organizationId,
  siteId,
  spaceId: idRef("Space").describe("The space shown; a change points the site space at the other space, in place."),
  sectionId: idRef("SiteSection")
    .optional()
    .describe(
      "The section to add the space to; when omitted the API picks the default section, or the site's root level.",
    ),
  path: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe("The URL segment, unique in its section; the API derives it from the space's title when omitted."),
  condition: z
    .string()
    .min(1)
    .max(1024)
    .nullable()
    .optional()
    .describe("An expression deciding whether a visitor sees this space; `null` removes it."),
  hidden: z
    .boolean()
    .optional()
    .describe(
      "`true` leaves the space out of the site's navigation (its pages stay reachable by URL). Omitted: not managed.",
    ),
  default: defaultFlag,
  draft,
  pageId: pageId("`spaceId`"),
});

const state = z.object({
  organizationId: z.string(),
  siteId: z.string(),
  spaceId: z.string(),
  sectionId: z.string().nullable().default(null).describe("The section, or `null` at the site's root level."),
  path: z.string(),
  condition: z.string().nullable().default(null),
  hidden: z.boolean().default(false),
  default: managedDefault,
  draft: draftState,
  pageId: z.string().nullable().default(null).describe("The custom home page, or `null`."),
  title: z
    .string()
    .nullable()
    .default(null)
    .describe("The title shown in the site (the space's title unless changed in the web app)."),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

function toState(
  siteSpace: ApiSiteSpace,
  parents: { organizationId: string; siteId: string },
  managesDefault: boolean,
): State {
  return {
    organizationId: parents.organizationId,
    siteId: parents.siteId,
    spaceId: siteSpace.space.id,
    sectionId: siteSpace.section ?? null,
    path: siteSpace.path,
    condition: siteSpace.condition ?? null,
    hidden: siteSpace.hidden ?? false,
    default: managesDefault ? (siteSpace.default ?? false) : null,
    draft: siteSpace.draft ?? false,
    pageId: siteSpace.pageId ?? null,
    title: siteSpace.title ?? null,
  };
}

/** Makes it the default first (of its section, or of the site at root level), so the PATCH answer reports it. */
async function apply(
  client: HttpClient,
  id: string,
  section: string | null,
  news: Inputs,
  changed: ReadonlySet<string>,
) {
  const { organizationId: org, siteId: site } = news;
  if (changed.has("default") && news.default) {
    if (section) await updateSiteSection(client, org, site, section, { defaultSiteSpace: id });
    else await updateSite(client, org, site, { defaultSiteSpace: id });
  }
  const patch = changedFields<SiteSpacePatch>(news, changed, {
    spaceId: "spaceId",
    path: "path",
    condition: "condition",
    hidden: "hidden",
    draft: "draft",
    pageId: "pageId",
  });
  // The API removes the home page when the space changes without one: a declared page goes along.
  if (patch?.spaceId !== undefined && news.pageId !== undefined) patch.pageId = news.pageId;
  return patch ? updateSiteSpace(client, org, site, id, patch) : undefined;
}

// Read from the site's structure, which reports it as its own listing does: one request per site for every kind.
// `fresh` after a write of its own (siteObjects).
const listed = (ctx: ResourceContext, org: string, site: string, id: string, fresh = false) =>
  findInStructure(ctx, org, site, "site-space", SiteSpaceSchema, id, fresh);

export const siteSpaceKind = defineKind<Inputs, State>({
  kind: "SiteSpace",
  docs: {
    description: "A space published in a site, in a section or at the site's root level (a site without sections).",
    adoption:
      '`importId: "<siteSpaceId>"`, for example a [SiteSection](#sitesection)\'s `siteSpaceId` output to manage the ' +
      "section's first site space. Declare the `sectionId` it is in (or leave it out), or it is replaced.",
    notes: [
      "- **No `urls` output**, and `default` is recorded only when declared `true`, as for sections: a site space's " +
        "published URL and default status change when another site space or its section changes.",
      "- `default` works as for sections: each section (and the root level) has exactly one default site space, `true` " +
        "moves the default to this one, `false` means not managed. Declare `true` on at most one site space per section.",
      "- Create is `POST /orgs/{organizationId}/sites/{siteId}/site-spaces` with `spaceId` and `sectionId`, then " +
        "`default` and one `PATCH` for `path`, `condition` and `hidden`. If a step after the `POST` fails, the new site space is " +
        "deleted again and `up` fails.",
      "- `draft` and `pageId` are sent with the create. `draft: true` stages the site space (the published site leaves " +
        "it out until `draft: false`). `pageId` (find it with `getPage`) must be a page of `spaceId`: preflight checks " +
        "it, and a change of `spaceId` sends the declared `pageId` along, since the API removes the home page when the " +
        "space changes without one.",
      "- `localizedTitle` (reported by the API on the site space) is set through the site space's customization " +
        "override: [SiteSpaceCustomization](#sitespacecustomization) `localizedTitle`; the site space's `PATCH` has no " +
        "such field.",
      "- Declare `sectionId` whenever the site has sections: without it the space goes to whichever section is the " +
        "default at the time.",
      "- Reads list the site's site spaces; a refresh makes one listing request per site.",
    ],
    example: `new docs.SiteSpace("changelog", {
  organizationId,
  siteId: site.id,
  spaceId: changelogSpaceId,
  sectionId: guides.id,
  path: "changelog",
  condition: 'visitor.claims.plan == "pro"',
});`,
  },
  scope: "site",
  inputs,
  state,
  parent: UNDER_SITE,
  listing: {
    path: (ids) => siteSpacesPath(...siteIdsOf(ids)),
    async list(ctx, { ids, title }) {
      const [org, site] = siteIdsOf(ids);
      const load = () => listSiteSpaces(ctx.client, org, site);
      return (await ctx.listings.get(siteSpacesPath(org, site), load)).map((ss) => ({
        id: ss.id,
        title: ss.title || ss.path,
        known: { organizationId: org, siteId: site },
        under: underSiteTitled(title),
      }));
    },
    noun: "site space of the site",
    // A section owns the site space it was created with: it goes with the section.
    managedBy: { byOutput: { kind: "SiteSection", property: "siteSpaceId" } },
    unmanaged: true,
  },
  imported: { word: "space" },
  outputs: ["title"],
  idFormat:
    "the site space id (listed by `GET /orgs/<organizationId>/sites/<siteId>/site-spaces`; a SiteSection's `siteSpaceId`)",
  // Site spaces cannot move between sections or sites.
  preflightChecks: (api, news) => checkPageId("SiteSpace", api, news),
  replaceOnChanges: ["organizationId", "siteId", "sectionId"],

  // The API allows a space once per level (the site's root or a section): the site space showing it there.
  async findCreated({ client }, news) {
    const all = await listSiteSpaces(client, news.organizationId, news.siteId);
    return all
      .filter((siteSpace) => siteSpace.space.id === news.spaceId)
      .filter((siteSpace) => news.sectionId === undefined || (siteSpace.section ?? null) === news.sectionId)
      .map((siteSpace) => ({ id: siteSpace.id, title: siteSpace.title ?? siteSpace.path }));
  },
  async create(ctx, news) {
    const { client } = ctx;
    const { organizationId: org, siteId: site } = news;
    const rest = new Set<string>((["path", "condition", "default"] as const).filter((key) => news[key] != null));
    // A new site space is shown: only `hidden: true` needs the PATCH.
    if (news.hidden) rest.add("hidden");
    return writeUnder(ctx, org, site, async () => {
      const created = await createSiteSpace(client, org, site, {
        spaceId: news.spaceId,
        ...(news.sectionId ? { sectionId: news.sectionId } : {}),
        ...(news.draft !== undefined ? { draft: news.draft } : {}),
        ...(news.pageId ? { pageId: news.pageId } : {}),
      });
      const patched = await undoOnFailure(
        { kind: "SiteSpace", id: created.id, title: created.path },
        () => deleteSiteSpace(client, org, site, created.id),
        () => apply(client, created.id, created.section ?? null, news, rest),
      );
      // Without a PATCH, the POST's answer predates the default having moved to this site space.
      const current = patched ?? (news.default ? await listed(ctx, org, site, created.id, true) : created) ?? created;
      return { id: created.id, state: toState(current, news, news.default === true) };
    });
  },

  async read(ctx, id, known, declared) {
    const siteSpace = await listed(ctx, known.organizationId, known.siteId, id);
    return siteSpace && { id, state: toState(siteSpace, known, managesDefault(known, declared)) };
  },

  async update(ctx, id, olds, news, changed) {
    const { organizationId: org, siteId: site } = news;
    const patched = await writeUnder(ctx, org, site, () => apply(ctx.client, id, olds.sectionId, news, changed));
    const siteSpace = patched ?? (await listed(ctx, org, site, id, true));
    if (!siteSpace) throw new Error(`SiteSpace "${id}" update: the site space disappeared while it was being updated`);
    return toState(siteSpace, news, news.default === true);
  },

  delete: (ctx, id, olds) =>
    writeUnder(ctx, olds.organizationId, olds.siteId, () =>
      deleteSiteSpace(ctx.client, olds.organizationId, olds.siteId, id),
    ),
});
