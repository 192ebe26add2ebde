import { describe, expect, it } from "vitest";
import {
  RateLimitedError,
  RateLimiter,
  readRateLimitHeaders,
  type WaitEvent,
  waitNamedIn,
} from "../../provider/client";
import { apiError, failureOf, fakeClockClient, json, type Stub, T0, uniqueToken, useStubs } from "./stub";

/**
 * The documented rate limit, on a fake clock: X-RateLimit-* on every answer, a 429 whose body names the wait and no
 * Retry-After. Each test has its own token, since the limiter is shared per API and token by the whole process.
 */
const DOCUMENTED_429 = "API rate limit exceeded. Please try again in 60 seconds";
const seconds = (ms: number) => String(Math.floor(ms / 1000));
const window = (remaining: number, resetAt: number) => ({
  "x-ratelimit-limit": "60",
  "x-ratelimit-remaining": String(remaining),
  "x-ratelimit-reset": seconds(resetAt),
});

const { closeLater, stubbed } = useStubs();

function clientOf(stub: Stub, options: Parameters<typeof fakeClockClient>[1] = {}, clock = { now: T0 }) {
  const events: WaitEvent[] = [];
  /** How many requests the server had seen when each wait was reported. */
  const servedAtWait: number[] = [];
  const onWait = (event: WaitEvent) => {
    events.push(event);
    servedAtWait.push(stub.requests.length);
  };
  const made = fakeClockClient(stub.url, { token: uniqueToken(), onWait, ...options }, clock);
  closeLater(() => made.http.close());
  return { ...made, events, servedAtWait };
}

describe("a spent budget holds requests until the window resets", () => {
  it("Remaining 0 holds the next request until Reset, without sending it", async () => {
    const stub = await stubbed((_req, res, n) => json(res, 200, { n }, window(n === 1 ? 0 : 59, T0 + 90_000)));
    const { http, waits, events, servedAtWait } = clientOf(stub);
    await http.get("/things/1");
    expect(await http.get("/things/2")).toEqual({ n: 2 });
    // Held before it went out: when the wait began, the server had seen only the first request.
    expect(servedAtWait).toEqual([1]);
    expect(stub.requests).toHaveLength(2);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(90_000);
    expect(waits[0]).toBeLessThanOrEqual(90_200);
    expect(events).toEqual([
      {
        method: "GET",
        path: "/v1/things/2",
        waitMs: 90_000,
        reason: "limit-reached",
        resetAt: "2026-11-23T12:01:30.000Z",
        limit: 60,
      },
    ]);
  });

  it("lets as many requests go as the window has left, then holds", () => {
    const limiter = new RateLimiter();
    limiter.observe({ limit: 60, remaining: 2, resetAt: T0 + 10_000 });
    expect([limiter.reserve(T0), limiter.reserve(T0), limiter.reserve(T0 + 4_000)]).toEqual([0, 0, 6_000]);
    // A late answer of the same window cannot raise what is left; one of an older window is ignored.
    limiter.observe({ limit: 60, remaining: 5, resetAt: T0 + 10_000 });
    limiter.observe({ limit: 60, remaining: 9, resetAt: T0 - 50_000 });
    expect(limiter.reserve(T0 + 5_000)).toBe(5_000);
    // Once the window is over, a fresh budget of `limit`.
    expect(limiter.reserve(T0 + 10_000)).toBe(0);
    expect(limiter.reading).toEqual({ limit: 60, remaining: 59, resetAt: undefined });
    // A new window replaces the old count.
    limiter.observe({ limit: 60, remaining: 0, resetAt: T0 + 70_000 });
    expect(limiter.reserve(T0 + 10_001)).toBe(59_999);
  });

  it("is shared by every client of the same API and token, and by no other token", async () => {
    const stub = await stubbed((_req, res) => json(res, 200, {}, window(0, T0 + 30_000)));
    const clock = { now: T0 };
    const token = uniqueToken();
    const first = clientOf(stub, { token }, clock);
    const second = clientOf(stub, { token }, clock);
    const otherToken = clientOf(stub, {}, clock);
    await first.http.get("/things/1");
    await otherToken.http.get("/things/1");
    expect(otherToken.waits).toEqual([]);
    await second.http.get("/things/2");
    expect(second.waits).toHaveLength(1);
    expect(second.waits[0]).toBeGreaterThanOrEqual(30_000);
    expect(second.events.map((e) => [e.reason, e.waitMs])).toEqual([["limit-reached", 30_000]]);
    expect(first.waits).toEqual([]);
  });

  it("fails without sending when the hold is longer than the ceiling", async () => {
    const stub = await stubbed((_req, res) => json(res, 200, {}, window(0, T0 + 300_000)));
    const { http, events } = clientOf(stub);
    await http.get("/things/1");
    const error = await failureOf(http.get("/things/2"));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.message).toBe(
      "GET /v1/things/2 failed: the rate limit of 60 requests resets at 2026-11-23T12:05:00.000Z, in 300 s: longer " +
        "than DOCS_API_MAX_WAIT_SECONDS (120 s) allows waiting. Raise it, or run fewer operations at once (pulumi up --parallel)",
    );
    expect(stub.requests).toHaveLength(1);
    expect(events).toEqual([]);
  });
});

