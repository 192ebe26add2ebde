import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    reporters: ["default", "./test/support/summary-reporter.ts"],
    // Traffic contract: every emulator exchange is validated against the official OpenAPI document (test/support/contract.ts).
    globalSetup: ["test/support/contract-summary.ts"],
    setupFiles: ["test/support/contract-setup.ts"],
    projects: [
      {
        extends: true,
        test: { name: "fast", include: ["test/**/*.test.ts"], exclude: ["test/e2e/**"], testTimeout: 20_000 },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          testTimeout: 600_000,
          hookTimeout: 600_000,
          // Each file drives its own pulumi CLI stacks; two cores cannot run them side by side usefully.
          fileParallelism: false,
        },
      },
    ],
  },
});
