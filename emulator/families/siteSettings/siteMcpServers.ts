/**
 * A site's MCP servers, the tools its AI Assistant may call: list, create, get, update, delete (the official
 * `site-mcp-servers` operations). Header values are secrets: a 400 about one names the header, never its value.
 */
import { NotFoundError } from "../../errors";
import { paginate } from "../../pagination";
import type { Route, RouteContext } from "../../types";
import { expression, nullable, oneOfValues, opt, parseBody, record, req, str, url } from "../../validate";
import { created, deleted, ok, param, requireSite } from "../common";
import type { SiteRec } from "../sites/records";
import type { SiteMcpServerRec } from "./records";
import { renderMcpServer } from "./render";

const collectionPath = "/v1/orgs/{organizationId}/sites/{siteId}/mcp-servers";
const itemPath = `${collectionPath}/{siteMcpServerId}`;

/** Official `SiteMcpServerName`. */
const name = str({ min: 1, max: 100 });
const transport = oneOfValues(["sse", "http"]);
/** Official `SiteMcpServerHeaders`: any header name, values 1..512 (the messages of `str` never quote the value). */
const headers = record(str({ min: 1, max: 512 }));

function requireMcpServer(ctx: RouteContext, site: SiteRec): SiteMcpServerRec {
  const id = param(ctx, "siteMcpServerId");
  const server = ctx.store.mcpServers.get(id);
  if (!server || server.siteId !== site.id)
    throw new NotFoundError(`MCP server "${id}" not found in site "${site.id}"`);
  return server;
}

export const siteMcpServerRoutes: Route[] = [
  {
    method: "GET",
    path: collectionPath,
    handler: (ctx) => {
      const site = requireSite(ctx);
      return ok(
        paginate(ctx, ctx.store.siteSettingsStore.mcpServersOf(site.id), (server) =>
          renderMcpServer(ctx.env, ctx.store, server),
        ),
      );
    },
  },
  {
    method: "POST",
    path: collectionPath,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const body = parseBody(
        ctx.body,
        {
          name: req(name),
          url: req(url),
          headers: req(headers),
          transport: opt(transport),
          condition: opt(nullable(expression)),
        },
        { required: true },
      );
      const server = ctx.store.siteSettingsStore.addMcpServer(site, {
        ...body,
        condition: body.condition ?? undefined,
      });
      // The official createSiteMcpServer documents no Location header.
      return created(renderMcpServer(ctx.env, ctx.store, server));
    },
  },
  {
    method: "GET",
    path: itemPath,
    handler: (ctx) => ok(renderMcpServer(ctx.env, ctx.store, requireMcpServer(ctx, requireSite(ctx)))),
  },
  {
    method: "PATCH",
    path: itemPath,
    handler: (ctx) => {
      const server = requireMcpServer(ctx, requireSite(ctx));
      const body = parseBody(
        ctx.body,
        {
          name: opt(name),
          url: opt(url),
          transport: opt(transport),
          headers: opt(headers),
          condition: opt(nullable(expression)),
        },
        { required: true },
      );
      ctx.store.siteSettingsStore.updateMcpServer(server, body);
      return ok(renderMcpServer(ctx.env, ctx.store, server));
    },
  },
  {
    method: "DELETE",
    path: itemPath,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const server = ctx.store.mcpServers.get(param(ctx, "siteMcpServerId"));
      return deleted(
        server !== undefined && server.siteId === site.id && ctx.store.siteSettingsStore.deleteMcpServer(server.id),
      );
    },
  },
];
