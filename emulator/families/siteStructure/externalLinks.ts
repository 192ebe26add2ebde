/**
 * Site external links: create, update (including the move to another group or the root), delete. The official
 * document has no operation that reads one or lists them: they are read from the site's structure (routes/sites.ts).
 */

import type { Route } from "../../types";
import { bool, expression, icon, nullable, opt, parseBody, req, str, url } from "../../validate";
import { created, deleted, ok, param, requireSite } from "../common";
import { siteLocation } from "../sites/render";
import { groupRef, localized128, localized256, requireExternalLink } from "../sites/siteCommon";
import { renderExternalLink } from "./render";

const linkTitle = str({ min: 2, max: 128 });
const linkDescription = str({ min: 0, max: 256 });

export const externalLinkRoutes: Route[] = [
  {
    method: "POST",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/external-links",
    handler: (ctx) => {
      const site = requireSite(ctx);
      const { store } = ctx;
      const body = parseBody(
        ctx.body,
        {
          title: req(linkTitle),
          url: req(url),
          localizedTitle: opt(localized128),
          description: opt(nullable(linkDescription)),
          localizedDescription: opt(nullable(localized256)),
          icon: opt(nullable(icon)),
          parent: opt(str({ min: 1 })),
          draft: opt(bool()),
          condition: opt(nullable(expression)),
        },
        { required: true },
      );
      const group = body.parent ? groupRef(store, site, body.parent, "parent") : undefined;
      const link = store.siteStructureStore.addExternalLink(site, {
        title: body.title,
        url: body.url,
        localizedTitle: body.localizedTitle,
        description: body.description ?? undefined,
        localizedDescription: body.localizedDescription ?? undefined,
        icon: body.icon ?? undefined,
        groupId: group?.id,
        draft: body.draft,
        condition: body.condition ?? undefined,
      });
      return created(
        renderExternalLink(link),
        `${siteLocation(ctx.env, site)}/external-links/${encodeURIComponent(link.id)}`,
      );
    },
  },
  {
    method: "PATCH",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/external-links/{siteExternalLinkId}",
    preferMinimal: true,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const link = requireExternalLink(ctx, site);
      const body = parseBody(
        ctx.body,
        {
          title: opt(linkTitle),
          url: opt(url),
          localizedTitle: opt(nullable(localized128)),
          description: opt(nullable(linkDescription)),
          localizedDescription: opt(nullable(localized256)),
          icon: opt(nullable(icon)),
          parent: opt(nullable(str({ min: 1 }))),
          draft: opt(bool()),
          condition: opt(nullable(expression)),
        },
        { required: true },
      );
      const { parent, ...fields } = body;
      ctx.store.siteStructureStore.updateExternalLink(site, link, { ...fields, groupId: parent });
      return ok(renderExternalLink(link));
    },
  },
  {
    method: "DELETE",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/external-links/{siteExternalLinkId}",
    handler: (ctx) => {
      const site = requireSite(ctx);
      const link = ctx.store.externalLinks.get(param(ctx, "siteExternalLinkId"));
      return deleted(
        link !== undefined && link.siteId === site.id && ctx.store.siteStructureStore.deleteExternalLink(link.id),
      );
    },
  },
];
