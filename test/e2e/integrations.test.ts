import { readFileSync } from "node:fs";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { census } from "../support/census";
import { callApi, startTestEmulator } from "../support/emulator";
import { changes, exportAsStored, makeProject, makeStack, runPulumi, stateFiles } from "./harness";

/**
 * An integration installed in the organization through the real CLI, its API key from secret config: the key never
 * shows in a preview, an output or the state's plain text; a hand edit is seen and reverted, while a key the
 * integration wrote itself is neither drift nor lost; an installation made by hand is adopted with `importId`;
 * the same for installations on a site and on a space; destroy uninstalls them all.
 */
const API_KEY = "tickets-e2e-key-5c1a";
const program = `
const pulumi = require("@pulumi/pulumi");
const docs = require("pulumi-docs-platform");

const config = new pulumi.Config();
const organizationId = config.require("organizationId");

const tickets = new docs.IntegrationInstallation("tickets", {
  organizationId,
  integrationName: "ticket-sync",
  siteSelection: "selected",
  configuration: { workspace: "acme" },
  secrets: { apiKey: config.requireSecret("ticketsApiKey") },
});
const site = new docs.Site("docs", { organizationId, title: "Integrated docs" });
new docs.IntegrationSiteInstallation("tickets-on-docs", {
  organizationId,
  siteId: site.id,
  installationId: tickets.id,
  integrationName: tickets.integrationName,
  configuration: { project: "DOCS" },
});
const handbook = new docs.Space("handbook", { organizationId, title: "Handbook" });
const runbooks = new docs.Space("runbooks", { organizationId, title: "Runbooks" });
new docs.IntegrationSpaceInstallation("tickets-on-handbook", {
  organizationId,
  spaceId: handbook.id,
  installationId: tickets.id,
  integrationName: tickets.integrationName,
  configuration: { project: "HANDBOOK" },
});
const adoptedOnRunbooks = config.get("adoptRunbooks");
if (adoptedOnRunbooks) {
  new docs.IntegrationSpaceInstallation("tickets-on-runbooks", {
    organizationId,
    spaceId: runbooks.id,
    installationId: tickets.id,
    integrationName: tickets.integrationName,
    configuration: { labels: "all" },
    importId: pulumi.interpolate\`\${runbooks.id}/\${tickets.id}\`,
  });
}
const adopted = config.get("adoptInstallationId");
if (adopted) {
  new docs.IntegrationInstallation("gate", {
    organizationId,
    integrationName: "visitor-gate",
    configuration: { issuer: "https://id.example.com" },
    importId: adopted,
  });
  new docs.IntegrationSiteInstallation("gate-on-docs", {
    organizationId,
    siteId: site.id,
    installationId: adopted,
    integrationName: "visitor-gate",
    configuration: { audience: "docs" },
    importId: pulumi.interpolate\`\${site.id}/\${adopted}\`,
  });
}

exports.siteId = site.id;
exports.handbookId = handbook.id;
exports.runbooksId = runbooks.id;
exports.ticketsId = tickets.id;
exports.secrets = tickets.secrets;
exports.status = tickets.status;
`;

