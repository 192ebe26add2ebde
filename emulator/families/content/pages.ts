/**
 * A space's pages: `GET /spaces/{spaceId}/content/pages` (listPages) and `GET /spaces/{spaceId}/content/path/{pagePath}`
 * (getPageByPath). The official document admits user and OAuth tokens (not integration tokens) to both.
 */
import { NotFoundError } from "../../errors";
import type { Route } from "../../types";
import { ok, param, requireSpace } from "../common";
import { renderPage } from "./render";
import { allPagesOf, pagesOf } from "./spacePages";

export const pageRoutes: Route[] = [
  {
    method: "GET",
    path: "/v1/spaces/{spaceId}/content/pages",
    handler: (ctx) => {
      const space = requireSpace(ctx);
      return ok({ pages: pagesOf(space).map((page) => renderPage(ctx.env, space, page)) });
    },
  },
  {
    method: "GET",
    path: "/v1/spaces/{spaceId}/content/path/{pagePath}",
    handler: (ctx) => {
      const space = requireSpace(ctx);
      // A leading or trailing slash names the same page.
      const wanted = param(ctx, "pagePath").replace(/^\/+|\/+$/g, "");
      const page = allPagesOf(space).find((p) => p.path === wanted);
      if (!page) throw new NotFoundError(`No page at path "${wanted}" in space "${space.id}"`);
      return ok(renderPage(ctx.env, space, page));
    },
  },
];
