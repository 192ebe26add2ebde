import { z } from "zod";
import {
  type ApiRedirect,
  createSiteRedirect,
  deleteSiteRedirect,
  getSiteRedirectBySource,
  NotFoundError,
  type RedirectRule,
  updateSiteRedirect,
} from "../client";
import { defineKind } from "../framework/kind";
import { readListed } from "../framework/listings";
import {
  needsUnderSites,
  organizationId,
  redirectListing,
  sharedUnderSite,
  siteId,
  siteIdsOf,
  UNDER_SITE,
  underSiteTitled,
  writeUnder,
} from "./siteCommon";
import {
  declaredRule,
  redirectCaptureWildcard,
  redirectDestination,
  redirectPermanent,
  redirectRuleState,
  redirectSource,
  ruleOf,
} from "./siteRedirectRule";

const inputs = z.strictObject({
  organizationId,
  siteId,
  source: redirectSource,
  destination: redirectDestination,
  permanent: redirectPermanent,
  captureWildcard: redirectCaptureWildcard,
});

const state = z.object({
  organizationId: z.string(),
  siteId: z.string(),
  ...redirectRuleState,
  createdAt: z.string().nullable().default(null).describe("When the redirect was created."),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

function toState(redirect: ApiRedirect, parents: { organizationId: string; siteId: string }): State {
  return {
    organizationId: parents.organizationId,
    siteId: parents.siteId,
    ...ruleOf(redirect),
    createdAt: redirect.createdAt ?? null,
  };
}

/** Why a SiteRedirect and a SiteRedirects must not share a site (the warning both kinds give). */
export const REDIRECTS_OWNED =
  "a SiteRedirects owns every live redirect of its site and deletes the ones its list lacks at each `up`, which the " +
  "SiteRedirect then creates again. Move the SiteRedirect's rule into the SiteRedirects' redirects list.";

const RULE_FIELDS = ["source", "destination", "permanent", "captureWildcard"] as const;

export const siteRedirectKind = defineKind<Inputs, State>({
  kind: "SiteRedirect",
  docs: {
    description: "One URL redirect of a site: a source path and where it sends readers.",
    adoption:
      '`importId: "<redirectId>"`: the redirect is read from the site\'s listing and patched only where it differs.',
    notes: [
      "- Every field changes in place with `PATCH …/redirects/<id>`, `source` included; only a move to another site " +
        "or organization replaces the redirect.",
      "- A source is unique within a site, so a create whose answer was lost looks the source up " +
        "(`GET …/redirect?source=`) instead of creating a second redirect.",
      "- Only live redirects are managed: the API's drafts (`draft: true`) are the GitBook editor's review step, and a " +
        "program's review is its pull request. A draft of the same source is left alone.",
      "- For dozens or hundreds of rules, declare one [SiteRedirects](#siteredirects) per site instead; a site should " +
        "not have both (preview warns).",
    ],
    example: `new docs.SiteRedirect("old-quickstart", {
  organizationId,
  siteId: site.id,
  source: "/getting-started/quickstart",
  destination: { kind: "site-section", siteSectionId: guides.id },
  permanent: true,
});`,
  },
  scope: "site",
  inputs,
  state,
  parent: UNDER_SITE,
  listing: {
    path: (ids) => redirectListing.path(...siteIdsOf(ids)),
    async list(ctx, { ids, title }) {
      const [org, site] = siteIdsOf(ids);
      const rules = await sharedUnderSite(ctx, redirectListing, org, site);
      return rules.map((r) => ({
        id: r.id,
        title: r.source,
        known: { organizationId: org, siteId: site, source: r.source },
        under: underSiteTitled(title),
      }));
    },
    noun: "redirect of the site",
    // The API keeps a source unique within a site: a redirect deleted and made again by hand is still its source's.
    managedBy: { byKindUnder: "SiteRedirects", byKey: "source" },
    unmanaged: true,
  },
  imported: { inside: "a site's redirects are all in its one SiteRedirects" },
  outputs: ["createdAt"],
  idFormat: "the redirect id (listed by `GET /orgs/<organizationId>/sites/<siteId>/redirects`)",
  replaceOnChanges: ["organizationId", "siteId"],
  programRules: {
    conflictsUnder: { parent: "siteId", kind: "SiteRedirects", why: REDIRECTS_OWNED },
  },

  async findCreated({ client }, news) {
    try {
      const redirect = await getSiteRedirectBySource(client, news.organizationId, news.siteId, news.source);
      return redirect.draft ? [] : [{ id: redirect.id, title: redirect.source }];
    } catch (error) {
      if (error instanceof NotFoundError) return [];
      throw error;
    }
  },

  async create(ctx, news) {
    const { organizationId: org, siteId: site } = news;
    const redirect = await writeUnder(ctx, org, site, () =>
      createSiteRedirect(ctx.client, org, site, declaredRule(news)),
    );
    return { id: redirect.id, state: toState(redirect, news) };
  },

  async read(ctx, id, known) {
    const { organizationId: org, siteId: site } = known;
    // Through readListed, for its fallback to a single read when the listing fails.
    needsUnderSites(ctx, redirectListing);
    const redirect = await readListed(ctx.listings, {
      path: redirectListing.path(org, site),
      list: () => redirectListing.list(ctx.client, org, site),
      matches: (item) => item.id === id,
      // The API reads one redirect only by its source.
      single: () => getSiteRedirectBySource(ctx.client, org, site, known.source),
    });
    return redirect && redirect.id === id ? { id, state: toState(redirect, known) } : undefined;
  },

  async update(ctx, id, _olds, news, changed) {
    const rule = declaredRule(news);
    const patch: Partial<RedirectRule> = {};
    for (const field of RULE_FIELDS) if (changed.has(field)) Object.assign(patch, { [field]: rule[field] });
    const { organizationId: org, siteId: site } = news;
    return toState(await writeUnder(ctx, org, site, () => updateSiteRedirect(ctx.client, org, site, id, patch)), news);
  },

  delete: (ctx, id, olds) =>
    writeUnder(ctx, olds.organizationId, olds.siteId, () =>
      deleteSiteRedirect(ctx.client, olds.organizationId, olds.siteId, id),
    ),
});
