/**
 * Fault injection: faults wait in a queue and each applies to the next `count` /v1 requests it matches.
 *
 * Before the API handles the request: `latencyMs` delays it, then `drop` destroys the connection or `status` answers
 * in the API's place (the store does not change); with only `latencyMs` the request is then handled normally.
 * After the API handled the request (the store changed): `delayResponseMs` holds the answer back, and
 * `afterHandling: "drop"` destroys the connection instead of answering, so the client never learns what the API did.
 */
import { BadRequestError } from "./errors";
import { errorMessage } from "./http";
import { isPlainObject } from "./validate";

export interface FaultSpec {
  /** HTTP method to match (any when omitted). */
  method?: string;
  /** Regular expression source matched against the request path (without query, including /v1). */
  path?: string;
  /** Number of matching requests the fault applies to (default 1). */
  count?: number;
  /** Status to answer with instead of handling the request. */
  status?: number;
  /** Retry-After header value (seconds or HTTP date) of the injected answer. */
  retryAfter?: string;
  /** Delay before answering, dropping or handling. */
  latencyMs?: number;
  /** Destroy the connection without handling the request. */
  drop?: boolean;
  /** Body of the injected answer (default: the official error body for `status`). */
  body?: unknown;
  /** Handle the request, then destroy the connection instead of answering. */
  afterHandling?: "drop";
  /** Handle the request, then wait this long before answering (or dropping, with afterHandling). */
  delayResponseMs?: number;
}

export interface ActiveFault extends FaultSpec {
  id: number;
  count: number;
  /** Matching requests it still applies to. */
  remaining: number;
}

/** What the request log records of the fault that applied to a request. */
export type AppliedFault = Omit<FaultSpec, "method" | "path" | "count" | "body"> & { id: number };

const FIELDS = [
  "method",
  "path",
  "count",
  "status",
  "retryAfter",
  "latencyMs",
  "drop",
  "body",
  "afterHandling",
  "delayResponseMs",
];
const MAX_DELAY_MS = 600_000;

export class FaultQueue {
  private faults: ActiveFault[] = [];
  private seq = 0;

  /** Validates a fault spec (400 naming the field) and queues it. */
  inject(spec: unknown): ActiveFault {
    const fault = validateFault(spec);
    this.seq += 1;
    const active: ActiveFault = { ...fault, count: fault.count ?? 1, id: this.seq, remaining: fault.count ?? 1 };
    this.faults.push(active);
    return { ...active };
  }

  clear(): void {
    this.faults = [];
  }

  list(): ActiveFault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  /** The first fault matching the request, consumed once. */
  take(method: string, path: string): ActiveFault | undefined {
    const fault = this.faults.find(
      (f) =>
        (!f.method || f.method.toUpperCase() === method) && (f.path === undefined || new RegExp(f.path).test(path)),
    );
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.faults = this.faults.filter((x) => x !== fault);
    return fault;
  }
}

/** The log's view of a fault: what it did, without its matching rules. */
export function appliedFault(fault: ActiveFault): AppliedFault {
  const out: AppliedFault = { id: fault.id };
  if (fault.status !== undefined) out.status = fault.status;
  if (fault.latencyMs !== undefined) out.latencyMs = fault.latencyMs;
  if (fault.drop) out.drop = true;
  if (fault.retryAfter !== undefined) out.retryAfter = fault.retryAfter;
  if (fault.afterHandling !== undefined) out.afterHandling = fault.afterHandling;
  if (fault.delayResponseMs !== undefined) out.delayResponseMs = fault.delayResponseMs;
  return out;
}

function delay(value: unknown, field: string): number {
  if (typeof value !== "number" || !(value >= 0) || value > MAX_DELAY_MS) {
    throw new BadRequestError(`${field}: must be a number between 0 and ${MAX_DELAY_MS}`);
  }
  return value;
}

function validateFault(spec: unknown): FaultSpec {
  if (!isPlainObject(spec)) throw new BadRequestError("fault: must be a JSON object");
  for (const k of Object.keys(spec)) {
    if (!FIELDS.includes(k)) throw new BadRequestError(`${k}: unknown field (allowed: ${FIELDS.join(", ")})`);
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
  if (spec.latencyMs !== undefined) out.latencyMs = delay(spec.latencyMs, "latencyMs");
  if (spec.drop !== undefined) {
    if (typeof spec.drop !== "boolean") throw new BadRequestError("drop: must be a boolean");
    out.drop = spec.drop;
  }
  if (spec.body !== undefined) out.body = spec.body;
  if (spec.afterHandling !== undefined) {
    if (spec.afterHandling !== "drop") throw new BadRequestError('afterHandling: must be "drop"');
    out.afterHandling = spec.afterHandling;
  }
  if (spec.delayResponseMs !== undefined) out.delayResponseMs = delay(spec.delayResponseMs, "delayResponseMs");
  const handled = out.afterHandling !== undefined || out.delayResponseMs !== undefined;
  if (handled && (out.status !== undefined || out.drop)) {
    throw new BadRequestError(
      "fault: afterHandling and delayResponseMs apply to requests the API handles; they exclude status and drop",
    );
  }
  if (out.status === undefined && !out.drop && out.latencyMs === undefined && !handled) {
    throw new BadRequestError("fault: needs at least one of status, drop, latencyMs, afterHandling or delayResponseMs");
  }
  return out;
}
