/**
 * The request log (the most recent entries, a ring of a fixed capacity) and the per-operation counters.
 *
 * A long-running emulator (a fuzzer driving it for hours) must not grow: the log keeps the newest `limit` entries and
 * counts what it dropped, and the counters are keyed by route template, so their number is bounded by the route
 * table, except for requests no route matched, which are counted by raw path up to MAX_UNMATCHED_COUNTERS paths.
 */
import type { AppliedFault } from "./faults";
import type { Query } from "./validate";

export interface RequestLogEntry {
  seq: number;
  /** ISO time the request was received. */
  time: string;
  method: string;
  path: string;
  query: Query;
  /** Route template that matched, or null. */
  route: string | null;
  /** Final status, or "dropped" when a fault destroyed the connection instead of answering. */
  status: number | "dropped";
  /** The status the API produced before a fault dropped the connection (afterHandling: "drop"). */
  handledStatus?: number;
  /** The client had closed the connection before the (delayed) answer was written. */
  clientClosed?: boolean;
  /** The injected fault, when one applied. */
  fault?: AppliedFault;
  /** Answered 429 by the rate limiter. */
  rateLimited?: boolean;
  durationMs: number;
  /** Whether a valid bearer token was sent. */
  authorized: boolean;
  /** Request headers (authorization value redacted). */
  headers: Record<string, string>;
  requestBody?: unknown;
  userAgent?: string;
  idempotencyKey?: string;
}

/**
 * Entries kept by default. An entry of a typical request is 1-2 KB, so the log stays around 10-20 MB; and 10,000 is
 * more than ten times what one test or one benchmark operation sends (the benchmark's largest, `up` at N = 500,
 * sends about 700), so a caller reading the log after its own requests still finds them all.
 */
export const DEFAULT_REQUEST_LOG_LIMIT = 10_000;
/** The largest limit accepted: a bound that still means something for memory. */
export const MAX_REQUEST_LOG_LIMIT = 10_000_000;
/**
 * Distinct raw paths counted for requests no route matched; later ones share one counter per method
 * (`METHOD ${OTHER_UNMATCHED}`), since a fuzzer sends endless distinct unknown paths.
 */
export const MAX_UNMATCHED_COUNTERS = 1_000;
export const OTHER_UNMATCHED = "(other unmatched paths)";

/** A request log limit from an option: an integer in 0..MAX_REQUEST_LOG_LIMIT (0 keeps no entries, only counters). */
export function validateRequestLogLimit(value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > MAX_REQUEST_LOG_LIMIT) {
    throw new Error(
      `requestLogLimit: must be an integer in 0..${MAX_REQUEST_LOG_LIMIT} (entries kept; 0 keeps none), got ${String(value)}`,
    );
  }
  return value;
}

export class RequestLog {
  readonly limit: number;
  /** The ring: `size` entries, the oldest at `head`. */
  private ring: RequestLogEntry[] = [];
  private head = 0;
  private size = 0;
  private droppedCount = 0;
  private seq = 0;
  private counterMap = new Map<string, number>();
  private unmatchedCounters = 0;

  constructor(limit: number = DEFAULT_REQUEST_LOG_LIMIT) {
    this.limit = validateRequestLogLimit(limit);
  }

  /**
   * Counts the request under `METHOD template` (`METHOD path` when no route matched: pass `route` null) and starts
   * its entry, dropping the oldest one when the log is full.
   */
  start(fields: Omit<RequestLogEntry, "seq" | "status" | "durationMs">): RequestLogEntry {
    this.count(fields.method, fields.route, fields.path);
    this.seq += 1;
    const entry: RequestLogEntry = { seq: this.seq, ...fields, status: 0, durationMs: 0 };
    if (this.limit === 0) {
      this.droppedCount += 1;
    } else if (this.size < this.limit) {
      this.ring[(this.head + this.size) % this.limit] = entry;
      this.size += 1;
    } else {
      this.ring[this.head] = entry;
      this.head = (this.head + 1) % this.limit;
      this.droppedCount += 1;
    }
    return entry;
  }

  /** The kept entries, oldest first (copies). */
  entries(): RequestLogEntry[] {
    const out: RequestLogEntry[] = [];
    for (let i = 0; i < this.size; i++) out.push({ ...(this.ring[(this.head + i) % this.limit] as RequestLogEntry) });
    return out;
  }

  /** Entries dropped to keep the log within its limit since it was last cleared. */
  dropped(): number {
    return this.droppedCount;
  }

  counters(): Record<string, number> {
    return Object.fromEntries(this.counterMap);
  }

  /** Empties the log, the dropped count and the counters (sequence numbers keep growing). */
  clear(): void {
    this.ring = [];
    this.head = 0;
    this.size = 0;
    this.droppedCount = 0;
    this.counterMap.clear();
    this.unmatchedCounters = 0;
  }

  private count(method: string, route: string | null, path: string): void {
    let key = `${method} ${route ?? path}`;
    if (route === null && !this.counterMap.has(key)) {
      if (this.unmatchedCounters >= MAX_UNMATCHED_COUNTERS) key = `${method} ${OTHER_UNMATCHED}`;
      else this.unmatchedCounters += 1;
    }
    this.counterMap.set(key, (this.counterMap.get(key) ?? 0) + 1);
  }
}

/** Records the outcome of a logged request. */
export function finish(entry: RequestLogEntry, status: number | "dropped", startedMs: number): void {
  entry.status = status;
  entry.durationMs = Date.now() - startedMs;
}
