/**
 * The admin API under /__admin (no auth): reset, the request log and counters, faults, the rate limiter and the
 * fixture ids, for tests and tools that drive an emulator in another process. Each operation is the HTTP face of a
 * method of the emulator (AdminTarget).
 */
import { NotFoundError, PayloadTooLargeError } from "./errors";
import type { ActiveFault } from "./faults";
import { type IncomingRequest, parseJsonBody } from "./http";
import type { RateLimit } from "./rateLimit";
import type { RequestLogEntry } from "./requestLog";
import type { HandlerResult } from "./types";

export interface AdminTarget {
  reset(): void;
  requests(): RequestLogEntry[];
  clearRequests(): void;
  /** Entries the request log dropped (oldest first) to stay within its limit since it was cleared, and the limit. */
  requestLogState(): { dropped: number; limit: number };
  counters(): Record<string, number>;
  injectFault(spec: unknown): ActiveFault;
  activeFaults(): ActiveFault[];
  clearFaults(): void;
  rateLimit(): RateLimit | undefined;
  setRateLimit(limit: unknown): RateLimit | undefined;
  info(): Record<string, unknown>;
}

type AdminHandler = (target: AdminTarget, body: () => unknown) => HandlerResult;

const adminRoutes: Record<string, AdminHandler> = {
  "POST /__admin/reset": (t) => {
    t.reset();
    return { status: 200, body: { ok: true } };
  },
  /** The body stays an array (what every caller reads); the log's state rides in headers. */
  "GET /__admin/requests": (t) => {
    const { dropped, limit } = t.requestLogState();
    return {
      status: 200,
      body: t.requests(),
      headers: { "X-Request-Log-Dropped": String(dropped), "X-Request-Log-Limit": String(limit) },
    };
  },
  "DELETE /__admin/requests": (t) => {
    t.clearRequests();
    return { status: 204 };
  },
  "GET /__admin/counters": (t) => ({ status: 200, body: t.counters() }),
  "GET /__admin/faults": (t) => ({ status: 200, body: t.activeFaults() }),
  /** One FaultSpec, or an array of them. */
  "POST /__admin/faults": (t, body) => {
    const spec = body();
    const added = (Array.isArray(spec) ? spec : [spec]).map((f) => t.injectFault(f));
    return { status: 201, body: Array.isArray(spec) ? added : added[0] };
  },
  "DELETE /__admin/faults": (t) => {
    t.clearFaults();
    return { status: 204 };
  },
  /** `{limit, windowMs}`, or null when the limiter is off. */
  "GET /__admin/rate-limit": (t) => ({ status: 200, body: t.rateLimit() ?? null }),
  "PUT /__admin/rate-limit": (t, body) => ({ status: 200, body: t.setRateLimit(body()) }),
  "DELETE /__admin/rate-limit": (t) => {
    t.setRateLimit(undefined);
    return { status: 204 };
  },
  "GET /__admin/info": (t) => ({ status: 200, body: t.info() }),
};

export function isAdminPath(path: string): boolean {
  return path === "/__admin" || path.startsWith("/__admin/");
}

/** Runs one admin request; errors propagate as ApiErrors (the HTTP adapter maps them). */
export function handleAdmin(target: AdminTarget, request: IncomingRequest): HandlerResult {
  if (request.bodyTooLarge) throw new PayloadTooLargeError();
  const handler = adminRoutes[`${request.method} ${request.path}`];
  if (!handler) throw new NotFoundError(`No admin route for ${request.method} ${request.path}`);
  return handler(target, () => parseJsonBody("POST", request.headers["content-type"], request.body));
}
