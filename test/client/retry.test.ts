import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import {
  ConnectionError,
  HttpClient,
  type HttpMethod,
  RateLimitedError,
  ServerError,
  TimeoutError,
} from "../../provider/client";
import { apiError, fakeClockClient, json, type Stub, type StubHandler, startStub, useStubs } from "./stub";

/**
 * Which failures are retried, for which requests, how often and after how long. Every fault hits the first two
 * requests and then the server answers, so a retried call succeeds on its third request and a call that must not be
 * repeated fails on its first. Delays are recorded through the sleep seam and bounded on both sides.
 */
const { closeLater } = useStubs();

interface Call {
  name: string;
  method: HttpMethod;
  /** Whether repeating it cannot make a second object. */
  idempotent: boolean;
  /** What the caller says; otherwise the method decides. */
  option?: { idempotent: boolean };
}
const calls: Call[] = [
  { name: "PUT", method: "PUT", idempotent: true },
  { name: "PATCH", method: "PATCH", idempotent: true },
  { name: "DELETE", method: "DELETE", idempotent: true },
  { name: "POST", method: "POST", idempotent: false },
  { name: "non-idempotent PUT", method: "PUT", idempotent: false, option: { idempotent: false } },
  { name: "state-setting POST (publish, move)", method: "POST", idempotent: true, option: { idempotent: true } },
];

const TIMEOUT_MS = 400;
/** Backoff before the 2nd and 3rd attempt with the default base of 200 ms: half to all of 200 ms, then of 400 ms. */
const BACKOFF = [
  [100, 200],
  [200, 400],
];

interface Fault {
  name: string;
  /** Retried whatever the method: the API cannot have acted. */
  neverActed: boolean;
  errorClass: typeof ConnectionError | typeof ServerError | typeof RateLimitedError;
  /** Each delay's [lower, upper] bound. */
  delays: number[][];
  /** A server whose first two answers are this fault; for `refused`, one that starts listening only later. */
  serve: () => Promise<{ url: string; served: () => number; onWait: (n: number) => Promise<void> }>;
}

async function faultyStub(fault: StubHandler): Promise<Stub> {
  const stub = await startStub((req, res, n) => (n <= 2 ? fault(req, res, n) : json(res, 200, { ok: true })));
  closeLater(() => stub.close());
  return stub;
}
const served = (stub: Stub) => ({ url: stub.url, served: () => stub.requests.length, onWait: async () => {} });

const faults: Fault[] = [
  {
    name: "503",
    neverActed: false,
    errorClass: ServerError,
    delays: BACKOFF,
    serve: async () => served(await faultyStub((_req, res) => apiError(res, 503, "busy"))),
  },
  {
    name: "429 (the documented body, no Retry-After)",
    neverActed: true,
    errorClass: RateLimitedError,
    delays: [
      [1000, 1200],
      [1000, 1200],
    ],
    serve: async () =>
      served(
        await faultyStub((_req, res) => apiError(res, 429, "API rate limit exceeded. Please try again in 1 seconds")),
      ),
  },
  {
    name: "connection refused",
    neverActed: true,
    errorClass: ConnectionError,
    delays: BACKOFF,
    serve: async () => {
      // A port nobody listens on until the second wait: two refusals, then a server.
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
      const port = (probe.address() as AddressInfo).port;
      await new Promise<void>((resolve) => probe.close(() => resolve()));
      let stub: Stub | undefined;
      return {
        url: `http://127.0.0.1:${port}/v1`,
        served: () => stub?.requests.length ?? 0,
        onWait: async (n) => {
          if (n !== 2) return;
          stub = await startStub((_req, res) => json(res, 200, { ok: true }), port);
          closeLater(() => stub?.close() ?? Promise.resolve());
        },
      };
    },
  },
  {
    name: "connection reset after the request was sent",
    neverActed: false,
    errorClass: ConnectionError,
    delays: BACKOFF,
    serve: async () => served(await faultyStub((_req, res) => void res.socket?.destroy())),
  },
  {
    name: "timeout",
    neverActed: false,
    errorClass: TimeoutError,
    delays: BACKOFF,
    // Never answered; the stub's close destroys the socket.
    serve: async () => served(await faultyStub(() => {})),
  },
];

