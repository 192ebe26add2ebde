/**
 * The optional rate limiter, shaped like the real service's: a fixed window per token, `X-RateLimit-Limit`,
 * `X-RateLimit-Remaining` and `X-RateLimit-Reset` (UTC epoch seconds) on every answer of the API, and when the window
 * is spent a 429 `{"error":{"code":429,"message":"API rate limit exceeded. Please try again in N seconds"}}` (N: the
 * wait until the reset, rounded up) without `Retry-After`. Answers injected by faults are outside it.
 */
import { BadRequestError } from "./errors";
import { isPlainObject } from "./validate";

export interface RateLimit {
  /** Requests per window and token. */
  limit: number;
  /** Window length in milliseconds; a window starts with the first request after the previous one ended. */
  windowMs: number;
}

export interface RateLimitVerdict {
  /** The three X-RateLimit-* headers for the answer. */
  headers: Record<string, string>;
  /** Seconds until the window resets, when the request exceeded the limit (it must be answered 429). */
  exceededWaitSeconds?: number;
}

const MIN_SWEEP_AT = 1024;

interface Window {
  startMs: number;
  used: number;
}

export class RateLimiter {
  private config: RateLimit | undefined;
  private windows = new Map<string, Window>();
  /** Windows the map holds before the next sweep of the ended ones (sweepEnded). */
  private sweepAt = MIN_SWEEP_AT;
  private readonly now: () => number;

  constructor(config?: RateLimit, now: () => number = Date.now) {
    this.now = now;
    this.set(config);
  }

  /** Turns the limiter on with a new configuration (windows start afresh), or off. */
  set(config: RateLimit | undefined): void {
    this.config = config === undefined ? undefined : validateRateLimit(config);
    this.windows.clear();
  }

  get(): RateLimit | undefined {
    return this.config && { ...this.config };
  }

  /**
   * Forgets the windows that have ended (the next request of their token starts a new one anyway): a fuzzer sends
   * endless distinct tokens, and one window each would grow without bound. Sweeping only when the map has doubled
   * since the last sweep keeps the cost constant per request.
   */
  private sweepEnded(now: number, windowMs: number): void {
    for (const [token, window] of this.windows) if (now >= window.startMs + windowMs) this.windows.delete(token);
    this.sweepAt = Math.max(MIN_SWEEP_AT, 2 * this.windows.size);
  }

  /** Tokens the limiter holds a window for (what sweepEnded bounds). */
  trackedTokens(): number {
    return this.windows.size;
  }

  /** Starts every token's window afresh (the configuration stays). */
  resetWindows(): void {
    this.windows.clear();
  }

  /** Counts one request of `token` (undefined when the limiter is off); requests over the limit are not counted. */
  take(token: string): RateLimitVerdict | undefined {
    const config = this.config;
    if (!config) return undefined;
    const now = this.now();
    let window = this.windows.get(token);
    if (!window || now >= window.startMs + config.windowMs) {
      if (!window && this.windows.size >= this.sweepAt) this.sweepEnded(now, config.windowMs);
      window = { startMs: now, used: 0 };
      this.windows.set(token, window);
    }
    const resetMs = window.startMs + config.windowMs;
    const exceeded = window.used >= config.limit;
    if (!exceeded) window.used += 1;
    const headers = {
      "X-RateLimit-Limit": String(config.limit),
      "X-RateLimit-Remaining": String(config.limit - window.used),
      "X-RateLimit-Reset": String(Math.ceil(resetMs / 1000)),
    };
    return exceeded ? { headers, exceededWaitSeconds: Math.max(1, Math.ceil((resetMs - now) / 1000)) } : { headers };
  }
}

export function rateLimitMessage(waitSeconds: number): string {
  return `API rate limit exceeded. Please try again in ${waitSeconds} seconds`;
}

/** `60/60s`, `20/5s`, `100/1m`, `10/500ms`, `1000/1h`: requests per window. */
export function parseRateLimit(text: string): RateLimit {
  const m = /^(\d+)\/(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(text.trim());
  if (!m) throw new Error(`rate limit "${text}" must look like 60/60s (requests/window; units ms, s, m, h)`);
  const unitMs = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[3] as "ms" | "s" | "m" | "h"];
  return validateRateLimit({ limit: Number(m[1]), windowMs: Number(m[2]) * unitMs });
}

/** A rate limit from a JSON body or an option (400 naming the field otherwise). */
export function validateRateLimit(value: unknown): RateLimit {
  if (!isPlainObject(value)) throw new BadRequestError("rateLimit: must be an object {limit, windowMs}");
  for (const k of Object.keys(value)) {
    if (k !== "limit" && k !== "windowMs") throw new BadRequestError(`${k}: unknown field (allowed: limit, windowMs)`);
  }
  const { limit, windowMs } = value;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1) {
    throw new BadRequestError("limit: must be a positive integer");
  }
  if (typeof windowMs !== "number" || !Number.isInteger(windowMs) || windowMs < 1 || windowMs > 86_400_000) {
    throw new BadRequestError("windowMs: must be an integer number of milliseconds in 1..86400000");
  }
  return { limit, windowMs };
}
