/**
 * The emulator's HTTP server: wires the HTTP adapter (http.ts), the route table (router.ts), the store, the admin API
 * (admin.ts), fault injection (faults.ts), the rate limiter (rateLimit.ts) and the request log (requestLog.ts) into
 * one pipeline per /v1 request:
 *
 *   read → log and count → fault before handling? → rate limit → auth → route → handle → fault after handling? → answer
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { type AdminTarget, handleAdmin, isAdminPath } from "./admin";
import { errorBody, ForbiddenError, NotFoundError } from "./errors";
import { auditScope, recordWrite } from "./families/audit/audit";
import { type ActiveFault, appliedFault, FaultQueue } from "./faults";
import {
  applyPreference,
  authenticate,
  bearerToken,
  checkBodySize,
  decodeParams,
  errorResult,
  hasBody,
  type IncomingRequest,
  loggableBody,
  parseJsonBody,
  readRequest,
  redactedHeaders,
  requireTokenType,
  send,
} from "./http";
import { type RateLimit, RateLimiter, rateLimitMessage } from "./rateLimit";
import { finish, RequestLog, type RequestLogEntry } from "./requestLog";
import { type RouteMatch, Router } from "./router";
import { Store } from "./store";
import type { EmulatorOptions, Env, Exchange, HandlerResult, Route, TokenType } from "./types";

export type { ActiveFault, AppliedFault, FaultSpec } from "./faults";
export type { RateLimit } from "./rateLimit";
export type { RequestLogEntry } from "./requestLog";
export { allRoutes } from "./router";
export type { EmulatorOptions, Exchange, TokenType } from "./types";

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export class EmulatorServer implements AdminTarget {
  readonly store: Store;
  readonly token: string;
  readonly options: EmulatorOptions;
  env!: Env;
  private readonly server: Server;
  private readonly router = new Router();
  private readonly faults = new FaultQueue();
  private readonly log: RequestLog;
  private readonly limiter: RateLimiter;
  private readonly sockets = new Set<Socket>();
  /** Tokens accepted besides `token`, each for one organization only (see `scopeToken`). */
  private readonly scopedTokens = new Map<string, string>();
  /** Tokens of a declared type (see `typeToken`): `token` itself may be one. */
  private readonly typedTokens = new Map<string, TokenType>();

  constructor(options: EmulatorOptions = {}) {
    this.options = options;
    this.store = new Store(options.clock, options.openApiStepMs ?? 50, options.translationStepMs ?? 0);
    this.token = options.token ?? "test-token";
    this.limiter = new RateLimiter(options.rateLimit);
    this.log = new RequestLog(options.requestLogLimit);
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        // Last resort: never crash the process on a request.
        if (res.headersSent) res.destroy();
        else send(res, { status: 500, body: errorBody(500, `Internal server error: ${String(err)}`) });
      });
    });
    // Idle connections are the client's to close. With Node's default (5 s, advertised as `Keep-Alive: timeout=5`)
    // the server closed them too, and a client whose event loop was blocked past both timers (a first contract
    // validation compiling for seconds in the same process) reused the socket before its own timer ran: the request
    // met the server's close as ECONNRESET. close() still ends every socket.
    this.server.keepAliveTimeout = 0;
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
    };
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections?.();
      for (const s of this.sockets) s.destroy();
    });
  }

  // ---- the admin API (AdminTarget; also served over HTTP under /__admin)

  /** Back to the fixtures; clears faults, the request log and counters, and starts rate-limit windows afresh. */
  /**
   * Accepts `token` too, for one organization: a request to `/v1/orgs/{other}/…` with it is answered 403, as the API
   * answers a token of a user outside that organization. Requests to objects addressed without their organization
   * (`/v1/spaces/{id}`) are not restricted. Kept across resets.
   */
  scopeToken(token: string, organizationId: string): void {
    this.scopedTokens.set(token, organizationId);
  }

  /**
   * Accepts `token` (a new one, or the main token itself) as a token of `type`: it reaches what the main token
   * reaches, except the operations the official document admits user tokens only to (routes flagged `security:
   * "user"`), which answer any other type 401 as the API answers an integration or OAuth token there. Combines with
   * `scopeToken`. Kept across resets.
   */
  typeToken(token: string, type: TokenType): void {
    this.typedTokens.set(token, type);
  }

  /** Whether the token is one the emulator knows (the main one, a scoped one or a typed one). */
  private accepts(token: string | undefined): boolean {
    return token !== undefined && (token === this.token || this.scopedTokens.has(token) || this.typedTokens.has(token));
  }

  private authorize(request: IncomingRequest, route: Route | undefined): void {
    const token = bearerToken(request.headers);
    const organizationId = token === undefined ? undefined : this.scopedTokens.get(token);
    const type = token === undefined ? undefined : this.typedTokens.get(token);
    if (organizationId === undefined && type === undefined) {
      authenticate(request.headers, this.token);
      return;
    }
    if (type !== undefined) requireTokenType(route, type);
    if (organizationId === undefined) return;
    const addressed = /^\/v1\/orgs\/([^/]+)/.exec(request.path)?.[1];
    if (addressed !== undefined && decodeURIComponent(addressed) !== organizationId) {
      throw new ForbiddenError(`The token has no access to organization ${decodeURIComponent(addressed)}`);
    }
  }

  reset(): void {
    this.store.reset();
    this.faults.clear();
    this.log.clear();
    this.limiter.resetWindows();
  }

  requests(): RequestLogEntry[] {
    return this.log.entries();
  }

  clearRequests(): void {
    this.log.clear();
  }

  requestLogState(): { dropped: number; limit: number } {
    return { dropped: this.log.dropped(), limit: this.log.limit };
  }

  counters(): Record<string, number> {
    return this.log.counters();
  }

  injectFault(spec: unknown): ActiveFault {
    return this.faults.inject(spec);
  }

  clearFaults(): void {
    this.faults.clear();
  }

  activeFaults(): ActiveFault[] {
    return this.faults.list();
  }

  rateLimit(): RateLimit | undefined {
    return this.limiter.get();
  }

  /** Turns the rate limiter on (`{limit, windowMs}`) or off (null/undefined). */
  setRateLimit(limit: unknown): RateLimit | undefined {
    this.limiter.set(limit === null || limit === undefined ? undefined : (limit as RateLimit));
    return this.limiter.get();
  }

  info(): Record<string, unknown> {
    const { fixtures } = this.store;
    return {
      url: this.env.apiBase,
      origin: this.env.origin,
      token: this.token,
      organizationId: fixtures.organizationId,
      secondOrganizationId: fixtures.secondOrganizationId,
      spaceIds: fixtures.spaceIds,
      userIds: fixtures.userIds,
    };
  }

  // ---- the pipeline

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now();
    let request: IncomingRequest | undefined;
    try {
      request = await readRequest(req);
    } catch {
      res.destroy();
      return;
    }
    if (!request) {
      send(res, { status: 400, body: errorBody(400, "Malformed request URL") });
      return;
    }
    if (isAdminPath(request.path)) {
      send(res, this.runAdmin(request));
      return;
    }
    const { method, path, headers } = request;
    const isApi = path === "/v1" || path.startsWith("/v1/");
    const match: RouteMatch = isApi ? this.router.match(method, path) : { route: undefined, allowed: [] };
    const routeTemplate = match.route?.path ?? null;
    const entry = this.log.start({
      time: new Date(started).toISOString(),
      method,
      path,
      query: request.query,
      route: routeTemplate,
      authorized: this.accepts(bearerToken(headers)),
      headers: redactedHeaders(headers),
      ...optional("requestBody", loggableBody(request.body)),
      ...optional("userAgent", headers["user-agent"]),
      ...optional("idempotencyKey", headers["idempotency-key"]),
    });
    const exchange = (status: number, sent: Record<string, string>, body: unknown, injected: boolean) =>
      this.emitExchange({
        method,
        path,
        query: request.query,
        requestHeaders: headers,
        requestBody: entry.requestBody,
        status,
        responseHeaders: sent,
        responseBody: hasBody(status) ? body : undefined,
        route: routeTemplate,
        injected,
      });

    const fault = isApi ? this.faults.take(method, path) : undefined;
    if (fault) {
      entry.fault = appliedFault(fault);
      if (fault.latencyMs) await sleep(fault.latencyMs);
      if (fault.drop) {
        finish(entry, "dropped", started);
        req.socket.destroy();
        return;
      }
      if (fault.status !== undefined) {
        const result: HandlerResult = {
          status: fault.status,
          body: fault.body ?? errorBody(fault.status, `Injected fault: HTTP ${fault.status}`),
          headers: fault.retryAfter !== undefined ? { "Retry-After": fault.retryAfter } : {},
        };
        const sent = send(res, result);
        finish(entry, fault.status, started);
        exchange(fault.status, sent, result.body, true);
        return;
      }
    }

    let result: HandlerResult;
    if (isApi) {
      // The limiter decides before the API handles anything: a request over the limit changes nothing.
      const verdict = this.limiter.take(bearerToken(headers) ?? "");
      if (verdict?.exceededWaitSeconds !== undefined) {
        result = { status: 429, body: errorBody(429, rateLimitMessage(verdict.exceededWaitSeconds)) };
        entry.rateLimited = true;
      } else {
        result = this.answer(request, match);
      }
      if (verdict) result.headers = { ...(result.headers ?? {}), ...verdict.headers };
    } else {
      result = errorResult(noRoute(request, match, false));
    }
    if (fault?.delayResponseMs) await sleep(fault.delayResponseMs);
    if (fault?.afterHandling === "drop") {
      entry.handledStatus = result.status;
      finish(entry, "dropped", started);
      req.socket.destroy();
      return;
    }
    if (res.destroyed || req.socket.destroyed) entry.clientClosed = true;
    const sent = send(res, result);
    finish(entry, result.status, started);
    if (isApi) exchange(result.status, sent, result.body, false);
  }

  /** The API's answer to a /v1 request the rate limiter let through. */
  private answer(request: IncomingRequest, match: RouteMatch): HandlerResult {
    try {
      this.authorize(request, match.route);
      if (!match.route) throw noRoute(request, match, true);
      checkBodySize(request);
      const body = parseJsonBody(request.method, request.headers["content-type"], request.body);
      const params = decodeParams(match.params);
      const audit = auditScope(this.store, match.route, params, request.headers, body);
      const result = match.route.handler({
        method: request.method,
        path: request.path,
        params,
        query: request.query,
        body,
        headers: request.headers,
        store: this.store,
        env: this.env,
      });
      recordWrite(this.store, audit, match.route, params, result);
      return applyPreference(match.route, result, request.headers);
    } catch (err) {
      return errorResult(err);
    }
  }

  private runAdmin(request: IncomingRequest): HandlerResult {
    try {
      return handleAdmin(this, request);
    } catch (err) {
      return errorResult(err);
    }
  }

  private emitExchange(x: Exchange): void {
    try {
      this.options.onExchange?.(x);
    } catch (err) {
      if (process.env.EMULATOR_DEBUG) console.error("onExchange threw", err);
    }
  }
}

function noRoute(request: IncomingRequest, match: RouteMatch, isApi: boolean): NotFoundError {
  const { method, path } = request;
  if (!isApi) return new NotFoundError(`No route for ${method} ${path} (the API is served under /v1)`);
  const allowed = match.route ? [] : match.allowed;
  return new NotFoundError(
    allowed.length
      ? `No route for ${method} ${path} (allowed methods: ${allowed.join(", ")})`
      : `No route for ${method} ${path}`,
  );
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined || value === "" ? {} : { [key]: value }) as { [P in K]?: V };
}
