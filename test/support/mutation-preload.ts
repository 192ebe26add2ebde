/**
 * Mutation runs only (vitest.mutation.config.mts `setupFiles`): loads every module Stryker mutates before the first
 * test of a worker runs.
 *
 * Code that runs when a module loads (zod schemas, patterns, the kinds' specs) takes a mutant's value only when the
 * module loads. Stryker calls such a mutant static and, with `ignoreStatic`, leaves it out. But under `isolate: false`
 * a module can be loaded inside a test: a test that empties the worker's module registry (`vi.resetModules()`, as
 * the companions test once did) makes the next file that imports inside its tests (test/runtime/registry.test.ts
 * every kind, test/emulator/core.test.ts the emulator) load the rest again there. Stryker then records that test as
 * covering the module's load-time code, calls its mutants "hybrid" and runs only that test against them; the test
 * asserts something else, so they showed as survivors (68 of 73 in provider/client/siteCustomization.ts). Loaded
 * here, before each file's tests, they are static as intended.
 */
import { globSync } from "node:fs";
import path from "node:path";
import { beforeAll } from "vitest";

const repoRoot = path.resolve(__dirname, "../..");

beforeAll(async () => {
  const { default: config } = (await import(path.join(repoRoot, "stryker.config.mjs"))) as {
    default: { mutate: string[] };
  };
  for (const file of globSync(config.mutate, { cwd: repoRoot }).sort()) {
    await import(/* @vite-ignore */ path.join(repoRoot, file));
  }
});
