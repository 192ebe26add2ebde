import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { callApi, startTestEmulator } from "../support/emulator";
import { changes, makeProject, makeStack, runPulumi } from "./harness";

/**
 * `Site.styleguide` through the real CLI: a site whose style guide is a style guide space the program adopts (only
 * createSiteStyleguideById makes one), a no-change preview that sends nothing, another style guide attached by hand
 * seen and put back, the field left out (not managed) and then `null` (detached, the space kept), a regular space
 * refused with the API's answer, a missing one refused at preview by preflight, destroy.
 */
const program = `
const pulumi = require("@pulumi/pulumi");
const docs = require("pulumi-docs-platform");

const config = new pulumi.Config();
const organizationId = config.require("organizationId");

const guide = new docs.Space(
  "guide",
  { organizationId, title: "Holder style guide", importId: config.require("guideId") },
  { retainOnDelete: true },
);
const mode = config.get("styleguide") ?? "guide";
const styleguide = { guide: guide.id, null: null, other: config.get("otherSpaceId") }[mode];
const site = new docs.Site("docs", {
  organizationId,
  title: "Styled docs",
  ...(mode === "omitted" ? {} : { styleguide }),
});

exports.siteId = site.id;
exports.guideId = guide.id;
`;

describe("a site's style guide through the Pulumi CLI", () => {
  let emulator: RunningEmulator;
  let stack: Stack;
  let guide: string;

  const api = (method: string, path: string, body?: unknown) => callApi(emulator, method, path, body);
  const sitesPath = () => `/orgs/${emulator.organizationId}/sites`;
  const sitePath = async () => `${sitesPath()}/${(await stack.outputs()).siteId?.value}`;
  const attached = async () => ((await api("GET", await sitePath())).body as { styleguide?: unknown }).styleguide;
  const writes = () => emulator.requests().filter((r) => r.method !== "GET");
  /** A style guide space, made the one way the document has: a site's createSiteStyleguideById. */
  const makeStyleguide = async (holderTitle: string) => {
    const holder = await api("POST", sitesPath(), { title: holderTitle });
    const made = await api("POST", `${sitesPath()}/${holder.body.id}/styleguide`);
    expect(made.status, made.text).toBe(200);
    return made.body.id as string;
  };

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0 });
    stack = await makeStack(await makeProject("site-styleguide", { "index.js": program }), emulator);
    guide = await makeStyleguide("Holder");
    await stack.setConfig("guideId", { value: guide });
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await emulator?.close();
  });

  it("creates the site with its style guide, adopts the space without a write, and previews no change without a request", async () => {
    emulator.clearRequests();
    await stack.up();
    expect(await attached()).toEqual({ kind: "space", space: guide });
    expect(writes().map((r) => [`${r.method} ${r.route}`, r.requestBody])).toEqual([
      ["POST /v1/orgs/{organizationId}/sites", { title: "Styled docs" }],
      ["PATCH /v1/orgs/{organizationId}/sites/{siteId}", { styleguide: guide }],
    ]);
    emulator.clearRequests();
    const preview = await runPulumi(stack, ["preview", "--expect-no-changes", "--diff"]);
    expect(preview.code, preview.output).toBe(0);
    expect(emulator.requests()).toEqual([]);
  });

  it("sees another style guide attached by hand in preview --refresh, and puts the declared one back", async () => {
    const other = await makeStyleguide("Other holder");
    expect((await api("PATCH", await sitePath(), { styleguide: other })).status).toBe(200);
    const preview = await stack.preview({ refresh: true, diff: true });
    expect(changes(preview.changeSummary)).toEqual({ update: 1 });
    expect(preview.stdout).toMatch(new RegExp(`~ styleguide\\s*: "${other}" => "${guide}"`));
    emulator.clearRequests();
    await stack.up({ refresh: true });
    expect(writes().map((r) => [`${r.method} ${r.route}`, r.requestBody])).toEqual([
      ["PATCH /v1/orgs/{organizationId}/sites/{siteId}", { styleguide: guide }],
    ]);
    expect(await attached()).toEqual({ kind: "space", space: guide });
    const clean = await runPulumi(stack, ["refresh", "--expect-no-changes", "--yes"]);
    expect(clean.code, clean.output).toBe(0);
  });

  it("left out of the program it is not managed; null detaches it and the space stays", async () => {
    await stack.setConfig("styleguide", { value: "omitted" });
    emulator.clearRequests();
    const omitted = await runPulumi(stack, ["preview", "--expect-no-changes", "--refresh"]);
    expect(omitted.code, omitted.output).toBe(0);
    expect(writes()).toEqual([]);

    await stack.setConfig("styleguide", { value: "null" });
    const preview = await stack.preview({ diff: true });
    expect(changes(preview.changeSummary)).toEqual({ update: 1 });
    // Pulumi shows an input set to null as a property removed.
    expect(preview.stdout).toMatch(new RegExp(`- styleguide\\s*: "${guide}"`));
    emulator.clearRequests();
    await stack.up();
    expect(writes().map((r) => [`${r.method} ${r.route}`, r.requestBody])).toEqual([
      ["PATCH /v1/orgs/{organizationId}/sites/{siteId}", { styleguide: null }],
    ]);
    expect(await attached()).toBeUndefined();
    expect((await api("GET", `/spaces/${guide}`)).status).toBe(200);
    const clean = await runPulumi(stack, ["preview", "--expect-no-changes", "--refresh"]);
    expect(clean.code, clean.output).toBe(0);
  });

  it("fails up with the API's answer for a space that is no style guide, naming the site and the field", async () => {
    await stack.setConfig("styleguide", { value: "other" });
    await stack.setConfig("otherSpaceId", { value: emulator.spaceIds[0]! });
    const result = await runPulumi(stack, ["up", "--yes", "--skip-preview"]);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain(`styleguide: space "${emulator.spaceIds[0]}" is not a style guide`);
    expect(result.output).toContain("it must be a style guide space of the site's organization");
    expect(await attached()).toBeUndefined();
  });

  it("with preflight on, refuses a space that does not exist at preview, with no write", async () => {
    await stack.setConfig("otherSpaceId", { value: "noSuchStyleguide" });
    await stack.setConfig("docs:preflight", { value: "true" });
    emulator.clearRequests();
    const preview = await runPulumi(stack, ["preview"]);
    expect(preview.code).not.toBe(0);
    expect(preview.output).toContain(
      `Site.styleguide: preflight: no space has the id "noSuchStyleguide" in organization "${emulator.organizationId}"`,
    );
    expect(writes()).toEqual([]);
    await stack.removeConfig("docs:preflight");
    await stack.setConfig("styleguide", { value: "guide" });
  });

  it("destroy deletes the site and keeps the style guide space (retainOnDelete)", async () => {
    await stack.up();
    expect(await attached()).toEqual({ kind: "space", space: guide });
    const siteId = (await stack.outputs()).siteId?.value;
    await stack.destroy();
    expect((await api("GET", `${sitesPath()}/${siteId}`)).status).toBe(404);
    expect((await api("GET", `/spaces/${guide}`)).status).toBe(200);
  });
});
