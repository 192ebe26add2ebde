import { appendFileSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { sensitiveInputsOf } from "../../provider/framework/inputRules";
import { definitions } from "../../provider/registry";
import { callApi, startTestEmulator } from "../support/emulator";
import { changes, exportAsStored, makeProject, makeStack, runPulumi, upConsistent } from "./harness";

/**
 * Every input a kind marks sensitive, given by the program as a plain value (an environment variable, plain stack
 * config), is a secret wherever Pulumi keeps it, on both routes: `pulumi stack export` without `--show-secrets`, the
 * stack's outputs and every file of the backend hold none of the values, and the next preview is clean. Through
 * create, refresh, update, replace, `importId`, and the move of the dynamic stack to the plugin route; and for a YAML
 * program on the plugin route, through create, refresh, update and `pulumi import`.
 */

/** Each sensitive input of the registry and the plain value the programs below give it (none occurs by chance). */
const PLAIN: Record<string, string> = {
  "GitSyncInstallation.accessToken": "glpat-plain-8e2b7c41",
  "IntegrationInstallation.secrets": "tickets-plain-3a9e5d02",
  "IntegrationSiteInstallation.secrets": "gate-site-plain-71cf0b",
  "IntegrationSpaceInstallation.secrets": "tickets-space-plain-5e8a",
  "OpenApiSpec.sourceText": "spec-plain-title-6c2d19",
  "SamlProvider.certificate": "MIIDcertplain9b4e77aa",
  "SiteContextConnection.credentials": "ghp-context-plain-93b1e4",
  "SiteMcpServer.headers": "mcp-plain-4f1d9a36",
};
/** Values given by an update, which must not show either. */
const UPDATED = { mcp: "mcp-plain-updated-0d3f", apiKey: "tickets-plain-updated-2b7e" };
const ADOPTED = "mcp-plain-adopted-9a1c";

const program = `
const pulumi = require("@pulumi/pulumi");
const docs = require(process.env.DOCS_ROUTE === "plugin" ? "pulumi-docs-platform/plugin" : "pulumi-docs-platform");
const config = new pulumi.Config();
const organizationId = config.require("organizationId");

const site = new docs.Site("docs", { organizationId, title: "Sensitive docs" });
const handbook = new docs.Space("handbook", { organizationId, title: "Handbook" });
const mcp = new docs.SiteMcpServer("tickets-mcp", {
  organizationId,
  siteId: site.id,
  name: "Tickets",
  url: "https://mcp.example.com/tickets",
  headers: { Authorization: "Bearer " + process.env.MCP_KEY },
});
const issues = new docs.SiteContextConnection("support-issues", {
  organizationId,
  siteId: site.id,
  connector: "builtin:github-issues",
  setupSettings: { repository: "acme/support" },
  credentials: { token: process.env.CONTEXT_TOKEN },
});
const git = new docs.GitSyncInstallation("docs-git", {
  organizationId,
  provider: "gitlab",
  siteId: site.id,
  projectId: 2001,
  accessToken: process.env.GITLAB_TOKEN,
});
const tickets = new docs.IntegrationInstallation("tickets", {
  organizationId,
  integrationName: "ticket-sync",
  siteSelection: "selected",
  secrets: { apiKey: process.env.TICKETS_API_KEY },
});
new docs.IntegrationSpaceInstallation("tickets-on-handbook", {
  organizationId,
  spaceId: handbook.id,
  installationId: tickets.id,
  integrationName: "ticket-sync",
  secrets: { apiToken: process.env.SPACE_KEY },
});
const gate = new docs.IntegrationInstallation("gate", {
  organizationId,
  integrationName: "visitor-gate",
  siteSelection: "selected",
});
new docs.IntegrationSiteInstallation("gate-on-docs", {
  organizationId,
  siteId: site.id,
  installationId: gate.id,
  integrationName: "visitor-gate",
  secrets: { signingSecret: process.env.SIGNING_SECRET },
});
const spec = new docs.OpenApiSpec("spec", {
  organizationId,
  slug: config.get("specSlug") ?? "sensitive",
  sourceText: JSON.stringify({ openapi: "3.1.0", info: { title: process.env.SPEC_TITLE, version: "1" }, paths: {} }),
});
new docs.SamlProvider("sso", { organizationId, label: "Okta", certificate: process.env.SAML_CERTIFICATE });
const adopted = config.get("adoptServerId");
if (adopted) {
  new docs.SiteMcpServer("adopted-mcp", {
    organizationId,
    siteId: site.id,
    name: "Adopted",
    url: "https://mcp.example.com/adopted",
    headers: { "X-Key": process.env.ADOPTED_KEY },
    importId: adopted,
  });
}
exports.siteId = site.id;
exports.headers = mcp.headers;
exports.contextCredentials = issues.credentials;
exports.accessToken = git.accessToken;
exports.sourceText = spec.sourceText;
`;

/**
 * The TypeScript program's environment, the common way to hand a program a credential. (Not plain stack config:
 * Pulumi copies the whole stack config, in plain text, into the state of its own `pulumi-nodejs` provider, which
 * serves every dynamic resource; docs/conventions.md says so.)
 */
const environment = {
  MCP_KEY: PLAIN["SiteMcpServer.headers"],
  CONTEXT_TOKEN: PLAIN["SiteContextConnection.credentials"],
  GITLAB_TOKEN: PLAIN["GitSyncInstallation.accessToken"],
  TICKETS_API_KEY: PLAIN["IntegrationInstallation.secrets"],
  SIGNING_SECRET: PLAIN["IntegrationSiteInstallation.secrets"],
  SPACE_KEY: PLAIN["IntegrationSpaceInstallation.secrets"],
  SPEC_TITLE: PLAIN["OpenApiSpec.sourceText"],
  SAML_CERTIFICATE: PLAIN["SamlProvider.certificate"],
} as Record<string, string>;

/** The YAML program's plain config: every value in plain text, as a user who never typed `--secret` sets it. */
const plainConfig = {
  mcpKey: PLAIN["SiteMcpServer.headers"],
  contextToken: PLAIN["SiteContextConnection.credentials"],
  gitlabToken: PLAIN["GitSyncInstallation.accessToken"],
  ticketsApiKey: PLAIN["IntegrationInstallation.secrets"],
  signingSecret: PLAIN["IntegrationSiteInstallation.secrets"],
  spaceKey: PLAIN["IntegrationSpaceInstallation.secrets"],
  // YAML text: the YAML host would read a config value that looks like JSON as an object.
  specText: `openapi: 3.1.0\ninfo:\n  title: ${PLAIN["OpenApiSpec.sourceText"]}\n  version: "1"\n`,
  certificate: PLAIN["SamlProvider.certificate"],
} as Record<string, string>;

/**
 * Every file under `root` whose text contains `needle`. An update's record (`*.history.json`) is read without its
 * `config`: Pulumi's copy of the stack config the user set in plain text, as `Pulumi.<stack>.yaml` holds it.
 */
function filesContaining(root: string, needle: string): string[] {
  const text = (file: string) => {
    const content = readFileSync(file, "utf8");
    if (!file.endsWith(".history.json")) return content;
    const { config: _config, ...record } = JSON.parse(content) as Record<string, unknown>;
    return JSON.stringify(record);
  };
  return (readdirSync(root, { recursive: true }) as string[])
    .map((file) => path.join(root, file))
    .filter((file) => statSync(file).isFile() && text(file).includes(needle));
}

/** Where a plain value was found: the export without --show-secrets, the stack's outputs, the backend's files. */
async function leaks(stack: Stack, dir: string, values: readonly string[]): Promise<string[]> {
  const exported = await exportAsStored(stack);
  const outputs = await runPulumi(stack, ["stack", "output", "--json"]);
  expect(outputs.code, outputs.output).toBe(0);
  const found: string[] = [];
  for (const value of values) {
    if (exported.includes(value)) found.push(`${value} in pulumi stack export`);
    if (outputs.output.includes(value)) found.push(`${value} in pulumi stack output`);
    for (const file of filesContaining(path.join(dir, ".state"), value)) found.push(`${value} in ${file}`);
  }
  return found;
}

async function expectCleanPreview(stack: Stack) {
  const preview = await runPulumi(stack, ["preview", "--expect-no-changes", "--diff"]);
  expect(preview.code, preview.output.slice(-3000)).toBe(0);
  expect(preview.output).not.toContain("[secret]");
}

it("the programs give every sensitive input of the registry a plain value", () => {
  const sensitive = definitions.flatMap((d) => [...sensitiveInputsOf(d)].map((property) => `${d.kind}.${property}`));
  expect(Object.keys(PLAIN).sort()).toEqual(sensitive.sort());
});

describe("sensitive inputs given plain, on the dynamic route and moved to the plugin route", () => {
  let emulator: RunningEmulator;
  let stack: Stack;
  let dir: string;
  const given = () => [...Object.values(PLAIN)];

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0 });
    dir = await makeProject("sensitive-inputs", { "index.js": program });
    stack = await makeStack(dir, emulator);
    Object.assign(stack.workspace.envVars, environment);
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await emulator?.close();
  });

  it("create and refresh store none of the values, and the next preview is clean", async () => {
    const up = await upConsistent(stack);
    expect(changes(up.summary.resourceChanges)).toMatchObject({ create: 12 });
    // The values did reach the API: the checks are not vacuous.
    const siteId = (await stack.outputs()).siteId?.value as string;
    const servers = await callApi(emulator, "GET", `/orgs/${emulator.organizationId}/sites/${siteId}/mcp-servers`);
    expect(JSON.stringify(servers.body)).toContain(PLAIN["SiteMcpServer.headers"]);
    const outputs = await stack.outputs();
    for (const name of ["headers", "contextCredentials", "accessToken", "sourceText"])
      expect(outputs[name]?.secret, name).toBe(true);
    expect(await leaks(stack, dir, given())).toEqual([]);
    await expectCleanPreview(stack);
  });

  it("an update and a replace store none of the new values", async () => {
    stack.workspace.envVars.MCP_KEY = UPDATED.mcp;
    stack.workspace.envVars.TICKETS_API_KEY = UPDATED.apiKey;
    await stack.setConfig("specSlug", { value: "sensitive-moved" });
    const up = await upConsistent(stack);
    expect(changes(up.summary.resourceChanges)).toMatchObject({ update: 2, replace: 1 });
    expect(await leaks(stack, dir, [...given(), ...Object.values(UPDATED)])).toEqual([]);
    await expectCleanPreview(stack);
  });

  it("an object adopted with importId stores none of the values", async () => {
    const siteId = (await stack.outputs()).siteId?.value as string;
    const made = await callApi(emulator, "POST", `/orgs/${emulator.organizationId}/sites/${siteId}/mcp-servers`, {
      name: "Adopted",
      url: "https://mcp.example.com/adopted",
      headers: { "X-Key": "made-by-hand" },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    await stack.setConfig("adoptServerId", { value: (made.body as { id: string }).id });
    stack.workspace.envVars.ADOPTED_KEY = ADOPTED;
    const up = await upConsistent(stack);
    expect(changes(up.summary.resourceChanges)).toMatchObject({ create: 1 });
    expect(await leaks(stack, dir, [...given(), ...Object.values(UPDATED), ADOPTED])).toEqual([]);
    await expectCleanPreview(stack);
  });

  it("the move to the plugin route stores none of the values, and the next preview is clean", async () => {
    appendFileSync(
      path.join(dir, "Pulumi.yaml"),
      "plugins:\n  providers:\n    - name: docs\n      path: node_modules/.bin\n",
    );
    stack.workspace.envVars.DOCS_ROUTE = "plugin";
    const up = await upConsistent(stack);
    expect(changes(up.summary.resourceChanges)).not.toHaveProperty("replace");
    const types = (await stack.exportStack()).deployment.resources.map((r: { type: string }) => r.type);
    expect(types.filter((type: string) => type.startsWith("pulumi-nodejs:dynamic/"))).toEqual([]);
    expect(await leaks(stack, dir, [...given(), ...Object.values(UPDATED), ADOPTED])).toEqual([]);
    await expectCleanPreview(stack);
  });
});

