import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import type { RequestLogEntry, RunningEmulator } from "../../emulator";
import { added, type Census, census } from "../support/census";
import { callApi, type Json, startTestEmulator } from "../support/emulator";
import { type CliRun, makeProject, makeStack, runPulumi } from "./harness";

/** Six creates against three requests a window: three must wait for the reset, long enough to be told (5 s or more). */
const RATE_LIMIT = { limit: 3, windowMs: 8_000 };
const BULK_COLLECTIONS = 6;
const PLUGIN_STACK = "pulumi:pulumi:Stack (plugin-parity-e2e)";
const DYNAMIC_STACK = "pulumi:pulumi:Stack (plugin-parity-dynamic-e2e)";
/** What the client tells of a period of waits (provider/framework/settings.ts, waitLine); the dynamic route's is prefixed. */
const WAIT_LINE = new RegExp(
  "^(?:info: \\[runtime\\] )?(\\d+) requests? waited up to \\d+ s for the rate limit \\(" +
    `(?:its budget of ${RATE_LIMIT.limit} requests was spent|the API answered 429 Too Many Requests)` +
    "(?:, and the API answered 429 Too Many Requests)?\\), until \\S+Z\\.$",
);

/**
 * The plugin route (a YAML program, the `docs` provider plugin) against the dynamic route (the same resources from a
 * JavaScript program), through the real CLI: a rate limit and a lost create answer cost the same requests and end the
 * same way, and what the provider tells reaches the CLI, under the resource it is about where the plugin knows it.
 * One npm install serves both projects: the dynamic one links the YAML one's node_modules.
 */
