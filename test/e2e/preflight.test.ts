import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { callApi, startTestEmulator } from "../support/emulator";
import { makeProject, makeStack } from "./harness";

/** One program whose resources the stack config `case` chooses, so every case shares one install. */
const program = `
const pulumi = require("@pulumi/pulumi");
const docs = require("pulumi-docs-platform");
const config = new pulumi.Config();
switch (config.require("case")) {
  case "collection":
    new docs.Collection("handbook", { title: "Handbook" });
    break;
  case "space": {
    const site = new docs.Site("site", { title: "Docs site", visibility: "public" });
    new docs.SiteSection("guides", { siteId: site.id, spaceId: config.require("spaceId"), title: "Guides" });
    break;
  }
  case "member":
    new docs.TeamMember("writer", { teamId: config.require("teamId"), userId: config.require("userId"), role: "member" });
    break;
  case "defaults": {
    const [guides, api] = config.requireObject("spaceIds");
    const siteId = config.require("siteId");
    new docs.SiteSection("guides", { siteId, spaceId: guides, title: "Guides", default: true });
    new docs.SiteSection("api", { siteId, spaceId: api, title: "API", default: true });
    break;
  }
  case "integration":
    new docs.IntegrationInstallation("tickets", {
      integrationName: "ticket-sync",
      configuration: { worksapce: "acme" },
      secrets: { apiKee: config.requireSecret("ticketsKey") },
    });
    break;
  case "adopt":
    new docs.Collection("handbook", { title: "Handbook", importId: config.require("importId") });
    break;
}
`;

/** `pulumi preview` with preflight on, through the real CLI: what `up` would reject fails here, before merge. */
describe("preflight at pulumi preview", () => {
  let emulator: RunningEmulator;
  let stack: Stack;

  /** The preview's whole output and whether it failed. */
  const preview = async (config: Record<string, string>) => {
    for (const [key, value] of Object.entries(config)) await stack.setConfig(key, { value });
    const chunks: string[] = [];
    try {
      await stack.preview({ onOutput: (text) => chunks.push(text) });
      return { failed: false, output: chunks.join("") };
    } catch {
      return { failed: true, output: chunks.join("") };
    }
  };

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0, token: "preflight-e2e-token" });
    stack = await makeStack(await makeProject("preflight", { "index.js": program }), emulator);
    await stack.setConfig("docs:preflight", { value: "true" });
    await stack.setConfig("docs:organizationId", { value: emulator.organizationId });
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("fails without a token, naming both settings", async () => {
    const env = (stack.workspace as unknown as { envVars: Record<string, string> }).envVars;
    delete env.DOCS_API_TOKEN;
    try {
      const { failed, output } = await preview({ case: "collection" });
      expect(failed).toBe(true);
      expect(output).toContain(
        "Collection: preflight (docs:preflight / DOCS_PREFLIGHT) needs an API token and none is set",
      );
    } finally {
      env.DOCS_API_TOKEN = emulator.token;
    }
  });

  it("fails on a space id that does not exist, naming the field, the id and how to list valid ids", async () => {
    const { failed, output } = await preview({ case: "space", spaceId: "noSuchSpaceId" });
    expect(failed).toBe(true);
    expect(output).toContain(
      `SiteSection.spaceId: preflight: no space has the id "noSuchSpaceId" in organization "${emulator.organizationId}". ` +
        `List the valid ids with \`curl -H "Authorization: Bearer $DOCS_API_TOKEN" ${emulator.url}/orgs/${emulator.organizationId}/spaces\`.`,
    );
  });

  it("fails on a user outside the organization", async () => {
    const team = await callApi(emulator, "PUT", `/orgs/${emulator.organizationId}/teams`, { title: "Writers" });
    const outsider = emulator.secondOrganizationId;
    const { failed, output } = await preview({ case: "member", teamId: team.body.id, userId: outsider });
    expect(failed).toBe(true);
    expect(output).toContain(`TeamMember.userId: preflight: no member of the organization has the id "${outsider}"`);
  });

  it("fails on an importId that names nothing", async () => {
    const { failed, output } = await preview({ case: "adopt", importId: "noSuchCollection" });
    expect(failed).toBe(true);
    expect(output).toContain('Collection.importId: preflight: "noSuchCollection" names no existing Collection');
  });

  it("announces an adoption, naming the object and the fields it will change", async () => {
    const legacy = await callApi(emulator, "POST", `/orgs/${emulator.organizationId}/collections`, { title: "Legacy" });
    const { failed, output } = await preview({ case: "adopt", importId: legacy.body.id });
    expect(failed).toBe(false);
    expect(output).toContain(
      `info: Collection importId "${legacy.body.id}": adopts the existing object "Legacy" instead of creating one; ` +
        "adoption will change title.",
    );
  });

  it("fails on integration configuration keys the integration does not have, never showing a secret", async () => {
    const secret = "tickets-key-e2e-41c9";
    await stack.setConfig("ticketsKey", { value: secret, secret: true });
    const { failed, output } = await preview({ case: "integration" });
    expect(failed).toBe(true);
    const accepts = 'it accepts "workspace" (a string), "apiKey" (a string)';
    const lists = '(`getIntegration({ name: "ticket-sync" })` lists its keys).';
    expect(output).toContain(
      'IntegrationInstallation.configuration: preflight: integration "ticket-sync" (Ticket Sync) has no ' +
        `organization-level (\`configurations.account\`) key "worksapce"; ${accepts}. Did you mean "workspace"? ` +
        `Fix the key's name, or remove it ${lists}`,
    );
    expect(output).toContain(
      'IntegrationInstallation.secrets: preflight: integration "ticket-sync" (Ticket Sync) has no ' +
        `organization-level (\`configurations.account\`) key "apiKee"; ${accepts}. Did you mean "apiKey"? ` +
        `Fix the key's name, or remove it ${lists}`,
    );
    expect(output).not.toContain(secret);
    // The preview failed before anything was installed.
    const installed = await callApi(emulator, "GET", `/orgs/${emulator.organizationId}/installations`);
    expect(installed.body.items).toEqual([]);
  });

  it("warns about two sections of one site that both declare default: true", async () => {
    const site = await callApi(emulator, "POST", `/orgs/${emulator.organizationId}/sites`, { title: "Docs site" });
    const spaceIds = JSON.stringify(emulator.spaceIds);
    const { failed, output } = await preview({ case: "defaults", siteId: site.body.id, spaceIds });
    expect(failed).toBe(false);
    expect(output).toContain(
      // The two are checked in either order (the engine registers them concurrently); the warning names them sorted.
      `warning: SiteSection "API" and SiteSection "Guides" both declare default: true under siteId "${site.body.id}"`,
    );
  });
});
