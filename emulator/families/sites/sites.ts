/**
 * Sites: list (filters), create, get, update, delete (cascade), publish/unpublish, style guide, structure and its sort.
 */
import { BadRequestError } from "../../errors";
import { paginate } from "../../pagination";
import type { Store } from "../../store";
import type { Env, Route } from "../../types";
import {
  arr,
  bool,
  defaultLevel,
  expectNoBody,
  nullable,
  obj,
  oneOfValues,
  opt,
  parseBody,
  queryBool,
  queryEnumList,
  queryString,
  req,
  SITE_TYPES,
  SITE_VISIBILITIES,
  str,
} from "../../validate";
import { created, deleted, ok, param, requireOrg, requireSite } from "../common";
import type { ItemRef } from "../content/records";
import { renderSpace } from "../content/render";
import { renderSiteSpace, renderStructureItem } from "../siteStructure/render";
import type { SiteRec } from "./records";
import { renderSite, siteLocation } from "./render";
import { requireSiteSpace, spaceForSite } from "./siteCommon";
import { structureParent } from "./sitePatches";

const siteTitle = str({ min: 2, max: 128 });
const siteBasename = str({ min: 1, max: 100 });
/** SiteProxyOrigin: a host name followed by one or more path segments, max 512. */
const siteProxy = str({
  max: 512,
  pattern: /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/,
  patternLabel: "must be a host name followed by one or more path segments (e.g. example.com/docs)",
});

export function siteStructure(env: Env, store: Store, site: SiteRec): unknown {
  const sections = store.siteStore.sectionsOf(site.id);
  if (sections.length === 0) {
    return {
      type: "siteSpaces",
      structure: store.siteStore.siteSpacesIn(site.id, undefined).map((s) => renderSiteSpace(env, store, s)),
    };
  }
  return {
    type: "sections",
    structure: store.siteStructureStore
      .structureSiblings(site.id, undefined)
      .map((item) => renderStructureItem(env, store, item)),
  };
}

const structureItemRef = obj({
  type: req(oneOfValues(["site-space", "site-section", "site-section-group", "site-external-link"] as const)),
  id: req(str({ min: 1 })),
});

