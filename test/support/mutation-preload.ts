/**
 * Mutation runs only (vitest.mutation.config.mts `setupFiles`): loads every module Stryker mutates before the first
 * test of a worker runs.
 *
 * Code that runs when a module loads (zod schemas, patterns, the kinds' specs) takes a mutant's value only when the
 * module loads. Stryker calls such a mutant static and, with `ignoreStatic`, leaves it out. But under `isolate: false`
 * the first load of a module can happen inside a test: test/runtime/registry.test.ts imports every kind in its
 * tests, test/emulator/core.test.ts the emulator. Stryker then records that test as covering the module's load-time
 * code, calls its mutants "hybrid" and runs only that test against them; the test asserts something else, so they
 * showed as survivors (68 of 73 in provider/client/siteCustomization.ts). Loaded here, outside any test, they are
 * static as intended, and every mutant that counts is one a test can switch on.
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
