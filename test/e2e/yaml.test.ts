import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import type { RunningEmulator } from "../../emulator";
import { toolsDir } from "../../tools/toolchain.mjs";
import { callApi, type Json, startTestEmulator } from "../support/emulator";
import { exportAsStored, makeProject, makeStack, runPulumi, upConsistent } from "./harness";

const run = promisify(execFile);
const repoRoot = path.resolve(__dirname, "../..");
const exampleDir = path.join(repoRoot, "examples/yaml");

/** A token no other text of a run contains by chance: set as plain config, it must still never reach the state. */
const TOKEN = "tok-yaml-plain-7e3c91d2";

/**
 * examples/yaml through the real CLI, the YAML language host and the `docs` provider plugin, against the emulator:
 * the plugin route end to end. The stack's token is set without `--secret`.
 */
describe("a YAML program through the provider plugin", () => {
  let emulator: RunningEmulator;
  let dir: string;
  let stack: Stack;
  const api = (method: string, apiPath: string, body?: unknown) =>
    callApi(emulator, method, `/orgs/${emulator.organizationId}${apiPath}`, body);
  /** A call outside the organization's path (collections have their own: `/collections/{id}`). */
  const apiRoot = (method: string, apiPath: string, body?: unknown) => callApi(emulator, method, apiPath, body);
  const program = () => parse(readFileSync(path.join(dir, "Pulumi.yaml"), "utf8"));
  const writeProgram = (value: Json) => writeFileSync(path.join(dir, "Pulumi.yaml"), stringify(value));
  /** Every list a destroy must leave as it found it. */
  const organizationContents = async () => {
    const contents: Record<string, string[]> = {};
    for (const list of ["sites", "collections", "teams", "spaces"]) {
      const answer = await api("GET", `/${list}?limit=1000`);
      contents[list] = (answer.body.items as { id: string }[]).map((item) => item.id).sort();
    }
    return contents;
  };
  let before: Record<string, string[]>;

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0, token: TOKEN });
    dir = await makeProject("yaml", { "Pulumi.yaml": readFileSync(path.join(exampleDir, "Pulumi.yaml"), "utf8") });
    stack = await makeStack(dir, emulator, { credentialsInConfig: true });
    // Plain text, as a user who forgot --secret sets it.
    await stack.setConfig("docs:apiToken", { value: TOKEN, secret: false });
    await stack.setConfig("docs:organizationId", { value: emulator.organizationId });
    await stack.setConfig("leadWriter", { value: emulator.userIds[0]! });
    before = await organizationContents();
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("up creates every resource through the plugin, and a preview right after needs no change", async () => {
    const up = await upConsistent(stack);
    expect(up.summary.resourceChanges?.create).toBe(9); // 8 resources and the stack
    const outputs = await stack.outputs();
    expect(outputs.reviewUrl?.secret).toBe(true);
    expect(String(outputs.reviewUrl?.value)).toMatch(/token=/);
    const state = (await stack.exportStack()).deployment.resources as Json[];
    const types = state.map((resource) => resource.type);
    expect(types).toContain("docs:index:SiteShareLink");
    expect(types).toContain("pulumi:providers:docs");
    expect(types.filter((type) => type.startsWith("pulumi-nodejs:dynamic/"))).toEqual([]);
    const team = await api("GET", `/teams/${outputs.teamId?.value}/members?limit=100`);
    expect(team.body.items).toHaveLength(1);
    expect((await runPulumi(stack, ["preview", "--expect-no-changes"])).code).toBe(0);
  });

  it("never stores the token, set in plain text, and keeps the share link's URL secret", async () => {
    const exported = await exportAsStored(stack);
    expect(exported).not.toContain(TOKEN);
    const link = (JSON.parse(exported).deployment.resources as Json[]).find(
      (r) => r.type === "docs:index:SiteShareLink",
    );
    expect(link.outputs.url).toHaveProperty("ciphertext");
    const provider = (JSON.parse(exported).deployment.resources as Json[]).find(
      (r) => r.type === "pulumi:providers:docs",
    );
    expect(provider.inputs.apiToken).toHaveProperty("ciphertext");
  });

  it("a hand edit fails preview --refresh --expect-no-changes, naming the field, and up --refresh reverts it", async () => {
    const collectionId = String((await stack.outputs()).collectionId?.value);
    expect((await apiRoot("PATCH", `/collections/${collectionId}`, { title: "Hand edited" })).status).toBe(200);
    const preview = await runPulumi(stack, ["preview", "--refresh", "--expect-no-changes", "--diff"]);
    expect(preview.code).not.toBe(0);
    expect(preview.output).toContain('title: "Hand edited" => "Handbook"');
    const up = await runPulumi(stack, ["up", "--refresh", "--yes"]);
    expect(up.code, up.output).toBe(0);
    expect((await apiRoot("GET", `/collections/${collectionId}`)).body.title).toBe("Handbook");
    expect((await runPulumi(stack, ["preview", "--refresh", "--expect-no-changes"])).code).toBe(0);
  });

  it("rejects at preview a value over a limit, an unknown property and an unknown config key, each named", async () => {
    const original = program();
    try {
      const tooLong = structuredClone(original);
      tooLong.resources["reviewers-link"].properties.name = "R".repeat(60);
      writeProgram(tooLong);
      const limit = await runPulumi(stack, ["preview"]);
      expect(limit.code).not.toBe(0);
      expect(limit.output).toContain("SiteShareLink.name: must be at most 50 characters");

      const typo = structuredClone(original);
      typo.resources.handbook.properties.titel = "Handbook";
      writeProgram(typo);
      const unknown = await runPulumi(stack, ["preview"]);
      expect(unknown.code).not.toBe(0);
      expect(unknown.output).toContain("Property titel does not exist on 'docs:index:Collection'");
    } finally {
      writeProgram(original);
    }
    await stack.setConfig("docs:apiTokn", { value: "x" });
    try {
      const config = await runPulumi(stack, ["preview"]);
      expect(config.code).not.toBe(0);
      expect(config.output).toContain("docs:apiTokn is not a setting of the docs provider");
    } finally {
      await stack.removeConfig("docs:apiTokn");
    }
  });

  it("pulumi import takes over an organization-level, a site-level and a composite-id object, then previews clean", async () => {
    const teamId = (await api("PUT", "/teams", { title: "Support" })).body.id;
    const siteId = (await api("POST", "/sites", { title: "Partners", visibility: "share-link" })).body.id;
    const linkId = (await api("POST", `/sites/${siteId}/share-links`, { name: "Partner A" })).body.id;
    const collectionId = (await api("POST", "/collections", { title: "Archive" })).body.id;
    const userId = emulator.userIds[2];
    expect(
      (await apiRoot("POST", `/collections/${collectionId}/permissions`, { role: "read", users: [userId] })).status,
    ).toBeLessThan(300);

    const file = path.join(dir, "import.json");
    writeFileSync(
      file,
      JSON.stringify({
        resources: [
          { type: "docs:index:Team", name: "support", id: teamId },
          { type: "docs:index:Site", name: "partners", id: siteId },
          { type: "docs:index:SiteShareLink", name: "partner-a", id: `${siteId}/${linkId}` },
          { type: "docs:index:Collection", name: "archive", id: collectionId },
          { type: "docs:index:CollectionPermission", name: "archive-reader", id: `${collectionId}/${userId}` },
        ],
      }),
    );
    const generated = path.join(dir, "imported.yaml");
    const imported = await runPulumi(stack, ["import", "--file", file, "--yes", "--protect=false", "--out", generated]);
    expect(imported.code, imported.output).toBe(0);
    expect(imported.output).toContain("5 imported");
    const code = parse(readFileSync(generated, "utf8"));
    expect(Object.keys(code.resources).sort()).toEqual(
      ["archive", "archive-reader", "partner-a", "partners", "support"].sort(),
    );
    const merged = program();
    Object.assign(merged.resources, code.resources);
    writeProgram(merged);
    const clean = await runPulumi(stack, ["preview", "--expect-no-changes", "--diff"]);
    expect(clean.code, clean.output).toBe(0);
    const exported = await exportAsStored(stack);
    const link = (JSON.parse(exported).deployment.resources as Json[]).find((r) => r.urn.endsWith("::partner-a"));
    expect(link.outputs.url).toHaveProperty("ciphertext");
  });

  it("a malformed import id and one of no object fail, naming the format and where the objects are listed", async () => {
    const siteId = String((await stack.outputs()).siteId?.value);
    const malformed = await runPulumi(stack, ["import", "docs:index:SiteShareLink", "bad", "onlyone", "--yes"]);
    expect(malformed.code).not.toBe(0);
    expect(malformed.output).toContain("<siteId>/<id>");
    const missing = await runPulumi(stack, [
      "import",
      "docs:index:SiteShareLink",
      "gone",
      `${siteId}/nonexistent0`,
      "--yes",
    ]);
    expect(missing.code).not.toBe(0);
    expect(missing.output).toContain("no such object");
    expect(missing.output).toContain(`/sites/${siteId}/share-links`);
  });

  it("the plugin answers its checked-in schema, and an installed plugin serves a project without plugins.providers", async () => {
    const launcher = path.join(dir, "node_modules/.bin/pulumi-resource-docs");
    const env = { ...process.env, ...stack.workspace.envVars };
    const { stdout } = await run(path.join(toolsDir, "bin/pulumi"), ["package", "get-schema", launcher], {
      cwd: dir,
      env,
      maxBuffer: 64 << 20,
    });
    expect(JSON.parse(stdout)).toEqual(
      JSON.parse(readFileSync(path.join(repoRoot, "provider/plugin/schema.json"), "utf8")),
    );
    const { version } = require(path.join(repoRoot, "package.json"));
    await run(
      path.join(toolsDir, "bin/pulumi"),
      ["plugin", "install", "resource", "docs", version, "--file", launcher],
      {
        cwd: dir,
        env,
      },
    );
    const withoutPath = program();
    delete withoutPath.plugins;
    const original = program();
    writeProgram(withoutPath);
    try {
      const preview = await runPulumi(stack, ["preview", "--expect-no-changes"]);
      expect(preview.code, preview.output).toBe(0);
    } finally {
      writeProgram(original);
    }
  });

  it("destroy deletes everything, the imported objects too, and leaves the organization as it found it", async () => {
    const destroy = await runPulumi(stack, ["destroy", "--yes"]);
    expect(destroy.code, destroy.output).toBe(0);
    expect(await organizationContents()).toEqual(before);
    expect(await exportAsStored(stack)).not.toContain(TOKEN);
  });
});

