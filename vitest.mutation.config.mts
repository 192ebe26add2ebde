import { defineConfig } from "vitest/config";

/**
 * The fast tests as Stryker runs them (stryker.config.mjs): no end-to-end project (they drive the real CLI against
 * the built dist/, which mutants never reach) and `isolate: false`, which halves a mutation run; the suite tolerates
 * sharing a worker's module registry because every file starts its own emulator and resets the runtime's caches.
 * The traffic contract stays on: a mutant that makes the provider send an invalid request is killed by it too.
 */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // test/cli/import.test.ts runs biome over the program generated for a 62-object organization: inside Stryker's
    // sandbox that child process ends without an exit status, failing the initial run (seen on every attempt). Mutation
    // runs therefore do not count what its walk of an organization kills; `npm test` still runs it.
    // test/framework/resource.test.ts has Pulumi serialize the provider object: through Stryker's instrumented
    // closures that takes more than a minute per resource.
    exclude: ["test/e2e/**", "node_modules/**", "test/cli/import.test.ts", "test/framework/resource.test.ts"],
    // mutation-preload: code that runs when a module loads is static for Stryker, never "covered" by the test that
    // happened to load it first (see the file).
    setupFiles: ["test/support/contract-setup.ts", "test/support/mutation-preload.ts"],
    globalSetup: ["test/support/contract-summary.ts"],
    // Instrumented code with per-test coverage on a shared two-core machine: the route-robustness test needed more
    // than 20 s in the initial run.
    testTimeout: 60_000,
    // On that machine a spawned biome or a timing-bound retry test occasionally fails the initial run; a mutant's
    // failure is deterministic and fails every retry.
    retry: 2,
    isolate: false,
  },
});