const matrix = calls.flatMap((call) => faults.map((fault) => ({ call, fault })));

describe("retry matrix", () => {
  it.each(matrix)("$call.name × $fault.name", async ({ call, fault }) => {
    const server = await fault.serve();
    const waits: number[] = [];
    const http = new HttpClient({
      baseUrl: server.url,
      token: "test-token",
      timeoutMs: TIMEOUT_MS,
      retry: { maxAttempts: 5 },
      sleep: async (ms) => {
        waits.push(ms);
        await server.onWait(waits.length);
      },
    });
    closeLater(() => http.close());
    const outcome = http
      .request(call.method, "/things/t1", {
        body: call.method === "DELETE" ? undefined : { a: 1 },
        ...call.option,
      })
      .then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
    const result = await outcome;
    if (call.idempotent || fault.neverActed) {
      expect(result).toEqual({ value: { ok: true } });
      expect(waits).toHaveLength(2);
      // The refused attempts never reached a server; every other attempt did.
      expect(server.served()).toBe(fault.name === "connection refused" ? 1 : 3);
      waits.forEach((wait, i) => {
        const [lower, upper] = fault.delays[i] ?? [];
        expect(wait).toBeGreaterThanOrEqual(lower ?? Number.NaN);
        expect(wait).toBeLessThanOrEqual(upper ?? Number.NaN);
      });
    } else {
      expect("error" in result && result.error).toBeInstanceOf(fault.errorClass);
      expect(waits).toEqual([]);
      expect(server.served()).toBe(1);
    }
  });
});

describe("attempt budget", () => {
  it("spends exactly maxAttempts on a timeout, and says so", async () => {
    const stub = await startStub(() => {});
    closeLater(() => stub.close());
    const { http, waits } = fakeClockClient(stub.url, { timeoutMs: TIMEOUT_MS, retry: { maxAttempts: 3 } });
    closeLater(() => http.close());
    const error: Error = await http.get("/things/t1").then(
      () => new Error("expected a timeout"),
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toBe(
      `GET /v1/things/t1 failed: no answer from ${stub.host} within ${TIMEOUT_MS} ms (after 3 attempts)`,
    );
    expect(stub.requests).toHaveLength(3);
    expect(waits).toHaveLength(2);
  });

  it("times out a slow first answer and succeeds on the second attempt", async () => {
    const stub = await startStub((_req, res, n) => (n === 1 ? undefined : json(res, 200, { ok: 2 })));
    closeLater(() => stub.close());
    const { http, waits } = fakeClockClient(stub.url, { timeoutMs: TIMEOUT_MS });
    closeLater(() => http.close());
    expect(await http.get("/things/t1")).toEqual({ ok: 2 });
    expect(stub.requests).toHaveLength(2);
    expect(waits).toHaveLength(1);
  });

  it("caps a 503's Retry-After and spends an attempt on it", async () => {
    const stub = await startStub((_req, res, n) =>
      n === 1 ? apiError(res, 503, "maintenance", { "retry-after": "3600" }) : json(res, 200, {}),
    );
    closeLater(() => stub.close());
    const { http, waits } = fakeClockClient(stub.url, { retry: { maxAttempts: 2, maxRetryAfterMs: 5000 } });
    closeLater(() => http.close());
    await http.get("/things/t1");
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(5000);
    expect(waits[0]).toBeLessThanOrEqual(5200);
  });

  it("never retries a 4xx other than 429", async () => {
    for (const status of [400, 401, 403, 404, 409, 412, 422]) {
      const stub = await startStub((_req, res) => apiError(res, status, "no"));
      closeLater(() => stub.close());
      const { http, waits } = fakeClockClient(stub.url);
      closeLater(() => http.close());
      await expect(http.put("/things/t1", {})).rejects.toThrow(`failed with ${status}`);
      expect(stub.requests).toHaveLength(1);
      expect(waits).toEqual([]);
    }
  });
});
