import { describe, expect, it } from "vitest";
import { DocsApiError, RateLimitedError } from "../../provider/client";
import {
  type GateOptions,
  RateLimiter,
  RateLimitGate,
  readRateLimitHeaders,
  sharedRateLimiter,
  type WaitEvent,
  waitNamedIn,
} from "../../provider/client/rateLimit";

/** The limiter's bookkeeping and the gate's waits, driven by hand: readings in any order, a clock that moves on sleep. */
const T = Date.parse("2026-11-23T12:00:00Z");

describe("RateLimiter", () => {
  it("spends what the window has left, holds until its reset, then starts a fresh budget of the limit", () => {
    const limiter = new RateLimiter();
    limiter.observe({ limit: 10, remaining: 2, resetAt: T + 60_000 });
    expect([limiter.reserve(T), limiter.reserve(T)]).toEqual([0, 0]);
    expect(limiter.reading).toEqual({ limit: 10, remaining: 0, resetAt: T + 60_000 });
    expect(limiter.reserve(T + 15_000)).toBe(45_000);
    expect(limiter.reserve(T + 60_000)).toBe(0);
    expect(limiter.reading).toEqual({ limit: 10, remaining: 9, resetAt: undefined });
  });

  it("lets everything go while it knows no budget", () => {
    const limiter = new RateLimiter();
    expect(limiter.reserve(T)).toBe(0);
    limiter.observe({ limit: 10 });
    expect([limiter.reserve(T), limiter.reserve(T)]).toEqual([0, 0]);
    expect(limiter.reading).toEqual({ limit: 10, remaining: undefined, resetAt: undefined });
    limiter.observe({ remaining: 0 });
    expect(limiter.reserve(T)).toBe(0);
  });

  it("takes the lowest count of one window, a later window's count as it is, and ignores an earlier window's", () => {
    const limiter = new RateLimiter();
    limiter.observe({ limit: 10, remaining: 5, resetAt: T + 60_000 });
    limiter.observe({ remaining: 7, resetAt: T + 60_000 });
    expect(limiter.reading.remaining).toBe(5);
    limiter.observe({ remaining: 3, resetAt: T + 60_000 });
    expect(limiter.reading.remaining).toBe(3);
    limiter.observe({ remaining: 4 });
    expect(limiter.reading.remaining).toBe(3);
    limiter.observe({ remaining: 2 });
    expect(limiter.reading.remaining).toBe(2);
    limiter.observe({ limit: 20 });
    expect(limiter.reading).toEqual({ limit: 20, remaining: 2, resetAt: T + 60_000 });
    limiter.observe({ remaining: 0, resetAt: T });
    expect(limiter.reading).toEqual({ limit: 20, remaining: 2, resetAt: T + 60_000 });
    limiter.observe({ remaining: 9, resetAt: T + 120_000 });
    expect(limiter.reading).toEqual({ limit: 20, remaining: 9, resetAt: T + 120_000 });
  });

  it("after a reset, the new window's first answers lower the fresh budget by what they counted, never raise it", () => {
    const limiter = new RateLimiter();
    limiter.observe({ limit: 10, remaining: 0, resetAt: T + 1000 });
    // The window ends; a burst of 8 goes at once, from a fresh budget of 10.
    for (let sent = 0; sent < 8; sent++) expect(limiter.reserve(T + 1000)).toBe(0);
    expect(limiter.reading).toEqual({ limit: 10, remaining: 2, resetAt: undefined });
    // The burst's first answer: the API had counted it alone (9 left); 7 more are on their way.
    limiter.observe({ remaining: 9, resetAt: T + 3000 });
    expect(limiter.reading).toEqual({ limit: 10, remaining: 2, resetAt: T + 3000 });
    // Requests of the old window the API counted in the new one (they reached it late) lower it further.
    limiter.observe({ remaining: 1, resetAt: T + 3000 });
    expect(limiter.reading.remaining).toBe(1);
    expect([limiter.reserve(T + 1500), limiter.reserve(T + 1500)]).toEqual([0, 1500]);
  });

  it("after a reset, ignores a late answer of the window that ended, and of any before it", () => {
    const limiter = new RateLimiter();
    limiter.observe({ limit: 10, remaining: 0, resetAt: T + 1000 });
    expect(limiter.reserve(T + 1000)).toBe(0);
    limiter.observe({ remaining: 0, resetAt: T + 1000 });
    limiter.observe({ remaining: 0, resetAt: T });
    expect(limiter.reading).toEqual({ limit: 10, remaining: 9, resetAt: undefined });
    expect(limiter.reserve(T + 1000)).toBe(0);
    limiter.observe({ remaining: 8, resetAt: T + 2000 });
    expect(limiter.reading).toEqual({ limit: 10, remaining: 8, resetAt: T + 2000 });
    // Once the window is known, a later window's count is taken as it is again.
    limiter.observe({ remaining: 9, resetAt: T + 4000 });
    expect(limiter.reading).toEqual({ limit: 10, remaining: 9, resetAt: T + 4000 });
  });

  it("starts from the first reading's count when it had none", () => {
    const limiter = new RateLimiter();
    limiter.observe({ remaining: 6 });
    expect(limiter.reading).toEqual({ limit: undefined, remaining: 6, resetAt: undefined });
    limiter.observe({ remaining: 8, resetAt: T + 1000 });
    expect(limiter.reading).toEqual({ limit: undefined, remaining: 8, resetAt: T + 1000 });
  });

  it("is one per API and token", () => {
    const a = sharedRateLimiter(new URL("https://api.example.test/v1"), "token-a");
    expect(sharedRateLimiter(new URL("https://api.example.test/v1"), "token-a")).toBe(a);
    expect(sharedRateLimiter(new URL("https://api.example.test/v1"), "token-b")).not.toBe(a);
    expect(sharedRateLimiter(new URL("https://api.example.test/v2"), "token-a")).not.toBe(a);
    expect(sharedRateLimiter(new URL("https://other.example.test/v1"), "token-a")).not.toBe(a);
  });
});

