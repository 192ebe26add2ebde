import { readFileSync } from "node:fs";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { census } from "../support/census";
import { callApi, startTestEmulator } from "../support/emulator";
import { changes, exportAsStored, makeProject, makeStack, runPulumi, stateFiles } from "./harness";

/**
 * A site's AI through the real CLI: an MCP server whose Authorization header comes from secret config, and the
 * site's agent settings. The header never shows in a preview, an output or the state's plain text; a hand edit of
 * each is seen and reverted; a server made by hand is adopted with `importId`; destroy removes every server.
 */
const TOKEN = "mcp-e2e-token-7d2b";
const program = `
const pulumi = require("@pulumi/pulumi");
const docs = require("pulumi-docs-platform");

const config = new pulumi.Config();
const organizationId = config.require("organizationId");

const site = new docs.Site("docs", { organizationId, title: "Assisted docs" });
const tickets = new docs.SiteMcpServer("tickets", {
  organizationId,
  siteId: site.id,
  name: "Ticket search",
  url: "https://mcp.example.com/tickets",
  transport: "http",
  headers: { Authorization: pulumi.interpolate\`Bearer \${config.requireSecret("ticketsToken")}\` },
});
new docs.SiteAgentSettings("agent", {
  organizationId,
  siteId: site.id,
  scanTopics: "never",
  editingInstructions: "Write in US English.\\nKeep code samples in TypeScript.",
});
const adopted = config.get("adoptServerId");
if (adopted) {
  new docs.SiteMcpServer("status", {
    organizationId,
    siteId: site.id,
    name: "Status",
    url: "https://mcp.example.com/status",
    importId: adopted,
  });
}

exports.siteId = site.id;
exports.ticketsId = tickets.id;
exports.headers = tickets.headers;
`;

describe("a site's MCP servers and agent settings through the Pulumi CLI", () => {
  let emulator: RunningEmulator;
  let stack: Stack;

  const api = (method: string, path: string, body?: unknown) => callApi(emulator, method, path, body);
  const output = async (name: string) => (await stack.outputs())[name];
  const sitePath = async () => `/orgs/${emulator.organizationId}/sites/${(await output("siteId"))?.value}`;
  const writes = () => emulator.requests().filter((r) => r.method !== "GET");

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0 });
    stack = await makeStack(await makeProject("site-ai", { "index.js": program }), emulator);
    await stack.setConfig("ticketsToken", { value: TOKEN, secret: true });
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await emulator?.close();
  });

  it("creates the server with its header and the settings, keeps the header secret, and previews no change", async () => {
    const up = await stack.up();
    expect(up.stdout).not.toContain(TOKEN);
    const servers = (await api("GET", `${await sitePath()}/mcp-servers`)).body as { items: Record<string, unknown>[] };
    expect(servers.items).toEqual([
      expect.objectContaining({
        name: "Ticket search",
        transport: "http",
        headers: { Authorization: `Bearer ${TOKEN}` },
      }),
    ]);
    const settings = (await api("GET", `${await sitePath()}/agent-settings`)).body as Record<string, unknown>;
    expect(settings.scans).toEqual({ topics: "never" });
    const headers = await output("headers");
    expect(headers?.secret).toBe(true);
    // What anyone with access to the backend reads: the export without --show-secrets, and every file of the backend.
    expect(await exportAsStored(stack)).not.toContain(TOKEN);
    for (const file of stateFiles(stack.workspace.workDir)) expect(readFileSync(file, "utf8")).not.toContain(TOKEN);
    emulator.clearRequests();
    const preview = await runPulumi(stack, ["preview", "--expect-no-changes", "--diff"]);
    expect(preview.code, preview.output).toBe(0);
    expect(emulator.requests()).toEqual([]);
  });

  it("sees a header and a setting changed by hand in preview --refresh without showing the header, and puts both back", async () => {
    const ticketsId = (await output("ticketsId"))?.value as string;
    const path = `${await sitePath()}/mcp-servers/${ticketsId}`;
    expect((await api("PATCH", path, { headers: { Authorization: "Bearer by-hand" } })).status).toBe(200);
    const current = (await api("GET", `${await sitePath()}/agent-settings`)).body as Record<string, unknown>;
    const handEdit = { scans: { topics: "auto" }, findings: current.findings, editing: current.editing };
    expect((await api("PUT", `${await sitePath()}/agent-settings`, handEdit)).status).toBe(200);
    const preview = await stack.preview({ refresh: true, diff: true });
    expect(changes(preview.changeSummary)).toEqual({ update: 2 });
    expect(preview.stdout).toMatch(/~ scanTopics\s*: "auto" => "never"/);
    expect(preview.stdout).toMatch(/headers/);
    expect(preview.stdout).not.toContain("by-hand");
    expect(preview.stdout).not.toContain(TOKEN);
    emulator.clearRequests();
    await stack.up({ refresh: true });
    expect(
      writes()
        .map((r) => `${r.method} ${r.route}`)
        .sort(),
    ).toEqual([
      "PATCH /v1/orgs/{organizationId}/sites/{siteId}/mcp-servers/{siteMcpServerId}",
      "PUT /v1/orgs/{organizationId}/sites/{siteId}/agent-settings",
    ]);
    const server = (await api("GET", path)).body as { headers: unknown };
    expect(server.headers).toEqual({ Authorization: `Bearer ${TOKEN}` });
    const clean = await runPulumi(stack, ["refresh", "--expect-no-changes", "--yes"]);
    expect(clean.code, clean.output).toBe(0);
  });

  it("adopts a server made by hand with importId, writing nothing when it matches", async () => {
    const made = await api("POST", `${await sitePath()}/mcp-servers`, {
      name: "Status",
      url: "https://mcp.example.com/status",
      headers: { "X-Hand": "made-by-hand-1" },
    });
    expect(made.status).toBe(201);
    await stack.setConfig("adoptServerId", { value: made.body.id });
    emulator.clearRequests();
    const result = await stack.up();
    expect(changes(result.summary.resourceChanges)).toMatchObject({ create: 1 });
    // Its headers are not declared, so they are not managed: kept as they are.
    expect(writes()).toEqual([]);
    const clean = await runPulumi(stack, ["preview", "--expect-no-changes"]);
    expect(clean.code, clean.output).toBe(0);
  });

  it("destroy removes every server the program made or adopted", async () => {
    await stack.destroy();
    expect((await census(emulator)).SiteMcpServer).toEqual([]);
  });
});
