import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import {
  BadRequestError,
  ConnectionError,
  HttpClient,
  listAll,
  NotFoundError,
  parseRetryAfter,
  RateLimitedError,
  ServerError,
  TimeoutError,
  TokenRejectedError,
  UnauthorizedError,
} from "../../provider/client";
import { deliberatelyInvalidRequests } from "../support/contract";
import { useEmulator } from "../support/emulator";

const fixture = useEmulator();

/** A client whose waits are recorded instead of slept, so retry tests run in milliseconds. */
function client(options: { token?: string; timeoutMs?: number; maxAttempts?: number } = {}) {
  const waits: number[] = [];
  const http = new HttpClient({
    baseUrl: fixture.emulator.url,
    token: options.token ?? fixture.emulator.token,
    timeoutMs: options.timeoutMs,
    retry: { maxAttempts: options.maxAttempts ?? 4 },
    sleep: async (ms) => {
      waits.push(ms);
    },
  });
  return { http, waits };
}

const orgPath = () => `/orgs/${fixture.org()}`;
const attemptsOf = (method: string, path: string) =>
  fixture.emulator.requests().filter((r) => r.method === method && r.path === `/v1${path}`);

describe("retries", () => {
  it("retries a GET through 503s and succeeds, with growing jittered backoff", async () => {
    fixture.emulator.injectFault({ method: "GET", path: "^/v1/orgs/[^/]+$", count: 2, status: 503 });
    const { http, waits } = client();
    const org = await http.get<{ id: string }>(orgPath());
    expect(org.id).toBe(fixture.org());
    expect(attemptsOf("GET", orgPath()).map((r) => r.status)).toEqual([503, 503, 200]);
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeGreaterThanOrEqual(100);
    expect(waits[1]).toBeGreaterThanOrEqual(200);
  });

  it("honours Retry-After in seconds on 429", async () => {
    fixture.emulator.injectFault({ path: "^/v1/orgs/[^/]+$", count: 1, status: 429, retryAfter: "3" });
    const { http, waits } = client();
    await http.get(orgPath());
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(3000);
    expect(waits[0]).toBeLessThan(3300);
  });

  it("honours Retry-After as an HTTP date", () => {
    const now = Date.parse("2026-11-22T10:00:00Z");
    expect(parseRetryAfter("Sun, 22 Nov 2026 10:00:07 GMT", now)).toBe(7000);
    expect(parseRetryAfter("12", now)).toBe(12_000);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
  });

  it("really waits for Retry-After without the test seam", async () => {
    fixture.emulator.injectFault({ path: "^/v1/orgs/[^/]+$", count: 1, status: 429, retryAfter: "1" });
    const http = new HttpClient({ baseUrl: fixture.emulator.url, token: fixture.emulator.token });
    const started = Date.now();
    await http.get(orgPath());
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    await http.close();
  });

  it("gives up after the attempt cap with an error that counts the attempts", async () => {
    fixture.emulator.injectFault({ path: "^/v1/orgs/[^/]+$", count: 10, status: 500 });
    const { http } = client({ maxAttempts: 3 });
    const error = await http.get(orgPath()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(String(error)).toMatch(/GET \/v1\/orgs\/\S+ failed with 500 Internal Server Error.*\(after 3 attempts\)/);
    expect(attemptsOf("GET", orgPath())).toHaveLength(3);
  });

  it("never repeats a POST after a 5xx, since the API may have acted on it", async () => {
    fixture.emulator.injectFault({ method: "POST", path: "/collections$", count: 1, status: 503 });
    const { http } = client();
    await expect(http.post(`${orgPath()}/collections`, { title: "Once" })).rejects.toBeInstanceOf(ServerError);
    expect(attemptsOf("POST", `${orgPath()}/collections`)).toHaveLength(1);
  });

  it("repeats a POST after a 429, which the API did not act on", async () => {
    fixture.emulator.injectFault({ method: "POST", path: "/collections$", count: 1, status: 429, retryAfter: "0" });
    const { http } = client();
    await http.post(`${orgPath()}/collections`, { title: "Twice asked, once made" });
    expect(attemptsOf("POST", `${orgPath()}/collections`).map((r) => r.status)).toEqual([429, 201]);
  });

  it("reports a timeout as such when every attempt is too slow", async () => {
    fixture.emulator.injectFault({ path: "^/v1/orgs/[^/]+$", count: 5, latencyMs: 600 });
    const { http } = client({ timeoutMs: 100, maxAttempts: 2 });
    const error = await http.get(orgPath()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(String(error)).toMatch(/failed: no answer from 127\.0\.0\.1:\d+ within 100 ms \(after 2 attempts\)$/);
    expect(attemptsOf("GET", orgPath())).toHaveLength(2);
  });

  it("retries a dropped connection for a GET", async () => {
    fixture.emulator.injectFault({ path: "^/v1/orgs/[^/]+$", count: 1, drop: true });
    const { http, waits } = client();
    await http.get(orgPath());
    expect(waits).toHaveLength(1);
  });

  it("reports a refused connection as a ConnectionError", async () => {
    const http = new HttpClient({
      baseUrl: "http://127.0.0.1:9/v1",
      token: "t0ken-value",
      retry: { maxAttempts: 2 },
      sleep: async () => {},
    });
    const error = await http.get("/orgs").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(String(error)).toBe(
      "ConnectionError: GET /v1/orgs failed: connection error ECONNREFUSED 127.0.0.1:9 (after 2 attempts)",
    );
  });
});

describe("errors", () => {
  it("maps 404 with the method, path, status and the API's message", async () => {
    const { http } = client();
    const error = await http.get("/collections/nope").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).apiMessage).toBeTruthy();
    expect(String(error)).toContain(
      `GET /v1/collections/nope failed with 404 Not Found: ${(error as NotFoundError).apiMessage}`,
    );
  });

  it("maps 400 and keeps the API's explanation", async () => {
    // A title over the documented 50 characters, sent on purpose to provoke the 400.
    deliberatelyInvalidRequests();
    const { http } = client();
    const error = await http.post(`${orgPath()}/collections`, { title: "x".repeat(51) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(String(error)).toMatch(/400 Bad Request: .*title/);
  });

  it("maps 401 and never shows the token", async () => {
    const { http } = client({ token: "very-secret-token" });
    const error = await http.get(orgPath()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(String(error)).not.toContain("very-secret-token");
    expect(attemptsOf("GET", orgPath())).toHaveLength(1);
  });

  it("after a 401, sends nothing more with that token: later calls name the call that was rejected", async () => {
    const { http } = client({ token: "rejected-token" });
    const first = await http.get(orgPath()).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(UnauthorizedError);
    const later = await http.post(`${orgPath()}/collections`, { title: "Docs" }).catch((e: unknown) => e);
    expect(later).toBeInstanceOf(TokenRejectedError);
    expect(later).toBeInstanceOf(UnauthorizedError);
    expect(String(later)).toBe(
      `TokenRejectedError: POST /v1${orgPath()}/collections not sent: the API rejected this token earlier ` +
        `(GET /v1${orgPath()}: 401 Unauthorized)`,
    );
    expect(fixture.calls()).toEqual([`GET /v1${orgPath()}`]);
    // Another client (another token) is not affected.
    await expect(client().http.get(orgPath())).resolves.toBeDefined();
  });

  it("waits out 429s without spending attempts, and gives up as RateLimitedError after 10 waits", async () => {
    fixture.emulator.injectFault({ path: "^/v1/orgs/[^/]+$", count: 20, status: 429, retryAfter: "0" });
    const { http, waits } = client({ maxAttempts: 2 });
    const error = await http.get(orgPath()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(String(error)).toMatch(/failed with 429 Too Many Requests: .*\(after 11 attempts\)$/);
    expect(waits).toHaveLength(10);
    expect(attemptsOf("GET", orgPath())).toHaveLength(11);
  });

  it("treats DELETE of a missing object as done when the API answers 204, as the document says; a 404 is NotFoundError", async () => {
    const { http } = client();
    await http.delete("/collections/never-existed");
    expect(fixture.emulator.requests().at(-1)?.status).toBe(204);
    // A 404 is the framework's to read as "gone" (a resource's delete, a create's undo), not the transport's.
    fixture.emulator.injectFault({ method: "DELETE", path: "^/v1/collections/gone$", status: 404 });
    await expect(http.delete("/collections/gone")).rejects.toBeInstanceOf(NotFoundError);
    expect(fixture.emulator.requests().at(-1)?.status).toBe(404);
    expect(attemptsOf("DELETE", "/collections/never-existed")).toHaveLength(1);
    expect(attemptsOf("DELETE", "/collections/gone")).toHaveLength(1);
  });
});

describe("pagination", () => {
  it("follows next.page to the end", async () => {
    const { http } = client();
    for (let i = 0; i < 45; i++) await http.post(`${orgPath()}/collections`, { title: `C${i}` });
    fixture.emulator.clearRequests();
    const items = await listAll<{ title: string }>(http, `${orgPath()}/collections`, { limit: 20 });
    expect(items.map((c) => c.title)).toEqual(expect.arrayContaining(["C0", "C22", "C44"]));
    expect(new Set(items.map((c) => c.title)).size).toBe(items.length);
    expect(attemptsOf("GET", `${orgPath()}/collections`).length).toBe(Math.ceil(items.length / 20));
  });

  it("stops on a cursor that does not advance", async () => {
    let calls = 0;
    const server = createServer((_req, res) => {
      calls++;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ items: [{ n: calls }], next: { page: "same" } }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const http = new HttpClient({ baseUrl: `http://127.0.0.1:${port}/v1`, token: "t" });
    try {
      const items = await listAll(http, "/things");
      expect(items).toHaveLength(2);
      expect(calls).toBe(2);
    } finally {
      await http.close();
      server.close();
    }
  });
});

describe("observeWrites", () => {
  it("reports every request but GETs once it has ended, answered or failed, with the path sent", async () => {
    const { http } = client({ maxAttempts: 1 });
    const reported: string[] = [];
    http.observeWrites((path) => reported.push(path));
    await http.get(orgPath());
    const created = http.put<{ id: string }>(`${orgPath()}/teams`, { title: "Observed" });
    // Not when it is sent: a listing taken while it is under way may miss it.
    expect(reported).toEqual([]);
    const team = await created;
    fixture.emulator.injectFault({ method: "DELETE", path: "^/v1/orgs/[^/]+/teams/", count: 1, status: 503 });
    await expect(http.delete(`${orgPath()}/teams/${team.id}`)).rejects.toBeInstanceOf(ServerError);
    expect(reported).toEqual([`${orgPath()}/teams`, `${orgPath()}/teams/${team.id}`]);
    await http.delete(`${orgPath()}/teams/${team.id}`);
    expect(reported).toHaveLength(3);
  });
});
