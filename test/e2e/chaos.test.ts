import { readFileSync } from "node:fs";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { CENSUS_KINDS, census } from "../support/census";
import { ChaosProxy } from "../support/chaos-proxy";
import { startTestEmulator } from "../support/emulator";
import { makeProject, makeStack } from "./harness";

const example = path.resolve(__dirname, "../../examples/docs-site");
const SEEDS = [1, 2, 3];
const BULK_COLLECTIONS = 100;
/** The rate limiter of the second test: the documented 60/60s, shortened to the same shape. */
const RATE_LIMIT = { limit: 30, windowMs: 5_000 };

/**
 * Chaos through the real CLI. A seeded proxy (test/support/chaos-proxy.ts) answers 20% of the provider's requests
 * with, in turn, a 503, the documented 429, a reset before forwarding, a reset after the API handled the request,
 * and 2 s of latency. The client's per-attempt timeout (10 s here) is kept above the latency fault on purpose, so
 * that it measures patience with a slow API; lost answers are what the reset-after-forwarding fault is for, and
 * timeouts after the API acted are covered by test/runtime/recoveryTimeout.test.ts. Per seed, one `up` of the
 * complete docs-site example, a `preview --refresh --expect-no-changes` and a `destroy` must succeed, leaving no
 * duplicate after `up` and nothing after `destroy`.
 */
describe("chaos: the docs-site example through a fault-injecting proxy", () => {
  let emulator: RunningEmulator;
  let dir: string;
  const report: string[] = [];

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0, token: "chaos-e2e-token" });
    dir = await makeProject("chaos", programFiles(), { typescript: true });
  });
  afterAll(async () => {
    if (report.length > 0) console.log(`chaos report:\n${report.join("\n")}`);
    await emulator?.close();
  });

  for (const seed of SEEDS) {
    it(`seed ${seed}: up, preview --refresh --expect-no-changes and destroy succeed; 0 duplicates, 0 leftovers`, async () => {
      const started = Date.now();
      const proxy = new ChaosProxy({ target: emulator.origin, seed });
      const proxyUrl = await proxy.start();
      let stack: Stack | undefined;
      try {
        stack = await makeStack(dir, { ...emulator, url: `${proxyUrl}/v1` });
        Object.assign(stack.workspace.envVars, { DOCS_API_MAX_ATTEMPTS: "5", DOCS_API_TIMEOUT_MS: "10000" });
        await stack.setConfig("userIds", { value: JSON.stringify(emulator.userIds) });
        const before = await census(emulator);
        emulator.clearRequests();

        await stack.up();
        const declared = declaredCounts(await stateTypes(stack));
        const afterUp = added(before, await census(emulator));
        await stack.preview({ refresh: true, expectNoChanges: true });
        await stack.destroy();
        const afterDestroy = added(before, await census(emulator));

        // What reached the API from the provider (the census's own listings left out).
        const handled = emulator.requests().filter((r) => r.userAgent?.startsWith("pulumi-docs-platform"));
        const line =
          `seed=${seed} ${proxy.summary()} emulator-handled=${handled.length} ` +
          `up: store=${total(afterUp)} declared=${total(declared)} duplicates=${duplicates(afterUp, declared)} ` +
          `destroy: leftovers=${total(afterDestroy)} time=${Math.round((Date.now() - started) / 1000)}s`;
        report.push(line);
        console.log(line);
        expect(afterUp).toEqual(declared);
        expect(afterDestroy).toEqual({});
        expect(Object.values(proxy.stats.faults).every((count) => count > 0)).toBe(true);
      } finally {
        await proxy.close();
      }
    });
  }

  it(`the example plus ${BULK_COLLECTIONS} collections under a ${RATE_LIMIT.limit}/${RATE_LIMIT.windowMs / 1000}s rate limit: no resource fails`, async () => {
    const stack = await makeStack(dir, emulator);
    Object.assign(stack.workspace.envVars, { DOCS_API_MAX_ATTEMPTS: "5" });
    await stack.setConfig("bulkCollections", { value: String(BULK_COLLECTIONS) });
    await stack.setConfig("userIds", { value: JSON.stringify(emulator.userIds) });
    const before = await census(emulator);
    emulator.setRateLimit(RATE_LIMIT);
    emulator.clearRequests();
    try {
      const started = Date.now();
      const up = await stack.up();
      const seconds = (Date.now() - started) / 1000;
      const requests = emulator.requests().filter((r) => r.path.startsWith("/v1/"));
      const limited = requests.filter((r) => r.rateLimited).length;
      const served = requests.length - limited;
      const bound = (served / RATE_LIMIT.limit) * (RATE_LIMIT.windowMs / 1000);
      const line =
        `rate-limited up: ${served} requests served + ${limited} answered 429, ` +
        `${seconds.toFixed(1)} s vs lower bound ${bound.toFixed(1)} s (${served} ÷ ${RATE_LIMIT.limit} × ` +
        `${RATE_LIMIT.windowMs / 1000} s)`;
      report.push(line);
      console.log(line);
      expect(up.summary.result).toBe("succeeded");
    } finally {
      emulator.setRateLimit(undefined);
    }
    // The census reads the emulator directly, so it is taken once the limit the provider ran under is lifted.
    const declared = declaredCounts(await stateTypes(stack));
    expect(declared.Collection).toBe(3 + BULK_COLLECTIONS);
    expect(added(before, await census(emulator))).toEqual(declared);
    await stack.destroy();
    expect(added(before, await census(emulator))).toEqual({});
  });
});

