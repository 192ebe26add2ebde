import { describe, expect, it } from "vitest";
import { HaltedError, HttpClient, haltableSleep, onWire, requestsOnTheWire, wireSettled } from "../../provider/client";
import { failureOf, json, type Stub, uniqueToken, useStubs } from "./stub";

/**
 * A halted client (its engine gone, provider/framework/engineWatch.ts) sends nothing more, and its rate-limit holds,
 * 429 waits and retry backoffs end at once; a request already on the wire finishes. Real time, real sockets: each
 * test's client has its own halt signal, since the process-wide one cannot be taken back.
 */
const { closeLater, stubbed } = useStubs();

function haltableClient(stub: Stub, options: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}) {
  const halt = new AbortController();
  const http = new HttpClient({ baseUrl: stub.url, token: uniqueToken(), halt: halt.signal, ...options });
  closeLater(() => http.close());
  return { http, halt };
}

const spentUntil = (resetAt: number) => ({
  "x-ratelimit-limit": "3",
  "x-ratelimit-remaining": "0",
  "x-ratelimit-reset": String(Math.ceil(resetAt / 1000)),
});

describe("a halted client", () => {
  it("ends a hold for the spent rate limit at once, and the held create never reaches the API", async () => {
    const stub = await stubbed((_req, res, n) => json(res, 200, { n }, spentUntil(Date.now() + 60_000)));
    const { http, halt } = haltableClient(stub);
    await http.get("/things/1");
    const started = Date.now();
    const held = failureOf<HaltedError>(http.post("/collections", { title: "held" }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stub.requests).toHaveLength(1);
    halt.abort("the Pulumi engine at 127.0.0.1:1 is gone");
    const error = await held;
    expect(error).toBeInstanceOf(HaltedError);
    expect(error.message).toBe("POST /v1/collections not sent: the Pulumi engine at 127.0.0.1:1 is gone");
    expect(Date.now() - started).toBeLessThan(2_000);
    // Nothing left afterwards either: the wait is over, not postponed.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stub.requests).toHaveLength(1);
  });

  it("ends a 429's wait and a retry's backoff without sending the request again", async () => {
    const stub = await stubbed((req, res) =>
      req.url.includes("limited")
        ? json(res, 429, { error: { code: 429, message: "API rate limit exceeded. Please try again in 30 seconds" } })
        : json(res, 503, { error: { code: 503, message: "down" } }, { "retry-after": "30" }),
    );
    const { http, halt } = haltableClient(stub, { retry: { maxRetryAfterMs: 30_000 } });
    const limited = failureOf<HaltedError>(http.get("/limited"));
    const retried = failureOf<HaltedError>(http.get("/retried"));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stub.requests.map((r) => r.url)).toEqual(expect.arrayContaining(["/v1/limited", "/v1/retried"]));
    halt.abort("gone");
    expect(await limited).toBeInstanceOf(HaltedError);
    expect(await retried).toBeInstanceOf(HaltedError);
    expect(stub.requests).toHaveLength(2);
  });

  it("refuses a new request before anything is sent", async () => {
    const stub = await stubbed((_req, res) => json(res, 200, {}));
    const { http, halt } = haltableClient(stub);
    halt.abort("gone");
    expect(await failureOf(http.delete("/things/1"))).toBeInstanceOf(HaltedError);
    expect(stub.requests).toHaveLength(0);
  });

  it("lets a request already on the wire finish, and counts it until then", async () => {
    const stub = await stubbed((_req, res) => {
      setTimeout(() => json(res, 201, { id: "made" }), 500);
    });
    const { http, halt } = haltableClient(stub);
    const created = http.post<{ id: string }>("/collections", { title: "on the wire" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(requestsOnTheWire()).toBe(1);
    halt.abort("gone");
    expect(await wireSettled(5_000)).toBe(0);
    expect(await created).toEqual({ id: "made" });
    expect(requestsOnTheWire()).toBe(0);
  });
});

describe("the wire's count", () => {
  it("gives up waiting after the grace, saying how many are left", async () => {
    let finish: () => void = () => undefined;
    const pending = onWire(() => new Promise<void>((resolve) => (finish = resolve)));
    const started = Date.now();
    expect(await wireSettled(200)).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    finish();
    await pending;
    expect(await wireSettled(200)).toBe(0);
  });

  it("a haltable sleep resolves normally while nothing halts", async () => {
    const signal = new AbortController().signal;
    const slept: number[] = [];
    await haltableSleep(async (ms) => void slept.push(ms), 42, signal, { method: "GET", path: "/x" });
    expect(slept).toEqual([42]);
  });
});
