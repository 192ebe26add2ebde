/**
 * The HTTP adapter: reads a node:http request into plain values (path, query, headers, body), checks the bearer
 * token, applies `prefer: return=minimal`, maps thrown errors to the official error envelope and writes answers.
 * Nothing here knows a route or a kind.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  ApiError,
  BadRequestError,
  InternalError,
  NotFoundError,
  PayloadTooLargeError,
  UnauthorizedError,
} from "./errors";
import type { HandlerResult, Route, TokenType } from "./types";
import type { Query } from "./validate";

export const MAX_BODY_BYTES = 1024 * 1024;

export interface IncomingRequest {
  method: string;
  /** Path without query and without a trailing slash. */
  path: string;
  query: Query;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  /** The body exceeded MAX_BODY_BYTES (and was not kept). */
  bodyTooLarge: boolean;
}

/** Reads the request line, headers and body; `undefined` when the URL cannot be parsed (the body is drained). */
export async function readRequest(req: IncomingMessage): Promise<IncomingRequest | undefined> {
  const method = (req.method ?? "GET").toUpperCase();
  let url: URL;
  try {
    url = new URL(req.url ?? "/", "http://emulator.local");
  } catch {
    await readBody(req).catch(() => undefined);
    return undefined;
  }
  let path = url.pathname;
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  const { buffer, tooLarge } = await readBody(req);
  return {
    method,
    path,
    query: queryRecord(url.searchParams),
    headers: headerRecord(req),
    body: buffer,
    bodyTooLarge: tooLarge,
  };
}

function readBody(req: IncomingMessage): Promise<{ buffer: Buffer; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on("end", () => resolve({ buffer: Buffer.concat(chunks), tooLarge }));
    req.on("error", reject);
  });
}

function headerRecord(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}

function queryRecord(params: URLSearchParams): Query {
  const out: Query = {};
  for (const [k, v] of params) {
    const prev = out[k];
    if (prev === undefined) out[k] = v;
    else if (Array.isArray(prev)) prev.push(v);
    else out[k] = [prev, v];
  }
  return out;
}

/** The bearer token a request presents, or undefined. */
export function bearerToken(headers: Record<string, string>): string | undefined {
  return /^Bearer\s+(.+)$/i.exec((headers.authorization ?? "").trim())?.[1];
}

/** Throws the API's 401 unless the request presents `token`. */
export function authenticate(headers: Record<string, string>, token: string): void {
  if (bearerToken(headers) === token) return;
  throw new UnauthorizedError(
    headers.authorization
      ? "Unauthorized: invalid bearer token"
      : "Unauthorized: missing Authorization: Bearer <token> header",
  );
}

/** What the emulator answers a token of another type on an operation that admits user tokens only. */
export const USER_TOKEN_REQUIRED = "This operation requires a user token";

/**
 * Throws the API's 401 when `route` admits user tokens only (`security: "user"`) and the token is of another type.
 * An unknown route is left to the 404 that follows.
 */
export function requireTokenType(route: Route | undefined, type: TokenType): void {
  if (route?.security === "user" && type !== "user") throw new UnauthorizedError(USER_TOKEN_REQUIRED);
}

/** Headers with the token replaced, for the request log. */
export function redactedHeaders(headers: Record<string, string>): Record<string, string> {
  const out = { ...headers };
  if (out.authorization) out.authorization = "<redacted>";
  return out;
}

/** Parses a JSON request body; bodies of GET/HEAD/DELETE are ignored. */
export function parseJsonBody(method: string, contentType: string | undefined, buffer: Buffer): unknown {
  if (method === "GET" || method === "HEAD" || method === "DELETE") return undefined;
  const text = buffer.toString("utf8");
  if (text.trim() === "") return undefined;
  const mediaType = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (mediaType !== "application/json" && !/^application\/[a-z0-9.+-]*\+json$/.test(mediaType)) {
    throw new BadRequestError(
      `body: Content-Type must be application/json (got ${contentType ? JSON.stringify(contentType) : "none"})`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new BadRequestError(`body: malformed JSON (${errorMessage(err)})`);
  }
}

/** The request body as the log shows it: JSON when it parses, else text; undefined when empty. */
export function loggableBody(buffer: Buffer): unknown {
  if (buffer.length === 0) return undefined;
  const text = buffer.toString("utf8");
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Rejects a body over the limit (checked once the route is known, so that 401/404 win). */
export function checkBodySize(request: IncomingRequest): void {
  if (request.bodyTooLarge) throw new PayloadTooLargeError(`body: must be at most ${MAX_BODY_BYTES} bytes`);
}

/** Path parameters, percent-decoded; a malformed escape is a 404 like any unknown id. */
export function decodeParams(raw: Record<string, string>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    try {
      params[k] = decodeURIComponent(v);
    } catch {
      throw new NotFoundError(`Malformed path parameter ${k}`);
    }
  }
  return params;
}

/**
 * `prefer: return=minimal` on an operation the official document lets answer 204 + `Preference-Applied` turns a 200
 * or 201 into that 204.
 */
export function applyPreference(route: Route, result: HandlerResult, headers: Record<string, string>): HandlerResult {
  if (!route.preferMinimal || (result.status !== 200 && result.status !== 201)) return result;
  if (!/return=minimal/i.test(headers.prefer ?? "")) return result;
  return { status: 204, headers: { ...(result.headers ?? {}), "Preference-Applied": "return=minimal" } };
}

/** Any thrown value as the API's answer: ApiErrors keep their status, anything else is a 500. */
export function errorResult(err: unknown): HandlerResult {
  const apiError = err instanceof ApiError ? err : new InternalError(`Internal server error: ${errorMessage(err)}`);
  if (!(err instanceof ApiError) && process.env.EMULATOR_DEBUG) console.error(err);
  const result: HandlerResult = { status: apiError.status, body: apiError.toBody() };
  if (apiError.status === 401) result.headers = { "WWW-Authenticate": 'Bearer realm="api"' };
  return result;
}

/** Writes an answer (JSON body unless the status has none); returns the headers sent. */
export function send(res: ServerResponse, result: HandlerResult): Record<string, string> {
  const out: Record<string, string> = { ...(result.headers ?? {}) };
  let payload: string | undefined;
  if (result.body !== undefined && hasBody(result.status)) {
    payload = JSON.stringify(result.body);
    out["Content-Type"] = "application/json; charset=utf-8";
    out["Content-Length"] = String(Buffer.byteLength(payload));
  } else {
    out["Content-Length"] = "0";
  }
  res.writeHead(result.status, out);
  res.end(payload);
  return out;
}

export function hasBody(status: number): boolean {
  return status !== 204 && status !== 205 && status !== 304;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
