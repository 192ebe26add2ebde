/** Spaces: GET /spaces/{spaceId}, POST /spaces/{spaceId}/move, GET /orgs/{organizationId}/spaces. */
import { paginate } from "../pagination";
import { renderSpace } from "../render";
import type { Route } from "../types";
import { parseBody } from "../validate";
import { ok, requireOrg, requireSpace } from "./common";
import { moveBodyShape, placeItem, resolveParent } from "./contentTree";

export const spaceRoutes: Route[] = [
  {
    method: "GET",
    path: "/v1/spaces/{spaceId}",
    handler: (ctx) => ok(renderSpace(ctx.env, requireSpace(ctx))),
  },
  {
    method: "POST",
    path: "/v1/spaces/{spaceId}/move",
    handler: (ctx) => {
      const space = requireSpace(ctx);
      const body = parseBody(ctx.body, moveBodyShape, { required: true, minProperties: 1 });
      const parentId = resolveParent(ctx.store, space.orgId, body.parent, space.parentId);
      placeItem(ctx.store, { kind: "space", rec: space }, parentId, body.position);
      space.updatedAt = ctx.store.now();
      return ok(renderSpace(ctx.env, space));
    },
  },
  {
    method: "GET",
    path: "/v1/orgs/{organizationId}/spaces",
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const spaces = [...ctx.store.spaces.values()].filter((s) => s.orgId === org.id && !s.deletedAt);
      return ok(
        paginate(
          ctx,
          spaces,
          (s) => renderSpace(ctx.env, s),
          (s) => s.id,
        ),
      );
    },
  },
];
