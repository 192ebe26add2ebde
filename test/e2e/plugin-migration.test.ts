import { appendFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { EngineEvent, Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { startTestEmulator } from "../support/emulator";
import { changes, exportAsStored, makeProject, makeStack, runPulumi, upConsistent } from "./harness";

/**
 * docs/plugin-migration.md, followed on a stack the dynamic route wrote: the same program with the import changed to
 * `pulumi-docs-platform/plugin` and its `Connection` turned into a `docs.Provider` moves every resource over by the
 * classes' built-in type alias, as an update that removes `__provider` and sends no request, with no replace and the
 * stack config untouched.
 */
const TOKEN = "tok-migration-7e3b9d21";

const dynamicProgram = `
const pulumi = require("@pulumi/pulumi");
const docs = require("pulumi-docs-platform");
const organizationId = new pulumi.Config().require("organizationId");
const acme = new docs.Connection({ organizationId, tokenEnv: "ACME_TOKEN" });

const handbook = new docs.Collection("handbook", { title: "Handbook" });
const site = new docs.Site("docs", { title: "Docs" });
const writers = new docs.Team("writers", { title: "Writers", connection: acme });
exports.ids = { handbook: handbook.id, site: site.id, writers: writers.id };
`;

/** What the guide tells a user to write instead: the import, and the connection as an explicit provider. */
const pluginProgram = `
const pulumi = require("@pulumi/pulumi");
const docs = require("pulumi-docs-platform/plugin");
const organizationId = new pulumi.Config().require("organizationId");
// An explicit provider reads no stack config: the API URL it would have taken from docs:apiUrl is given.
const acme = new docs.Provider("acme", {
  organizationId,
  apiUrl: new pulumi.Config("docs").require("apiUrl"),
  apiToken: process.env.ACME_TOKEN,
});

const handbook = new docs.Collection("handbook", { title: "Handbook" });
const site = new docs.Site("docs", { title: "Docs" });
const writers = new docs.Team("writers", { title: "Writers" }, { provider: acme });
exports.ids = { handbook: handbook.id, site: site.id, writers: writers.id };
`;

const PLUGINS = "plugins:\n  providers:\n    - name: docs\n      path: node_modules/.bin\n";

interface Step {
  op: string;
  type: string;
  name: string;
  diffs: string[];
}

describe("moving a dynamic stack to the provider plugin", () => {
  let emulator: RunningEmulator;
  let stack: Stack;
  let dir: string;
  let ids: Record<string, string>;
  let config: string;
  const writes = () => emulator.requests().filter((r) => r.method !== "GET" && r.path.startsWith("/v1/"));
  const stackConfig = async () => JSON.stringify(await stack.getAllConfig());

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0, token: TOKEN });
    dir = await makeProject("plugin-migration", { "index.js": dynamicProgram });
    stack = await makeStack(dir, emulator, { credentialsInConfig: true });
    await stack.setConfig("docs:organizationId", { value: emulator.organizationId });
    (stack.workspace as unknown as { envVars: Record<string, string> }).envVars.ACME_TOKEN = TOKEN;
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await emulator?.close();
  });

  it("the dynamic route creates the stack", async () => {
    const up = await upConsistent(stack);
    expect(up.summary.resourceChanges).toMatchObject({ create: 4 });
    ids = up.outputs.ids?.value;
    expect(Object.keys(ids).sort()).toEqual(["handbook", "site", "writers"]);
    expect(await exportAsStored(stack)).toContain('"type": "pulumi-nodejs:dynamic/docs:Collection"');
    config = await stackConfig();
  });

  it("after the switch, preview shows each resource as an update removing __provider, and no replace", async () => {
    writeFileSync(path.join(dir, "index.js"), pluginProgram);
    appendFileSync(path.join(dir, "Pulumi.yaml"), PLUGINS);
    emulator.clearRequests();
    const steps: Step[] = [];
    const onEvent = (event: EngineEvent) => {
      const meta = event.resourcePreEvent?.metadata;
      if (!meta) return;
      const name = meta.urn.split("::").at(-1) ?? "";
      steps.push({ op: meta.op, type: meta.type, name, diffs: [...(meta.diffs ?? [])].sort() });
    };
    const preview = await stack.preview({ diff: true, onEvent });
    const resources = steps.filter((step) => step.type.startsWith("docs:index:"));
    expect(resources.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { op: "update", type: "docs:index:Site", name: "docs", diffs: ["__provider"] },
      { op: "update", type: "docs:index:Collection", name: "handbook", diffs: ["__provider"] },
      { op: "update", type: "docs:index:Team", name: "writers", diffs: ["__provider"] },
    ]);
    expect(
      steps.filter((step) => /replace|delete/.test(step.op) && !step.type.startsWith("pulumi:providers:")),
    ).toEqual([]);
    // The one create is the explicit provider that replaces the connection.
    expect(changes(preview.changeSummary)).toEqual({ create: 1, update: 3 });
    expect(preview.stdout).toContain("__provider");
    expect(writes()).toEqual([]);
  });

  it("up moves them with no request, no new id, and leaves no __provider in the state", async () => {
    emulator.clearRequests();
    const up = await upConsistent(stack);
    expect(changes(up.summary.resourceChanges)).toEqual({ create: 1, update: 3 });
    expect(up.outputs.ids?.value).toEqual(ids);
    expect(writes()).toEqual([]);
    const exported = await exportAsStored(stack);
    expect(exported).not.toContain("__provider");
    expect(exported).not.toContain("pulumi-nodejs:dynamic/");
    expect(exported).not.toContain('"tokenEnv"');
    expect(exported).toContain('"type": "docs:index:Collection"');
    expect(exported).toContain('"type": "pulumi:providers:docs"');
    expect(exported).not.toContain(TOKEN);
    expect(await stackConfig()).toBe(config);
  });

  it("a second preview expects no changes", async () => {
    const preview = await runPulumi(stack, ["preview", "--expect-no-changes"]);
    expect(preview.output).not.toContain("error");
    expect(preview.code).toBe(0);
  });
});
