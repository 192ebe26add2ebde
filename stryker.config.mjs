// Mutation testing of the provider's core and the emulator's store with the fast tests (issue: tests that fail
// when the provider breaks). `npm run mutation` runs the whole set; `npm run mutation -- --mutate <glob>` one file,
// and `npm run mutation:changed` the files a branch touched (tools/mutation-changed.mjs). Not part of .ci/run (the
// core and the store alone, 4,019 mutants, took 70 minutes on two cores): .github/workflows/mutation.yml runs it weekly.
//
// Equivalent mutants are disabled where they occur, each with its reason (`// Stryker disable next-line <mutator>:
// <why>`), and listed here once:
// - provider/framework/values.ts, normalize's key comparator: two keys of one object never compare equal, so the
//   `0` result and `>` vs `>=` cannot differ;
// - provider/framework/values.ts, canonical's `?? "null"`: JSON props never stringify to undefined.
// - provider/client/transport.ts, the Agent's keepAliveTimeout: it changes connection reuse only, never an answer;
// - provider/client/transport.ts, request's `instanceof DocsApiError` rethrow: attempt() throws nothing else but a
//   TypeError for a body JSON cannot write, which the retry path would throw unchanged too;
// - provider/client/transport.ts, apiMessage's optional chaining: a `null` body throws without it and reaches the same
//   fallback;
// - provider/client/transport.ts, displayPath's `/\/+$/`: checkedBaseUrl already strips trailing slashes.
// - an empty method literal where undici's request() fills it in the same (GET, or PUT when there is a body):
//   provider/client/siteCustomization.ts, siteStructure.ts's structure read and integrations.ts's getIntegration;
// - provider/client/rateLimit.ts, isLate's undefined reset: it compares false with any number below anyway;
// - provider/client/siteStructure.ts, the walk's already-visited check: a second visit sets the same entry again.
// - provider/framework/settings.ts, WaitPeriods.add's `endMs > current.endMs`: rescheduling the period's timer at
//   the same end tells it at the same moment.
// - provider/resources/integrationCommon.ts, acceptedKeys's `schema?.required ?? []`: with no schema there are no keys
//   and the line is not reached, and the set is asked only about the schema's own keys; valueProblem's
//   `typeof value === "string"` before an enum: an enum is a string key's, and a value of another type got the
//   type's answer first.
// - emulator/store.ts, createSpace's `fields.type !== undefined`: a `type` set to undefined is left out of every JSON
//   answer, as an absent one.
//
// Static mutants (in code that runs when a module loads: zod schemas, the kinds' provider objects) cannot be switched
// on per test and are ignored; tests build what they check inside the test where they can
// (test/runtime/reference.test.ts, test/runtime/smoke.test.ts). test/support/mutation-preload.ts loads every mutated
// module before the first test, so a test that imports a module inside its body is not taken to cover its load-time
// code.
//
// A focused run: `npm run mutation -- --mutate <file> --testFiles '<glob>' --concurrency 1 --incremental` (for
// provider/client/, `test/client/**/*.test.ts`); --incremental reuses earlier results and may keep a survivor that a
// new test kills: confirm kills without it.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.mts" },
  checkers: [],
  // Stryker's default puts `// @ts-nocheck` atop every TypeScript file of the sandbox, which makes the check that
  // provider/resources/generated.ts is what `npm run docs` writes fail the initial run. Vitest does not type-check,
  // so a mutant's type errors do not matter here.
  disableTypeChecks: false,
  coverageAnalysis: "perTest",
  mutate: [
    "provider/client/**/*.ts",
    "provider/framework/**/*.ts",
    // The generators `npm run docs` runs (build time only).
    "codegen/**/*.ts",
    // The emulator's stores (emulator/README.md), composed over the tables: the site structure, redirects, OpenAPI
    // processing and the other kinds.
    "emulator/tables.ts",
    "emulator/families/sites/siteStore.ts",
    "emulator/families/redirects/redirectStore.ts",
    "emulator/families/openapi/openApiStore.ts",
    "emulator/store.ts",
    "provider/resources/**/*.ts",
    // The provider plugin's service, over the same lifecycles.
    "provider/plugin/**/*.ts",
    // Written by `npm run docs` from the schemas, and compared with what it writes (test/runtime/reference.test.ts).
    "!provider/resources/generated.ts",
    "!provider/plugin/resources.ts",
  ],
  ignoreStatic: true,
  concurrency: 2,
  timeoutMS: 20000,
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/index.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  tempDirName: ".stryker-tmp",
  // The sandbox is a copy of the checkout: leave out the toolchain, builds and reports.
  ignorePatterns: ["/.tools", "/dist", "/.e2e", "/.demo", "/reports", "/bench/results", "/examples/*/node_modules"],
  thresholds: { high: 90, low: 85, break: null },
};
