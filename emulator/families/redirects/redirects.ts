/**
 * Site redirects (official `site-redirects` operations): list (draft filter, search, orderBy), create, lookup by
 * source, update, delete and the bulk PUT (up to 500 operations, per-item results). Invariants: redirectStore.ts.
 */

import { BadRequestError, NotFoundError } from "../../errors";
import { paginate } from "../../pagination";
import type { Route } from "../../types";
import {
  arr,
  bool,
  type Check,
  entityId,
  isPlainObject,
  literal,
  nullable,
  obj,
  oneOfValues,
  opt,
  parseBody,
  queryBool,
  queryEnum,
  queryString,
  req,
  str,
  url,
} from "../../validate";
import { created, deleted, ok, param, requireSite } from "../common";
import type { RedirectDestination, SiteRedirectRec } from "./records";
import type { BulkItem } from "./redirectStore";
import { redirectTarget, renderRedirect } from "./render";

/** The official SiteRedirectSourcePath. */
const SOURCE_PATTERN =
  /^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$/;
const source = str({
  max: 512,
  pattern: SOURCE_PATTERN,
  patternLabel: "must be a path of /-separated segments, optionally ending in /* or *",
});
const BULK_MAX = 500;

const DESTINATIONS = {
  external: obj({ kind: req(literal("external")), url: req(url) }),
  "site-section": obj({ kind: req(literal("site-section")), siteSectionId: req(str()) }),
  "site-space": obj({ kind: req(literal("site-space")), siteSpaceId: req(str()) }),
  "site-page": obj({ kind: req(literal("site-page")), siteSpaceId: req(str()), pageId: req(entityId) }),
} as const;

/**
 * The official SiteRedirectDestination (and, on create, SiteRedirectInputDestination's `path` variant, which the
 * emulator refuses: it models no pages to resolve a path to).
 */
function destination(input: boolean): Check<RedirectDestination> {
  const kinds = [...Object.keys(DESTINATIONS), ...(input ? ["path"] : [])];
  return (value, path) => {
    const kind = isPlainObject(value) ? value.kind : undefined;
    if (kind === "path" && input) {
      throw new BadRequestError(`${path}.kind: path destinations are not modeled by the emulator (it has no pages)`);
    }
    const check = DESTINATIONS[kind as keyof typeof DESTINATIONS];
    if (!check) throw new BadRequestError(`${path}.kind: must be one of ${kinds.join(", ")}`);
    return check(value, path) as RedirectDestination;
  };
}

const bulkItem: Check<BulkItem> = (value, path) => {
  if (isPlainObject(value) && value.intent === "publish") {
    return obj({ source: req(source), intent: req(literal("publish")) })(value, path);
  }
  const item = obj({
    source: req(source),
    intent: opt(oneOfValues(["live", "draft"])),
    captureWildcard: opt(bool()),
    permanent: opt(bool()),
    destination: req(nullable(destination(true))),
  })(value, path);
  return { ...item, intent: item.intent ?? "live" };
};

const ORDERS = ["createdAt", "updatedAt", "source"] as const;

function ordered(items: SiteRedirectRec[], order: (typeof ORDERS)[number]): SiteRedirectRec[] {
  const newest = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);
  if (order === "source") return items.sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
  if (order === "updatedAt")
    return items.sort((a, b) => newest(a.updatedAt ?? a.createdAt, b.updatedAt ?? b.createdAt));
  return items.sort((a, b) => newest(a.createdAt, b.createdAt));
}

const SITE = "/v1/orgs/{organizationId}/sites/{siteId}";

export const redirectRoutes: Route[] = [
  {
    method: "GET",
    path: `${SITE}/redirects`,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const draft = queryBool(ctx.query, "draft") ?? false;
      const search = queryString(ctx.query, "search")?.toLowerCase();
      const order = queryEnum(ctx.query, "orderBy", ORDERS) ?? "createdAt";
      const items = ctx.store.redirectStore
        .redirectsOf(site.id, draft)
        .filter((r) => search === undefined || r.source.toLowerCase().includes(search));
      return ok(paginate(ctx, ordered(items, order), renderRedirect));
    },
  },
  {
    method: "POST",
    path: `${SITE}/redirects`,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const body = parseBody(
        ctx.body,
        {
          source: req(source),
          captureWildcard: opt(bool()),
          draft: opt(bool()),
          permanent: opt(bool()),
          destination: req(destination(true)),
        },
        { required: true },
      );
      const rec = ctx.store.redirectStore.createRedirect(site, {
        source: body.source,
        draft: body.draft ?? false,
        captureWildcard: body.captureWildcard ?? false,
        permanent: body.permanent ?? false,
        destination: body.destination,
      });
      return created(renderRedirect(rec));
    },
  },
  {
    method: "PUT",
    path: `${SITE}/redirects`,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const body = parseBody(
        ctx.body,
        { redirects: req(arr(bulkItem, { min: 1, max: BULK_MAX })) },
        { required: true },
      );
      return ok({ results: ctx.store.redirectStore.bulkRedirects(site, body.redirects) });
    },
  },
  {
    method: "GET",
    path: `${SITE}/redirect`,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const wanted = source(queryString(ctx.query, "source") ?? "", "source");
      const redirects = ctx.store.redirectStore;
      const found =
        redirects.redirectBySource(site.id, wanted, false) ?? redirects.redirectBySource(site.id, wanted, true);
      if (!found) throw new NotFoundError(`No redirect with source "${wanted}" in site "${site.id}"`);
      return ok({ redirect: renderRedirect(found), target: redirectTarget(ctx.store, site, found) });
    },
  },
  {
    method: "PATCH",
    path: `${SITE}/redirects/{siteRedirectId}`,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const id = param(ctx, "siteRedirectId");
      const rec = ctx.store.redirects.get(id);
      if (!rec || rec.siteId !== site.id) throw new NotFoundError(`Redirect "${id}" not found in site "${site.id}"`);
      const patch = parseBody(
        ctx.body,
        {
          source: opt(source),
          captureWildcard: opt(bool()),
          draft: opt(bool()),
          permanent: opt(bool()),
          destination: opt(destination(false)),
        },
        { required: true },
      );
      return ok(renderRedirect(ctx.store.redirectStore.updateRedirect(site, rec, patch)));
    },
  },
  {
    method: "DELETE",
    path: `${SITE}/redirects/{siteRedirectId}`,
    handler: (ctx) => {
      const site = requireSite(ctx);
      return deleted(ctx.store.redirectStore.deleteRedirect(site, param(ctx, "siteRedirectId")));
    },
  },
];
