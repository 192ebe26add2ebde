import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ConnectionError,
  DEFAULT_RETRY_POLICY,
  type DocsApiError,
  HttpClient,
  MAX_RESPONSE_BYTES,
  ServerError,
  TimeoutError,
  UnexpectedResponseError,
} from "../../provider/client";
import { apiError, failureOf, fakeClockClient, json, useStubs } from "./stub";

/**
 * What one request looks like on the wire, the client's defaults, and which failed writes are marked as possibly
 * applied (`outcomeUnknown`): the transport seen from a server, one exchange at a time.
 */
const { closeLater, stubbed } = useStubs();

function client(baseUrl: string, options: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}) {
  const made = fakeClockClient(baseUrl, options);
  closeLater(() => made.http.close());
  return made;
}

describe("the request on the wire", () => {
  it("bearer token, JSON accepted, our user agent; a body only when there is one, as JSON", async () => {
    const stub = await stubbed((_req, res) => json(res, 200, { ok: true }));
    const { http } = client(stub.url, { token: "tok_wire" });
    await http.get("/orgs/o");
    await http.post("/orgs/o/things", { title: "T", n: 1 });
    const [get, post] = stub.requests;
    expect(get?.headers).toMatchObject({
      authorization: "Bearer tok_wire",
      accept: "application/json",
      "user-agent": "pulumi-docs-platform",
    });
    expect(get?.headers["content-type"]).toBeUndefined();
    expect(get?.body).toBe("");
    expect(post?.method).toBe("POST");
    expect(post?.headers["content-type"]).toBe("application/json");
    expect(post?.body).toBe('{"title":"T","n":1}');
  });

  it("a user agent of the caller's choosing", async () => {
    const stub = await stubbed((_req, res) => json(res, 200, {}));
    await client(stub.url, { userAgent: "docs-platform-cli/1" }).http.get("/x");
    expect(stub.requests[0]?.headers["user-agent"]).toBe("docs-platform-cli/1");
  });

  it("paths with or without a leading slash; query values as text, undefined ones left out", async () => {
    const stub = await stubbed((_req, res) => json(res, 200, {}));
    const { http } = client(stub.url);
    await http.get("orgs/o/spaces", { page: "p2", limit: 50, nested: false, absent: undefined });
    await http.put("/orgs/o/spaces/s1", { a: 1 });
    expect(stub.requests.map((r) => `${r.method} ${r.url} ${r.body}`)).toEqual([
      "GET /v1/orgs/o/spaces?page=p2&limit=50&nested=false ",
      'PUT /v1/orgs/o/spaces/s1 {"a":1}',
    ]);
    expect(http.displayPath("orgs/o")).toBe("/v1/orgs/o");
  });

  it("an API at the root of its host shows paths as they are", async () => {
    const stub = await stubbed((_req, res) => json(res, 200, { ok: 1 }));
    const { http } = client(`http://${stub.host}`);
    expect(http.displayPath("/orgs/o")).toBe("/orgs/o");
    expect(await http.get("orgs/o")).toEqual({ ok: 1 });
    expect(stub.requests[0]?.url).toBe("/orgs/o");
  });

  it("a closed client sends nothing more", async () => {
    const stub = await stubbed((_req, res) => json(res, 200, {}));
    // Not through client(): that one is closed after the test, and closing twice throws.
    const { http } = fakeClockClient(stub.url, { retry: { maxAttempts: 1 } });
    await http.get("/x");
    await http.close();
    await expect(http.get("/x")).rejects.toThrow(ConnectionError);
    expect(stub.requests).toHaveLength(1);
  });

  it("a base URL with a trailing slash shows paths without a double slash", async () => {
    const stub = await stubbed((_req, res) => apiError(res, 404, "gone"));
    const { http } = client(`${stub.url}/`);
    expect(http.displayPath("/orgs/o")).toBe("/v1/orgs/o");
    expect((await failureOf(http.get("/orgs/o"))).message).toBe("GET /v1/orgs/o failed with 404 Not Found: gone");
  });

  it.each([
    [204, ""],
    [205, ""],
    [200, ""],
  ])("a %i with body %j is no value", async (status, body) => {
    const stub = await stubbed((_req, res) => {
      res.writeHead(status);
      res.end(body);
    });
    expect(await client(stub.url).http.request("PATCH", "/x", { body: {} })).toBeUndefined();
  });

  it("a 205 is no value even with a body", async () => {
    const stub = await stubbed((_req, res) => {
      res.writeHead(205, { "content-type": "text/plain" });
      res.end("reset");
    });
    expect(await client(stub.url).http.request("PATCH", "/x", { body: {} })).toBeUndefined();
  });

  it.each([300, 301])("a %i is not followed and not a success", async (status) => {
    const stub = await stubbed((_req, res) => json(res, status, { moved: true }, { location: "https://elsewhere" }));
    const error = await failureOf<DocsApiError>(client(stub.url).http.get("/x"));
    expect(error.status).toBe(status);
    expect(error.message).toBe(`GET /v1/x failed with ${status}: {"moved":true}`);
  });

  it("a 2xx that is not JSON and has no content type says so", async () => {
    const stub = await stubbed((_req, res) => void res.end("oops"));
    expect((await failureOf(client(stub.url).http.get("/x"))).message).toBe(
      "GET /v1/x answered 200 OK with an unexpected body: the body is not JSON (no content-type): oops",
    );
  });

  it("an error without a body has no API message; a non-text message falls back to the body", async () => {
    const stub = await stubbed((req, res) => {
      if (req.url.endsWith("/empty")) res.writeHead(409).end();
      else json(res, 409, { error: { code: 409, message: { reason: "taken" } } });
    });
    const { http } = client(stub.url);
    expect((await failureOf<DocsApiError>(http.get("/empty"))).apiMessage).toBeUndefined();
    expect((await failureOf<DocsApiError>(http.get("/odd"))).apiMessage).toBe(
      '{"error":{"code":409,"message":{"reason":"taken"}}}',
    );
  });

  it("a body of exactly the size limit is read; one byte more is not", async () => {
    const exact = `"${"a".repeat(MAX_RESPONSE_BYTES - 2)}"`;
    const stub = await stubbed((req, res) => {
      const body = req.url.endsWith("/over") ? `${exact} ` : exact;
      const declared = req.url.includes("declared");
      res.writeHead(200, declared ? { "content-length": String(Buffer.byteLength(body)) } : {});
      if (declared) res.end(body);
      else {
        // Streamed in two chunks without a declared length.
        res.write(body.slice(0, 1024));
        res.end(body.slice(1024));
      }
    });
    const { http } = client(stub.url);
    expect(((await http.get("/declared")) as string).length).toBe(MAX_RESPONSE_BYTES - 2);
    expect(((await http.get("/streamed")) as string).length).toBe(MAX_RESPONSE_BYTES - 2);
    expect(await failureOf<DocsApiError>(http.get("/declared/over"))).toBeInstanceOf(UnexpectedResponseError);
    expect(await failureOf<DocsApiError>(http.get("/streamed/over"))).toBeInstanceOf(UnexpectedResponseError);
  });

  it("a 201 with a body is that body", async () => {
    const stub = await stubbed((_req, res) => json(res, 201, { id: "n1" }));
    expect(await client(stub.url).http.post("/x", {})).toEqual({ id: "n1" });
  });
});