export const siteRoutes: Route[] = [
  {
    method: "GET",
    path: "/v1/orgs/{organizationId}/sites",
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const { store } = ctx;
      const space = queryString(ctx.query, "space");
      const title = queryString(ctx.query, "title")?.toLowerCase();
      const published = queryBool(ctx.query, "published");
      const types = queryEnumList(ctx.query, "type", SITE_TYPES);
      const sites = [...store.sites.values()].filter(
        (s) =>
          s.orgId === org.id &&
          (space === undefined || store.siteStore.siteSpacesOf(s.id).some((ss) => ss.spaceId === space)) &&
          (title === undefined || s.title.toLowerCase().includes(title)) &&
          (published === undefined || s.published === published) &&
          (types.length === 0 || types.some((t) => t === s.type)),
      );
      return ok(paginate(ctx, sites, (s) => renderSite(ctx.env, store, s)));
    },
  },
  {
    method: "POST",
    path: "/v1/orgs/{organizationId}/sites",
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const { store } = ctx;
      const body = parseBody(ctx.body, {
        type: opt(oneOfValues(SITE_TYPES)),
        title: opt(siteTitle),
        visibility: opt(oneOfValues(SITE_VISIBILITIES)),
        spaces: opt(arr(str({ min: 1 }))),
      });
      const spaces = (body.spaces ?? []).map((id, i) => spaceForSite(store, { orgId: org.id }, id, `spaces[${i}]`));
      const site = store.siteStore.createSite(
        org.id,
        { title: body.title ?? "Untitled site", type: body.type ?? "basic", visibility: body.visibility ?? "public" },
        spaces,
      );
      return created(renderSite(ctx.env, store, site), siteLocation(ctx.env, site));
    },
  },
  {
    method: "GET",
    path: "/v1/orgs/{organizationId}/sites/{siteId}",
    handler: (ctx) => ok(renderSite(ctx.env, ctx.store, requireSite(ctx))),
  },
  {
    method: "PATCH",
    path: "/v1/orgs/{organizationId}/sites/{siteId}",
    handler: (ctx) => {
      const site = requireSite(ctx);
      const { store } = ctx;
      const body = parseBody(
        ctx.body,
        {
          title: opt(siteTitle),
          visibility: opt(oneOfValues(SITE_VISIBILITIES)),
          basename: opt(siteBasename),
          adaptiveContent: opt(obj({ enabled: req(bool()) })),
          defaultLevel: opt(defaultLevel),
          defaultSiteSpace: opt(str({ min: 1 })),
          defaultSiteSection: opt(str({ min: 1 })),
          proxy: opt(nullable(siteProxy)),
          styleguide: opt(nullable(str({ min: 1 }))),
          // only in the API reference (absent from the official document: test/contract/deviations.ts)
          agentsContext: opt(oneOfValues(["excluded", "included"] as const)),
        },
        { required: true },
      );
      store.siteStore.updateSite(site, body);
      return ok(renderSite(ctx.env, store, site));
    },
  },
  {
    method: "DELETE",
    path: "/v1/orgs/{organizationId}/sites/{siteId}",
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const site = ctx.store.sites.get(param(ctx, "siteId"));
      return deleted(site !== undefined && site.orgId === org.id && ctx.store.siteStore.deleteSite(site.id));
    },
  },
  {
    method: "POST",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/publish",
    handler: (ctx) => {
      const site = requireSite(ctx);
      expectNoBody(ctx.body);
      ctx.store.update("sites", site, { published: true });
      return ok(renderSite(ctx.env, ctx.store, site));
    },
  },
  {
    method: "POST",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/unpublish",
    handler: (ctx) => {
      const site = requireSite(ctx);
      expectNoBody(ctx.body);
      ctx.store.update("sites", site, { published: false });
      return ok(renderSite(ctx.env, ctx.store, site));
    },
  },
  {
    // createSiteStyleguideById: the only way the document gives to make a style guide space (a Space of `type:
    // styleguide`), and idempotent: a site whose style guide is still there gets it back. Its `template` seeds content
    // the emulator does not model, so any template id is accepted.
    method: "POST",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/styleguide",
    handler: (ctx) => {
      const site = requireSite(ctx);
      const { store } = ctx;
      parseBody(ctx.body, { template: opt(str({ min: 1 })) });
      const current = site.styleguideSpaceId ? store.spaces.get(site.styleguideSpaceId) : undefined;
      if (current && !current.deletedAt) return ok(renderSpace(ctx.env, store, current));
      const space = store.createSpace(site.orgId, `${site.title} style guide`, { type: "styleguide" });
      store.update("sites", site, { styleguideSpaceId: space.id });
      return ok(renderSpace(ctx.env, store, space));
    },
  },
  {
    method: "GET",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/structure",
    handler: (ctx) => ok(siteStructure(ctx.env, ctx.store, requireSite(ctx))),
  },
  {
    method: "PATCH",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/structure/sort",
    preferMinimal: true,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const { store, env } = ctx;
      const body = parseBody(
        ctx.body,
        {
          item: req(structureItemRef),
          position: req(obj({ before: opt(structureItemRef), after: opt(structureItemRef) })),
        },
        { required: true },
      );
      const toItemRef = (p?: { type: string; id: string }): ItemRef | undefined =>
        p ? { kind: p.type, id: p.id } : undefined;
      const position = { before: toItemRef(body.position.before), after: toItemRef(body.position.after) };
      const { item } = body;
      if (item.type === "site-space") {
        const ss = requireSiteSpace(ctx, site, item.id);
        store.siteStructureStore.moveSiteSpace(site, ss, position);
        return ok(renderSiteSpace(env, store, ss));
      }
      if (!store.siteStructureStore.siteItemExists(site, { kind: item.type, id: item.id }))
        throw new BadRequestError(`item: ${item.type} "${item.id}" not found in site "${site.id}"`);
      const moved = store.siteStructureStore.structureItem(item.type, item.id)!;
      store.siteStructureStore.moveInStructure(site, item.id, structureParent(moved), position);
      return ok(renderStructureItem(env, store, moved));
    },
  },
];
