/**
 * The conditions of the real service that the emulator reproduces on demand: its rate limiter (X-RateLimit-* headers,
 * the documented 429) and lost answers (the API acted, the client never heard back or heard too late).
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseRateLimit } from "../../emulator";
import { useEmulator } from "../support/emulator";

const h = useEmulator({ provider: false });

afterEach(() => {
  h.emulator.setRateLimit(undefined);
});

const collectionsPath = () => `/orgs/${h.org()}/collections`;

async function admin(method: string, path: string, body?: unknown) {
  return h.call(method, `${h.emulator.origin}/__admin${path}`, body, { noAuth: true });
}

/** The documented 429 body, whatever number of seconds it names. */
const RATE_LIMITED =
  /^\{"error":\{"code":429,"message":"API rate limit exceeded\. Please try again in (\d+) seconds"\}\}$/;

describe("rate limiter", () => {
  it("counts down X-RateLimit-Remaining on every /v1 answer, then answers the documented 429 without acting", async () => {
    h.emulator.setRateLimit({ limit: 3, windowMs: 60_000 });
    const before = Math.floor(Date.now() / 1000);
    const answers = [
      await h.call("GET", "/orgs"),
      await h.call("GET", "/orgs/no-such-org"),
      await h.call("POST", collectionsPath(), { colour: "red" }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 404, 400]);
    expect(answers.map((a) => a.headers.get("x-ratelimit-remaining"))).toEqual(["2", "1", "0"]);
    for (const a of answers) expect(a.headers.get("x-ratelimit-limit")).toBe("3");
    const reset = Number(answers[0]?.headers.get("x-ratelimit-reset"));
    expect(Number.isInteger(reset)).toBe(true);
    expect(reset).toBeGreaterThanOrEqual(before + 60);
    expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);

    const limited = await h.call("POST", collectionsPath(), { title: "Not created" });
    expect(limited.status).toBe(429);
    expect(limited.text).toMatch(RATE_LIMITED);
    // The wait until the reset, rounded up: at most the window, at least what is left of it now.
    const wait = Number(RATE_LIMITED.exec(limited.text)?.[1]);
    expect(wait).toBeLessThanOrEqual(60);
    expect(wait).toBeGreaterThanOrEqual(reset - Math.ceil(Date.now() / 1000));
    expect(limited.headers.get("retry-after")).toBeNull();
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(limited.headers.get("x-ratelimit-reset")).toBe(String(reset));
    expect(h.emulator.store.collections.size).toBe(0);

    const entry = h.emulator.requests().at(-1);
    expect(entry).toMatchObject({ method: "POST", status: 429, rateLimited: true });
    // Counted like any request: the rejected POST (400) and the rate-limited one.
    expect(h.emulator.counters()[`POST /v1/orgs/{organizationId}/collections`]).toBe(2);
  });

  it("names the wait until the reset, rounded up, and lets requests through again once the window ended", async () => {
    h.emulator.setRateLimit({ limit: 1, windowMs: 2_500 });
    expect((await h.call("GET", "/orgs")).status).toBe(200);
    const limited = await h.call("GET", "/orgs");
    expect(limited.status).toBe(429);
    // 2.5 s rounded up, unless half a second passed between the two requests.
    expect(RATE_LIMITED.exec(limited.text)?.[1]).toMatch(/^[23]$/);

    h.emulator.setRateLimit({ limit: 1, windowMs: 200 });
    expect((await h.call("GET", "/orgs")).status).toBe(200);
    expect((await h.call("GET", "/orgs")).status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 250));
    const again = await h.call("GET", "/orgs");
    expect(again.status).toBe(200);
    expect(again.headers.get("x-ratelimit-remaining")).toBe("0");
  });

  it("keeps one window per token", async () => {
    h.emulator.setRateLimit({ limit: 1, windowMs: 60_000 });
    expect((await h.call("GET", "/orgs")).status).toBe(200);
    expect((await h.call("GET", "/orgs")).status).toBe(429);
    const other = { noAuth: true, headers: { authorization: "Bearer another-token" } };
    const first = await h.call("GET", "/orgs", undefined, other);
    expect(first.status).toBe(401);
    expect(first.headers.get("x-ratelimit-remaining")).toBe("0");
    expect((await h.call("GET", "/orgs", undefined, other)).status).toBe(429);
    // No token at all is one more key of its own.
    expect((await h.call("GET", "/orgs", undefined, { noAuth: true })).status).toBe(401);
  });

  it("is turned on, read and off through the admin API; answers carry no X-RateLimit-* headers while off", async () => {
    expect((await admin("GET", "/rate-limit")).body).toBeNull();
    expect((await h.call("GET", "/orgs")).headers.get("x-ratelimit-limit")).toBeNull();
    const set = await admin("PUT", "/rate-limit", { limit: 5, windowMs: 10_000 });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ limit: 5, windowMs: 10_000 });
    expect((await admin("GET", "/rate-limit")).body).toEqual({ limit: 5, windowMs: 10_000 });
    expect(h.emulator.rateLimit()).toEqual({ limit: 5, windowMs: 10_000 });
    expect((await h.call("GET", "/orgs")).headers.get("x-ratelimit-remaining")).toBe("4");
    // Admin requests are outside the limit.
    expect((await admin("GET", "/counters")).headers.get("x-ratelimit-limit")).toBeNull();
    expect((await admin("PUT", "/rate-limit", { limit: 0, windowMs: 1000 })).body.error.message).toMatch(/^limit:/);
    expect((await admin("PUT", "/rate-limit", { limit: 1, window: 1000 })).status).toBe(400);
    expect((await admin("DELETE", "/rate-limit")).status).toBe(204);
    expect(h.emulator.rateLimit()).toBeUndefined();
    expect((await h.call("GET", "/orgs")).headers.get("x-ratelimit-limit")).toBeNull();
  });

  it("reset starts the windows afresh and keeps the configuration", async () => {
    h.emulator.setRateLimit({ limit: 1, windowMs: 60_000 });
    await h.call("GET", "/orgs");
    expect((await h.call("GET", "/orgs")).status).toBe(429);
    h.emulator.reset();
    const after = await h.call("GET", "/orgs");
    expect(after.status).toBe(200);
    expect(after.headers.get("x-ratelimit-limit")).toBe("1");
  });

  it("parses the bin's R/W notation", () => {
    expect(parseRateLimit("60/60s")).toEqual({ limit: 60, windowMs: 60_000 });
    expect(parseRateLimit("20/5s")).toEqual({ limit: 20, windowMs: 5_000 });
    expect(parseRateLimit("100/1m")).toEqual({ limit: 100, windowMs: 60_000 });
    expect(parseRateLimit("10/250ms")).toEqual({ limit: 10, windowMs: 250 });
    for (const bad of ["60", "60/60", "0/1s", "a/1s", "60/60 s", "60/-1s"]) {
      expect(() => parseRateLimit(bad), bad).toThrow();
    }
  });
});

