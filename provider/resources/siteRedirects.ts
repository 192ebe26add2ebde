import { z } from "zod";
import {
  type BulkRedirectOperation,
  bulkSiteRedirects,
  type HttpClient,
  listSiteRedirects,
  REDIRECT_BULK_MAX,
  type RedirectRule,
} from "../client";
import { defineKind, type ResourceContext } from "../framework/kind";
import {
  listUnderSite,
  organizationId,
  redirectListing,
  sharedUnderSite,
  siteId,
  siteIdsOf,
  UNDER_SITE,
  underSiteTitled,
  writeUnder,
} from "./siteCommon";
import { REDIRECTS_OWNED } from "./siteRedirect";
import {
  declaredRule,
  redirectCaptureWildcard,
  redirectDestination,
  redirectPermanent,
  redirectRuleState,
  redirectSource,
  ruleOf,
} from "./siteRedirectRule";

const rule = z.strictObject({
  source: redirectSource,
  destination: redirectDestination,
  permanent: redirectPermanent,
  captureWildcard: redirectCaptureWildcard,
});

const inputs = z.strictObject({
  organizationId,
  siteId,
  redirects: z
    .array(rule)
    .max(REDIRECT_BULK_MAX)
    .superRefine((rules, ctx) => {
      const first = new Map<string, number>();
      rules.forEach(({ source }, index) => {
        const earlier = first.get(source);
        if (earlier === undefined) first.set(source, index);
        else
          ctx.addIssue({
            // Stryker disable next-line StringLiteral: describeIssue words an issue of no limit by its message
            code: "custom",
            path: [index, "source"],
            message: `"${source}" is also the source of redirects[${earlier}]: a source is unique within a site`,
          });
      });
    })
    .describe(
      "Every live redirect of the site (order does not matter), at most 500: the official bulk PUT's limit, so a " +
        "create is one request. A redirect of the site missing from this list is deleted; `[]` deletes them all. " +
        "Previews show the rules by source: one line per rule added, removed or changed, wherever it is in the list.",
    ),
});

