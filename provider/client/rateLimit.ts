import { createHash } from "node:crypto";
import { DocsApiError, RateLimitedError } from "./errors";

/** Waits at least this long are reported through `onWait`: shorter ones are ordinary retries. */
export const LONG_WAIT_MS = 5_000;

/** A wait for the rate limit long enough to tell the user about; never carries the token. */
export interface WaitEvent {
  method: string;
  path: string;
  waitMs: number;
  /** `limit-reached`: the budget was spent, so the request was held; `too-many-requests`: the API answered 429. */
  reason: "limit-reached" | "too-many-requests";
  /** When the wait ends, ISO 8601. */
  resetAt: string;
  limit?: number;
}

/**
 * The API's documented rate limit: every response carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and
 * `X-RateLimit-Reset` (UTC epoch seconds) for the token. One limiter per API base URL and token is shared by every
 * client of the process, so that the resources of one `pulumi up` spend one budget together instead of each
 * discovering the limit with a 429.
 */
export interface RateLimitReading {
  limit?: number;
  remaining?: number;
  /** When the window ends, in epoch milliseconds. */
  resetAt?: number;
}

type Headers = Record<string, string | string[] | undefined>;

export function readRateLimitHeaders(headers: Headers): RateLimitReading {
  const reset = whole(headers["x-ratelimit-reset"]);
  return {
    limit: whole(headers["x-ratelimit-limit"]),
    remaining: whole(headers["x-ratelimit-remaining"]),
    resetAt: reset === undefined ? undefined : reset * 1000,
  };
}

/** The wait the documented 429 body names: "API rate limit exceeded. Please try again in 60 seconds". */
export function waitNamedIn(message: string | undefined): number | undefined {
  const match = /try again in (\d+(?:\.\d+)?) ?(seconds?|s|minutes?|min)\b/i.exec(message ?? "");
  if (!match?.[1] || !match[2]) return undefined;
  const amount = Number(match[1]);
  return match[2].toLowerCase().startsWith("m") ? amount * 60_000 : amount * 1000;
}

export class RateLimiter {
  private limit: number | undefined;
  /** What the window has left for requests not yet sent: the last reading, less what was sent since. */
  private remaining: number | undefined;
  private resetAt: number | undefined;
  /** The end of the last window this limiter saw over (reserve started a fresh budget after it). */
  private endedAt: number | undefined;

  /** The window as last read: what error messages and wait reports show. */
  get reading(): RateLimitReading {
    return { limit: this.limit, remaining: this.remaining, resetAt: this.resetAt };
  }

  /**
   * Asks to send one request at `now`: 0 when it may go (and its share of the budget is taken), else how long to
   * hold it — until the window resets, when the budget is spent.
   */
  reserve(now: number): number {
    if (this.resetAt !== undefined && now >= this.resetAt) {
      // The window is over: a fresh budget, whose end the next answer will tell.
      this.remaining = this.limit;
      this.endedAt = this.resetAt;
      this.resetAt = undefined;
    }
    if (this.remaining !== undefined && this.remaining <= 0 && this.resetAt !== undefined) return this.resetAt - now;
    if (this.remaining !== undefined) this.remaining--;
    return 0;
  }

  observe(reading: RateLimitReading): void {
    if (reading.limit !== undefined) this.limit = reading.limit;
    if (reading.remaining === undefined) return;
    // A late answer from a window already over says nothing about the current one.
    if (this.isLate(reading.resetAt)) return;
    // The first answer of a window this limiter started counts only what reached the API before it: the requests sent
    // since are already taken from `remaining`, so it lowers the count and never raises it (a burst at the window's
    // start would otherwise be let go twice).
    const sameWindow =
      reading.resetAt === undefined ||
      reading.resetAt === this.resetAt ||
      (this.resetAt === undefined && this.endedAt !== undefined);
    // Answers arrive out of order: within one window the lowest count is the latest truth.
    this.remaining =
      sameWindow && this.remaining !== undefined ? Math.min(this.remaining, reading.remaining) : reading.remaining;
    if (reading.resetAt !== undefined) this.resetAt = reading.resetAt;
  }

  /** Whether an answer comes from a window already over: one before the current, or the one `reserve` saw end. */
  private isLate(resetAt: number | undefined): boolean {
    // Stryker disable next-line ConditionalExpression: an undefined reset compares false with any number below anyway
    if (resetAt === undefined) return false;
    if (this.resetAt !== undefined) return resetAt < this.resetAt;
    return resetAt <= (this.endedAt ?? Number.NEGATIVE_INFINITY);
  }
}

/**
 * Process-wide, not per operation (../framework/operation.ts): the budget is the API's, per token, whoever spends it.
 * A new operation in the same process (a test, the CLI after a walk) must not forget a spent window and send a burst
 * of requests into 429s.
 */