describe("an organization's integration installations through the Pulumi CLI", () => {
  let emulator: RunningEmulator;
  let stack: Stack;

  const api = (method: string, path: string, body?: unknown) => callApi(emulator, method, path, body);
  const output = async (name: string) => (await stack.outputs())[name];
  const writes = () => emulator.requests().filter((r) => r.method !== "GET");
  const ticketsPath = async () =>
    `/integrations/ticket-sync/installations/${(await output("ticketsId"))?.value as string}`;
  const ticketsOnSpacePath = async (space = "handbookId") =>
    `${await ticketsPath()}/spaces/${(await output(space))?.value as string}`;
  const ticketsOnSitePath = async () => `${await ticketsPath()}/sites/${(await output("siteId"))?.value as string}`;

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0 });
    stack = await makeStack(await makeProject("integrations", { "index.js": program }), emulator);
    await stack.setConfig("ticketsApiKey", { value: API_KEY, secret: true });
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await emulator?.close();
  });

  it("installs and configures the integration, keeps the key secret, and previews no change", async () => {
    const up = await stack.up();
    expect(up.stdout).not.toContain(API_KEY);
    const installation = (await api("GET", await ticketsPath())).body as Record<string, unknown>;
    expect(installation).toMatchObject({
      status: "active",
      site_selection: "selected",
      configuration: { workspace: "acme", apiKey: API_KEY },
    });
    expect((await output("status"))?.value).toBe("active");
    const onSite = (await api("GET", await ticketsOnSitePath())).body as Record<string, unknown>;
    expect(onSite.configuration).toEqual({ project: "DOCS" });
    const onSpace = (await api("GET", await ticketsOnSpacePath())).body as Record<string, unknown>;
    expect(onSpace.configuration).toEqual({ project: "HANDBOOK" });
    expect((await output("secrets"))?.secret).toBe(true);
    expect(await exportAsStored(stack)).not.toContain(API_KEY);
    for (const file of stateFiles(stack.workspace.workDir)) expect(readFileSync(file, "utf8")).not.toContain(API_KEY);
    emulator.clearRequests();
    const preview = await runPulumi(stack, ["preview", "--expect-no-changes", "--diff"]);
    expect(preview.code, preview.output).toBe(0);
    expect(emulator.requests()).toEqual([]);
  });

  it("sees a hand edit in preview --refresh without showing the key, puts it back, and keeps the integration's own key", async () => {
    const path = await ticketsPath();
    const byHand = {
      configuration: { workspace: "by-hand", apiKey: "hand-key-0000", oauthToken: "written-by-integration" },
      site_selection: "all",
    };
    expect((await api("PATCH", path, byHand)).status).toBe(200);
    const siteByHand = { configuration: { project: "HAND" } };
    expect((await api("PATCH", await ticketsOnSitePath(), siteByHand)).status).toBe(200);
    const spaceByHand = { configuration: { project: "HAND-SPACE" } };
    expect((await api("PATCH", await ticketsOnSpacePath(), spaceByHand)).status).toBe(200);
    const preview = await stack.preview({ refresh: true, diff: true });
    expect(changes(preview.changeSummary)).toEqual({ update: 3 });
    expect(preview.stdout).toMatch(/project\s*: "HAND-SPACE" => "HANDBOOK"/);
    expect(preview.stdout).toMatch(/project\s*: "HAND" => "DOCS"/);
    expect(preview.stdout).toMatch(/~ siteSelection\s*: "all" => "selected"/);
    expect(preview.stdout).toMatch(/workspace\s*: "by-hand" => "acme"/);
    expect(preview.stdout).not.toContain("hand-key-0000");
    expect(preview.stdout).not.toContain(API_KEY);
    expect(preview.stdout).not.toContain("written-by-integration");
    emulator.clearRequests();
    await stack.up({ refresh: true });
    expect(
      writes()
        .map((r) => `${r.method} ${r.route}`)
        .sort(),
    ).toEqual([
      "PATCH /v1/integrations/{integrationName}/installations/{installationId}",
      "PATCH /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}",
      "PATCH /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}",
    ]);
    expect(((await api("GET", await ticketsOnSpacePath())).body as Record<string, unknown>).configuration).toEqual({
      project: "HANDBOOK",
    });
    expect(((await api("GET", await ticketsOnSitePath())).body as Record<string, unknown>).configuration).toEqual({
      project: "DOCS",
    });
    const installation = (await api("GET", path)).body as Record<string, unknown>;
    expect(installation).toMatchObject({
      site_selection: "selected",
      configuration: { workspace: "acme", apiKey: API_KEY, oauthToken: "written-by-integration" },
    });
    const clean = await runPulumi(stack, ["refresh", "--expect-no-changes", "--yes"]);
    expect(clean.code, clean.output).toBe(0);
  });

  it("adopts an installation made by hand with importId, writing only the declared configuration", async () => {
    const made = await api("POST", "/integrations/visitor-gate/installations", {
      organization: emulator.organizationId,
    });
    expect(made.status).toBe(201);
    const siteId = (await output("siteId"))?.value as string;
    const onSite = await api("POST", `/integrations/visitor-gate/installations/${made.body.id}/sites`, { siteId });
    expect(onSite.status).toBe(201);
    const runbooks = (await output("runbooksId"))?.value as string;
    const onSpace = await api("POST", `${await ticketsPath()}/spaces`, { space: runbooks });
    expect(onSpace.status).toBe(201);
    await stack.setConfig("adoptInstallationId", { value: made.body.id });
    await stack.setConfig("adoptRunbooks", { value: "yes" });
    emulator.clearRequests();
    const result = await stack.up();
    expect(changes(result.summary.resourceChanges)).toMatchObject({ create: 3 });
    expect(
      writes()
        .map((r) => JSON.stringify([r.route, r.requestBody]))
        .sort(),
    ).toEqual([
      JSON.stringify([
        "/v1/integrations/{integrationName}/installations/{installationId}",
        { configuration: { issuer: "https://id.example.com" } },
      ]),
      JSON.stringify([
        "/v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}",
        { configuration: { audience: "docs" } },
      ]),
      JSON.stringify([
        "/v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}",
        { configuration: { labels: "all" } },
      ]),
    ]);
    const clean = await runPulumi(stack, ["preview", "--expect-no-changes"]);
    expect(clean.code, clean.output).toBe(0);
  });

  it("destroy uninstalls every installation the program made or adopted", async () => {
    await stack.destroy();
    const left = await census(emulator);
    expect(left.IntegrationInstallation).toEqual([]);
    expect(left.IntegrationSiteInstallation).toEqual([]);
    expect(left.IntegrationSpaceInstallation).toEqual([]);
  });
});
