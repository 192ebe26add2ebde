import { readFileSync } from "node:fs";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestLogEntry, RunningEmulator } from "../../emulator";
import { startTestEmulator } from "../support/emulator";
import { changes, isDocsResource, makeProject, makeStack } from "./harness";

/** `--rate-limit 30/5s`: the documented 60/60s shape, short enough that a CI run waits out a dozen windows. */
const RATE_LIMIT = { limit: 30, windowMs: 5_000 };
const PRODUCTS = ["billing", "search", "mobile", "payments"];
/** What the total time may reach, as a multiple of the time the API's limit alone imposes. */
const MAX_RATIO = 1.3;
/** Docs resources in the fixture program. */
const RESOURCES = 39;

const program = { "index.js": readFileSync(path.join(__dirname, "fixtures/stacks/index.js"), "utf8") };

/**
 * Four teams' stacks sharing one organization and one API token, each a product's documentation of 39 resources,
 * run at once through the real CLI against one rate-limited emulator: four provider processes, each with its own
 * limiter, all reading the same `X-RateLimit-*` headers of one budget.
 */
describe(`${PRODUCTS.length} stacks, one token, a ${RATE_LIMIT.limit}/${RATE_LIMIT.windowMs / 1000}s rate limit`, () => {
  let emulator: RunningEmulator;
  const stacks: Stack[] = [];

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0, token: "stacks-e2e-token", rateLimit: RATE_LIMIT });
    const dirs = await Promise.all(PRODUCTS.map((product) => makeProject(`stacks-${product}`, program)));
    stacks.push(
      ...(await Promise.all(
        dirs.map(async (dir, index) => {
          const stack = await makeStack(dir, emulator);
          await stack.setConfig("product", { value: PRODUCTS[index] as string });
          await stack.setConfig("userIds", { value: JSON.stringify(emulator.userIds) });
          return stack;
        }),
      )),
    );
  });
  // No destroy: the objects live in this emulator's memory only, and deleting them at 6 requests a second would add
  // half a minute to CI for nothing the other e2e tests do not already check.
  afterAll(async () => {
    await emulator?.close();
  });

  it(`every up succeeds, and the ups take at most ${MAX_RATIO}× the time the limit alone imposes`, async () => {
    emulator.clearRequests();
    const started = Date.now();
    // upConsistent's check, split in two: the refreshes come in the next test, so that this time is the ups' alone.
    const ups = await Promise.all(stacks.map((stack) => stack.up()));
    const wallSeconds = (Date.now() - started) / 1000;
    for (const up of ups) {
      expect(up.summary.result).toBe("succeeded");
      // Every docs resource and the stack itself created: a failed one would have failed the up.
      expect(changes(up.summary.resourceChanges)).toEqual({ create: RESOURCES + 1 });
    }

    // The 429s are printed, not bounded: at each reset every process may send what it holds (up to `pulumi up
    // --parallel`, 4 per core) before an answer tells it the others spent the window, so their number follows the
    // runner's cores; a 429 spends no budget, and a request fails only after 10 of its own.
    const { served, bound, apiSeconds, line } = measure(emulator.requests(), started, wallSeconds);
    console.log(`${PRODUCTS.length} ups at once, one token: ${line}`);
    // The limit must bind for the ratio to say anything about the limiters: many windows' worth of requests.
    expect(served).toBeGreaterThanOrEqual(8 * RATE_LIMIT.limit);
    expect(apiSeconds / bound).toBeLessThanOrEqual(MAX_RATIO);
  });

  it("a refresh of each stack right after the ups, all at once on the same token, changes nothing", async () => {
    const outputs = async (stack: Stack) =>
      JSON.stringify(
        ((await stack.exportStack()).deployment.resources ?? [])
          .filter((r: { type: string }) => isDocsResource(r.type))
          .map((r: { urn: string; outputs?: unknown }) => [r.urn, r.outputs]),
      );
    const before = await Promise.all(stacks.map(outputs));
    emulator.clearRequests();
    const started = Date.now();
    // --expect-no-changes judges the declared inputs through the provider's diff; the outputs are compared below.
    await Promise.all(stacks.map((stack) => stack.refresh({ expectNoChanges: true })));
    const wallSeconds = (Date.now() - started) / 1000;
    console.log(
      `${PRODUCTS.length} refreshes at once, one token: ${measure(emulator.requests(), started, wallSeconds).line}`,
    );
    expect(await Promise.all(stacks.map(outputs))).toEqual(before);
  });
});

/**
 * What the requests of one phase cost against the limit. Every request the API served spent one unit of a window's
 * budget: the "all requests" of the bound, served ÷ limit × window. A 429 spends none (the emulator counts only what
 * it lets through) and takes no window time, so it is counted apart.
 *
 * The time is the API's: from the first request to the last answer. Before it, four CLIs and programs start on the
 * runner's cores (10-30 s on a busy two-core machine), which no limiter can shorten: that is in the wall time, only
 * printed. Within it, the margin over the bound pays for the stacks that start or finish a little before the others,
 * and for the resets: X-RateLimit-Reset is in whole seconds, so a window that began just after a second ends just
 * after one too, and a client that waits for the announced reset resumes up to a second after the window ended.
 */
function measure(log: RequestLogEntry[], started: number, wallSeconds: number) {
  const requests = log.filter((r) => r.path.startsWith("/v1/"));
  const limited = requests.filter((r) => r.rateLimited).length;
  const served = requests.length - limited;
  const windowSeconds = RATE_LIMIT.windowMs / 1000;
  const bound = (served / RATE_LIMIT.limit) * windowSeconds;
  const firstArrival = Math.min(...requests.map((r) => Date.parse(r.time)));
  const lastAnswer = Math.max(...requests.map((r) => Date.parse(r.time) + r.durationMs));
  const apiSeconds = (lastAnswer - firstArrival) / 1000;
  const line =
    `${served} requests served + ${limited} answered 429; bound ${bound.toFixed(1)} s (${served} ÷ ` +
    `${RATE_LIMIT.limit} × ${windowSeconds} s); API time ${apiSeconds.toFixed(1)} s, ÷ bound = ` +
    `${(apiSeconds / bound).toFixed(2)}; wall time ${wallSeconds.toFixed(1)} s (first request after ` +
    `${((firstArrival - started) / 1000).toFixed(1)} s), ÷ bound = ${(wallSeconds / bound).toFixed(2)}`;
  return { served, bound, apiSeconds, line };
}