describe("defaults", () => {
  it("30 s per attempt, the default retry policy, a two-minute wait ceiling", async () => {
    const http = new HttpClient({ baseUrl: "https://api.gitbook.com/v1", token: "t" });
    closeLater(() => http.close());
    expect([http.timeoutMs, http.maxWaitMs]).toEqual([30_000, 120_000]);
    expect(http.policy).toEqual(DEFAULT_RETRY_POLICY);
    expect(DEFAULT_RETRY_POLICY).toEqual({
      maxAttempts: 5,
      baseDelayMs: 200,
      maxDelayMs: 10_000,
      maxRetryAfterMs: 60_000,
      maxRateLimitWaits: 10,
    });
  });

  it("a setting given as undefined keeps its default; one given replaces it", () => {
    const http = new HttpClient({
      baseUrl: "https://api.gitbook.com/v1",
      token: "t",
      timeoutMs: 1_500,
      maxWaitSeconds: 0,
      retry: { maxAttempts: undefined, baseDelayMs: 50 },
    });
    closeLater(() => http.close());
    expect([http.timeoutMs, http.maxWaitMs]).toEqual([1_500, 0]);
    expect(http.policy).toEqual({ ...DEFAULT_RETRY_POLICY, baseDelayMs: 50 });
  });
});