const yamlProgram = `name: sensitive-yaml
runtime: yaml
plugins:
  providers:
    - name: docs
      path: node_modules/.bin
config:
  mcpKey: { type: string }
  contextToken: { type: string }
  gitlabToken: { type: string }
  ticketsApiKey: { type: string }
  signingSecret: { type: string }
  spaceKey: { type: string }
  specText: { type: string }
  certificate: { type: string }
resources:
  site:
    type: docs:Site
    properties: { title: Sensitive docs }
  handbook:
    type: docs:Space
    properties: { title: Handbook }
  tickets-mcp:
    type: docs:SiteMcpServer
    properties:
      siteId: \${site.id}
      name: Tickets
      url: https://mcp.example.com/tickets
      headers:
        Authorization: \${mcpKey}
  support-issues:
    type: docs:SiteContextConnection
    properties:
      siteId: \${site.id}
      connector: builtin:github-issues
      setupSettings:
        repository: acme/support
      credentials:
        token: \${contextToken}
  docs-git:
    type: docs:GitSyncInstallation
    properties:
      provider: gitlab
      siteId: \${site.id}
      projectId: 2001
      accessToken: \${gitlabToken}
  tickets:
    type: docs:IntegrationInstallation
    properties:
      integrationName: ticket-sync
      siteSelection: selected
      secrets:
        apiKey: \${ticketsApiKey}
  tickets-on-handbook:
    type: docs:IntegrationSpaceInstallation
    properties:
      spaceId: \${handbook.id}
      installationId: \${tickets.id}
      integrationName: ticket-sync
      secrets:
        apiToken: \${spaceKey}
  gate:
    type: docs:IntegrationInstallation
    properties: { integrationName: visitor-gate, siteSelection: selected }
  gate-on-docs:
    type: docs:IntegrationSiteInstallation
    properties:
      siteId: \${site.id}
      installationId: \${gate.id}
      integrationName: visitor-gate
      secrets:
        signingSecret: \${signingSecret}
  spec:
    type: docs:OpenApiSpec
    properties:
      slug: sensitive
      sourceText: \${specText}
  sso:
    type: docs:SamlProvider
    properties:
      label: Okta
      certificate: \${certificate}
outputs:
  siteId: \${site.id}
  headers: \${tickets-mcp.headers}
  contextCredentials: \${support-issues.credentials}
  accessToken: \${docs-git.accessToken}
`;