describe("the provider plugin behaves as the dynamic route", () => {
  let emulator: RunningEmulator;
  let pluginStack: Stack;
  let dynamicStack: Stack;
  let pluginDir: string;
  let dynamicDir: string;

  const writeYaml = (resources: Json) =>
    writeFileSync(
      path.join(pluginDir, "Pulumi.yaml"),
      stringify({
        name: "plugin-parity",
        runtime: "yaml",
        plugins: { providers: [{ name: "docs", path: "node_modules/.bin" }] },
        resources,
      }),
    );
  const writeJs = (body: string) =>
    writeFileSync(path.join(dynamicDir, "index.js"), `const docs = require("pulumi-docs-platform");\n${body}\n`);
  const api = (method: string, apiPath: string, body?: unknown) =>
    callApi(emulator, method, `/orgs/${emulator.organizationId}${apiPath}`, body);
  /** What reached the API from the provider (the test's own calls left out). */
  const providerRequests = (): RequestLogEntry[] =>
    emulator.requests().filter((r) => r.userAgent?.startsWith("pulumi-docs-platform"));
  /** Requests as `METHOD route status`, ids left out, for comparing the routes. */
  const shape = (requests: RequestLogEntry[]) =>
    requests.map((r) => `${r.method} ${r.route ?? r.path} ${r.rateLimited ? "rate-limited" : r.status}`);
  const destroy = async (stack: Stack) => {
    const run = await runPulumi(stack, ["destroy", "--yes", "--skip-preview"]);
    expect(run.code, run.output).toBe(0);
  };
  const destroyAll = async () => {
    for (const stack of [pluginStack, dynamicStack]) await destroy(stack);
  };
  let baseline: Census;

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0, token: "plugin-parity-e2e-token" });
    pluginDir = await makeProject("plugin-parity", { "Pulumi.yaml": "name: plugin-parity\nruntime: yaml\n" });
    writeYaml({});
    dynamicDir = path.join(pluginDir, "dynamic");
    mkdirSync(dynamicDir);
    symlinkSync(path.join(pluginDir, "node_modules"), path.join(dynamicDir, "node_modules"));
    copyFileSync(path.join(pluginDir, "package.json"), path.join(dynamicDir, "package.json"));
    writeFileSync(
      path.join(dynamicDir, "Pulumi.yaml"),
      "name: plugin-parity-dynamic\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: index.js\n",
    );
    writeJs("");
    pluginStack = await makeStack(pluginDir, emulator);
    dynamicStack = await makeStack(dynamicDir, emulator);
    for (const stack of [pluginStack, dynamicStack]) {
      await stack.setConfig("docs:organizationId", { value: emulator.organizationId });
    }
    baseline = await census(emulator);
  });
  afterAll(async () => {
    emulator?.setRateLimit(undefined);
    await emulator?.close();
  });

  it(`under a ${RATE_LIMIT.limit}/${RATE_LIMIT.windowMs / 1000}s rate limit, up of ${BULK_COLLECTIONS} collections fails nothing, tells each wait under its resource and costs the dynamic route's requests`, async () => {
    const names = Array.from({ length: BULK_COLLECTIONS }, (_, i) => `bulk-${i}`);
    writeYaml(
      Object.fromEntries(names.map((name) => [name, { type: "docs:Collection", properties: { title: name } }])),
    );
    writeJs(`for (const name of ${JSON.stringify(names)}) new docs.Collection(name, { title: name });`);

    const runs: { requests: RequestLogEntry[]; added: Census }[] = [];
    for (const stack of [pluginStack, dynamicStack]) {
      // Fresh windows for each route, and the test's own calls outside them.
      emulator.setRateLimit(RATE_LIMIT);
      emulator.clearRequests();
      let up: CliRun;
      try {
        up = await runPulumi(stack, ["up", "--yes"]);
      } finally {
        emulator.setRateLimit(undefined);
      }
      const requests = providerRequests();
      runs.push({ requests, added: added(baseline, await census(emulator)) });
      const waits = diagnostics(up.output).flatMap((block) =>
        [...block].flatMap(([under, lines]) => lines.filter((l) => WAIT_LINE.test(l)).map((l) => ({ under, l }))),
      );
      console.log(
        `${stack === pluginStack ? "plugin" : "dynamic"} route: ${requests.filter((r) => !r.rateLimited).length} ` +
          `requests served + ${requests.filter((r) => r.rateLimited).length} answered 429; waits told:\n  ` +
          waits.map(({ under, l }) => `${under}: ${l}`).join("\n  "),
      );
      expect(up.code, up.output).toBe(0);
      expect(up.output).toContain(`+ ${BULK_COLLECTIONS + 1} created`);
      expect(up.output).not.toMatch(/\bfailed\b/);
      // Every request that waited is counted, in one line per period of waits (one window here), not one each.
      const told = waits.map(({ l }) => Number(WAIT_LINE.exec(l)?.[1]));
      expect(told.reduce((sum, n) => sum + n, 0)).toBe(BULK_COLLECTIONS - RATE_LIMIT.limit);
      expect(waits).toHaveLength(1);
      // A period's requests are several resources': its line goes under the stack, on both routes.
      expect(waits.every(({ under }) => under === (stack === pluginStack ? PLUGIN_STACK : DYNAMIC_STACK))).toBe(true);
      await destroy(stack);
    }

    const [plugin, dynamic] = runs as [(typeof runs)[0], (typeof runs)[0]];
    // One create each, nothing more: what the API served is the same on both routes. How many requests it answered
    // 429 depends on how many creates the engine had in flight when the first answer came.
    const served = (requests: RequestLogEntry[]) => shape(requests.filter((r) => !r.rateLimited)).sort();
    expect(served(plugin.requests)).toEqual(
      Array(BULK_COLLECTIONS).fill("POST /v1/orgs/{organizationId}/collections 201"),
    );
    expect(served(plugin.requests)).toEqual(served(dynamic.requests));
    expect(Object.keys(plugin.added)).toEqual(["Collection"]);
    expect(plugin.added.Collection).toHaveLength(BULK_COLLECTIONS);
    expect(dynamic.added.Collection).toHaveLength(BULK_COLLECTIONS);
    expect(added(baseline, await census(emulator))).toEqual({});
  });

  it("a create whose answer is lost after the API made it leaves one object, adopted and told, with the dynamic route's requests", async () => {
    writeYaml({ recovered: { type: "docs:Collection", properties: { title: "Recovered" } } });
    writeJs('new docs.Collection("recovered", { title: "Recovered" });');
    const runs = [];
    for (const stack of [pluginStack, dynamicStack]) {
      emulator.injectFault({ method: "POST", path: "/collections$", afterHandling: "drop" });
      emulator.clearRequests();
      const up = await runPulumi(stack, ["up", "--yes"]);
      expect(up.code, up.output).toBe(0);
      const requests = providerRequests();
      const made = added(baseline, await census(emulator));
      // No duplicate, no orphan: the one object the API made is the one the state holds.
      const state = (await stack.exportStack()).deployment.resources as Json[];
      const id = state.find((r) => r.urn.endsWith("::recovered"))?.id;
      expect(made).toEqual({ Collection: [id] });
      const told =
        `Collection "${id}" adopted: the create's answer was lost but the API had made it, so it was taken over, ` +
        "not made twice; no change.";
      const update = diagnostics(up.output).at(-1);
      if (stack === pluginStack) {
        expect(update?.get("docs:index:Collection (recovered)")).toEqual([told]);
        expect(update?.get(PLUGIN_STACK)).toBeUndefined();
      } else {
        expect(update?.get(DYNAMIC_STACK)).toEqual([`info: ${told}`]);
      }
      const preview = await runPulumi(stack, ["preview", "--expect-no-changes"]);
      expect(preview.code, preview.output).toBe(0);
      runs.push({ requests: shape(requests), id });
      await destroy(stack);
    }
    console.log(`lost create answer: plugin route ${runs[0]?.requests.join(", ")}`);
    console.log(`lost create answer: dynamic route ${runs[1]?.requests.join(", ")}`);
    // The create sent once (collections are not idempotent: never repeated), then found by listing.
    expect(runs[0]?.requests.filter((r) => r.startsWith("POST"))).toEqual([
      "POST /v1/orgs/{organizationId}/collections dropped",
    ]);
    expect(runs[0]?.requests).toEqual(runs[1]?.requests);
    expect(added(baseline, await census(emulator))).toEqual({});
  });

  it("tells an OrganizationSettings take-over under its resource, and an importId adoption's summary in Diagnostics, as the dynamic route tells them under the stack", async () => {
    const { title } = (await api("GET", "")).body;
    const adoptSummary =
      "1 to adopt: 1 of the creates counted below takes over the existing object its importId names instead of " +
      "making a new one; turn on docs:preflight to see what adoption changes.";
    const adoptedSummary =
      "1 adopted, 0 changed: 1 of the creates counted below took over an existing object instead of making a new one.";
    const takeOver = `OrganizationSettings "${emulator.organizationId}" adopted: the existing object was taken over, not created; no change.`;

    const pluginExisting = (await api("POST", "/collections", { title: "Existing" })).body.id as string;
    writeYaml({
      settings: { type: "docs:OrganizationSettings", properties: { title } },
      existing: { type: "docs:Collection", properties: { title: "Existing", importId: pluginExisting } },
    });
    const plugin = await runPulumi(pluginStack, ["up", "--yes"]);
    expect(plugin.code, plugin.output).toBe(0);
    console.log(`plugin route, up of an OrganizationSettings and an importId adoption:\n${plugin.output}`);
    // The engine prints a plugin's info lines without the `info:` the dynamic route writes into its stderr text.
    const [pluginPreview, pluginUpdate] = diagnostics(plugin.output);
    expect(Object.fromEntries(pluginPreview ?? [])).toEqual({ [PLUGIN_STACK]: [adoptSummary] });
    expect(Object.fromEntries(pluginUpdate ?? [])).toEqual({
      "docs:index:OrganizationSettings (settings)": [takeOver],
      [PLUGIN_STACK]: [adoptedSummary],
    });
    expect((await runPulumi(pluginStack, ["preview", "--expect-no-changes"])).code).toBe(0);

    const dynamicExisting = (await api("POST", "/collections", { title: "Existing too" })).body.id as string;
    writeJs(
      `new docs.OrganizationSettings("settings", { title: ${JSON.stringify(title)} });\n` +
        `new docs.Collection("existing", { title: "Existing too", importId: ${JSON.stringify(dynamicExisting)} });`,
    );
    const dynamic = await runPulumi(dynamicStack, ["up", "--yes"]);
    expect(dynamic.code, dynamic.output).toBe(0);
    const [dynamicPreview, dynamicUpdate] = diagnostics(dynamic.output);
    expect(Object.fromEntries(dynamicPreview ?? [])).toEqual({ [DYNAMIC_STACK]: [`info: ${adoptSummary}`] });
    expect(Object.fromEntries(dynamicUpdate ?? [])).toEqual({
      [DYNAMIC_STACK]: [`info: ${takeOver}`, `info: ${adoptedSummary}`],
    });

    await destroyAll();
    expect(added(baseline, await census(emulator))).toEqual({});
  });

  it("the YAML import option takes over an object made through the API, and a preview after needs no change", async () => {
    const id = (await api("POST", "/collections", { title: "Imported" })).body.id as string;
    writeYaml({ imported: { type: "docs:Collection", properties: { title: "Imported" }, options: { import: id } } });
    emulator.clearRequests();
    const up = await runPulumi(pluginStack, ["up", "--yes"]);
    expect(up.code, up.output).toBe(0);
    expect(up.output).toMatch(/= +1 imported/);
    // The declared title is the object's: taken over as it is, not one write.
    expect(shape(providerRequests().filter((r) => r.method !== "GET"))).toEqual([]);
    const state = (await pluginStack.exportStack()).deployment.resources as Json[];
    expect(state.find((r) => r.urn.endsWith("::imported"))?.id).toBe(id);
    const preview = await runPulumi(pluginStack, ["preview", "--expect-no-changes", "--diff"]);
    expect(preview.code, preview.output).toBe(0);
    await destroyAll();
    expect(added(baseline, await census(emulator))).toEqual({});
  });

  it("an import option naming no object fails at preview, naming where the objects are listed", async () => {
    writeYaml({
      imported: { type: "docs:Collection", properties: { title: "Imported" }, options: { import: "nonexistent0" } },
    });
    const preview = await runPulumi(pluginStack, ["preview"]);
    expect(preview.code).not.toBe(0);
    expect(preview.output).toContain(
      `Collection: import id "nonexistent0": no such object; GET /orgs/${emulator.organizationId}/collections lists ` +
        "those that exist",
    );
    writeYaml({});
  });
});

/**
 * Each "Diagnostics:" block the CLI printed (a `pulumi up` prints its preview's, then its update's): the lines shown
 * under each resource, by `<type> (<name>)`.
 */
function diagnostics(output: string): Map<string, string[]>[] {
  const blocks: Map<string, string[]>[] = [];
  const lines = output.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== "Diagnostics:") continue;
    const block = new Map<string, string[]>();
    let under: string[] | undefined;
    for (i++; i < lines.length && (lines[i] === "" || lines[i]?.startsWith(" ")); i++) {
      const line = lines[i] as string;
      const heading = /^ {2}(\S.*):$/.exec(line);
      if (heading?.[1]) {
        under = [];
        block.set(heading[1], under);
      } else if (line.startsWith("    ") && under) {
        under.push(line.trim());
      }
    }
    blocks.push(block);
  }
  return blocks;
}
