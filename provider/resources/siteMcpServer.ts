import { z } from "zod";
import {
  type ApiSiteMcpServer,
  createSiteMcpServer,
  deleteSiteMcpServer,
  listSiteMcpServers,
  SITE_MCP_TRANSPORTS,
  type SiteMcpServerPatch,
  updateSiteMcpServer,
} from "../client";
import { defineKind, SENSITIVE } from "../framework/kind";
import { changedFields } from "../framework/patch";
import {
  findListed,
  itemsUnderSite,
  mcpServerListing,
  organizationId,
  siteId,
  UNDER_SITE,
  writeUnder,
} from "./siteCommon";

/*
 * A header name is an RFC 9110 token. The official document leaves names free; a name with a space or a colon could
 * not be sent by the API's client anyway, so it fails at preview with no request rather than at the first tool call.
 */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const inputs = z.strictObject({
  organizationId,
  siteId,
  name: z.string().min(1).max(100).describe("The server's name, as the site's assistant shows it."),
  url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .describe("The server's endpoint: an absolute `http` or `https` URL."),
  transport: z
    .enum(SITE_MCP_TRANSPORTS)
    .default("sse")
    .describe("How the assistant talks to the server: `sse` (the API's default) or `http` (streamable HTTP)."),
  headers: z
    .record(
      z.string().regex(HEADER_NAME, "must be an HTTP header name (letters, digits and !#$%&'*+.^_`|~-)"),
      z.string().min(1).max(512),
    )
    .optional()
    .meta(SENSITIVE)
    .describe(
      "HTTP headers sent with every request to the server, such as `Authorization`: secret in the state and never " +
        "shown in errors. Left out: not managed (a create sends none).",
    ),
  condition: z
    .string()
    .min(1)
    .max(1024)
    .nullable()
    .optional()
    .describe(
      'An expression deciding whether a visitor\'s assistant may use the server, e.g. `visitor.claims.plan == "pro"`; ' +
        "`null` removes it.",
    ),
});

const state = z.object({
  organizationId: z.string(),
  siteId: z.string(),
  name: z.string(),
  url: z.string(),
  transport: z.enum(SITE_MCP_TRANSPORTS).default("sse"),
  headers: z.record(z.string(), z.string()).default({}),
  condition: z.string().nullable().default(null),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

function toState(server: ApiSiteMcpServer, parents: { organizationId: string; siteId: string }): State {
  return {
    organizationId: parents.organizationId,
    siteId: parents.siteId,
    name: server.name,
    url: server.url,
    // The official document gives `sse` as the default of a field every answer carries.
    transport: server.transport ?? "sse",
    headers: server.headers ?? {},
    condition: server.condition ?? null,
  };
}

export const siteMcpServerKind = defineKind<Inputs, State>({
  kind: "SiteMcpServer",
  docs: {
    description:
      "An MCP server whose tools the site's AI assistant may call when it answers the site's visitors " +
      "(`…/sites/{siteId}/mcp-servers`).",
    adoption: '`importId: "<siteMcpServerId>"`.',
    notes: [
      "- `headers` are secrets: the state keeps them as Pulumi secrets, previews show `[secret]`, and an error that " +
        "would quote one (the API's answer echoing it) shows `[secret]` instead. The API reads them back, so a header " +
        "changed by hand is drift.",
      "- `docs-platform import` leaves `headers` out of the program it writes, so no credential lands in a file: " +
        "they stay unmanaged until declared (from secret config: `config.requireSecret`).",
      "- Reads come from the site's server listing (`GET …/mcp-servers`), one request per site in a refresh.",
      "- Two servers of one name in one site fail at preview: the assistant would show both under one name.",
    ],
    example: `const config = new pulumi.Config();
new docs.SiteMcpServer("tickets", {
  organizationId,
  siteId: site.id,
  name: "Ticket search",
  url: "https://mcp.example.com/tickets",
  transport: "http",
  headers: { Authorization: pulumi.interpolate\`Bearer \${config.requireSecret("ticketsToken")}\` },
});`,
  },
  scope: "site",
  inputs,
  state,
  parent: UNDER_SITE,
  listing: itemsUnderSite(mcpServerListing, (server) => server.name, "MCP server of the site"),
  imported: { word: "mcp", leaveOut: ["headers"] },
  outputs: [],
  secretOutputs: ["headers"],
  idFormat: "the MCP server id (listed by `GET /orgs/<organizationId>/sites/<siteId>/mcp-servers`)",
  replaceOnChanges: ["organizationId", "siteId"],
  programRules: { uniqueBy: ["siteId", "name"] },

  // The API reports no createdAt for servers: every server of the site with the declared name counts.
  async findCreated({ client }, news) {
    const servers = await listSiteMcpServers(client, news.organizationId, news.siteId);
    return servers
      .filter((server) => server.name === news.name)
      .map((server) => ({ id: server.id, title: server.name }));
  },

  async create(ctx, news) {
    const { organizationId: org, siteId: site } = news;
    const server = await writeUnder(ctx, org, site, () =>
      createSiteMcpServer(ctx.client, org, site, {
        name: news.name,
        url: news.url,
        transport: news.transport,
        headers: news.headers ?? {},
        ...(news.condition != null ? { condition: news.condition } : {}),
      }),
    );
    return { id: server.id, state: toState(server, news) };
  },

  async read(ctx, id, known) {
    const server = await findListed(ctx, mcpServerListing, known.organizationId, known.siteId, id);
    return server && { id, state: toState(server, known) };
  },

  async update(ctx, id, _olds, news, changed) {
    const { organizationId: org, siteId: site } = news;
    // `headers` go whole: the PATCH replaces the map it is sent.
    const patch = changedFields<SiteMcpServerPatch>(news, changed, {
      name: "name",
      url: "url",
      transport: "transport",
      headers: "headers",
      condition: "condition",
    });
    // Nothing to send when the only change is `headers` left out (no longer managed): the server is read back.
    const server = patch
      ? await writeUnder(ctx, org, site, () => updateSiteMcpServer(ctx.client, org, site, id, patch))
      : (await listSiteMcpServers(ctx.client, org, site)).find((listed) => listed.id === id);
    if (!server) throw new Error(`SiteMcpServer "${id}" update: the server disappeared while it was being updated`);
    return toState(server, news);
  },

  delete: (ctx, id, olds) =>
    writeUnder(ctx, olds.organizationId, olds.siteId, () =>
      deleteSiteMcpServer(ctx.client, olds.organizationId, olds.siteId, id),
    ),
});
