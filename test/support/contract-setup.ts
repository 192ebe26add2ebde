/**
 * vitest setupFiles: runs in every test file. Fails the test whose exchanges violated the official OpenAPI document
 * (see test/support/contract.ts), and persists this file's counts for the end-of-run summary
 * (test/support/contract-summary.ts). Registered first, so these hooks run after the test file's own ones and also
 * see the requests of its cleanup hooks.
 */
import { afterAll, afterEach } from "vitest";
import { contractFailure, persistContractCounts, takeContractViolations } from "./contract";

afterEach(() => {
  const violations = takeContractViolations();
  if (violations.length > 0) throw contractFailure(violations, "in this test");
});

afterAll(() => {
  persistContractCounts();
  const violations = takeContractViolations();
  if (violations.length > 0) throw contractFailure(violations, "after the last test of this file (afterAll hooks)");
});