/**
 * Two organizations in one YAML program: the stack's default provider for the first, a `pulumi:providers:docs`
 * resource for the second, with its token given in plain text. Messages about the explicit provider's settings name
 * its inputs.
 */
describe("explicit providers in a YAML program", () => {
  let emulator: RunningEmulator;
  let dir: string;
  let stack: Stack;
  const secondToken = "tok-yaml-second-4b8e02af";
  const program = (providerInputs: string, secondTitle = "Second handbook") => `name: docs-yaml-providers
runtime: yaml
plugins:
  providers:
    - name: docs
      path: node_modules/.bin
config:
  secondOrganization:
    type: string
  secondToken:
    type: string
  apiUrl:
    type: string
resources:
  second:
    type: pulumi:providers:docs
    properties:
${providerInputs}
  first-handbook:
    type: docs:Collection
    properties:
      title: First handbook
  second-handbook:
    type: docs:Collection
    properties:
      title: ${secondTitle}
    options:
      provider: \${second}
outputs:
  first: \${first-handbook.organizationId}
  second: \${second-handbook.organizationId}
`;
  const withoutToken = `      apiUrl: \${apiUrl}\n      organizationId: \${secondOrganization}`;
  const withToken = `${withoutToken}\n      apiToken: \${secondToken}`;

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0, token: TOKEN });
    emulator.scopeToken(secondToken, emulator.secondOrganizationId);
    dir = await makeProject("yaml-providers", { "Pulumi.yaml": program(withToken) });
    stack = await makeStack(dir, emulator, { credentialsInConfig: true });
    await stack.setConfig("docs:organizationId", { value: emulator.organizationId });
    await stack.setConfig("secondOrganization", { value: emulator.secondOrganizationId });
    await stack.setConfig("secondToken", { value: secondToken, secret: false });
    await stack.setConfig("apiUrl", { value: emulator.url });
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("puts each resource in its provider's organization, and stores neither token", async () => {
    await upConsistent(stack);
    const outputs = await stack.outputs();
    expect(outputs.first?.value).toBe(emulator.organizationId);
    expect(outputs.second?.value).toBe(emulator.secondOrganizationId);
    const exported = await exportAsStored(stack);
    expect(exported).not.toContain(TOKEN);
    expect(exported).not.toContain(secondToken);
    expect((await runPulumi(stack, ["preview", "--expect-no-changes"])).code).toBe(0);
  });

  it("names the explicit provider's input when its token is missing", async () => {
    // A change makes the provider call the API with the settings the program now gives it: no token.
    writeFileSync(path.join(dir, "Pulumi.yaml"), program(withoutToken, "Second handbook, renamed"));
    const up = await runPulumi(stack, ["up", "--yes"]);
    writeFileSync(path.join(dir, "Pulumi.yaml"), program(withToken));
    expect(up.code).not.toBe(0);
    expect(up.output).toContain('`apiToken: <token>` in the inputs of provider "second"');
    // The provider's settings saved without the token, which destroy would use, get it back.
    expect((await runPulumi(stack, ["up", "--yes"])).code).toBe(0);
  });

  it("destroys the resources of both providers", async () => {
    expect((await runPulumi(stack, ["destroy", "--yes"])).code).toBe(0);
    for (const organization of [emulator.organizationId, emulator.secondOrganizationId]) {
      const listed = await callApi(emulator, "GET", `/orgs/${organization}/collections?limit=100`);
      const titles = (listed.body.items as Json[]).map((item) => item.title);
      expect(titles.filter((title) => title.endsWith("handbook"))).toEqual([]);
    }
  });
});
