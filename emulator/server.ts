/**
 * The HTTP server: routing, bearer auth, JSON parsing, admin endpoints, fault injection, request log and
 * counters. Plain node:http, no framework.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import {
  ApiError,
  BadRequestError,
  errorBody,
  InternalError,
  NotFoundError,
  PayloadTooLargeError,
  UnauthorizedError,
} from "./errors";
import { adaptiveSchemaRoutes } from "./routes/adaptiveSchema";
import { collectionRoutes } from "./routes/collections";
import { memberRoutes } from "./routes/members";
import { openApiRoutes } from "./routes/openapi";
import { orgRoutes } from "./routes/orgs";
import { samlRoutes } from "./routes/saml";
import { sectionGroupRoutes } from "./routes/sectionGroups";
import { shareLinkRoutes } from "./routes/shareLinks";
import { siteSectionRoutes } from "./routes/siteSections";
import { siteSpaceRoutes } from "./routes/siteSpaces";
import { siteRoutes } from "./routes/sites";
import { spaceRoutes } from "./routes/spaces";
import { teamRoutes } from "./routes/teams";
import { Store } from "./store";
import type { Env, HandlerResult, Route, RouteContext } from "./types";
import { isPlainObject, type Query } from "./validate";

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
  /** Called for every /v1 request and its response (not for dropped connections). */
  onExchange?: (exchange: Exchange) => void;
  /**
   * Clock of the emulated API in milliseconds since the epoch (default Date.now): timestamps it writes and the
   * OpenAPI processing states follow it, so tests can advance time by hand. Latency faults use real time.
   */
  clock?: () => number;
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

export interface FaultSpec {
  /** HTTP method to match (any when omitted). */
  method?: string;
  /** Regular expression source matched against the request path (without query, including /v1). */
  path?: string;
  /** Number of matching requests the fault applies to (default 1). */
  count: number;
  /** Status to answer with (when omitted and not dropped, the request is handled normally after latencyMs). */
  status?: number;
  /** Retry-After header value (seconds or HTTP date). */
  retryAfter?: string;
  /** Delay before answering (or before dropping / handling). */
  latencyMs?: number;
  /** Destroy the socket without answering. */
  drop?: boolean;
  /** Body of the injected response (default: the official error body for `status`). */
  body?: unknown;
}

export interface ActiveFault extends FaultSpec {
  id: number;
  remaining: number;
}

export interface RequestLogEntry {
  seq: number;
  /** ISO time the request was received. */
  time: string;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  /** Route template that matched, or null. */
  route: string | null;
  /** Final status, or "dropped" when the connection was destroyed by a fault. */
  status: number | "dropped";
  /** Description of the injected fault, when one applied. */
  fault?: { id: number; status?: number; latencyMs?: number; drop?: boolean; retryAfter?: string };
  durationMs: number;
  /** Whether a valid bearer token was sent. */
  authorized: boolean;
  /** Request headers (authorization value redacted). */
  headers: Record<string, string>;
  requestBody?: unknown;
  userAgent?: string;
  idempotencyKey?: string;
}

const MAX_BODY_BYTES = 1024 * 1024;
/** The request log keeps the most recent entries only. */
const MAX_LOG_ENTRIES = 100_000;

interface CompiledRoute {
  route: Route;
  segments: string[];
  staticCount: number;
}

export const allRoutes: Route[] = [
  ...orgRoutes,
  ...memberRoutes,
  ...spaceRoutes,
  ...collectionRoutes,
  ...siteRoutes,
  ...adaptiveSchemaRoutes,
  ...siteSectionRoutes,
  ...sectionGroupRoutes,
  ...siteSpaceRoutes,
  ...shareLinkRoutes,
  ...samlRoutes,
  ...teamRoutes,
  ...openApiRoutes,
];

function compile(routes: Route[]): CompiledRoute[] {
  return routes.map((route) => {
    const segments = route.path.split("/").slice(1);
    return { route, segments, staticCount: segments.filter((s) => !s.startsWith("{")).length };
  });
}

