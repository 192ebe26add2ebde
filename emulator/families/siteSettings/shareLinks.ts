/** Site share links: list (search), create (secret token in urls.published), update (active, name), delete. */

import { NotFoundError } from "../../errors";
import { paginate } from "../../pagination";
import type { Route } from "../../types";
import { bool, opt, parseBody, queryString, req, str } from "../../validate";
import { created, deleted, given, ok, param, requireSite } from "../common";
import { siteLocation } from "../sites/render";
import { renderShareLink } from "./render";

const shareLinkName = str({ min: 0, max: 50 });

export const shareLinkRoutes: Route[] = [
  {
    method: "GET",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/share-links",
    handler: (ctx) => {
      const site = requireSite(ctx);
      const search = queryString(ctx.query, "search")?.toLowerCase();
      const links = [...ctx.store.shareLinks.values()].filter(
        (l) => l.siteId === site.id && (search === undefined || l.name.toLowerCase().includes(search)),
      );
      return ok(paginate(ctx, links, (l) => renderShareLink(ctx.store, l)));
    },
  },
  {
    method: "POST",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/share-links",
    handler: (ctx) => {
      const site = requireSite(ctx);
      const body = parseBody(ctx.body, { name: req(shareLinkName) }, { required: true });
      const link = ctx.store.siteSettingsStore.createShareLink(site, body.name);
      return created(
        renderShareLink(ctx.store, link),
        `${siteLocation(ctx.env, site)}/share-links/${encodeURIComponent(link.id)}`,
      );
    },
  },
  {
    method: "PATCH",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}",
    handler: (ctx) => {
      const site = requireSite(ctx);
      const id = param(ctx, "shareLinkId");
      const link = ctx.store.shareLinks.get(id);
      if (!link || link.siteId !== site.id)
        throw new NotFoundError(`Share link "${id}" not found in site "${site.id}"`);
      const body = parseBody(
        ctx.body,
        { active: opt(bool()), name: opt(shareLinkName) },
        { required: true, minProperties: 1 },
      );
      ctx.store.update("shareLinks", link, given(body));
      return ok(renderShareLink(ctx.store, link));
    },
  },
  {
    method: "DELETE",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}",
    handler: (ctx) => {
      const site = requireSite(ctx);
      const link = ctx.store.shareLinks.get(param(ctx, "shareLinkId"));
      if (!link || link.siteId !== site.id) return deleted(false);
      ctx.store.siteSettingsStore.deleteShareLink(link.id);
      return deleted(true);
    },
  },
];