describe("sensitive inputs given from plain config in a YAML program (the plugin route)", () => {
  let emulator: RunningEmulator;
  let stack: Stack;
  let dir: string;

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0 });
    dir = await makeProject("sensitive-yaml", { "Pulumi.yaml": yamlProgram });
    stack = await makeStack(dir, emulator, { credentialsInConfig: true });
    await stack.setConfig("docs:organizationId", { value: emulator.organizationId });
    for (const [key, value] of Object.entries(plainConfig)) await stack.setConfig(key, { value, secret: false });
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await emulator?.close();
  });

  it("create, refresh and an update store none of the values, and the next preview is clean", async () => {
    const up = await upConsistent(stack);
    expect(changes(up.summary.resourceChanges)).toMatchObject({ create: 12 });
    expect(await leaks(stack, dir, Object.values(PLAIN))).toEqual([]);
    await expectCleanPreview(stack);
    await stack.setConfig("mcpKey", { value: UPDATED.mcp, secret: false });
    await upConsistent(stack);
    expect(await leaks(stack, dir, [...Object.values(PLAIN), UPDATED.mcp])).toEqual([]);
    await expectCleanPreview(stack);
  });

  it("`pulumi import` of an object with a sensitive input stores none of its values", async () => {
    const siteId = (await stack.outputs()).siteId?.value as string;
    const made = await callApi(emulator, "POST", `/orgs/${emulator.organizationId}/sites/${siteId}/mcp-servers`, {
      name: "Imported",
      url: "https://mcp.example.com/imported",
      headers: { "X-Key": ADOPTED },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = `${siteId}/${(made.body as { id: string }).id}`;
    // The code `pulumi import` generates holds the imported inputs as they are (the header too): Pulumi's own
    // output, which docs-platform import avoids by leaving headers out of the program it writes.
    const imported = await runPulumi(stack, [
      ...["import", "docs:index:SiteMcpServer", "imported-mcp", id],
      ...["--yes", "--generate-code=false", "--protect=false"],
    ]);
    expect(imported.code, imported.output).toBe(0);
    expect(imported.output).not.toContain(ADOPTED);
    const state = JSON.parse(await exportAsStored(stack)).deployment.resources as { urn: string }[];
    expect(state.some((resource) => resource.urn.endsWith("::imported-mcp"))).toBe(true);
    expect(await leaks(stack, dir, [...Object.values(PLAIN), UPDATED.mcp, ADOPTED])).toEqual([]);
  });
});