function matchSegments(segments: string[], parts: string[]): Record<string, string> | null {
  if (segments.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const part = parts[i]!;
    if (seg.startsWith("{")) {
      if (part === "") return null;
      params[seg.slice(1, -1)] = part;
    } else if (seg !== part) {
      return null;
    }
  }
  return params;
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

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export class EmulatorServer {
  readonly store: Store;
  readonly token: string;
  readonly options: EmulatorOptions;
  env!: Env;
  private server: Server;
  private compiled = compile(allRoutes);
  private faults: ActiveFault[] = [];
  private faultSeq = 0;
  private log: RequestLogEntry[] = [];
  private seq = 0;
  private counterMap = new Map<string, number>();
  private sockets = new Set<Socket>();

  constructor(options: EmulatorOptions = {}) {
    this.options = options;
    this.store = new Store(options.clock);
    this.token = options.token ?? "test-token";
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        // Last resort: never crash the process on a request.
        try {
          if (!res.headersSent) {
            this.send(res, 500, errorBody(500, `Internal server error: ${String(err)}`));
          } else {
            res.destroy();
          }
        } catch {
          // ignore
        }
      });
    });
    this.server.on("connection", (socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
    this.server.on("clientError", (_err, socket) => {
      if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
      else socket.destroy();
    });
  }

  async listen(): Promise<void> {
    const host = this.options.host ?? "127.0.0.1";
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(this.options.port ?? 0, host, () => {
        this.server.off("error", reject);
        resolve();
      });
    });
    const { port } = this.server.address() as AddressInfo;
    const origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
    this.env = {
      origin,
      apiBase: `${origin}/v1`,
      appBase: "https://app.gitbook.example",
      pageSize: this.options.pageSize ?? 20,
      openApiStepMs: this.options.openApiStepMs ?? 50,
    };
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections?.();
      for (const s of this.sockets) s.destroy();
    });
  }

  // -------------------------------------------------------------------------------------------------------------
  // Admin API (also exposed over HTTP under /__admin)

  reset(): void {
    this.store.reset();
    this.faults = [];
    this.log = [];
    this.counterMap.clear();
  }

  requests(): RequestLogEntry[] {
    return this.log.map((e) => ({ ...e }));
  }

  clearRequests(): void {
    this.log = [];
    this.counterMap.clear();
  }

  counters(): Record<string, number> {
    return Object.fromEntries(this.counterMap);
  }

  injectFault(spec: FaultSpec): ActiveFault {
    const f = validateFault(spec);
    this.faultSeq += 1;
    const active: ActiveFault = { ...f, id: this.faultSeq, remaining: f.count };
    this.faults.push(active);
    return { ...active };
  }

  clearFaults(): void {
    this.faults = [];
  }

  activeFaults(): ActiveFault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  // -------------------------------------------------------------------------------------------------------------

  private send(
    res: ServerResponse,
    status: number,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Record<string, string> {
    const out: Record<string, string> = { ...headers };
    let payload: string | undefined;
    if (body !== undefined && status !== 204 && status !== 205 && status !== 304) {
      payload = JSON.stringify(body);
      out["Content-Type"] = "application/json; charset=utf-8";
      out["Content-Length"] = String(Buffer.byteLength(payload));
    } else {
      out["Content-Length"] = "0";
    }
    res.writeHead(status, out);
    res.end(payload);
    return out;
  }

  private matchRoute(
    method: string,
    path: string,
  ): { compiled: CompiledRoute; params: Record<string, string> } | { allowed: string[] } {
    const parts = path.split("/").slice(1);
    let best: { compiled: CompiledRoute; params: Record<string, string> } | undefined;
    const allowed = new Set<string>();
    for (const c of this.compiled) {
      const params = matchSegments(c.segments, parts);
      if (!params) continue;
      if (c.route.method !== method) {
        allowed.add(c.route.method);
        continue;
      }
      if (!best || c.staticCount > best.compiled.staticCount) best = { compiled: c, params };
    }
    return best ?? { allowed: [...allowed] };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now();
    const method = (req.method ?? "GET").toUpperCase();
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://emulator.local");
    } catch {
      await readBody(req).catch(() => undefined);
      this.send(res, 400, errorBody(400, "Malformed request URL"));
      return;
    }
    let path = url.pathname;
    if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);

    if (path === "/__admin" || path.startsWith("/__admin/")) {
      await this.handleAdmin(req, res, method, path);
      return;
    }

    const query = queryRecord(url.searchParams);
    const requestHeaders = headerRecord(req);
    const isApi = path === "/v1" || path.startsWith("/v1/");
    const match = isApi ? this.matchRoute(method, path) : { allowed: [] as string[] };
    const routeTemplate = "compiled" in match ? match.compiled.route.path : null;
    const counterKey = `${method} ${routeTemplate ?? path}`;
    this.counterMap.set(counterKey, (this.counterMap.get(counterKey) ?? 0) + 1);

    const authHeader = requestHeaders.authorization ?? "";
    const authMatch = /^Bearer\s+(.+)$/i.exec(authHeader.trim());
    const authorized = authMatch !== null && authMatch[1] === this.token;
    const logHeaders = { ...requestHeaders };
    if (logHeaders.authorization) logHeaders.authorization = "<redacted>";

    this.seq += 1;
    const entry: RequestLogEntry = {
      seq: this.seq,
      time: new Date(started).toISOString(),
      method,
      path,
      query,
      route: routeTemplate,
      status: 0,
      durationMs: 0,
      authorized,
      headers: logHeaders,
    };
    if (requestHeaders["user-agent"]) entry.userAgent = requestHeaders["user-agent"];
    if (requestHeaders["idempotency-key"]) entry.idempotencyKey = requestHeaders["idempotency-key"];
    this.log.push(entry);
    if (this.log.length > MAX_LOG_ENTRIES) this.log.splice(0, this.log.length - MAX_LOG_ENTRIES);
    const finish = (status: number | "dropped") => {
      entry.status = status;
      entry.durationMs = Date.now() - started;
    };

    let bodyRead: { buffer: Buffer; tooLarge: boolean };
    try {
      bodyRead = await readBody(req);
    } catch {
      finish("dropped");
      res.destroy();
      return;
    }

    const loggedBody = safeParse(bodyRead.buffer);
    if (loggedBody !== undefined) entry.requestBody = loggedBody;

    // ---- fault injection
    const fault = isApi ? this.takeFault(method, path) : undefined;
    if (fault) {
      entry.fault = { id: fault.id };
      if (fault.status !== undefined) entry.fault.status = fault.status;
      if (fault.latencyMs !== undefined) entry.fault.latencyMs = fault.latencyMs;
      if (fault.drop) entry.fault.drop = true;
      if (fault.retryAfter !== undefined) entry.fault.retryAfter = fault.retryAfter;
      if (fault.latencyMs) await sleep(fault.latencyMs);
      if (fault.drop) {
        finish("dropped");
        req.socket.destroy();
        return;
      }
      if (fault.status !== undefined) {
        const headers: Record<string, string> = {};
        if (fault.retryAfter !== undefined) headers["Retry-After"] = fault.retryAfter;
        const body =
          fault.body !== undefined ? fault.body : errorBody(fault.status, `Injected fault: HTTP ${fault.status}`);
        const sent = this.send(res, fault.status, body, headers);
        finish(fault.status);
        this.emitExchange({
          method,
          path,
          query,
          requestHeaders,
          requestBody: loggedBody,
          status: fault.status,
          responseHeaders: sent,
          responseBody: fault.status === 204 || fault.status === 205 ? undefined : body,
          route: routeTemplate,
          injected: true,
        });
        return;
      }
    }

    // ---- the API
    let result: HandlerResult;
    let requestBody: unknown;
    try {
      if (!isApi) throw new NotFoundError(`No route for ${method} ${path} (the API is served under /v1)`);
      if (!authorized) {
        throw new UnauthorizedError(
          authHeader
            ? "Unauthorized: invalid bearer token"
            : "Unauthorized: missing Authorization: Bearer <token> header",
        );
      }
      if (!("compiled" in match)) {
        const allowed = match.allowed;
        throw new NotFoundError(
          allowed.length
            ? `No route for ${method} ${path} (allowed methods: ${allowed.join(", ")})`
            : `No route for ${method} ${path}`,
        );
      }
      if (bodyRead.tooLarge) throw new PayloadTooLargeError(`body: must be at most ${MAX_BODY_BYTES} bytes`);
      requestBody = parseJsonBody(method, requestHeaders["content-type"], bodyRead.buffer);
      const params: Record<string, string> = {};
      for (const [k, v] of Object.entries(match.params)) {
        try {
          params[k] = decodeURIComponent(v);
        } catch {
          throw new NotFoundError(`Malformed path parameter ${k}`);
        }
      }
      const ctx: RouteContext = {
        method,
        path,
        params,
        query,
        body: requestBody,
        headers: requestHeaders,
        store: this.store,
        env: this.env,
      };
      result = match.compiled.route.handler(ctx);
      if (
        match.compiled.route.preferMinimal &&
        (result.status === 200 || result.status === 201) &&
        /return=minimal/i.test(requestHeaders.prefer ?? "")
      ) {
        result = { status: 204, headers: { ...(result.headers ?? {}), "Preference-Applied": "return=minimal" } };
      }
    } catch (err) {
      const apiError = err instanceof ApiError ? err : new InternalError(`Internal server error: ${errorMessage(err)}`);
      if (!(err instanceof ApiError) && process.env.EMULATOR_DEBUG) console.error(err);
      result = { status: apiError.status, body: apiError.toBody() };
      if (apiError.status === 401) result.headers = { "WWW-Authenticate": 'Bearer realm="api"' };
    }
    const sent = this.send(res, result.status, result.body, result.headers);
    finish(result.status);
    if (!isApi) return;
    this.emitExchange({
      method,
      path,
      query,
      requestHeaders,
      requestBody: requestBody ?? loggedBody,
      status: result.status,
      responseHeaders: sent,
      responseBody: result.status === 204 || result.status === 205 ? undefined : result.body,
      route: routeTemplate,
      injected: false,
    });
  }

  private emitExchange(x: Exchange): void {
    const cb = this.options.onExchange;
    if (!cb) return;
    try {
      cb(x);
    } catch (err) {
      if (process.env.EMULATOR_DEBUG) console.error("onExchange threw", err);
    }
  }

  private takeFault(method: string, path: string): ActiveFault | undefined {
    for (const f of this.faults) {
      if (f.remaining <= 0) continue;
      if (f.method && f.method.toUpperCase() !== method) continue;
      if (f.path !== undefined && !new RegExp(f.path).test(path)) continue;
      f.remaining -= 1;
      if (f.remaining <= 0) this.faults = this.faults.filter((x) => x !== f);
      return f;
    }
    return undefined;
  }

  private async handleAdmin(req: IncomingMessage, res: ServerResponse, method: string, path: string): Promise<void> {
    try {
      const { buffer, tooLarge } = await readBody(req);
      if (tooLarge) throw new PayloadTooLargeError();
      const route = `${method} ${path}`;
      switch (route) {
        case "POST /__admin/reset":
          this.reset();
          this.send(res, 200, { ok: true });
          return;
        case "GET /__admin/requests":
          this.send(res, 200, this.requests());
          return;
        case "DELETE /__admin/requests":
          this.clearRequests();
          this.send(res, 204);
          return;
        case "GET /__admin/counters":
          this.send(res, 200, this.counters());
          return;
        case "GET /__admin/faults":
          this.send(res, 200, this.activeFaults());
          return;
        case "POST /__admin/faults": {
          const body = parseJsonBody("POST", req.headers["content-type"], buffer);
          const faults = Array.isArray(body) ? body : [body];
          const out = faults.map((f) => this.injectFault(f as FaultSpec));
          this.send(res, 201, Array.isArray(body) ? out : out[0]);
          return;
        }
        case "DELETE /__admin/faults":
          this.clearFaults();
          this.send(res, 204);
          return;
        case "GET /__admin/info":
          this.send(res, 200, {
            url: this.env.apiBase,
            origin: this.env.origin,
            token: this.token,
            organizationId: this.store.fixtures.organizationId,
            secondOrganizationId: this.store.fixtures.secondOrganizationId,
            spaceIds: this.store.fixtures.spaceIds,
            userIds: this.store.fixtures.userIds,
          });
          return;
        default:
          throw new NotFoundError(`No admin route for ${method} ${path}`);
      }
    } catch (err) {
      const e = err instanceof ApiError ? err : new InternalError(errorMessage(err));
      this.send(res, e.status, e.toBody());
    }
  }
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function safeParse(buffer: Buffer): unknown {
  if (buffer.length === 0) return undefined;
  const text = buffer.toString("utf8");
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Parses a JSON request body; bodies of GET/HEAD/DELETE are ignored. */
function parseJsonBody(method: string, contentType: string | undefined, buffer: Buffer): unknown {
  if (method === "GET" || method === "HEAD" || method === "DELETE") return undefined;
  const text = buffer.toString("utf8");
  if (text.trim() === "") return undefined;
  const mediaType = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
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

function validateFault(spec: unknown): FaultSpec {
  if (!isPlainObject(spec)) throw new BadRequestError("fault: must be a JSON object");
  const allowed = ["method", "path", "count", "status", "retryAfter", "latencyMs", "drop", "body"];
  for (const k of Object.keys(spec)) {
    if (!allowed.includes(k)) throw new BadRequestError(`${k}: unknown field (allowed: ${allowed.join(", ")})`);
  }
  const out: FaultSpec = { count: 1 };
  if (spec.count !== undefined) {
    if (typeof spec.count !== "number" || !Number.isInteger(spec.count) || spec.count < 1) {
      throw new BadRequestError("count: must be a positive integer");
    }
    out.count = spec.count;
  }
  if (spec.method !== undefined) {
    if (typeof spec.method !== "string" || spec.method === "") throw new BadRequestError("method: must be a string");
    out.method = spec.method.toUpperCase();
  }
  if (spec.path !== undefined) {
    if (typeof spec.path !== "string") throw new BadRequestError("path: must be a regular expression source string");
    try {
      new RegExp(spec.path);
    } catch (err) {
      throw new BadRequestError(`path: invalid regular expression (${errorMessage(err)})`);
    }
    out.path = spec.path;
  }
  if (spec.status !== undefined) {
    if (typeof spec.status !== "number" || !Number.isInteger(spec.status) || spec.status < 100 || spec.status > 599) {
      throw new BadRequestError("status: must be an HTTP status code (100..599)");
    }
    out.status = spec.status;
  }
  if (spec.retryAfter !== undefined) {
    if (typeof spec.retryAfter !== "string" && typeof spec.retryAfter !== "number") {
      throw new BadRequestError("retryAfter: must be a string (seconds or HTTP date)");
    }
    out.retryAfter = String(spec.retryAfter);
  }
  if (spec.latencyMs !== undefined) {
    if (typeof spec.latencyMs !== "number" || !(spec.latencyMs >= 0) || spec.latencyMs > 600_000) {
      throw new BadRequestError("latencyMs: must be a number between 0 and 600000");
    }
    out.latencyMs = spec.latencyMs;
  }
  if (spec.drop !== undefined) {
    if (typeof spec.drop !== "boolean") throw new BadRequestError("drop: must be a boolean");
    out.drop = spec.drop;
  }
  if (spec.body !== undefined) out.body = spec.body;
  if (out.status === undefined && !out.drop && out.latencyMs === undefined) {
    throw new BadRequestError("fault: needs at least one of status, drop or latencyMs");
  }
  return out;
}
