import { z } from "zod";
import {
  type ApiSiteSection,
  createSiteSection,
  createSiteSpace,
  deleteSiteSection,
  type HttpClient,
  listSiteSections,
  type SiteSectionPatch,
  SiteSectionSchema,
  siteSectionsPath,
  updateSite,
  updateSiteSection,
  updateSiteSpace,
} from "../client";
import { undoOnFailure } from "../framework/cleanup";
import { defineKind, idRef, type ResourceContext } from "../framework/kind";
import { changedFields } from "../framework/patch";
import {
  checkPageId,
  draft,
  draftState,
  localizedDescription,
  localizedOf,
  localizedState,
  localizedTitle,
  pageId,
} from "./navigationFields";
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
  spaceId: idRef("Space").describe(
    "The space the section is created with, as its first site space; another space retargets that site space in place.",
  ),
  title: z
    .string()
    .min(2)
    .max(128)
    .optional()
    .describe("The section's title; the API takes the space's title when omitted."),
  path: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe("The section's URL segment, unique in the site; the API derives it from the title when omitted."),
  icon: z.string().max(50).nullable().optional().describe("An icon name such as `book`, or `null`."),
  condition: z
    .string()
    .min(1)
    .max(1024)
    .nullable()
    .optional()
    .describe(
      'An expression deciding whether a visitor sees the section, e.g. `visitor.claims.plan == "pro"`; `null` removes it.',
    ),
  description: z.string().max(256).nullable().optional().describe("The section's description, or `null`."),
  default: defaultFlag,
  draft,
  localizedTitle,
  localizedDescription,
  pageId: pageId("`spaceId`"),
});

