/**
 * Site section groups: list, create, update, delete, move, and the membership operations only the API reference has
 * `POST …/section-groups/{id}/sections` and `DELETE …/section-groups/{id}/sections/{sectionId}`.
 */
import { paginate } from "../../pagination";
import type { Route } from "../../types";
import { arr, bool, icon, nullable, opt, parseBody, req, str } from "../../validate";
import { created, deleted, given, ok, param, requireSite } from "../common";
import { siteLocation } from "../sites/render";
import { groupRef, localized128, movePosition, requireGroup, sectionRef } from "../sites/siteCommon";
import { renderSectionGroup } from "./render";

const groupTitle = str({ min: 1, max: 100 });

export const sectionGroupRoutes: Route[] = [
  {
    method: "GET",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/section-groups",
    handler: (ctx) => {
      const site = requireSite(ctx);
      return ok(paginate(ctx, ctx.store.siteStore.groupsOf(site.id), (g) => renderSectionGroup(ctx.env, ctx.store, g)));
    },
  },
  {
    method: "POST",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/section-groups",
    handler: (ctx) => {
      const site = requireSite(ctx);
      const { store } = ctx;
      const body = parseBody(
        ctx.body,
        {
          title: req(groupTitle),
          icon: opt(nullable(icon)),
          sections: opt(arr(str({ min: 1 }))),
          parent: opt(str({ min: 1 })),
          draft: opt(bool()),
        },
        { required: true },
      );
      const parent = body.parent ? groupRef(store, site, body.parent, "parent") : undefined;
      const sections = (body.sections ?? []).map((id, i) => sectionRef(store, site, id, `sections[${i}]`));
      const group = store.siteStore.addSectionGroup(
        site,
        { title: body.title, parentGroupId: parent?.id, icon: body.icon ?? undefined, draft: body.draft },
        sections,
      );
      return created(
        renderSectionGroup(ctx.env, store, group),
        `${siteLocation(ctx.env, site)}/section-groups/${encodeURIComponent(group.id)}`,
      );
    },
  },
  {
    method: "PATCH",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}",
    preferMinimal: true,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const group = requireGroup(ctx, site);
      const { store } = ctx;
      const body = parseBody(
        ctx.body,
        {
          title: opt(groupTitle),
          localizedTitle: opt(localized128),
          icon: opt(nullable(icon)),
          draft: opt(bool()),
          parentSectionGroupId: opt(nullable(str({ min: 1 }))),
        },
        { required: true },
      );
      if (body.parentSectionGroupId !== undefined) {
        const parent = body.parentSectionGroupId
          ? groupRef(store, site, body.parentSectionGroupId, "parentSectionGroupId")
          : undefined;
        store.siteStructureStore.setGroupParent(group, parent?.id);
      }
      const { title, localizedTitle, draft } = body;
      store.update("sectionGroups", group, {
        ...given({ title, localizedTitle, draft }),
        ...(body.icon !== undefined && { icon: body.icon ?? undefined }),
      });
      return ok(renderSectionGroup(ctx.env, store, group));
    },
  },
  {
    method: "DELETE",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}",
    handler: (ctx) => {
      const site = requireSite(ctx);
      const group = ctx.store.sectionGroups.get(param(ctx, "siteSectionGroupId"));
      return deleted(
        group !== undefined && group.siteId === site.id && ctx.store.siteStore.deleteSectionGroup(group.id),
      );
    },
  },
  {
    method: "POST",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move",
    handler: (ctx) => {
      const site = requireSite(ctx);
      const group = requireGroup(ctx, site);
      const { store } = ctx;
      const body = parseBody(ctx.body, { position: opt(movePosition(["site-section", "site-section-group"], "id")) });
      store.siteStructureStore.moveInStructure(site, group.id, group.parentGroupId, body.position);
      return ok(renderSectionGroup(ctx.env, store, group));
    },
  },
  // ---- membership operations of the API reference (absent from the official document)
  {
    method: "POST",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections",
    handler: (ctx) => {
      const site = requireSite(ctx);
      const group = requireGroup(ctx, site);
      const { store } = ctx;
      const body = parseBody(ctx.body, { sectionId: req(str({ min: 1 })) }, { required: true });
      const section = sectionRef(store, site, body.sectionId, "sectionId");
      store.siteStore.setSectionGroup(section, group.id);
      return created(
        renderSectionGroup(ctx.env, store, group),
        `${siteLocation(ctx.env, site)}/section-groups/${encodeURIComponent(group.id)}`,
      );
    },
  },
  {
    method: "DELETE",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}",
    handler: (ctx) => {
      const site = requireSite(ctx);
      const group = requireGroup(ctx, site);
      const section = ctx.store.sections.get(param(ctx, "siteSectionId"));
      if (!section || section.siteId !== site.id || section.groupId !== group.id) return deleted(false);
      ctx.store.siteStore.setSectionGroup(section, group.parentGroupId);
      return deleted(true);
    },
  },
];
