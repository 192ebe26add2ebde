/** Spaces: GET /spaces/{spaceId}, POST /spaces/{spaceId}/move, GET /orgs/{organizationId}/spaces. */
import { paginate } from "../pagination";
import { renderSpace } from "../render";
import type { Route } from "../types";
import { ok, requireOrg, requireSpace } from "./common";
import { parseMove } from "./contentTree";

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
      const { parentId, position } = parseMove(ctx.store, space, ctx.body);
      ctx.store.moveInContentTree({ kind: "space", rec: space }, parentId, position);
      return ok(renderSpace(ctx.env, space));
    },
  },
  {
    method: "GET",
    path: "/v1/orgs/{organizationId}/spaces",
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const spaces = [...ctx.store.spaces.values()].filter((s) => s.orgId === org.id && !s.deletedAt);
      return ok(paginate(ctx, spaces, (s) => renderSpace(ctx.env, s)));
    },
  },
];