/** The example's program, plus as many top-level collections as the stack's `bulkCollections` config says. */
function programFiles(): Record<string, string> {
  const bulk =
    '\nfor (let i = 0; i < (config.getNumber("bulkCollections") ?? 0); i++) {\n' +
    '  new docs.Collection("bulk-" + i, { organizationId, title: "Bulk " + i });\n}\n';
  return {
    "index.ts": readFileSync(path.join(example, "index.ts"), "utf8") + bulk,
    "tsconfig.json": readFileSync(path.join(example, "tsconfig.json"), "utf8"),
  };
}

type Counts = Record<string, number>;

/** Objects per kind in `after` that were not in `before` (kinds with none left out). */
function added(before: Record<string, string[]>, after: Record<string, string[]>): Counts {
  const counts: Counts = {};
  for (const [kind, ids] of Object.entries(after)) {
    const old = new Set(before[kind] ?? []);
    const count = ids.filter((id) => !old.has(id)).length;
    if (count > 0) counts[kind] = count;
  }
  return counts;
}

async function stateTypes(stack: Stack): Promise<string[]> {
  const resources = (await stack.exportStack()).deployment.resources ?? [];
  return resources
    .map((r: { type: string }) => r.type)
    .filter((type: string) => type.startsWith("pulumi-nodejs:dynamic/docs:"))
    .map((type: string) => type.split(":").pop() as string);
}

/**
 * What the store must hold per kind for the declared resources: one object each, except that every section brings
 * its first site space with it; kinds the census does not list are not counted.
 */
function declaredCounts(types: string[]): Counts {
  const counts: Counts = {};
  for (const type of types) {
    if (!CENSUS_KINDS.has(type)) continue;
    counts[type] = (counts[type] ?? 0) + 1;
  }
  if (counts.SiteSection) counts.SiteSpace = (counts.SiteSpace ?? 0) + counts.SiteSection;
  return counts;
}

function total(counts: Counts): number {
  return Object.values(counts).reduce((sum, count) => sum + count, 0);
}

function duplicates(store: Counts, declared: Counts): number {
  return Object.entries(store).reduce((sum, [kind, count]) => sum + Math.max(0, count - (declared[kind] ?? 0)), 0);
}
