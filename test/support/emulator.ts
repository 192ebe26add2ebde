import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { type EmulatorOptions, type RequestLogEntry, type RunningEmulator, startEmulator } from "../../emulator";
import { recordExchange } from "./contract";

/**
 * The one way tests start an emulator: every exchange is validated against the official OpenAPI document
 * (test/support/contract.ts); a caller's own `onExchange` still sees every exchange.
 */
export function startTestEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const own = options.onExchange;
  return startEmulator({
    ...options,
    onExchange: (exchange) => {
      recordExchange(exchange);
      own?.(exchange);
    },
  });
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: loosely typed JSON for test assertions
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

/**
 * A direct call to an emulator's API with its token (or none, or a raw body): the body is parsed as JSON when it is
 * JSON, else kept as text.
 */
export async function callApi(
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

/** Loosely typed JSON of test assertions. */
// biome-ignore lint/suspicious/noExplicitAny: loosely typed JSON for test assertions
export type Json = any;

/** What `EmulatorFixture.api` answers: its body stays unknown, so that each test states the shape it expects. */
export interface ApiAnswer {
  status: number;
  body: unknown;
}

export interface EmulatorFixture {
  emulator: RunningEmulator;
  /** The id of the organization the emulator seeds, the one its token belongs to. */
  org(): string;
  /** A space the emulator seeds in that organization, by index; fails the test where there is none. */
  space(index: number): string;
  /**
   * A member the emulator seeds in that organization, by index: 0 Ada (admin), 1 Grace (create), 2 Linus (read);
   * fails the test where there is none.
   */
  user(index: number): string;
  /** A direct call to the API, bypassing the provider: how tests make out-of-band changes. */
  api(method: string, path: string, body?: unknown): Promise<ApiAnswer>;
  /** The same call with the whole answer (headers, text) and CallOptions (other headers, raw body, no token). */
  call(method: string, path: string, body?: unknown, options?: CallOptions): Promise<ApiResponse>;
  /**
   * Creates an object out of band (POST, or PUT where the API creates with it, as for teams) and returns its id;
   * fails the test unless the API answers 201.
   */
  apiCreate(path: string, body: unknown, method?: "POST" | "PUT"): Promise<string>;
  /** Creates a site out of band with `fields` (titled "Docs" unless they name a title) and returns its id. */
  makeSite(fields?: Record<string, unknown>): Promise<string>;
  /** Creates a section of `spaceId` (titled `title`, if given) in a site out of band and returns its id. */
  makeSection(site: string, spaceId: string, title?: string): Promise<string>;
  /** Creates a team out of band (with these members, if any) and returns its id. */
  makeTeam(title: string, members?: string[]): Promise<string>;
  /** Creates a collection out of band (under `parent`, if any) and returns its id. */
  makeCollection(title: string, parent?: string): Promise<string>;
  /** Walks every page of a list (optionally `limit` per page) and returns all items. */
  listAll(path: string, limit?: number): Promise<Json[]>;
  /** `METHOD /v1/path` of every request since the last reset: what the provider sent, in order. */
  calls(): string[];
  /** Every request other than a GET since the last reset: what was written, in order. */
  writes(): RequestLogEntry[];
  /** The body of the last request with this method whose path matches `path`. */
  lastRequestBody(method: string, path: RegExp): unknown;
}

function seeded(ids: string[], what: string, index: number): string {
  const id = ids[index];
  if (id === undefined) throw new Error(`the emulator seeds no ${what} ${index}`);
  return id;
}

export interface UseEmulatorOptions extends EmulatorOptions {
  /**
   * Wire the provider's runtime to the emulator (default true): DOCS_API_URL/DOCS_API_TOKEN point at it and the
   * runtime starts a fresh operation before each test. The emulator's own tests pass false and never load the provider.
   */
  provider?: boolean;
}

/**
 * The one test fixture of an emulator: one per test file (every exchange validated, see startTestEmulator), reset
 * before every test. With `provider` (the default) the provider's runtime reads the same URL and token from the
 * environment, as it would in a Pulumi provider process.
 */
export function useEmulator(options: UseEmulatorOptions = {}): EmulatorFixture {
  const { provider = true, ...emulatorOptions } = options;
  const fixture = {} as EmulatorFixture;
  beforeAll(async () => {
    fixture.emulator = await startTestEmulator({ port: 0, token: "emulator-test-token", ...emulatorOptions });
    if (!provider) return;
    process.env.DOCS_API_URL = fixture.emulator.url;
    process.env.DOCS_API_TOKEN = fixture.emulator.token;
    process.env.DOCS_API_MAX_ATTEMPTS = "3";
  });
  fixture.org = () => fixture.emulator.organizationId;
  fixture.space = (index) => seeded(fixture.emulator.spaceIds, "space", index);
  fixture.user = (index) => seeded(fixture.emulator.userIds, "member", index);
  fixture.call = (method, path, body, callOptions) => callApi(fixture.emulator, method, path, body, callOptions);
  fixture.api = (method, path, body) => fixture.call(method, path, body);
  fixture.apiCreate = async (path, body, method = "POST") => {
    const answer = await fixture.api(method, path, body);
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(201);
    return (answer.body as { id: string }).id;
  };
  fixture.makeSite = (fields = {}) => fixture.apiCreate(`/orgs/${fixture.org()}/sites`, { title: "Docs", ...fields });
  fixture.makeSection = (site, spaceId, title) =>
    fixture.apiCreate(`/orgs/${fixture.org()}/sites/${site}/sections`, { spaceId, title });
  fixture.makeTeam = (title, members) => fixture.apiCreate(`/orgs/${fixture.org()}/teams`, { title, members }, "PUT");
  fixture.makeCollection = (title, parent) =>
    fixture.apiCreate(`/orgs/${fixture.org()}/collections`, { title, parent });
  fixture.listAll = async (path, limit) => {
    const items: Json[] = [];
    let page: string | undefined;
    for (let i = 0; i < 1000; i++) {
      const query = new URLSearchParams();
      if (limit !== undefined) query.set("limit", String(limit));
      if (page) query.set("page", page);
      const qs = query.toString();
      const res = await fixture.call("GET", qs ? `${path}${path.includes("?") ? "&" : "?"}${qs}` : path);
      expect(res.status, `GET ${path}: ${res.text}`).toBe(200);
      items.push(...res.body.items);
      page = res.body.next?.page;
      if (!page) return items;
    }
    throw new Error(`GET ${path}: pagination did not end after 1000 pages`);
  };
  fixture.calls = () => fixture.emulator.requests().map((r) => `${r.method} ${r.path}`);
  fixture.writes = () => fixture.emulator.requests().filter((r) => r.method !== "GET");
  fixture.lastRequestBody = (method, path) =>
    fixture.emulator.requests().findLast((r) => r.method === method && path.test(r.path))?.requestBody;
  beforeEach(async () => {
    fixture.emulator.reset();
    fixture.emulator.clearRequests();
    // Loaded here rather than at the top so that emulator-only tests do not load the provider.
    if (provider) (await import("../../provider/runtime")).startOperation();
  });
  afterAll(async () => {
    await fixture.emulator?.close();
  });
  return fixture;
}
