/**
 * Site spaces: list (`default` filter), add (to a section, the default section, or the root level), update
 * (path, condition, retarget), delete (the level's default moves on), move.
 */
import { BadRequestError } from "../../errors";
import { paginate } from "../../pagination";
import type { Route } from "../../types";
import { bool, expression, nullable, opt, parseBody, queryBool, req, str } from "../../validate";
import { created, deleted, ok, param, requireSite } from "../common";
import { siteLocation } from "../sites/render";
import { movePosition, requireSiteSpace, sectionRef, spaceForSite, spaceTemplate } from "../sites/siteCommon";
import { renderSiteSpace } from "./render";

const siteSpacePath = str({ min: 1, max: 100 });

export const siteSpaceRoutes: Route[] = [
  {
    method: "GET",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces",
    handler: (ctx) => {
      const site = requireSite(ctx);
      const isDefault = queryBool(ctx.query, "default");
      const all = ctx.store.siteStore
        .siteSpacesOf(site.id)
        .filter((s) => isDefault === undefined || s.isDefault === isDefault);
      return ok(paginate(ctx, all, (s) => renderSiteSpace(ctx.env, ctx.store, s)));
    },
  },
  {
    method: "POST",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces",
    preferMinimal: true,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const { store } = ctx;
      const body = parseBody(
        ctx.body,
        {
          spaceId: req(nullable(str({ min: 1 }))),
          template: opt(spaceTemplate),
          sectionId: opt(str({ min: 1 })),
          draft: opt(bool()),
          pageId: opt(nullable(str({ min: 1 }))),
          title: opt(str({ min: 2, max: 128 })),
        },
        { required: true },
      );
      if (body.template !== undefined && body.spaceId !== null) {
        throw new BadRequestError("template: can only be used when spaceId is null");
      }
      const section =
        body.sectionId !== undefined
          ? sectionRef(store, site, body.sectionId, "sectionId")
          : store.siteStore.defaultSection(site.id);
      if (body.spaceId !== null) {
        // Reject duplicates before anything is created.
        const dup = store.siteStore.siteSpacesIn(site.id, section?.id).find((s) => s.spaceId === body.spaceId);
        if (dup) {
          throw new BadRequestError(
            `spaceId: space "${body.spaceId}" is already in ${section ? `site section "${section.id}"` : "the root level of the site"}`,
          );
        }
      }
      const space = spaceForSite(store, site, body.spaceId, "spaceId", body.title);
      const ss = store.siteStore.addSiteSpace(site, space, section?.id, {
        draft: body.draft,
        pageId: body.pageId,
        title: body.title,
      });
      return created(
        renderSiteSpace(ctx.env, store, ss),
        `${siteLocation(ctx.env, site)}/site-spaces/${encodeURIComponent(ss.id)}`,
      );
    },
  },
  {
    method: "PATCH",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}",
    preferMinimal: true,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const ss = requireSiteSpace(ctx, site);
      const { store } = ctx;
      const body = parseBody(
        ctx.body,
        {
          path: opt(siteSpacePath),
          condition: opt(nullable(expression)),
          pageId: opt(nullable(str({ min: 1 }))),
          spaceId: opt(str({ min: 1 })),
          hidden: opt(bool()),
          draft: opt(bool()),
        },
        { required: true },
      );
      store.siteStore.updateSiteSpace(site, ss, body);
      return ok(renderSiteSpace(ctx.env, store, ss));
    },
  },
  {
    method: "DELETE",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}",
    handler: (ctx) => {
      const site = requireSite(ctx);
      const ss = ctx.store.siteSpaces.get(param(ctx, "siteSpaceId"));
      return deleted(ss !== undefined && ss.siteId === site.id && ctx.store.siteStore.deleteSiteSpace(ss.id));
    },
  },
  {
    method: "POST",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move",
    handler: (ctx) => {
      const site = requireSite(ctx);
      const ss = requireSiteSpace(ctx, site);
      const { store } = ctx;
      const body = parseBody(ctx.body, { position: opt(movePosition(["site-space"], "siteSpace")) });
      store.siteStructureStore.moveSiteSpace(site, ss, body.position);
      return ok(renderSiteSpace(ctx.env, store, ss));
    },
  },
];
