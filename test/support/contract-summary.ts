/**
 * vitest globalSetup of the traffic contract (test/support/contract.ts). Before the run: removes count directories
 * of earlier runs and provides this run's directory to the workers. After it: prints
 *
 *   contract: N requests and N responses validated against the official OpenAPI document, V violations (D documented deviations)
 *
 * and fails the run (exit code 1) when V > 0; the run directory's summary.json has the details (exchanges per
 * operation, provider requests, invalid requests rejected as they should be). vitest calls setup/teardown once per project; the run directory and
 * the printed flag live in the environment of this (main) process so both projects share them and print once.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { deviations } from "../contract/deviations";
import { CONTRACT_ROOT, type ContractCounts } from "./contract";

const RUN_DIR = "DOCS_CONTRACT_RUN_DIR";
const PRINTED = "DOCS_CONTRACT_SUMMARY_PRINTED";
/** Directories of other runs younger than this may belong to a run still going on in the same checkout. */
const STALE_MS = 60 * 60 * 1000;

export function setup(project: TestProject): void {
  let dir = process.env[RUN_DIR];
  if (!dir) {
    mkdirSync(CONTRACT_ROOT, { recursive: true });
    for (const entry of readdirSync(CONTRACT_ROOT)) {
      const full = path.join(CONTRACT_ROOT, entry);
      if (Date.now() - statSync(full).mtimeMs > STALE_MS || !entry.startsWith("run-")) {
        rmSync(full, { recursive: true, force: true });
      }
    }
    dir = path.join(CONTRACT_ROOT, `run-${process.pid}-${Date.now()}`);
    mkdirSync(dir, { recursive: true });
    process.env[RUN_DIR] = dir;
  }
  project.provide("contractRunDir", dir);
}

export function teardown(): void {
  const dir = process.env[RUN_DIR];
  if (!dir || process.env[PRINTED]) return;
  process.env[PRINTED] = "1";
  const total = {
    requests: 0,
    responses: 0,
    violations: 0,
    providerRequests: 0,
    rejectedInvalidRequests: 0,
    operations: {} as Record<string, number>,
    providerOperations: {} as Record<string, number>,
  };
  const messages: string[] = [];
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".json") && f !== "summary.json") : [];
  for (const file of files) {
    const counts = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as ContractCounts;
    total.requests += counts.requests;
    total.responses += counts.responses;
    total.violations += counts.violations;
    total.providerRequests += counts.providerRequests;
    total.rejectedInvalidRequests += counts.rejectedInvalidRequests;
    for (const [op, n] of Object.entries(counts.operations)) total.operations[op] = (total.operations[op] ?? 0) + n;
    for (const [op, n] of Object.entries(counts.providerOperations ?? {})) {
      total.providerOperations[op] = (total.providerOperations[op] ?? 0) + n;
    }
    messages.push(...counts.messages);
  }
  const distinct = [...new Set(messages.map((m) => m.replace(/ \[[A-Z]+ \/[^\]]*\]$/, "")))];
  // Details for whoever wants them (operations exercised, provider traffic, bad requests rejected as they should be).
  writeFileSync(
    path.join(dir, "summary.json"),
    `${JSON.stringify({ ...total, violationMessages: distinct }, null, 2)}\n`,
  );
  if (total.violations > 0) {
    console.log(`contract violations (${distinct.length} distinct, details in the failed tests):`);
    for (const m of distinct.slice(0, 100)) console.log(`  - ${m}`);
  }
  console.log(
    `contract: ${total.requests} requests and ${total.responses} responses validated against the official OpenAPI ` +
      `document, ${total.violations} violations (${deviations.length} documented deviations)`,
  );
  if (total.violations > 0) process.exitCode = 1;
}
