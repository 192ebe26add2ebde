import { afterEach, describe, expect, it } from "vitest";
import { isDynamicProviderProcess } from "../../provider/framework/dynamic";
import { CHECK_INTERVAL_MS, type EngineWatch, engineAddress, watchEngine } from "../../provider/framework/engineWatch";
import { type FakeEngine, startFakeEngine } from "../support/fakeEngine";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The watch a provider process keeps on its engine: an engine paused for several check intervals is alive, a killed
 * one is gone within about one interval. The engine is a real process (test/support/fakeEngine.ts) stopped and killed
 * with signals.
 */
describe("the engine watch", () => {
  let engine: FakeEngine | undefined;
  let watch: EngineWatch | undefined;
  afterEach(async () => {
    watch?.stop();
    engine?.resume();
    await engine?.kill();
  });

  it("takes an engine paused for longer than the check interval for alive, and a killed one for gone", {
    timeout: 20_000,
  }, async () => {
    engine = await startFakeEngine();
    const gone: { why: string; at: number }[] = [];
    watch = watchEngine(engine.address, (why) => gone.push({ why, at: Date.now() }));
    await sleep(1_500);
    expect(gone).toEqual([]);

    // Stopped as a debugger stops it: several checks go unanswered, none fails.
    const pauseMs = 4 * CHECK_INTERVAL_MS;
    engine.pause();
    await sleep(pauseMs);
    expect(gone).toEqual([]);
    engine.resume();
    await sleep(1_500);
    expect(gone).toEqual([]);

    const killedAt = Date.now();
    await engine.kill();
    for (let waited = 0; gone.length === 0 && waited < 5_000; waited += 50) await sleep(50);
    expect(gone).toHaveLength(1);
    expect(gone[0]?.why).toBe(
      `the Pulumi engine at ${engine.address} is gone (its health check failed and the address refuses connections)`,
    );
    // Within a check interval and the confirming connect.
    expect((gone[0]?.at ?? 0) - killedAt).toBeLessThan(CHECK_INTERVAL_MS + 500);
    await sleep(CHECK_INTERVAL_MS * 2);
    expect(gone).toHaveLength(1);
  });

  it("an engine killed while paused is gone too", { timeout: 20_000 }, async () => {
    engine = await startFakeEngine();
    const gone: string[] = [];
    watch = watchEngine(engine.address, (why) => gone.push(why));
    await sleep(500);
    engine.pause();
    await sleep(2 * CHECK_INTERVAL_MS);
    await engine.kill();
    for (let waited = 0; gone.length === 0 && waited < 5_000; waited += 50) await sleep(50);
    expect(gone).toHaveLength(1);
  });

  it("an address nothing listens on is gone from the first check", async () => {
    engine = await startFakeEngine();
    const address = engine.address;
    await engine.kill();
    engine = undefined;
    const gone: string[] = [];
    watch = watchEngine(address, (why) => gone.push(why));
    for (let waited = 0; gone.length === 0 && waited < 3_000; waited += 50) await sleep(50);
    expect(gone).toEqual([
      `the Pulumi engine at ${address} is gone (its health check failed and the address refuses connections)`,
    ]);
  });
});

describe("which process watches", () => {
  it("finds the engine's address among a plugin's flags", () => {
    expect(engineAddress(["--logtostderr", "-v=9", "--tracing", "http://t", "127.0.0.1:5"])).toBe("127.0.0.1:5");
    expect(engineAddress([])).toBeUndefined();
  });

  it("the SDK's dynamic provider does, the program and the tests do not", () => {
    const node = "/usr/bin/node";
    expect(isDynamicProviderProcess([node, "/p/node_modules/@pulumi/pulumi/cmd/dynamic-provider"])).toBe(true);
    expect(isDynamicProviderProcess([node, "/p/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js"])).toBe(true);
    expect(isDynamicProviderProcess([node, "/p/node_modules/@pulumi/pulumi/cmd/run"])).toBe(false);
    expect(isDynamicProviderProcess([node, "/p/node_modules/vitest/vitest.mjs"])).toBe(false);
    expect(isDynamicProviderProcess([node])).toBe(false);
  });
});
