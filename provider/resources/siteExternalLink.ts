import { z } from "zod";
import {
  type ApiSiteExternalLink,
  BadRequestError,
  createSiteExternalLink,
  deleteSiteExternalLink,
  getSiteObjects,
  getSiteStructure,
  type HttpClient,
  objectsOfType,
  type SiteExternalLinkPatch,
  SiteExternalLinkSchema,
  type SiteObjects,
  siteStructurePath,
  updateSiteExternalLink,
} from "../client";
import { defineKind, idRef, type ResourceContext } from "../framework/kind";
import { changedFields } from "../framework/patch";
import {
  draft,
  draftState,
  localizedDescription,
  localizedOf,
  localizedState,
  localizedTitle,
} from "./navigationFields";
import {
  findInStructure,
  organizationId,
  sharedUnderSite,
  siteId,
  siteIdsOf,
  structureListing,
  UNDER_SITE,
  underSiteTitled,
  writeUnder,
} from "./siteCommon";

const LINK = "site-external-link";

const inputs = z.strictObject({
  organizationId,
  siteId,
  title: z.string().min(2).max(128).describe("The link's title in the site's navigation."),
  url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .describe("Where the link leads: an absolute `http` or `https` URL."),
  parentId: idRef("SiteSectionGroup")
    .nullable()
    .default(null)
    .describe("The section group the link sits in; `null` (the default) puts it at the site's top level."),
  description: z.string().max(256).nullable().optional().describe("A description shown with the link, or `null`."),
  icon: z.string().max(50).nullable().optional().describe("An icon name such as `github`, or `null`."),
  condition: z
    .string()
    .min(1)
    .max(1024)
    .nullable()
    .optional()
    .describe(
      'An expression deciding whether a visitor sees the link, e.g. `visitor.claims.plan == "pro"`; `null` removes it.',
    ),
  draft,
  localizedTitle,
  localizedDescription,
});

