import type { RateLimit } from "./rateLimit";
import type { Store } from "./store";
import type { Query } from "./validate";

/** Server-wide settings the handlers need. */
export interface Env {
  /** e.g. http://127.0.0.1:1234 */
  origin: string;
  /** API base, e.g. http://127.0.0.1:1234/v1 */
  apiBase: string;
  /** Fake application host, e.g. https://app.gitbook.example */
  appBase: string;
  /** Default page size of lists. */
  pageSize: number;
}

export interface RouteContext {
  method: string;
  path: string;
  params: Record<string, string>;
  query: Query;
  /** Parsed JSON body, or undefined when the request had none. */
  body: unknown;
  headers: Record<string, string>;
  store: Store;
  env: Env;
}

export interface HandlerResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * The token types the official document tells apart in an operation's `security`: a personal token of a user, an
 * integration's token, an OAuth application's token. Nothing in a request says which one a token is (the API knows it
 * server side), so the emulator is told (`typeToken`).
 */
export type TokenType = "user" | "integration" | "oauth";

export interface Route {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Path template with `{param}` placeholders, including `/v1`. */
  path: string;
  handler: (ctx: RouteContext) => HandlerResult;
  /** The official document lets this operation answer `204` + `Preference-Applied` to `prefer: return=minimal`. */
  preferMinimal?: boolean;
  /**
   * The official document's `security` for this operation admits user tokens only (no `integration`,
   * `integration-installation` or `oauth` scheme): a token of another type is answered 401.
   */
  security?: "user";
}

export interface EmulatorOptions {
  /** Port to listen on; 0 (default) picks an ephemeral port. */
  port?: number;
  /** Host to bind; default 127.0.0.1. */
  host?: string;
  /** Bearer token accepted on /v1 (default "test-token"). */
  token?: string;
  /** Default page size of lists (default 20). */
  pageSize?: number;
  /** Time per OpenAPI processing step (pending → progress → complete), default 50 ms. */
  openApiStepMs?: number;
  /** Time per step of a translation's run (pending → running → completed), default 0: a run completes at once. */
  translationStepMs?: number;
  /** Called for every /v1 request and its response (not for dropped connections). */
  onExchange?: (exchange: Exchange) => void;
  /**
   * Clock of the emulated API in milliseconds since the epoch (default Date.now): timestamps it writes and the
   * OpenAPI processing states follow it, so tests can advance time by hand. Latency faults and rate-limit windows
   * use real time.
   */
  clock?: () => number;
  /** Rate limit per token, as the real service applies it (off by default; see rateLimit.ts). */
  rateLimit?: RateLimit;
  /**
   * Request log entries kept, the newest (default 10,000; 0 keeps none, the counters still count): older ones are
   * dropped so that a long-running emulator stays bounded (requestLog.ts).
   */
  requestLogLimit?: number;
}

export interface Exchange {
  method: string;
  /** Path without query, including /v1. */
  path: string;
  query: Record<string, string | string[]>;
  requestHeaders: Record<string, string>;
  requestBody: unknown;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: unknown;
  /** Route template that matched (e.g. /v1/collections/{collectionId}), null when none did. */
  route: string | null;
  /** True when the response was produced by an injected fault rather than by the emulated API. */
  injected: boolean;
}