describe("reading the headers and the message", () => {
  it("reads whole numbers with spaces around, the first of repeated headers, and nothing else", () => {
    expect(
      readRateLimitHeaders({
        "x-ratelimit-limit": " 60 ",
        "x-ratelimit-remaining": ["7", "9"],
        "x-ratelimit-reset": "100",
      }),
    ).toEqual({ limit: 60, remaining: 7, resetAt: 100_000 });
    for (const junk of ["12abc", "abc12", "1.5", "-3", "", "1 2"]) {
      expect(readRateLimitHeaders({ "x-ratelimit-limit": junk }).limit, junk).toBeUndefined();
    }
    expect(readRateLimitHeaders({})).toEqual({ limit: undefined, remaining: undefined, resetAt: undefined });
  });

  it.each([
    ["API rate limit exceeded. Please try again in 60 seconds", 60_000],
    ["try again in 1 second", 1000],
    ["try again in 1.5 seconds", 1500],
    ["try again in 2.25s", 2250],
    ["Try again in 30s.", 30_000],
    ["try again in 2 minutes", 120_000],
    ["try again in 1 minute", 60_000],
    ["try again in 3 min", 180_000],
    ["try again in 5 secs", undefined],
    ["try again in 1.x seconds", undefined],
    ["try again later", undefined],
  ])("%s", (message, wait) => {
    expect(waitNamedIn(message)).toBe(wait);
  });
});

