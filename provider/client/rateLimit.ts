import { createHash } from "node:crypto";

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
    if (reading.resetAt !== undefined && this.resetAt !== undefined && reading.resetAt < this.resetAt) return;
    const sameWindow = reading.resetAt === undefined || reading.resetAt === this.resetAt;
    // Answers arrive out of order: within one window the lowest count is the latest truth.
    this.remaining =
      sameWindow && this.remaining !== undefined ? Math.min(this.remaining, reading.remaining) : reading.remaining;
    if (reading.resetAt !== undefined) this.resetAt = reading.resetAt;
  }
}

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