const state = z.object({
  organizationId: z.string(),
  siteId: z.string(),
  title: z.string(),
  url: z.string(),
  parentId: z.string().nullable().default(null),
  description: z.string().nullable().default(null),
  icon: z.string().nullable().default(null),
  condition: z.string().nullable().default(null),
  draft: draftState,
  localizedTitle: localizedState,
  localizedDescription: localizedState,
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

function toState(link: ApiSiteExternalLink, parents: { organizationId: string; siteId: string }): State {
  return {
    organizationId: parents.organizationId,
    siteId: parents.siteId,
    title: link.title,
    url: link.url,
    parentId: link.sectionGroup ?? null,
    description: link.description ?? null,
    icon: link.icon ?? null,
    condition: link.condition ?? null,
    draft: link.draft ?? false,
    localizedTitle: localizedOf(link.localizedTitle),
    localizedDescription: localizedOf(link.localizedDescription),
  };
}

// The official document has no read or list of links: the site's structure holds them at any depth, from the one
// request per site that every kind under the site shares. `fresh` after a write of its own (siteObjects).
const listed = (ctx: ResourceContext, org: string, site: string, id: string, fresh = false) =>
  findInStructure(ctx, org, site, LINK, SiteExternalLinkSchema, id, fresh);

/** Every link of the site, at any depth, as the structure reports it. */
const linksIn = (objects: SiteObjects, path: string): ApiSiteExternalLink[] =>
  objectsOfType(objects, LINK, SiteExternalLinkSchema, path);

/** How long a link's create waits for its site's first section: a run creates them in parallel (see `create`). */
export const FIRST_SECTION_WAIT_MS = 30_000;

/** How a create waits for its site's first section; tests pass a short one and a sleep that records. */
export interface FirstSectionWait {
  timeoutMs: number;
  sleep: (ms: number) => Promise<unknown>;
}

const FIRST_SECTION_WAIT: FirstSectionWait = {
  timeoutMs: FIRST_SECTION_WAIT_MS,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * Waits (backing off from 100 ms to 2 s, for at most `timeoutMs`) until the site has a section; false if it never
 * does. A program declares a site's links and its first section side by side, and nothing in a link's inputs refers
 * to a section, so the engine creates them in parallel and the link's POST may come first; the API answers it 400
 * ("External links require a section-based site structure"). Cloud providers wait out such ordering the same way
 * (an IAM role not yet visible to the service that uses it).
 */
export async function waitForFirstSection(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  { timeoutMs, sleep }: FirstSectionWait = FIRST_SECTION_WAIT,
): Promise<boolean> {
  let waited = 0;
  for (let delay = 100; (await getSiteStructure(client, organizationId, siteId)).type !== "sections"; ) {
    if (waited >= timeoutMs) return false;
    const pause = Math.min(delay, timeoutMs - waited);
    await sleep(pause);
    waited += pause;
    delay = Math.min(delay * 2, 2000);
  }
  return true;
}

/**
 * Creates the link. On a 400, waits until the site has a section (at once when it has one: the 400 was for something
 * else, or the section came in the meantime) and creates again.
 */
export async function createLink(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  news: Inputs,
  wait: FirstSectionWait = FIRST_SECTION_WAIT,
) {
  const body = {
    title: news.title,
    url: news.url,
    ...(news.parentId !== null ? { parent: news.parentId } : {}),
    ...(news.description != null ? { description: news.description } : {}),
    ...(news.icon != null ? { icon: news.icon } : {}),
    ...(news.condition != null ? { condition: news.condition } : {}),
    ...(news.draft !== undefined ? { draft: news.draft } : {}),
    ...(news.localizedTitle ? { localizedTitle: news.localizedTitle } : {}),
    ...(news.localizedDescription ? { localizedDescription: news.localizedDescription } : {}),
  };
  try {
    return await createSiteExternalLink(client, organizationId, siteId, body);
  } catch (error) {
    if (!(error instanceof BadRequestError)) throw error;
    // Another 400 (a group of another site) comes back from the second POST: the structure said "sections" at once.
    if (await waitForFirstSection(client, organizationId, siteId, wait)) {
      return createSiteExternalLink(client, organizationId, siteId, body);
    }
    throw new Error(
      `${error.message} The site still had no section after ${wait.timeoutMs / 1000} s: declare a SiteSection of ` +
        "the site; when the same run creates its first section, `dependsOn: [section]` on the link spares this wait.",
      { cause: error },
    );
  }
}

export const siteExternalLinkKind = defineKind<Inputs, State>({
  kind: "SiteExternalLink",
  docs: {
    description: "A link in a site's navigation to a page outside the site.",
    adoption: '`importId: "<siteExternalLinkId>"`.',
    notes: [
      "- The API has no operation that reads a link: reads find it in the site's structure (`GET …/structure`), the " +
        "request a refresh already makes once per site, so links cost no request of their own.",
      "- Links need a site with sections: the API answers 400 on a site whose top level holds site spaces. A run that " +
        "creates a site's first section and its links side by side makes them in parallel, so a link's create that " +
        "meets a site without sections waits for the first one (up to 30 s) and creates again; `dependsOn: [section]` " +
        "on the link spares the wait.",
      "- A new link goes last in its level. Its place at the top level belongs to [SiteStructure](#sitestructure) " +
        "`order`, which takes its id like a section's; its place among a group's children is not managed.",
      "- A change of `parentId` moves the link in place (`PATCH` with `parent`), to the end of its new level.",
      "- `draft: true` stages the link: the site's structure keeps it in its place (and in SiteStructure `order`), the " +
        "published site leaves it out until `draft: false`. `localizedTitle` and `localizedDescription` are sent with " +
        "the create and replaced whole by a change.",
    ],
    example: `const status = new docs.SiteExternalLink("status", {
  organizationId,
  siteId: site.id,
  title: "Status page",
  url: "https://status.example.com",
  icon: "signal",
});`,
  },
  scope: "site",
  inputs,
  state,
  parent: UNDER_SITE,
  listing: {
    path: (ids) => siteStructurePath(...siteIdsOf(ids)),
    async list(ctx, { ids, title }) {
      const [org, site] = siteIdsOf(ids);
      const [objects] = await sharedUnderSite(ctx, structureListing, org, site);
      const path = ctx.client.displayPath(siteStructurePath(org, site));
      return linksIn(objects!, path).map((link) => ({
        id: link.id,
        title: link.title,
        known: { organizationId: org, siteId: site },
        under: underSiteTitled(title),
      }));
    },
    noun: "external link of the site",
    unmanaged: true,
  },
  imported: { word: "link" },
  outputs: [],
  idFormat: "the link id (in `GET /orgs/<organizationId>/sites/<siteId>/structure`, as a `site-external-link` item)",
  replaceOnChanges: ["organizationId", "siteId"],

  // The API reports no createdAt for links: every link of the site with the declared title and URL counts.
  async findCreated({ client }, news) {
    const objects = await getSiteObjects(client, news.organizationId, news.siteId);
    const path = client.displayPath(siteStructurePath(news.organizationId, news.siteId));
    return linksIn(objects, path)
      .filter((link) => link.title === news.title && link.url === news.url)
      .map((link) => ({ id: link.id, title: link.title }));
  },
  async create(ctx, news) {
    const { organizationId: org, siteId: site } = news;
    const link = await writeUnder(ctx, org, site, () => createLink(ctx.client, org, site, news));
    return { id: link.id, state: toState(link, news) };
  },

  async read(ctx, id, known) {
    const link = await listed(ctx, known.organizationId, known.siteId, id);
    return link && { id, state: toState(link, known) };
  },

  async update(ctx, id, _olds, news, changed) {
    const { organizationId: org, siteId: site } = news;
    const patch = changedFields<SiteExternalLinkPatch>(news, changed, {
      title: "title",
      url: "url",
      parentId: "parent",
      description: "description",
      icon: "icon",
      condition: "condition",
      draft: "draft",
      localizedTitle: "localizedTitle",
      localizedDescription: "localizedDescription",
    });
    const link = patch
      ? await writeUnder(ctx, org, site, () => updateSiteExternalLink(ctx.client, org, site, id, patch))
      : await listed(ctx, org, site, id, true);
    if (!link) throw new Error(`SiteExternalLink "${id}" update: the link disappeared while it was being updated`);
    return toState(link, news);
  },

  delete: (ctx, id, olds) =>
    writeUnder(ctx, olds.organizationId, olds.siteId, () =>
      deleteSiteExternalLink(ctx.client, olds.organizationId, olds.siteId, id),
    ),
});
