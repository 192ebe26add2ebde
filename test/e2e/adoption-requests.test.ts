import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { type Stack, Stack as Stacks } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { toolchainVars } from "../../tools/toolchain.mjs";
import { startTestEmulator } from "../support/emulator";
import { type SeededOrganization, seedOrganization } from "../support/seed-organization";
import { changes, makeStack, packedPackage } from "./harness";

const run = promisify(execFile);
const repoRoot = path.resolve(__dirname, "../..");
const cli = path.join(repoRoot, "dist/cli/main.js");

/**
 * What the requests of an operation do not depend on: the engine's speed (checkpoints written or skipped) and the rate
 * limit's waits. Listings are kept until a write can change them (provider/framework/listings.ts), so adopting what
 * `docs-platform import` read costs about what the import did, and a throttled refresh lists no parent twice.
 */
describe("requests at the API's minimum whatever the timing", () => {
  let emulator: RunningEmulator;
  let seeded: SeededOrganization;
  let project: string;
  let stack: Stack;
  let imported = 0;
  /** The API requests the emulator received since the last clear, and how many it answered 429. */
  const received = () => {
    const requests = emulator.requests().filter((r) => r.path.startsWith("/v1/"));
    return { all: requests.length, throttled: requests.filter((r) => r.rateLimited).length, requests };
  };

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0, token: "adoption-requests-token" });
    seeded = await seedOrganization(emulator);
    project = path.join(repoRoot, ".e2e", `adoption-requests-${process.pid}`);
    for (const old of existsSync(path.dirname(project)) ? readdirSync(path.dirname(project)) : []) {
      if (old.startsWith("adoption-requests-")) {
        rmSync(path.join(path.dirname(project), old), { recursive: true, force: true });
      }
    }
    mkdirSync(project, { recursive: true });
    emulator.clearRequests();
    const env = { ...process.env, ...toolchainVars(), DOCS_API_URL: emulator.url, DOCS_API_TOKEN: emulator.token };
    const args = ["import", "--organization", emulator.organizationId, "--out", project, "--name", "adoption"];
    await run(process.execPath, [cli, ...args], { cwd: repoRoot, env, maxBuffer: 64 << 20 });
    imported = received().all;
    const install = ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];
    await run("npm", [...install, await packedPackage()], { cwd: project, env });
    stack = await makeStack(project, emulator);
  });
  afterAll(async () => {
    await emulator?.close();
  });

  /** A stack of the generated project adopting the whole organization, `PULUMI_SKIP_CHECKPOINTS` set or not. */
  async function adopt(target: Stack, skipCheckpoints: boolean): Promise<number> {
    const resources = seeded.count - seeded.ids.TeamMember!.length + seeded.ids.Site!.length;
    if (skipCheckpoints) target.workspace.envVars.PULUMI_SKIP_CHECKPOINTS = "true";
    try {
      emulator.clearRequests();
      const up = await target.up();
      expect(changes(up.summary.resourceChanges)).toEqual({ create: resources + 1 });
    } finally {
      delete target.workspace.envVars.PULUMI_SKIP_CHECKPOINTS;
    }
    const { all, requests } = received();
    expect(requests.filter((r) => r.method !== "GET")).toEqual([]);
    return all;
  }

  it("the adoption `up` makes at most 1.1 times import's requests, with checkpoints", async () => {
    const adoption = await adopt(stack, false);
    console.log(`import: ${imported} requests; adoption up with checkpoints: ${adoption}`);
    expect(adoption).toBeLessThanOrEqual(1.1 * imported);
  });

  it("and with PULUMI_SKIP_CHECKPOINTS=true, the engine running faster", async () => {
    // Another stack of the same project adopts the same objects again: adoption only reads them.
    const skipping = await Stacks.create("skipping", stack.workspace);
    await skipping.setConfig("organizationId", { value: emulator.organizationId });
    const adoption = await adopt(skipping, true);
    console.log(`import: ${imported} requests; adoption up skipping checkpoints: ${adoption}`);
    expect(adoption).toBeLessThanOrEqual(1.1 * imported);
  });

  it("a refresh under a rate limit makes no more requests than without one", async () => {
    emulator.clearRequests();
    expect(changes((await stack.refresh({ expectNoChanges: true })).summary.resourceChanges)).toEqual({});
    const unlimited = received();
    expect(unlimited.throttled).toBe(0);
    // A window the refresh spends six times over: it lasts longer than the 10 s listings used to be kept for.
    const windowMs = 2_500;
    emulator.setRateLimit({ limit: Math.ceil(unlimited.all / 6), windowMs });
    try {
      emulator.clearRequests();
      const refresh = await stack.refresh({ expectNoChanges: true });
      expect(changes(refresh.summary.resourceChanges)).toEqual({});
    } finally {
      emulator.setRateLimit(undefined);
    }
    const limited = received();
    const times = limited.requests.map((r) => Date.parse(r.time));
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThan(4 * windowMs);
    console.log(
      `refresh: ${unlimited.all} requests without a rate limit, ${limited.all} under one ` +
        `(${limited.throttled} answered 429)`,
    );
    expect(limited.all - limited.throttled).toBeLessThanOrEqual(unlimited.all);
    expect(limited.all).toBeLessThanOrEqual(unlimited.all);
  });
});
