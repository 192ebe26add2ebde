/**
 * Test harness of the emulator's own tests: one emulator per file whose every exchange is checked against the official
 * OpenAPI document (like every test emulator: test/support/contract.ts), reset before each test, and call/listAll
 * bound to it.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import type { EmulatorExchange, EmulatorOptions, RunningEmulator } from "../../../emulator";
import { type ApiResponse, type CallOptions, callApi, startTestEmulator } from "../../support/emulator";

// biome-ignore lint/suspicious/noExplicitAny: loosely typed JSON for test assertions
export type Json = any;

export interface Harness {
  emu: RunningEmulator;
  /** Error answers of the current test whose `error.code` is not their status (see errorCodeMismatch). */
  violations: string[];
  call(method: string, path: string, body?: unknown, options?: CallOptions): Promise<ApiResponse>;
  /** Walks every page of a list, returns all items. */
  // biome-ignore lint/suspicious/noExplicitAny: test convenience
  listAll(path: string, limit?: number): Promise<any[]>;
}

/**
 * The document pins `error.code` to the status only for the error responses it names (400, 401, 403, 404, 409, 412);
 * every other error status (413, 429, 500…) falls back to its generic Error schema, where any integer passes. The
 * emulator's errors (emulator/errors.ts) carry their status as the code whatever the status.
 */
function errorCodeMismatch(x: EmulatorExchange): string | undefined {
  if (x.injected || x.status < 400) return undefined;
  const code = (x.responseBody as { error?: { code?: unknown } } | undefined)?.error?.code;
  return code === x.status
    ? undefined
    : `${x.method} ${x.path} → ${x.status}: error.code ${code} differs from the status`;
}

/**
 * Registers beforeAll/afterAll (one emulator per file), a reset before each test and a check after each test that
 * every error answer carried its status as `error.code`. Conformance to the official document is checked for every
 * test emulator by test/support/contract.ts.
 */
export function useEmulator(options: EmulatorOptions = {}): Harness {
  const violations: string[] = [];
  const h = {} as Harness;
  h.violations = violations;
  beforeAll(async () => {
    h.emu = await startTestEmulator({
      ...options,
      onExchange: (x) => {
        const mismatch = errorCodeMismatch(x);
        if (mismatch) violations.push(mismatch);
        options.onExchange?.(x);
      },
    });
  });
  afterAll(async () => {
    await h.emu?.close();
  });
  beforeEach(() => {
    h.emu.reset();
    violations.length = 0;
  });
  afterEach(() => {
    expect(violations, "error answers must carry their status as error.code").toEqual([]);
  });
  h.call = (method, path, body, opts) => callApi(h.emu, method, path, body, opts);
  h.listAll = async (path, limit) => {
    const items: unknown[] = [];
    let page: string | undefined;
    for (let i = 0; i < 1000; i++) {
      const sep = path.includes("?") ? "&" : "?";
      const qs = [limit !== undefined ? `limit=${limit}` : "", page ? `page=${encodeURIComponent(page)}` : ""]
        .filter(Boolean)
        .join("&");
      const res = await h.call("GET", qs ? `${path}${sep}${qs}` : path);
      expect(res.status, `GET ${path}: ${res.text}`).toBe(200);
      items.push(...res.body.items);
      page = res.body.next?.page;
      if (!page) return items;
    }
    throw new Error("pagination did not terminate");
  };
  return h;
}
