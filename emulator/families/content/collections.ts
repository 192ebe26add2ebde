/**
 * Collections: GET/PATCH/DELETE /collections/{id}, GET /collections/{id}/spaces, POST …/move, POST …/transfer,
 * GET/POST /orgs/{organizationId}/collections.
 */
import { ConflictError, NotFoundError } from "../../errors";
import { paginate } from "../../pagination";
import type { Route } from "../../types";
import { defaultLevel, opt, parseBody, queryBool, req, str } from "../../validate";
import { created, deleted, given, ok, param, requireCollection, requireOrg } from "../common";
import { parseMove } from "./contentTree";
import { collectionLocation, renderCollection, renderSpace } from "./render";

const collectionTitle = str({ max: 50 });
const collectionDescription = str({ min: 0, max: 100 });

export const collectionRoutes: Route[] = [
  {
    method: "GET",
    path: "/v1/collections/{collectionId}",
    handler: (ctx) => ok(renderCollection(ctx.env, requireCollection(ctx))),
  },
  {
    method: "PATCH",
    path: "/v1/collections/{collectionId}",
    handler: (ctx) => {
      const c = requireCollection(ctx);
      const body = parseBody(
        ctx.body,
        { title: opt(collectionTitle), description: opt(collectionDescription), defaultLevel: opt(defaultLevel) },
        { required: true },
      );
      ctx.store.update("collections", c, given(body));
      return ok(renderCollection(ctx.env, c));
    },
  },
  {
    method: "DELETE",
    path: "/v1/collections/{collectionId}",
    handler: (ctx) => deleted(ctx.store.deleteCollection(param(ctx, "collectionId"))),
  },
  {
    method: "GET",
    path: "/v1/collections/{collectionId}/spaces",
    handler: (ctx) => {
      const c = requireCollection(ctx);
      const spaces = [...ctx.store.spaces.values()]
        .filter((s) => s.parentId === c.id && !s.deletedAt)
        .sort((a, b) => a.position - b.position);
      return ok(paginate(ctx, spaces, (s) => renderSpace(ctx.env, ctx.store, s)));
    },
  },
  {
    method: "POST",
    path: "/v1/collections/{collectionId}/move",
    handler: (ctx) => {
      const c = requireCollection(ctx);
      const { parentId, position } = parseMove(ctx.store, c, ctx.body);
      ctx.store.moveCollection(c, parentId, position);
      return ok(renderCollection(ctx.env, c));
    },
  },
  {
    method: "POST",
    path: "/v1/collections/{collectionId}/transfer",
    handler: (ctx) => {
      const c = requireCollection(ctx);
      const body = parseBody(ctx.body, { organization: req(str({ min: 1 })) }, { required: true });
      const target = ctx.store.orgs.get(body.organization);
      if (!target) throw new NotFoundError(`organization: organization "${body.organization}" not found`);
      if (target.id === c.orgId) {
        throw new ConflictError(`organization: collection "${c.id}" already belongs to organization "${target.id}"`);
      }
      // The transferred collection lands at the top level of the target organization.
      ctx.store.transferCollection(c, target.id);
      return ok(renderCollection(ctx.env, c));
    },
  },
  {
    method: "GET",
    path: "/v1/orgs/{organizationId}/collections",
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const nested = queryBool(ctx.query, "nested") ?? true;
      const all = [...ctx.store.collections.values()].filter(
        (c) => c.orgId === org.id && (nested || c.parentId === undefined),
      );
      return ok(paginate(ctx, all, (c) => renderCollection(ctx.env, c)));
    },
  },
  {
    method: "POST",
    path: "/v1/orgs/{organizationId}/collections",
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const body = parseBody(ctx.body, { title: opt(collectionTitle), parent: opt(str({ min: 1 })) });
      const c = ctx.store.createCollection(org.id, { title: body.title ?? "Untitled", parentId: body.parent });
      return created(renderCollection(ctx.env, c), collectionLocation(ctx.env, c.id));
    },
  },
];