describe("a 429 waits for the window, not the attempt budget", () => {
  it("without Retry-After, waits until X-RateLimit-Reset and spends no attempt", async () => {
    const stub = await stubbed((_req, res, n) =>
      n <= 3 ? apiError(res, 429, DOCUMENTED_429, window(0, T0 + 20_000 * n)) : json(res, 200, { n }),
    );
    const { http, waits, events } = clientOf(stub, { retry: { maxAttempts: 1 } });
    expect(await http.post("/things", { a: 1 })).toEqual({ n: 4 });
    expect(stub.requests).toHaveLength(4);
    expect(waits).toHaveLength(3);
    for (const wait of waits) {
      expect(wait).toBeGreaterThanOrEqual(20_000 - 200);
      expect(wait).toBeLessThanOrEqual(20_200);
    }
    expect(events).toHaveLength(3);
    expect(events[0]).toEqual({
      method: "POST",
      path: "/v1/things",
      waitMs: 20_000,
      reason: "too-many-requests",
      resetAt: "2026-11-23T12:00:20.000Z",
      limit: 60,
    });
  });

  it("with only the message, waits the 60 seconds it names", async () => {
    const stub = await stubbed((_req, res, n) => (n === 1 ? apiError(res, 429, DOCUMENTED_429) : json(res, 200, {})));
    const { http, waits, events } = clientOf(stub, { retry: { maxAttempts: 1 } });
    await http.get("/things/1");
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(60_000);
    expect(waits[0]).toBeLessThanOrEqual(60_200);
    expect(events.map((e) => e.waitMs)).toEqual([60_000]);
  });

  it("trusts the message when the reset is already past by our clock", async () => {
    const stub = await stubbed((_req, res, n) =>
      n === 1 ? apiError(res, 429, DOCUMENTED_429, window(0, T0 - 5_000)) : json(res, 200, {}),
    );
    const { http, waits } = clientOf(stub);
    await http.get("/things/1");
    expect(waits[0]).toBeGreaterThanOrEqual(60_000);
    expect(waits[0]).toBeLessThanOrEqual(60_200);
  });

  it("fails beyond the ceiling, naming the limit, the reset time and the setting", async () => {
    const stub = await stubbed((_req, res) => apiError(res, 429, DOCUMENTED_429, window(0, T0 + 600_000)));
    const { http, waits } = clientOf(stub, { maxWaitSeconds: 300 });
    const error = await failureOf(http.put("/things/1", {}));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.message).toBe(
      `PUT /v1/things/1 failed with 429 Too Many Requests: ${DOCUMENTED_429}; the rate limit of 60 requests resets ` +
        "at 2026-11-23T12:10:00.000Z, in 600 s: longer than DOCS_API_MAX_WAIT_SECONDS (300 s) allows waiting. " +
        "Raise it, or run fewer operations at once (pulumi up --parallel)",
    );
    expect(waits).toEqual([]);
    expect(stub.requests).toHaveLength(1);
  });

  it("gives up after 10 waits of a server that never relents", async () => {
    const stub = await stubbed((_req, res) =>
      apiError(res, 429, "API rate limit exceeded. Please try again in 1 seconds"),
    );
    const { http, waits, events } = clientOf(stub);
    const error = await failureOf(http.get("/things/1"));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.message).toMatch(/failed with 429 Too Many Requests: .* \(after 11 attempts\)$/);
    expect(waits).toHaveLength(10);
    // Short waits are ordinary retries: nothing to report.
    expect(events).toEqual([]);
  });

  it("reports each long wait once, never with the token", async () => {
    const token = uniqueToken();
    const stub = await stubbed((_req, res, n) =>
      n <= 2 ? apiError(res, 429, `${DOCUMENTED_429} (${token})`, window(0, T0 + 10_000 * n)) : json(res, 200, {}),
    );
    const { http, events } = clientOf(stub, { token });
    await http.get("/things/1");
    expect(events.map((e) => e.reason)).toEqual(["too-many-requests", "too-many-requests"]);
    // The second reset is 10 s after the first; the clock moved past the first by the jitter.
    expect(events[0]?.waitMs).toBe(10_000);
    expect(events[1]?.waitMs).toBeGreaterThan(9_800);
    expect(events[1]?.waitMs).toBeLessThanOrEqual(10_000);
    expect(JSON.stringify(events)).not.toContain(token);
  });
});

describe("reading the documented signals", () => {
  it("reads the three headers, in whole numbers only", () => {
    expect(readRateLimitHeaders(window(7, T0 + 30_000))).toEqual({ limit: 60, remaining: 7, resetAt: T0 + 30_000 });
    expect(readRateLimitHeaders({ "x-ratelimit-remaining": "soon", "x-ratelimit-reset": "-1" })).toEqual({
      limit: undefined,
      remaining: undefined,
      resetAt: undefined,
    });
  });

  it("reads the wait the 429 message names", () => {
    expect(waitNamedIn(DOCUMENTED_429)).toBe(60_000);
    expect(waitNamedIn("Please try again in 1 second")).toBe(1_000);
    expect(waitNamedIn("try again in 2 minutes")).toBe(120_000);
    expect(waitNamedIn("API rate limit exceeded")).toBeUndefined();
    expect(waitNamedIn(undefined)).toBeUndefined();
  });
});