const state = z.object({
  organizationId: z.string(),
  siteId: z.string(),
  spaceId: z
    .string()
    .nullable()
    .default(null)
    .describe("`null` when the section no longer shows that space; the next `up` then adds a site space for it."),
  title: z.string(),
  path: z.string(),
  icon: z.string().nullable().default(null),
  condition: z.string().nullable().default(null),
  description: z.string().nullable().default(null),
  default: managedDefault,
  draft: draftState,
  localizedTitle: localizedState,
  localizedDescription: localizedState,
  pageId: z
    .string()
    .nullable()
    .default(null)
    .describe("The custom home page: the `pageId` of the section's own site space (`siteSpaceId`)."),
  siteSpaceId: z
    .string()
    .nullable()
    .default(null)
    .describe(
      "The site space created with the section for `spaceId` (adopt it with a SiteSpace's `importId` to manage it).",
    ),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

interface Parents {
  organizationId: string;
  siteId: string;
}

/** The section's own site space: the one known from before, else the one showing `spaceId`. */
function toState(
  section: ApiSiteSection,
  parents: Parents,
  known: { siteSpaceId?: string | null; spaceId: string | null },
  managesDefault: boolean,
): State {
  const own =
    section.siteSpaces.find((ss) => ss.id === known.siteSpaceId) ??
    section.siteSpaces.find((ss) => ss.space.id === known.spaceId);
  return {
    organizationId: parents.organizationId,
    siteId: parents.siteId,
    spaceId: own?.space.id ?? null,
    title: section.title,
    path: section.path,
    icon: section.icon ?? null,
    condition: section.condition ?? null,
    description: section.description ?? null,
    default: managesDefault ? (section.default ?? false) : null,
    draft: section.draft ?? false,
    localizedTitle: localizedOf(section.localizedTitle),
    localizedDescription: localizedOf(section.localizedDescription),
    pageId: own?.pageId ?? null,
    siteSpaceId: own?.id ?? null,
  };
}

/** Makes the section the default first, so that the PATCH answer (if any) already reports it. */
async function apply(client: HttpClient, id: string, news: Inputs, changed: ReadonlySet<string>) {
  const { organizationId: org, siteId: site } = news;
  if (changed.has("default") && news.default) await updateSite(client, org, site, { defaultSiteSection: id });
  const patch = changedFields<SiteSectionPatch>(news, changed, {
    title: "title",
    path: "path",
    icon: "icon",
    condition: "condition",
    description: "description",
    draft: "draft",
    localizedTitle: "localizedTitle",
    localizedDescription: "localizedDescription",
  });
  return patch ? updateSiteSection(client, org, site, id, patch) : undefined;
}

/**
 * Points the section's own site space at the new space (`PATCH …/site-spaces/{id}` with `spaceId`), which keeps the
 * section, its other site spaces and its URLs, and sets its `pageId` (the API removes the home page when the space
 * changes without one); a section that lost its own site space gets a new one. Returns its id.
 */
async function retarget(
  client: HttpClient,
  id: string,
  olds: State,
  news: Inputs,
  changed: ReadonlySet<string>,
): Promise<string> {
  const { organizationId: org, siteId: site } = news;
  const page = changed.has("pageId") && news.pageId !== undefined ? { pageId: news.pageId } : {};
  const space = changed.has("spaceId") ? { spaceId: news.spaceId } : {};
  if (olds.siteSpaceId) {
    return (await updateSiteSpace(client, org, site, olds.siteSpaceId, { ...space, ...page })).id;
  }
  const created = { spaceId: news.spaceId, sectionId: id, ...(news.pageId ? { pageId: news.pageId } : {}) };
  return (await createSiteSpace(client, org, site, created)).id;
}

// Read from the site's structure, which reports it as its own listing does: one request per site for every kind.
// `fresh` after a write of its own (siteObjects).
const listed = (ctx: ResourceContext, org: string, site: string, id: string, fresh = false) =>
  findInStructure(ctx, org, site, "site-section", SiteSectionSchema, id, fresh);

export const siteSectionKind = defineKind<Inputs, State>({
  kind: "SiteSection",
  docs: {
    description: "A section of a site, created with a first space; it holds one or more site spaces.",
    adoption:
      '`importId: "<sectionId>"`, with `spaceId` set to a space the section already shows (usually its first one). ' +
      "With another `spaceId`, the adopted section reads as showing no such space and the next `up` adds a site space " +
      "for it.",
    notes: [
      "- **`default`.** The API keeps exactly one default section per site (the first section created becomes it), so " +
        "a section cannot stop being the default by itself. `true` makes the section the default; `false` means the " +
        "same as leaving it out, which lets a program write `default: index === 0`. Declare `true` on at most one " +
        "section per site.",
      "- **No `urls` output.** A section's published URL is the site's root while it is the site's default and " +
        "`<site URL>/<path>` otherwise, so creating or changing another section would leave it stale in this " +
        "section's state; build it from the Site's `urls.published` and `path`. For the same reason `default` is " +
        "recorded only for a section that declares `default: true`.",
      "- Create is `POST /orgs/{organizationId}/sites/{siteId}/sections` with `spaceId`, `title` and `icon`, which also " +
        "creates the section's first site space; then `default` and one `PATCH` for `path`, `condition` and " +
        "`description`. If a later step fails, the new section is deleted again, unless it has taken in existing site " +
        "spaces (next point): it is then kept, and the error gives its id to adopt with `importId`.",
      "- When the first section is added to a site whose site spaces sit at its root level, the API moves those site " +
        "spaces into it.",
      "- Deleting a section deletes its site spaces with it, including any managed by [SiteSpace](#sitespace) resources.",
      "- Group membership is set on the group: [SiteSectionGroup](#sitesectiongroup) `sectionIds`.",
      "- A change of `spaceId` retargets the section's own site space (`siteSpaceId`) in place with `PATCH " +
        "…/site-spaces/{siteSpaceId}` and `spaceId`: the section, its other site spaces, its path and its URLs stay. When " +
        "the section no longer has its own site space (`spaceId` reads as `null`), the next `up` adds one for `spaceId`.",
      "- Replacements (a change of `siteId` or `organizationId`) delete first, because the new section usually keeps " +
        "the path, which must be unique in the site.",
      "- Reads list the site's sections; a refresh makes one listing request per site.",
      "- `draft: true` stages the section: the site's structure (what editors and this provider read, and SiteStructure " +
        "`order`) keeps it in its place, the published site leaves it out until `draft: false`. `draft` and `pageId` go " +
        "with the create's `POST`; `localizedTitle` and `localizedDescription` with the `PATCH` after it (the create " +
        "body has no such fields) and are replaced whole by a change.",
      "- `pageId` is the custom home page of the section's own site space (`siteSpaceId`): the API reports it there, " +
        "and a change is a `PATCH …/site-spaces/{siteSpaceId}` with `pageId`. It must be a page of `spaceId` (find it " +
        "with `getPage`): preflight checks it against the space's pages.",
    ],
    example: `const guides = new docs.SiteSection("guides", {
  organizationId,
  siteId: site.id,
  spaceId: guidesSpaceId,
  title: "Guides",
  icon: "book",
  default: true,
});`,
  },
  scope: "site",
  inputs,
  state,
  parent: UNDER_SITE,
  listing: {
    path: (ids) => siteSectionsPath(...siteIdsOf(ids)),
    async list(ctx, { ids, title }) {
      const [org, site] = siteIdsOf(ids);
      const load = () => listSiteSections(ctx.client, org, site);
      // A section is declared with the space it shows first: its default site space, else its first one.
      return (await ctx.listings.get(siteSectionsPath(org, site), load)).map((s) => {
        const own = s.siteSpaces.find((ss) => ss.default) ?? s.siteSpaces[0];
        const known = { organizationId: org, siteId: site, ...(own ? { spaceId: own.space.id } : {}) };
        return { id: s.id, title: s.title, known, under: underSiteTitled(title), item: s };
      });
    },
    noun: "section of the site",
    unmanaged: true,
  },
  imported: { word: "section" },
  outputs: ["siteSpaceId"],
  idFormat: "the section id (listed by `GET /orgs/<organizationId>/sites/<siteId>/sections`)",
  programRules: {
    exclusiveFlag: { property: "default", parent: "siteId" },
  },
  preflightChecks: (api, news) => checkPageId("SiteSection", api, news),
  replaceOnChanges: ["organizationId", "siteId"],
  // A replacement usually keeps its path, which must be unique in the site: the old section must go first.
  deleteBeforeReplace: true,

  // A section is made with its first site space: the site's sections holding that space (of the declared title).
  async findCreated({ client }, news) {
    const all = await listSiteSections(client, news.organizationId, news.siteId);
    return all
      .filter((section) => section.siteSpaces.some((siteSpace) => siteSpace.space.id === news.spaceId))
      .filter((section) => news.title === undefined || section.title === news.title)
      .map((section) => ({ id: section.id, title: section.title }));
  },
  async create(ctx, news) {
    const { client } = ctx;
    const { organizationId: org, siteId: site } = news;
    // The POST takes no localized labels: they go with the PATCH that follows.
    const later = ["path", "condition", "description", "default", "localizedTitle", "localizedDescription"] as const;
    const rest = new Set<string>(later.filter((key) => news[key] != null));
    return writeUnder(ctx, org, site, async () => {
      const created = await createSiteSection(client, org, site, {
        spaceId: news.spaceId,
        ...(news.title ? { title: news.title } : {}),
        ...(news.icon != null ? { icon: news.icon } : {}),
        ...(news.draft !== undefined ? { draft: news.draft } : {}),
        // The section's first site space gets it.
        ...(news.pageId ? { pageId: news.pageId } : {}),
      });
      const section = await undoOnFailure(
        { kind: "SiteSection", id: created.id, title: created.title },
        async () => {
          // The first section of a site takes in the site's root-level site spaces; deleting it would delete them.
          if (created.siteSpaces.length > 1) return "it holds the site's former root-level site spaces";
          await deleteSiteSection(client, org, site, created.id);
        },
        () => apply(client, created.id, news, rest),
      );
      // Without a PATCH, the POST's answer predates the default having moved to this section.
      const current = section ?? (news.default ? await listed(ctx, org, site, created.id, true) : created) ?? created;
      return { id: created.id, state: toState(current, news, news, news.default === true) };
    });
  },

  async read(ctx, id, known, declared) {
    const section = await listed(ctx, known.organizationId, known.siteId, id);
    return section && { id, state: toState(section, known, known, managesDefault(known, declared)) };
  },

  async update(ctx, id, olds, news, changed) {
    const { organizationId: org, siteId: site } = news;
    const own = await writeUnder(ctx, org, site, async () => {
      const ownChanges = changed.has("spaceId") || (changed.has("pageId") && news.pageId !== undefined);
      const retargeted = ownChanges ? await retarget(ctx.client, id, olds, news, changed) : olds.siteSpaceId;
      const patched = await apply(ctx.client, id, news, changed);
      return { retargeted, patched };
    });
    const section = own.patched ?? (await listed(ctx, org, site, id, true));
    if (!section) throw new Error(`SiteSection "${id}" update: the section disappeared while it was being updated`);
    return toState(section, news, { siteSpaceId: own.retargeted, spaceId: news.spaceId }, news.default === true);
  },

  // The API deletes the section's site spaces with it.
  delete: (ctx, id, olds) =>
    writeUnder(ctx, olds.organizationId, olds.siteId, () =>
      deleteSiteSection(ctx.client, olds.organizationId, olds.siteId, id),
    ),
});
