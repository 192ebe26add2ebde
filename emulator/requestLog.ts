/** The request log (most recent entries) and the per-operation counters. */
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

/** The log keeps the most recent entries only. */
const MAX_LOG_ENTRIES = 100_000;

export class RequestLog {
  private log: RequestLogEntry[] = [];
  private seq = 0;
  private counterMap = new Map<string, number>();

  /** Counts the request under `METHOD template` (raw path when no route matched) and starts its entry. */
  start(fields: Omit<RequestLogEntry, "seq" | "status" | "durationMs">, counterKey: string): RequestLogEntry {
    this.counterMap.set(counterKey, (this.counterMap.get(counterKey) ?? 0) + 1);
    this.seq += 1;
    const entry: RequestLogEntry = { seq: this.seq, ...fields, status: 0, durationMs: 0 };
    this.log.push(entry);
    if (this.log.length > MAX_LOG_ENTRIES) this.log.splice(0, this.log.length - MAX_LOG_ENTRIES);
    return entry;
  }

  entries(): RequestLogEntry[] {
    return this.log.map((e) => ({ ...e }));
  }

  counters(): Record<string, number> {
    return Object.fromEntries(this.counterMap);
  }

  /** Empties the log and the counters (sequence numbers keep growing). */
  clear(): void {
    this.log = [];
    this.counterMap.clear();
  }
}

/** Records the outcome of a logged request. */
export function finish(entry: RequestLogEntry, status: number | "dropped", startedMs: number): void {
  entry.status = status;
  entry.durationMs = Date.now() - startedMs;
}
