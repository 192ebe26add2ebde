import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { callApi, startTestEmulator } from "../support/emulator";
import { makeProject, makeStack, runPulumi } from "./harness";

const example = path.resolve(__dirname, "../../examples/docs-site");

/** The lines of each "Diagnostics:" block the CLI printed (a `pulumi up` prints its preview's, then its update's). */
function diagnostics(output: string): string[][] {
  return [...output.matchAll(/^Diagnostics:\n {2}pulumi:pulumi:Stack \([^)]*\):\n([\s\S]*?)\n\n/gm)].map((block) =>
    (block[1] ?? "").split("\n").map((line) => line.trim()),
  );
}

/**
 * What the provider tells under the stack, through the real CLI: the docs-site example (the demo's program) warns
 * about nothing in any operation, and an adoption is told in one line, with one more per adopted object it changes.
 */
describe("the docs-site example prints no warning", () => {
  let emulator: RunningEmulator;
  let stack: Stack;

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0, token: "notices-e2e-token" });
    const files = {
      "index.ts": readFileSync(path.join(example, "index.ts"), "utf8"),
      "tsconfig.json": readFileSync(path.join(example, "tsconfig.json"), "utf8"),
    };
    stack = await makeStack(await makeProject("notices-docs-site", files, { typescript: true }), emulator);
    await stack.setConfig("userIds", { value: JSON.stringify(emulator.userIds) });
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await emulator?.close();
  });

  // The update creates the partner portal before its SiteVisitorAuth is checked with the portal's new id; the refresh
  // diffs the portal without checking the program.
  it.each([
    ["preview of the new platform", ["preview"]],
    ["up creating it (its preview, then the update)", ["up", "--yes"]],
    ["preview --refresh of the deployed platform", ["preview", "--refresh"]],
    ["refresh", ["refresh", "--yes"]],
  ])("%s", async (_operation, args) => {
    const result = await runPulumi(stack, args);
    expect(result.code, result.output.slice(-3000)).toBe(0);
    expect(result.output.split("\n").filter((line) => /\bwarning:/.test(line))).toEqual([]);
  });
});

describe("an adoption is told in one line", () => {
  let emulator: RunningEmulator;
  let stack: Stack;
  let ids: Record<string, string>;
  const writes = () => emulator.requests().filter((r) => r.method !== "GET" && r.path.startsWith("/v1/"));
  /** Objects made by hand, and a program adopting each by importId with the inputs it has (`extra`: one more). */
  const program = (extra = "") => `const docs = require("pulumi-docs-platform");
const ids = ${JSON.stringify(ids)};
const organizationId = ${JSON.stringify(emulator.organizationId)};
new docs.Collection("handbook", { organizationId, importId: ids.handbook, title: "Handbook" });
new docs.Collection("archive", { organizationId, importId: ids.archive, title: "Archive" });
new docs.Team("writers", { organizationId, importId: ids.writers, title: "Writers" });
new docs.Team("reviewers", { organizationId, importId: ids.reviewers, title: "Reviewers" });
new docs.Space("guides", { organizationId, importId: ids.guides, title: "Guides" });
${extra}`;
  const writeProgram = (text: string) => writeFileSync(path.join(stack.workspace.workDir, "index.js"), text);
  const takeOver =
    "5 of the creates counted below take over the existing objects their importId names instead of making new ones";

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0, token: "adoption-notices-e2e-token" });
    const org = `/orgs/${emulator.organizationId}`;
    const make = async (method: string, apiPath: string, body: unknown) =>
      (await callApi(emulator, method, apiPath, body)).body.id as string;
    ids = {
      handbook: await make("POST", `${org}/collections`, { title: "Handbook" }),
      archive: await make("POST", `${org}/collections`, { title: "Archive" }),
      writers: await make("PUT", `${org}/teams`, { title: "Writers" }),
      reviewers: await make("PUT", `${org}/teams`, { title: "Reviewers" }),
      guides: await make("POST", `${org}/spaces`, { title: "Guides" }),
      legacy: await make("POST", `${org}/collections`, { title: "Legacy" }),
    };
    stack = await makeStack(await makeProject("adoption-notices", { "index.js": program() }), emulator);
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await emulator?.close();
  });

  it("preview: how many creates adopt, and with preflight what they change", async () => {
    const preview = await runPulumi(stack, ["preview"]);
    expect(preview.code, preview.output).toBe(0);
    console.log(`preview of an adoption of 5 objects:\n${preview.output}`);
    expect(diagnostics(preview.output)).toEqual([
      [`info: 5 to adopt: ${takeOver}; turn on docs:preflight to see what adoption changes.`],
    ]);
    expect(preview.output).toContain("+ 6 to create");

    const checked = await runPulumi(stack, ["preview"], { DOCS_PREFLIGHT: "true" });
    expect(checked.code, checked.output).toBe(0);
    expect(diagnostics(checked.output)).toEqual([[`info: 5 to adopt, 0 to change: ${takeOver}.`]]);
  });

  it("up: `5 adopted, 0 changed`, and not one write", async () => {
    emulator.clearRequests();
    const up = await runPulumi(stack, ["up", "--yes"]);
    expect(up.code, up.output).toBe(0);
    console.log(`up of an adoption of 5 objects:\n${up.output}`);
    expect(diagnostics(up.output)).toEqual([
      [`info: 5 to adopt: ${takeOver}; turn on docs:preflight to see what adoption changes.`],
      [
        "info: 5 adopted, 0 changed: 5 of the creates counted below took over existing objects instead of making new " +
          "ones.",
      ],
    ]);
    expect(up.output).toContain("+ 6 created");
    expect(writes()).toEqual([]);
  });

  it("an adoption that changes its object gets a line of its own, in the preview and in the update", async () => {
    writeProgram(
      program('new docs.Collection("legacy", { organizationId, importId: ids.legacy, title: "Old guides" });'),
    );
    const subject = `Collection importId "${ids.legacy}": adopts the existing object "Legacy" instead of creating one`;
    const preview = await runPulumi(stack, ["preview"], { DOCS_PREFLIGHT: "true" });
    expect(preview.code, preview.output).toBe(0);
    const one = "1 of the creates counted below";
    expect(diagnostics(preview.output)).toEqual([
      [
        `info: ${subject}; adoption will change title.`,
        `info: 1 to adopt, 1 to change (listed above): ${one} takes over the existing object its importId names ` +
          "instead of making a new one.",
      ],
    ]);
    const up = await runPulumi(stack, ["up", "--yes", "--skip-preview"]);
    expect(up.code, up.output).toBe(0);
    expect(diagnostics(up.output)).toEqual([
      [
        `info: Collection "${ids.legacy}" adopted (importId): the existing object was taken over, not created; ` +
          "changed title.",
        `info: 1 adopted, 1 changed (listed above): ${one} took over an existing object instead of making a new one.`,
      ],
    ]);
  });
});