const limiters = new Map<string, RateLimiter>();

/** The limiter of one API and token; the key holds a hash of the token, never the token. */
export function sharedRateLimiter(baseUrl: URL, token: string): RateLimiter {
  const key = `${baseUrl.origin}${baseUrl.pathname} ${createHash("sha256").update(token).digest("hex").slice(0, 16)}`;
  let limiter = limiters.get(key);
  if (!limiter) {
    limiter = new RateLimiter();
    limiters.set(key, limiter);
  }
  return limiter;
}

function whole(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || !/^\s*\d+\s*$/.test(text)) return undefined;
  return Number(text);
}

export interface GateOptions {
  /** The longest wait accepted, in ms; a longer one fails with RateLimitedError. */
  maxWaitMs: number;
  /** Holds per request, and 429s per request, each counted on its own. */
  maxWaits: number;
  /** A 429's wait when nothing says how long: no Retry-After, no reset, no wait in the message. */
  fallbackMs: number;
  onWait: ((event: WaitEvent) => void) | undefined;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  jitter: () => number;
}

type Where = { method: string; path: string; attempts: number };

/**
 * The rate limit as one request meets it: held before sending while the shared budget is spent, and made to wait
 * after a 429. Neither spends an attempt; a wait over the ceiling fails at once, naming the limit, the reset time
 * and the setting.
 */
export class RateLimitGate {
  /**
   * Holds and 429s so far, per request, counted apart: other processes on the same token (several stacks, CI jobs)
   * spend the window before this process sees it spent, so a request may be held again and again while the API serves
   * the others. Only 429s say the API refuses; holds ending in one would otherwise exhaust the ceiling meant for a
   * server that never relents.
   */
  private holds = 0;
  private refusals = 0;

  constructor(
    private readonly limiter: RateLimiter,
    private readonly options: GateOptions,
  ) {}

  /** Holds the request while the window's budget is spent; after `maxWaits` holds, lets it go and the API decide. */
  async beforeSending(where: Where): Promise<void> {
    for (let hold = this.limiter.reserve(this.options.now()); hold > 0; ) {
      if (++this.holds > this.options.maxWaits) return;
      await this.wait(where, hold, "limit-reached");
      hold = this.limiter.reserve(this.options.now());
    }
  }

  /** Waits out a 429, or throws it when the request has had `maxWaits` 429s already. */
  async afterTooManyRequests(failure: DocsApiError): Promise<void> {
    if (++this.refusals > this.options.maxWaits) throw failure;
    await this.wait(failure, this.delayAfter(failure), "too-many-requests");
  }

  /**
   * Retry-After, else until X-RateLimit-Reset, else the wait the message names (also when the reset already passed
   * by our clock: a skewed clock must not turn the wait into a burst of 429s), else a short backoff.
   */
  private delayAfter(failure: DocsApiError): number {
    const untilReset = (this.limiter.reading.resetAt ?? 0) - this.options.now();
    const wait = failure.retryAfterMs ?? (untilReset > 0 ? untilReset : undefined) ?? waitNamedIn(failure.apiMessage);
    return wait ?? this.options.fallbackMs;
  }

  private async wait(where: Where | DocsApiError, waitMs: number, reason: WaitEvent["reason"]): Promise<void> {
    const resetAt = new Date(this.options.now() + waitMs).toISOString();
    const limit = this.limiter.reading.limit;
    if (waitMs > this.options.maxWaitMs) throw this.overCeiling(where, waitMs, resetAt, reason);
    if (waitMs >= LONG_WAIT_MS)
      this.options.onWait?.({ method: where.method, path: where.path, waitMs, reason, resetAt, limit });
    // Jitter spreads the requests that waited for the same reset.
    await this.options.sleep(waitMs + this.options.jitter());
  }

  private overCeiling(where: Where | DocsApiError, waitMs: number, resetAt: string, reason: WaitEvent["reason"]) {
    const limit = this.limiter.reading.limit;
    const summary =
      `the rate limit${limit === undefined ? "" : ` of ${limit} requests`} resets at ${resetAt}, in ` +
      `${Math.ceil(waitMs / 1000)} s: longer than DOCS_API_MAX_WAIT_SECONDS (${this.options.maxWaitMs / 1000} s) ` +
      "allows waiting. Raise it, or run fewer operations at once (pulumi up --parallel)";
    const { method, path, attempts } = where;
    const apiMessage = where instanceof DocsApiError ? where.apiMessage : undefined;
    const status = reason === "too-many-requests" ? 429 : undefined;
    return new RateLimitedError({ method, path, attempts, status, apiMessage }, summary);
  }
}
