/**
 * Test harness: starts an emulator whose every exchange is checked against the official OpenAPI document,
 * plus a small fetch wrapper.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import type { EmulatorOptions, RunningEmulator } from "../../../emulator";
import { startTestEmulator } from "../../support/emulator";
import { checkExchange } from "./openapi";

// biome-ignore lint/suspicious/noExplicitAny: loosely typed JSON for test assertions
export type Json = any;

export interface ApiResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test convenience
  body: any;
  text: string;
}

export interface CallOptions {
  headers?: Record<string, string>;
  /** Send this raw string as the body instead of JSON-encoding `body`. */
  raw?: string;
  /** Omit the Authorization header. */
  noAuth?: boolean;
}

export interface Harness {
  emu: RunningEmulator;
  violations: string[];
  call(method: string, path: string, body?: unknown, options?: CallOptions): Promise<ApiResponse>;
  /** Walks every page of a list, returns all items. */
  // biome-ignore lint/suspicious/noExplicitAny: test convenience
  listAll(path: string, limit?: number): Promise<any[]>;
}

export async function call(
  emu: { url: string; token: string },
  method: string,
  path: string,
  body?: unknown,
  options: CallOptions = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { accept: "application/json", ...(options.headers ?? {}) };
  if (!options.noAuth) headers.authorization = `Bearer ${emu.token}`;
  let payload: string | undefined;
  if (options.raw !== undefined) payload = options.raw;
  else if (body !== undefined) payload = JSON.stringify(body);
  if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === "content-type")) {
    headers["content-type"] = "application/json";
  }
  const url = path.startsWith("http") ? path : `${emu.url}${path}`;
  const res = await fetch(url, { method, headers, body: payload });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/**
 * Registers beforeAll/afterAll (one emulator per file), a reset before each test and a check after each test
 * that every exchange conformed to the official document.
 */
export function useEmulator(options: EmulatorOptions = {}): Harness {
  const violations: string[] = [];
  const h = {} as Harness;
  h.violations = violations;
  beforeAll(async () => {
    h.emu = await startTestEmulator({
      ...options,
      onExchange: (x) => {
        violations.push(...checkExchange(x));
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
    expect(violations, "responses must conform to the official OpenAPI document").toEqual([]);
  });
  h.call = (method, path, body, opts) => call(h.emu, method, path, body, opts);
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