const state = z.object({
  organizationId: z.string(),
  siteId: z.string(),
  redirects: z.array(z.object(redirectRuleState)).default([]),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

function bySource(a: RedirectRule, b: RedirectRule): number {
  // Stryker disable next-line EqualityOperator,ConditionalExpression: a site's sources are unique, and sort only asks whether the result is below 0
  return a.source < b.source ? -1 : a.source > b.source ? 1 : 0;
}

/** The site's live redirects as rules, in source order. */
async function currentRules(client: HttpClient, org: string, site: string): Promise<RedirectRule[]> {
  return (await listSiteRedirects(client, org, site)).map(ruleOf).sort(bySource);
}

function toState(rules: RedirectRule[], parents: { organizationId: string; siteId: string }): State {
  return { organizationId: parents.organizationId, siteId: parents.siteId, redirects: rules };
}

/** The bulk operations that turn `current` into `desired`: upserts of new or changed rules, deletions of the rest. */
export function redirectOperations(
  current: readonly RedirectRule[],
  desired: readonly RedirectRule[],
): BulkRedirectOperation[] {
  const now = new Map(current.map((r) => [r.source, JSON.stringify(r)]));
  const wanted = new Set(desired.map((r) => r.source));
  const deletions = current
    .filter((r) => !wanted.has(r.source))
    .map((r): BulkRedirectOperation => ({ source: r.source, intent: "live", destination: null }));
  const upserts = desired
    .filter((r) => now.get(r.source) !== JSON.stringify(r))
    .map((r): BulkRedirectOperation => ({ ...r, intent: "live" }));
  return [...deletions, ...upserts];
}

/** Brings the site's live redirects to `desired` with the bulk PUT (nothing is sent when they match). */
async function applyRules(ctx: ResourceContext, org: string, site: string, desired: readonly RedirectRule[]) {
  const { client } = ctx;
  await writeUnder(ctx, org, site, async () => {
    const operations = redirectOperations(await currentRules(client, org, site), desired);
    const failed = (await bulkSiteRedirects(client, org, site, operations)).filter((r) => r.status === "error");
    if (failed.length === 0) return;
    const shown = failed.slice(0, 10).map((r) => `"${r.source}": ${r.error ?? "failed"}`);
    const more = failed.length > shown.length ? `, and ${failed.length - shown.length} more` : "";
    throw new Error(
      `SiteRedirects "${site}": the API refused ${failed.length} of ${operations.length} redirect operations ` +
        `(${shown.join("; ")}${more}); the others were applied. Fix these redirects and run \`pulumi up\` again.`,
    );
  });
}

/** Applies the declared rules, then reads back what the site has. */
async function applyDeclared(ctx: ResourceContext, news: Inputs): Promise<State> {
  const { organizationId: org, siteId: site } = news;
  await applyRules(ctx, org, site, news.redirects.map(declaredRule));
  return toState(await currentRules(ctx.client, org, site), news);
}

export const siteRedirectsKind = defineKind<Inputs, State>({
  kind: "SiteRedirects",
  docs: {
    description:
      "Every redirect of a site, as one authoritative list: for migrations and restructures with hundreds of rules.",
    adoption:
      '`importId: "<siteId>"`: the site\'s redirects are read, and the bulk PUT sends only the rules that differ ' +
      "(nothing when none does).",
    notes: [
      "- **Authoritative:** the list owns every live redirect of the site. Creating a SiteRedirects deletes the " +
        "site's redirects it does not list, a redirect added or removed by hand shows as a change in " +
        "`pulumi preview --refresh`, and the next `up` puts the list back.",
      "- Applied with the official bulk `PUT …/redirects`: one request carries the new and changed rules and the " +
        "deletions (at most 500 operations each), never a request per rule. Read back with one listing per site.",
      "- **Deleting a SiteRedirects deletes every live redirect of the site.** Use `retainOnDelete: true` to stop " +
        "managing them and keep them.",
      "- Every rule is checked at preview: the source pattern and length, unique sources, the destination's shape, " +
        "and at most 500 rules. A failure in a list over 4 KB names the rule without printing the list.",
      "- Only live redirects are managed (drafts are left alone), as with [SiteRedirect](#siteredirect); a site should " +
        "not have both kinds (preview warns).",
      "- Previews compare the rules by source (the engine's stored inputs hold them as an object by source; the " +
        "state keeps the list): adding one rule anywhere in the list shows as `+ /its-source: {…}`. Until an `up` " +
        "applies them, a preview's `redirects` output is that object too.",
    ],
    example: `new docs.SiteRedirects("redirects", {
  organizationId,
  siteId: site.id,
  redirects: [
    { source: "/v1/*", destination: { kind: "site-section", siteSectionId: legacy.id }, permanent: true },
    { source: "/blog", destination: { kind: "external", url: "https://blog.example.com" } },
  ],
});`,
  },
  scope: "site",
  inputs,
  state,
  parent: UNDER_SITE,
  id: "parent",
  listing: {
    path: (ids) => redirectListing.path(...siteIdsOf(ids)),
    async list(ctx, { ids, title }) {
      const [org, site] = siteIdsOf(ids);
      const rules = await sharedUnderSite(ctx, redirectListing, org, site);
      // A site without any redirect has none to declare.
      if (rules.length === 0) return [];
      return [{ id: site, title: `${title} redirects`, known: ids, under: underSiteTitled(title) }];
    },
    // Its rules are reported one by one, as SiteRedirect objects.
    unmanaged: false,
  },
  imported: { word: "redirects" },
  outputs: [],
  setProperties: ["redirects"],
  keyedProperties: { redirects: "source" },
  idFormat: "the site id (one SiteRedirects per site)",
  replaceOnChanges: ["organizationId", "siteId"],
  programRules: {
    conflictsUnder: { parent: "siteId", kind: "SiteRedirect", why: REDIRECTS_OWNED },
  },

  // No findCreated: the bulk PUT upserts and deletes by source, so repeating it cannot duplicate anything.
  async create(ctx, news) {
    return { id: news.siteId, state: await applyDeclared(ctx, news) };
  },

  async read(ctx, id, known) {
    if (id !== known.siteId) return undefined;
    const { organizationId: org, siteId: site } = known;
    const listed = await listUnderSite(ctx, redirectListing, org, site);
    return { id, state: toState(listed.map(ruleOf).sort(bySource), known) };
  },

  update: (ctx, _id, _olds, news) => applyDeclared(ctx, news),

  delete: (ctx, _id, olds) => applyRules(ctx, olds.organizationId, olds.siteId, []),
});