describe("lost answers", () => {
  it("afterHandling: drop — the API creates the object, the client gets no answer", async () => {
    const fault = h.emulator.injectFault({ method: "POST", path: "/collections$", afterHandling: "drop" });
    expect(fault).toMatchObject({ afterHandling: "drop", count: 1, remaining: 1 });
    await expect(h.call("POST", collectionsPath(), { title: "Made in the dark" })).rejects.toThrow();
    expect([...h.emulator.store.collections.values()].map((c) => c.title)).toEqual(["Made in the dark"]);
    const entry = h.emulator.requests().at(-1);
    expect(entry).toMatchObject({
      method: "POST",
      status: "dropped",
      handledStatus: 201,
      fault: { id: fault.id, afterHandling: "drop" },
    });
    // The fault was used up: the next request is answered.
    expect((await h.call("POST", collectionsPath(), { title: "Second" })).status).toBe(201);
    expect(h.emulator.store.collections.size).toBe(2);
  });

  it("delayResponseMs — the API acts at once and answers late; a client timeout fires after the object exists", async () => {
    h.emulator.injectFault({ method: "POST", path: "/collections$", delayResponseMs: 500 });
    const sent = fetch(`${h.emulator.url}${collectionsPath()}`, {
      method: "POST",
      headers: { authorization: `Bearer ${h.emulator.token}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "Timed out" }),
      signal: AbortSignal.timeout(150),
    });
    await expect(sent).rejects.toThrow(/timeout|aborted/i);
    // The answer is still held back, yet the store already holds the object.
    expect([...h.emulator.store.collections.values()].map((c) => c.title)).toEqual(["Timed out"]);
    expect(h.emulator.requests().at(-1)?.status).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(h.emulator.requests().at(-1)).toMatchObject({
      status: 201,
      clientClosed: true,
      fault: { delayResponseMs: 500 },
    });
  });

  it("delayResponseMs — a patient client gets the answer after the delay", async () => {
    await admin("POST", "/faults", { method: "GET", path: "^/v1/orgs$", delayResponseMs: 300 });
    const started = Date.now();
    const answer = await h.call("GET", "/orgs");
    expect(answer.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(h.emulator.requests().at(-1)).toMatchObject({ status: 200, fault: { delayResponseMs: 300 } });
    expect(h.emulator.requests().at(-1)?.clientClosed).toBeUndefined();
  });

  it("delays then drops when both are given, and rejects combinations that cannot apply", async () => {
    const added = await admin("POST", "/faults", {
      method: "POST",
      path: "/collections$",
      delayResponseMs: 100,
      afterHandling: "drop",
    });
    expect(added.status).toBe(201);
    await expect(h.call("POST", collectionsPath(), { title: "Late and lost" })).rejects.toThrow();
    expect(h.emulator.store.collections.size).toBe(1);
    expect(h.emulator.requests().at(-1)).toMatchObject({ status: "dropped", handledStatus: 201 });
    expect(h.emulator.requests().at(-1)?.durationMs).toBeGreaterThanOrEqual(90);

    expect((await admin("POST", "/faults", { afterHandling: "close" })).body.error.message).toMatch(/^afterHandling:/);
    expect((await admin("POST", "/faults", { afterHandling: "drop", status: 500 })).status).toBe(400);
    expect((await admin("POST", "/faults", { delayResponseMs: 100, drop: true })).status).toBe(400);
    expect((await admin("POST", "/faults", { delayResponseMs: -1 })).body.error.message).toMatch(/^delayResponseMs:/);
    expect(() => h.emulator.injectFault({ afterHandling: "drop", status: 503 })).toThrow(/exclude status and drop/);
    expect((await admin("GET", "/faults")).body).toEqual([]);
  });
});
