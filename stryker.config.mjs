// Mutation testing of the provider's core and the emulator's store with the fast tests (issue: tests that fail
// when the provider breaks). `npm run mutation` runs the whole set; `npm run mutation -- --mutate <glob>` one file,
// and `npm run mutation:changed` the files a branch touched (tools/mutation-changed.mjs). Not part of .ci/run (about
// half an hour on two cores): the scheduled recipe in examples/ci/github/mutation.yml runs it.
//
// Equivalent mutants are disabled where they occur, each with its reason (`// Stryker disable next-line <mutator>:
// <why>`), and listed here once:
// - provider/framework/lifecycle.ts, normalize's key comparator: two keys of one object never compare equal, so the
//   `0` result and `>` vs `>=` cannot differ;
// - provider/framework/lifecycle.ts, canonical's `?? "null"`: JSON props never stringify to undefined.
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
    // The emulator's store, in its three layers (emulator/README.md): tables, the site structure, the other kinds.
    "emulator/tables.ts",
    "emulator/siteStore.ts",
    "emulator/store.ts",
    "provider/resources/**/*.ts",
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