describe("RateLimitGate", () => {
  function gate(options: Partial<GateOptions> = {}, limiter = new RateLimiter()) {
    const clock = { now: T };
    const slept: number[] = [];
    const events: WaitEvent[] = [];
    const made = new RateLimitGate(limiter, {
      maxWaitMs: 60_000,
      maxWaits: 3,
      fallbackMs: 1000,
      onWait: (event) => events.push(event),
      sleep: async (ms) => {
        slept.push(ms);
        clock.now += ms;
      },
      now: () => clock.now,
      jitter: () => 0,
      ...options,
    });
    return { gate: made, slept, events, clock, limiter };
  }
  const tooMany = (apiMessage?: string, retryAfterMs?: number) =>
    new DocsApiError({ method: "GET", path: "/v1/orgs", attempts: 1, status: 429, apiMessage, retryAfterMs });
  const where = { method: "GET", path: "/v1/orgs", attempts: 1 };

  it("holds a request until the reset, and lets it go after maxWaits holds for the API to decide", async () => {
    const spent = new RateLimiter();
    spent.observe({ limit: 5, remaining: 0, resetAt: T + 2000 });
    const { gate: held, slept } = gate({}, spent);
    await held.beforeSending(where);
    expect(slept).toEqual([2000]);

    const never = new RateLimiter();
    never.observe({ limit: 5, remaining: 0, resetAt: T + 2000 });
    // A window that never resets by this clock: every hold is the same 2 s.
    const stuckSlept: number[] = [];
    const stuck = gate({ maxWaits: 2, sleep: async (ms) => void stuckSlept.push(ms), now: () => T }, never);
    await stuck.gate.beforeSending(where);
    expect(stuckSlept).toEqual([2000, 2000]);
  });

  it("after a 429 waits Retry-After, else until the reset, else the message's wait, else the fallback", async () => {
    const withRetryAfter = gate();
    await withRetryAfter.gate.afterTooManyRequests(tooMany("try again in 60 seconds", 3000));
    expect(withRetryAfter.slept).toEqual([3000]);

    const limiter = new RateLimiter();
    limiter.observe({ limit: 5, remaining: 0, resetAt: T + 4000 });
    const untilReset = gate({}, limiter);
    await untilReset.gate.afterTooManyRequests(tooMany("try again in 60 seconds"));
    expect(untilReset.slept).toEqual([4000]);

    const resetNow = new RateLimiter();
    resetNow.observe({ limit: 5, remaining: 0, resetAt: T });
    const byMessage = gate({}, resetNow);
    await byMessage.gate.afterTooManyRequests(tooMany("try again in 6 seconds"));
    expect(byMessage.slept).toEqual([6000]);

    const fallback = gate();
    await fallback.gate.afterTooManyRequests(tooMany());
    expect(fallback.slept).toEqual([1000]);
  });

  it("throws the 429 itself after maxWaits waits", async () => {
    const { gate: limited, slept } = gate({ maxWaits: 2 });
    await limited.afterTooManyRequests(tooMany());
    await limited.afterTooManyRequests(tooMany());
    const third = tooMany("third");
    await expect(limited.afterTooManyRequests(third)).rejects.toBe(third);
    expect(slept).toEqual([1000, 1000]);
  });

  it("counts holds apart from 429s: a request held while other processes spent the windows still waits its 429s", async () => {
    const spentByOthers = new RateLimiter();
    spentByOthers.observe({ limit: 5, remaining: 0, resetAt: T + 2000 });
    const clock = { now: T };
    const { gate: held, slept } = gate(
      {
        maxWaits: 2,
        now: () => clock.now,
        sleep: async (ms) => {
          slept.push(ms);
          // Each reset opens a window that the other processes spend before this one's request goes.
          clock.now += ms;
          spentByOthers.observe({ limit: 5, remaining: 0, resetAt: clock.now + 2000 });
        },
      },
      spentByOthers,
    );
    await held.beforeSending(where);
    await held.afterTooManyRequests(tooMany());
    await held.afterTooManyRequests(tooMany());
    expect(slept).toHaveLength(4);
    const third = tooMany("third");
    await expect(held.afterTooManyRequests(third)).rejects.toBe(third);
  });

  it("waits exactly the ceiling, reports waits from 5 s on, and needs no listener", async () => {
    const { gate: atCeiling, slept, events } = gate({ maxWaitMs: 60_000 });
    await atCeiling.afterTooManyRequests(tooMany(undefined, 60_000));
    await atCeiling.afterTooManyRequests(tooMany(undefined, 5000));
    await atCeiling.afterTooManyRequests(tooMany(undefined, 4999));
    expect(slept).toEqual([60_000, 5000, 4999]);
    expect(events.map((e) => [e.waitMs, e.reason, e.method, e.path])).toEqual([
      [60_000, "too-many-requests", "GET", "/v1/orgs"],
      [5000, "too-many-requests", "GET", "/v1/orgs"],
    ]);
    const quiet = gate({ onWait: undefined });
    await quiet.gate.afterTooManyRequests(tooMany(undefined, 10_000));
    expect(quiet.slept).toEqual([10_000]);
  });

  it("fails beyond the ceiling, with or without a known limit", async () => {
    const { gate: unknownLimit, slept } = gate({ maxWaitMs: 1000 });
    const failure = await unknownLimit.afterTooManyRequests(tooMany("busy", 2000)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RateLimitedError);
    expect((failure as Error).message).toContain(
      "the rate limit resets at 2026-11-23T12:00:02.000Z, in 2 s: longer than DOCS_API_MAX_WAIT_SECONDS (1 s) allows waiting.",
    );
    expect((failure as RateLimitedError).status).toBe(429);
    expect(slept).toEqual([]);

    const known = new RateLimiter();
    known.observe({ limit: 30, remaining: 0, resetAt: T + 90_000 });
    const held = gate({ maxWaitMs: 60_000 }, known);
    const heldFailure = await held.gate.beforeSending(where).catch((error: unknown) => error);
    expect((heldFailure as Error).message).toContain(
      "the rate limit of 30 requests resets at 2026-11-23T12:01:30.000Z, in 90 s",
    );
    expect((heldFailure as RateLimitedError).status).toBeUndefined();
  });
});
