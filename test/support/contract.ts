/**
 * Traffic contract of the test suite: every exchange of every test emulator (startTestEmulator) goes through
 * `recordExchange`, which validates it against the official OpenAPI document (test/contract/validator.ts) and keeps
 * the violations for the test that produced them. test/support/contract-setup.ts (vitest setupFiles) fails that
 * test in an afterEach and persists this worker's counts; test/support/contract-summary.ts (globalSetup) prints the
 * totals at the end of the run.
 *
 * Which violations count:
 * - response violations: always;
 * - request violations: when the emulator accepted the request (2xx: it is more lenient than the document), or when
 *   the provider sent it (user-agent `pulumi-docs-platform`): the provider must only send documented requests.
 *   Tests send bad requests on purpose (malformed JSON, over-limit values, unknown fields, bad tokens); those are
 *   fine as long as the emulator rejects them;
 * - `providerOnly` request violations (an undocumented query parameter, a body sent to an operation that takes
 *   none): only for the provider.
 * A test that sends invalid requests through the provider's own client on purpose says so with
 * `deliberatelyInvalidRequests()`. Besides the document, every error answer of the emulator (not injected) must carry
 * its status as `error.code`.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { inject } from "vitest";
import type { EmulatorExchange } from "../../emulator";
import { deviations } from "../contract/deviations";
import {
  ContractValidator,
  type ContractViolation,
  type ExchangeVerdict,
  formatViolation,
} from "../contract/validator";

/**
 * Per-worker count files live in a directory of their own per test run, under this one (git-ignored): several vitest
 * runs may share a checkout. The globalSetup creates the run's directory and provides it to the workers.
 */
export const CONTRACT_ROOT = path.resolve(__dirname, "../../.e2e/contract");

declare module "vitest" {
  export interface ProvidedContext {
    contractRunDir: string;
  }
}

export interface ContractCounts {
  requests: number;
  responses: number;
  violations: number;
  /** Requests sent by the provider (user-agent pulumi-docs-platform). */
  providerRequests: number;
  /** Invalid requests sent on purpose that the emulator rejected, as it should. */
  rejectedInvalidRequests: number;
  /** Exchanges per operationId ("unmatched" included). */
  operations: Record<string, number>;
  /** The provider's requests per operationId: which operations of the document it uses (tools/api-coverage.mjs). */
  providerOperations: Record<string, number>;
  deviations: number;
  /** Formatted violations (the first 200). */
  messages: string[];
}

let validator: ContractValidator | undefined;

/** The validator singleton (built on first use: about half a second). */
export function contractValidator(): ContractValidator {
  validator ??= new ContractValidator();
  return validator;
}

const counts: ContractCounts = {
  requests: 0,
  responses: 0,
  violations: 0,
  providerRequests: 0,
  rejectedInvalidRequests: 0,
  operations: {},
  providerOperations: {},
  deviations: deviations.length,
  messages: [],
};
let pending: string[] = [];
let deliberate = false;
const countsName = `${process.pid}-${randomBytes(4).toString("hex")}.json`;

export function isProviderRequest(headers: Record<string, string> | undefined): boolean {
  return /\bpulumi-docs-platform\b/i.test(headers?.["user-agent"] ?? "");
}

/**
 * Declares that the current test sends invalid requests through the provider's own client on purpose (e.g. a
 * transport test provoking a 400): until the end of the test they count like any other test's bad requests, i.e.
 * only when the emulator accepts them.
 */
export function deliberatelyInvalidRequests(): void {
  deliberate = true;
}

/**
 * Which violations of one exchange count (see the header): request violations when the emulator accepted the request
 * or the provider sent it (`providerOnly` ones: only the provider), response violations always.
 */
export function countedViolations(
  verdict: ExchangeVerdict,
  x: Pick<EmulatorExchange, "status" | "requestHeaders">,
  options: { deliberate?: boolean } = {},
): { counted: ContractViolation[]; rejectedInvalidRequest: boolean; fromProvider: boolean } {
  const accepted = x.status >= 200 && x.status < 300;
  const fromProvider = isProviderRequest(x.requestHeaders) && !options.deliberate;
  const counted: ContractViolation[] = [];
  let rejectedInvalidRequest = false;
  for (const v of verdict.request) {
    if (v.providerOnly ? fromProvider : accepted || fromProvider) counted.push(v);
    else if (!v.providerOnly) rejectedInvalidRequest = true;
  }
  counted.push(...verdict.response);
  return { counted, rejectedInvalidRequest, fromProvider };
}

/**
 * The document pins `error.code` to the status only for the error responses it names (400, 401, 403, 404, 409, 412);
 * every other error status (413, 429, 500…) falls back to its generic Error schema, where any integer passes. The
 * emulator's own error answers carry their status as the code whatever the status (injected ones say what the test
 * asked for).
 */
function errorCodeMismatch(x: EmulatorExchange): string | undefined {
  if (x.injected || x.status < 400) return undefined;
  const code = (x.responseBody as { error?: { code?: unknown } } | undefined)?.error?.code;
  return code === x.status ? undefined : `error answer: error.code ${String(code)} differs from the status`;
}

/** `onExchange` of every test emulator. Never throws (the emulator would swallow it). */
export function recordExchange(x: EmulatorExchange): void {
  const where = `[${x.method} ${x.path} → ${x.status}]`;
  let found: string[];
  try {
    const verdict = contractValidator().validate(x);
    counts.requests += 1;
    counts.responses += 1;
    const { counted, rejectedInvalidRequest, fromProvider } = countedViolations(verdict, x, { deliberate });
    if (rejectedInvalidRequest) counts.rejectedInvalidRequests += 1;
    if (fromProvider) {
      counts.providerRequests += 1;
      counts.providerOperations[verdict.operationId] = (counts.providerOperations[verdict.operationId] ?? 0) + 1;
    }
    counts.operations[verdict.operationId] = (counts.operations[verdict.operationId] ?? 0) + 1;
    const mismatch = errorCodeMismatch(x);
    found = counted.map((v) => {
      const note =
        v.part === "request"
          ? fromProvider
            ? " (sent by the provider)"
            : " (accepted by the emulator: it is more lenient than the document)"
          : "";
      return `${formatViolation(v)}${note} ${where}`;
    });
    if (mismatch) found.push(`${mismatch} ${where}`);
  } catch (error) {
    found = [`contract validator failed: ${error instanceof Error ? error.stack : String(error)} ${where}`];
  }
  if (found.length === 0) return;
  counts.violations += found.length;
  for (const m of found) if (counts.messages.length < 200) counts.messages.push(m);
  pending.push(...found);
}

/** Violations recorded since the last call (the afterEach of contract-setup.ts takes them). */
export function takeContractViolations(): string[] {
  const out = pending;
  pending = [];
  deliberate = false;
  return out;
}

export function contractCounts(): Readonly<ContractCounts> {
  return counts;
}

/** Writes this module instance's counts (one file per test file and worker; nothing when no exchange was seen). */
export function persistContractCounts(): void {
  if (counts.requests === 0 && counts.violations === 0) return;
  // Without the globalSetup (e.g. another vitest config) there is no summary to feed.
  const dir = inject("contractRunDir");
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, countsName), JSON.stringify(counts));
}

export function contractFailure(violations: string[], when: string): Error {
  const list = violations.slice(0, 50).map((v) => `  - ${v}`);
  if (violations.length > 50) list.push(`  … and ${violations.length - 50} more`);
  return new Error(
    `${violations.length} violation(s) of the official OpenAPI document ${when} ` +
      `(deviations: test/contract/deviations.ts):\n${list.join("\n")}`,
  );
}
