/** Organizations: GET /orgs, GET /orgs/{organizationId}. */
import { paginate } from "../pagination";
import { renderOrg } from "../render";
import type { Route } from "../types";
import { ok, requireOrg } from "./common";

export const orgRoutes: Route[] = [
  {
    method: "GET",
    path: "/v1/orgs",
    handler: (ctx) => {
      const orgs = [...ctx.store.orgs.values()];
      return ok(paginate(ctx, orgs, (o) => renderOrg(ctx.env, o)));
    },
  },
  {
    method: "GET",
    path: "/v1/orgs/{organizationId}",
    handler: (ctx) => ok(renderOrg(ctx.env, requireOrg(ctx))),
  },
];
