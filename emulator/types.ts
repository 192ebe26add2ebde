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
  /** Time per OpenAPI processing step. */
  openApiStepMs: number;
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

export interface Route {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Path template with `{param}` placeholders, including `/v1`. */
  path: string;
  handler: (ctx: RouteContext) => HandlerResult;
  /** The official document lets this operation answer `204` + `Preference-Applied` to `prefer: return=minimal`. */
  preferMinimal?: boolean;
}
