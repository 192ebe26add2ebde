import { readFileSync } from "node:fs";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { callApi, startTestEmulator } from "../support/emulator";
import { changes, exportAsStored, makeProject, makeStack, stateFiles, upConsistent } from "./harness";

const program = `
const pulumi = require("@pulumi/pulumi");
const docs = require("pulumi-docs-platform");

const config = new pulumi.Config();
const organizationId = config.require("organizationId");

const handbook = new docs.Collection("handbook", {
  organizationId,
  title: config.get("handbookTitle") ?? "Handbook",
  description: "How we work",
});
const engineering = new docs.Collection("engineering", {
  organizationId,
  title: "Engineering",
  parentId: config.get("engineeringParent") === "top" ? null : handbook.id,
});
const onboarding = new docs.Collection("onboarding", { organizationId, title: "Onboarding", parentId: engineering.id });
const adoptId = config.get("adoptId");
const adopted = adoptId
  ? new docs.Collection("adopted", { organizationId, title: "Adopted by Pulumi", importId: adoptId })
  : undefined;

exports.ids = { handbook: handbook.id, engineering: engineering.id, onboarding: onboarding.id, adopted: adopted?.id };
exports.handbookUrl = handbook.urls.apply((urls) => urls.app);
`;

interface Ids {
  handbook: string;
  engineering: string;
  onboarding: string;
  adopted?: string;
}

describe("Collection through the Pulumi CLI", () => {
  let emulator: RunningEmulator;
  let stack: Stack;
  let ids: Ids;

  const api = (method: string, path: string, body?: unknown) => callApi(emulator, method, path, body);
  const collection = async (id: string) => (await api("GET", `/collections/${id}`)).body;
  const outputs = async () => (await stack.outputs()).ids?.value as Ids;

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0, token: "e2e-secret-token-4f9c" });
    stack = await makeStack(await makeProject("collections", { "index.js": program }), emulator, {
      credentialsInConfig: true,
    });
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await emulator?.close();
  });

  it("up creates nested collections", async () => {
    const result = await upConsistent(stack);
    expect(result.summary.resourceChanges).toMatchObject({ create: 4 });
    ids = await outputs();
    expect(await collection(ids.engineering)).toMatchObject({ title: "Engineering", parent: ids.handbook });
    expect(await collection(ids.onboarding)).toMatchObject({ title: "Onboarding", parent: ids.engineering });
    expect(result.outputs.handbookUrl?.value).toMatch(/^https?:\/\//);
  });

  it("a second preview reports no changes", async () => {
    const preview = await stack.preview();
    expect(changes(preview.changeSummary)).toEqual({});
  });

  it("preview --refresh reports a title changed out of band, and up --refresh puts it back", async () => {
    expect((await api("PATCH", `/collections/${ids.handbook}`, { title: "Edited by hand" })).status).toBe(200);
    await expect(stack.preview({ refresh: true, expectNoChanges: true })).rejects.toThrow();
    const up = await upConsistent(stack, { refresh: true });
    expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(await collection(ids.handbook)).toMatchObject({ title: "Handbook" });
  });

  it("refresh drops a collection deleted out of band, and up recreates it", async () => {
    expect([204, 205]).toContain((await api("DELETE", `/collections/${ids.onboarding}`)).status);
    await stack.refresh();
    const exported = await stack.exportStack();
    const urns = (exported.deployment.resources ?? []).map((r: { urn: string }) => r.urn);
    expect(urns.some((urn: string) => urn.endsWith("::onboarding"))).toBe(false);
    const up = await upConsistent(stack);
    expect(up.summary.resourceChanges).toMatchObject({ create: 1 });
    const recreated = (await outputs()).onboarding;
    expect(recreated).not.toBe(ids.onboarding);
    expect(await collection(recreated)).toMatchObject({ parent: ids.engineering });
    ids = await outputs();
  });

  it("a parent change is an update through the move endpoint, not a replace", async () => {
    await stack.setConfig("engineeringParent", { value: "top" });
    emulator.clearRequests();
    const up = await upConsistent(stack);
    expect(changes(up.summary.resourceChanges)).toEqual({ update: 1 });
    expect((await outputs()).engineering).toBe(ids.engineering);
    expect((await collection(ids.engineering)).parent ?? null).toBeNull();
    const moves = emulator.requests().filter((r) => r.method === "POST" && r.path.endsWith("/move"));
    expect(moves).toHaveLength(1);
  });

  it("importId adopts an existing collection instead of creating one", async () => {
    const legacy = await api("POST", `/orgs/${emulator.organizationId}/collections`, { title: "Legacy" });
    await stack.setConfig("adoptId", { value: legacy.body.id });
    const before = (await api("GET", `/orgs/${emulator.organizationId}/collections?limit=1000`)).body.items.length;
    const up = await upConsistent(stack);
    expect(changes(up.summary.resourceChanges)).toEqual({ create: 1 });
    expect((await outputs()).adopted).toBe(legacy.body.id);
    expect(await collection(legacy.body.id)).toMatchObject({ title: "Adopted by Pulumi" });
    const after = (await api("GET", `/orgs/${emulator.organizationId}/collections?limit=1000`)).body.items.length;
    expect(after).toBe(before);
  });

  it("an invalid input fails the preview with the resource, the property and the rule, before any request", async () => {
    await stack.setConfig("handbookTitle", { value: "A title far longer than the fifty characters allowed" });
    emulator.clearRequests();
    let printed = "";
    const record = (text: string) => {
      printed += text;
    };
    await expect(stack.preview({ onOutput: record, onError: record })).rejects.toThrow();
    expect(printed).toMatch(
      /Collection resource 'handbook': property title value .* has a problem: Collection\.title: must be at most 50 characters/,
    );
    expect(emulator.requests().filter((r) => r.method !== "GET")).toEqual([]);
    await stack.removeConfig("handbookTitle");
  });

  it("the state holds neither the token nor more than 2 KB of __provider per resource", async () => {
    // exportStack() runs `stack export --show-secrets`, so the token is looked for in the checkpoint files themselves.
    const checkpoints = stateFiles(stack.workspace.workDir);
    expect(checkpoints.length).toBeGreaterThan(0);
    for (const file of checkpoints) expect(readFileSync(file, "utf8")).not.toContain(emulator.token);
    const stored = await exportAsStored(stack);
    expect(stored).toContain('"docs:apiToken"');
    expect(stored).not.toContain(emulator.token);
    const exported = await stack.exportStack();
    const dynamic = (exported.deployment.resources ?? []).filter((r: { type: string }) =>
      r.type.startsWith("pulumi-nodejs:dynamic/docs:"),
    );
    expect(dynamic.length).toBe(4);
    for (const resource of dynamic) {
      const text = resource.outputs.__provider as string;
      expect(typeof text).toBe("string");
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(2048);
      expect(resource.inputs.__provider).toBe(text);
    }
    console.log(`__provider per resource: ${Buffer.byteLength(dynamic[0].outputs.__provider as string)} bytes`);
  });

  it("destroy leaves none of the program's collections", async () => {
    const all = Object.values(await outputs()).filter(Boolean) as string[];
    await stack.destroy();
    for (const id of all) expect((await api("GET", `/collections/${id}`)).status).toBe(404);
  });
});
