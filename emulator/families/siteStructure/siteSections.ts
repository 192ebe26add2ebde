/**
 * Site sections: list, create (with its first site space), update (default site space, group), delete, move.
 *
 * Rules: the first section of a site becomes its default section; creating a section creates a site space for
 * `spaceId` which becomes the section's default; when the first section is created on a site whose spaces sit
 * at the root level, those root site spaces move into the new section (as non-default variants).
 */
import { BadRequestError } from "../../errors";
import { paginate } from "../../pagination";
import type { Route } from "../../types";
import { bool, expression, icon, nullable, opt, parseBody, req, str } from "../../validate";
import { created, deleted, ok, param, requireSite } from "../common";
import { siteLocation } from "../sites/render";
import {
  groupRef,
  localized128,
  localized256,
  movePosition,
  requireSection,
  spaceForSite,
  spaceTemplate,
} from "../sites/siteCommon";
import { renderSection } from "./render";

const sectionTitle = str({ min: 2, max: 128 });
const sectionPath = str({ min: 1, max: 100 });
const sectionDescription = str({ min: 0, max: 256 });

function defaultTitle(spaceTitle: string): string {
  const t = spaceTitle.trim();
  return t.length >= 2 ? t.slice(0, 128) : "Untitled section";
}

export const siteSectionRoutes: Route[] = [
  {
    method: "GET",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/sections",
    handler: (ctx) => {
      const site = requireSite(ctx);
      return ok(paginate(ctx, ctx.store.siteStore.sectionsOf(site.id), (s) => renderSection(ctx.env, ctx.store, s)));
    },
  },
  {
    method: "POST",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/sections",
    handler: (ctx) => {
      const site = requireSite(ctx);
      const { store } = ctx;
      const body = parseBody(
        ctx.body,
        {
          spaceId: req(nullable(str({ min: 1 }))),
          template: opt(spaceTemplate),
          title: opt(nullable(sectionTitle)),
          icon: opt(nullable(icon)),
          draft: opt(bool()),
          pageId: opt(str({ min: 1 })),
          siteSectionGroupId: opt(str({ min: 1 })),
        },
        { required: true },
      );
      if (body.template !== undefined && body.spaceId !== null) {
        throw new BadRequestError("template: can only be used when spaceId is null");
      }
      if (body.pageId !== undefined && body.spaceId === null) {
        throw new BadRequestError("pageId: cannot be used when spaceId is null");
      }
      const group = body.siteSectionGroupId
        ? groupRef(store, site, body.siteSectionGroupId, "siteSectionGroupId")
        : undefined;
      const space = spaceForSite(store, site, body.spaceId, "spaceId", body.title ?? undefined);
      const section = store.siteStore.addSection(site, space, {
        title: body.title ?? defaultTitle(space.title),
        groupId: group?.id,
        icon: body.icon ?? undefined,
        draft: body.draft,
        pageId: body.pageId,
      });
      return created(
        renderSection(ctx.env, store, section),
        `${siteLocation(ctx.env, site)}/sections/${encodeURIComponent(section.id)}`,
      );
    },
  },
  {
    method: "PATCH",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}",
    preferMinimal: true,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const section = requireSection(ctx, site);
      const { store } = ctx;
      const body = parseBody(
        ctx.body,
        {
          title: opt(sectionTitle),
          localizedTitle: opt(localized128),
          path: opt(sectionPath),
          defaultSiteSpace: opt(str({ min: 1 })),
          condition: opt(nullable(expression)),
          icon: opt(nullable(icon)),
          draft: opt(bool()),
          description: opt(nullable(sectionDescription)),
          localizedDescription: opt(localized256),
          siteSectionGroupId: opt(nullable(str({ min: 1 }))),
        },
        { required: true },
      );
      store.siteStore.updateSection(site, section, body);
      return ok(renderSection(ctx.env, store, section));
    },
  },
  {
    method: "DELETE",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}",
    handler: (ctx) => {
      const site = requireSite(ctx);
      const section = ctx.store.sections.get(param(ctx, "siteSectionId"));
      return deleted(
        section !== undefined && section.siteId === site.id && ctx.store.siteStore.deleteSection(section.id),
      );
    },
  },
  {
    method: "POST",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move",
    handler: (ctx) => {
      const site = requireSite(ctx);
      const section = requireSection(ctx, site);
      const { store } = ctx;
      const body = parseBody(ctx.body, { position: opt(movePosition(["site-section"], "siteSection")) });
      store.siteStructureStore.moveInStructure(site, section.id, section.groupId, body.position);
      return ok(renderSection(ctx.env, store, section));
    },
  },
];