describe("backoff", () => {
  afterEach(() => vi.restoreAllMocks());

  it("is half the ceiling plus a random share of the other half; Retry-After gets a random share of the base", async () => {
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    const stub = await stubbed((_req, res, n) =>
      n <= 2
        ? apiError(res, 503, "busy")
        : n === 3
          ? apiError(res, 503, "maintenance", { "retry-after": "2" })
          : json(res, 200, {}),
    );
    const { http, waits } = client(stub.url, { retry: { baseDelayMs: 200 } });
    await http.get("/x");
    expect(waits).toEqual([150, 300, 2_100]);
  });

  it("the Retry-After jitter is at most 250 ms, whatever the base", async () => {
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    const stub = await stubbed((_req, res, n) =>
      n === 1 ? apiError(res, 503, "maintenance", { "retry-after": "2" }) : json(res, 200, {}),
    );
    const { http, waits } = client(stub.url, { retry: { baseDelayMs: 1_000 } });
    await http.get("/x");
    expect(waits).toEqual([2_125]);
  });

  it("doubles from the base and never exceeds maxDelayMs", async () => {
    const stub = await stubbed((_req, res) => apiError(res, 503, "busy"));
    const { http, waits } = client(stub.url, {
      retry: { maxAttempts: 6, baseDelayMs: 1_000, maxDelayMs: 3_000 },
    });
    const error = await failureOf<DocsApiError>(http.get("/x"));
    expect(error).toBeInstanceOf(ServerError);
    expect(error.attempts).toBe(6);
    const bounds = [
      [500, 1_000],
      [1_000, 2_000],
      [1_500, 3_000],
      [1_500, 3_000],
      [1_500, 3_000],
    ];
    expect(waits).toHaveLength(5);
    waits.forEach((wait, i) => {
      expect(wait).toBeGreaterThanOrEqual(bounds[i]?.[0] ?? Number.NaN);
      expect(wait).toBeLessThanOrEqual(bounds[i]?.[1] ?? Number.NaN);
    });
  });

  it("a 503's Retry-After below the cap is waited, plus at most the base delay's jitter", async () => {
    const stub = await stubbed((_req, res, n) =>
      n === 1 ? apiError(res, 503, "maintenance", { "retry-after": "2" }) : json(res, 200, {}),
    );
    const { http, waits } = client(stub.url, { retry: { baseDelayMs: 100 } });
    await http.get("/x");
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(2_000);
    expect(waits[0]).toBeLessThan(2_100);
  });
});

describe("which failed writes may have been applied", () => {
  const cases: [string, number, "POST" | "PUT" | "DELETE", boolean | undefined, boolean][] = [
    ["a POST answered 500", 500, "POST", undefined, true],
    ["a POST answered 502", 502, "POST", undefined, true],
    ["a POST answered 400", 400, "POST", undefined, false],
    ["a POST answered 409", 409, "POST", undefined, false],
    ["a non-idempotent PUT answered 504", 504, "PUT", false, true],
    ["an idempotent PUT answered 503", 503, "PUT", undefined, false],
    ["a DELETE answered 500", 500, "DELETE", undefined, false],
  ];
  it.each(cases)("%s: outcomeUnknown is %s", async (_what, status, method, idempotent, unknown) => {
    const stub = await stubbed((_req, res) => apiError(res, status, "failed"));
    const { http } = client(stub.url, { retry: { maxAttempts: 2 } });
    const error = await failureOf<DocsApiError>(http.request(method, "/things", { body: {}, idempotent }));
    expect(error.status).toBe(status);
    expect(error.outcomeUnknown).toBe(unknown);
    // Only an idempotent request is repeated after a 5xx.
    const repeated = status >= 500 && idempotent !== false && method !== "POST";
    expect(stub.requests).toHaveLength(repeated ? 2 : 1);
  });

  it("a POST that timed out may have been applied, and is not repeated", async () => {
    const stub = await stubbed(() => {});
    const { http } = client(stub.url, { timeoutMs: 200, retry: { maxAttempts: 3 } });
    const error = await failureOf<DocsApiError>(http.post("/things", {}));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.outcomeUnknown).toBe(true);
    expect(stub.requests).toHaveLength(1);
  });

  it("a POST whose connection was refused cannot have been applied; one reset after sending may have been", async () => {
    const refused = client("http://127.0.0.1:1/v1", { retry: { maxAttempts: 1 } }).http;
    expect((await failureOf<DocsApiError>(refused.post("/things", {}))).outcomeUnknown).toBe(false);
    const stub = await stubbed((_req, res) => void res.socket?.destroy());
    const reset = client(stub.url, { retry: { maxAttempts: 3 } }).http;
    const error = await failureOf<DocsApiError>(reset.post("/things", {}));
    expect(error.outcomeUnknown).toBe(true);
    expect(stub.requests).toHaveLength(1);
  });

  it("a POST answered 201 with a body that is not JSON made its object, whose id is lost: outcome unknown", async () => {
    const stub = await stubbed((_req, res) => {
      res.writeHead(201, { "content-type": "text/html" });
      res.end("<html>created</html>");
    });
    const { http } = client(stub.url);
    const error = await failureOf<DocsApiError>(http.post("/things", {}));
    expect(error.status).toBe(201);
    expect(error.outcomeUnknown).toBe(true);
    const put = await failureOf<DocsApiError>(http.put("/things/t1", {}));
    expect(put.outcomeUnknown).toBe(false);
  });

  it("a POST whose answer broke off mid-body was answered, so it may have acted", async () => {
    const stub = await stubbed((_req, res) => {
      res.writeHead(201, { "content-type": "application/json", "content-length": "100" });
      res.write('{"id":');
      setTimeout(() => res.socket?.destroy(), 10);
    });
    const { http } = client(stub.url, { retry: { maxAttempts: 3 } });
    const error = await failureOf<DocsApiError>(http.post("/things", {}));
    expect(error.outcomeUnknown).toBe(true);
    expect(stub.requests).toHaveLength(1);
  });
});
