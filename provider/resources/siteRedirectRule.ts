/**
 * A redirect rule as SiteRedirect and SiteRedirects declare it: the official createSiteRedirect body without
 * `draft` (only live redirects are managed: a draft is the GitBook editor's review step, and a program's review is
 * its pull request), and with the destinations the API reports back as given (not `path`, see `destination`).
 */
import { z } from "zod";
import {
  type ApiRedirect,
  type ApiRedirectDestination,
  REDIRECT_SOURCE_MAX,
  REDIRECT_SOURCE_PATTERN,
  RedirectDestinationSchema,
  type RedirectRule,
} from "../client";
import { apiId } from "../framework/kind";

export const redirectSource = z
  .string()
  .max(REDIRECT_SOURCE_MAX)
  .regex(
    REDIRECT_SOURCE_PATTERN,
    "must be a path such as `/old/page`: `/`-separated segments of letters, digits, `-._~+` or `%XX` escapes, " +
      "optionally ending in `/*` or `*` (a wildcard)",
  )
  .describe(
    "The path to redirect from, e.g. `/docs/old-page`; a trailing `/*` or `*` matches every path below it. Unique " +
      "within the site (at most 512 characters).",
  );

/**
 * The official SiteRedirectInputDestination without its `path` variant (a page by its path in a space): the API
 * resolves that to another kind of destination and reports that one, so the declared value would never match.
 */
export const redirectDestination = z
  .discriminatedUnion(
    "kind",
    [
      z.strictObject({
        kind: z.literal("external"),
        url: z
          .url({ protocol: /^https?$/ })
          .max(2048)
          .describe("Where to send readers (`http` or `https`)."),
      }),
      z.strictObject({ kind: z.literal("site-section"), siteSectionId: apiId.describe("A section of the site.") }),
      z.strictObject({ kind: z.literal("site-space"), siteSpaceId: apiId.describe("A site space of the site.") }),
      z.strictObject({
        kind: z.literal("site-page"),
        siteSpaceId: apiId.describe("The site space of the page."),
        pageId: apiId.describe("The page within the site space."),
      }),
    ],
    { error: 'must be one of "external", "site-section", "site-space", "site-page"' },
  )
  .describe(
    'Where the redirect goes: `{ kind: "external", url }`, `{ kind: "site-section", siteSectionId }`, ' +
      '`{ kind: "site-space", siteSpaceId }` or `{ kind: "site-page", siteSpaceId, pageId }`.',
  );

export const redirectPermanent = z
  .boolean()
  .default(false)
  .describe("Served as HTTP 308 (permanent) instead of 307 for public live traffic; omitted means `false`.");

export const redirectCaptureWildcard = z
  .boolean()
  .default(false)
  .describe("Append what a wildcard source matched to the destination URL; omitted means `false`.");

/** The rule fields of a redirect in state. */
export const redirectRuleState = {
  source: z.string(),
  destination: RedirectDestinationSchema,
  permanent: z.boolean().default(false),
  captureWildcard: z.boolean().default(false),
};

/** The destination with only the fields of its kind, in one key order (state compares as JSON). */
export function destinationOf(destination: ApiRedirectDestination): ApiRedirectDestination {
  switch (destination.kind) {
    case "external":
      return { kind: destination.kind, url: destination.url };
    case "site-section":
      return { kind: destination.kind, siteSectionId: destination.siteSectionId };
    case "site-space":
      return { kind: destination.kind, siteSpaceId: destination.siteSpaceId };
    case "site-page":
      return { kind: destination.kind, siteSpaceId: destination.siteSpaceId, pageId: destination.pageId };
  }
}

/** A redirect as a rule: the official booleans are optional in no answer, but a missing one is the API's default. */
export function ruleOf(redirect: ApiRedirect): RedirectRule {
  return {
    source: redirect.source,
    destination: destinationOf(redirect.destination),
    permanent: redirect.permanent ?? false,
    captureWildcard: redirect.captureWildcard ?? false,
  };
}

/** The rule the inputs declare, as the API takes it. */
export function declaredRule(inputs: {
  source: string;
  destination: ApiRedirectDestination;
  permanent: boolean;
  captureWildcard: boolean;
}): RedirectRule {
  return ruleOf({ id: "", ...inputs });
}
