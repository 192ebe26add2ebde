import { afterEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator";
import { RateLimiter } from "../../emulator/rateLimit";
import {
  DEFAULT_REQUEST_LOG_LIMIT,
  MAX_UNMATCHED_COUNTERS,
  OTHER_UNMATCHED,
  RequestLog,
  type RequestLogEntry,
} from "../../emulator/requestLog";

function logRequest(log: RequestLog, path: string, route: string | null = path): RequestLogEntry {
  return log.start({ time: "", method: "GET", path, query: {}, route, authorized: true, headers: {} });
}

describe("the request log is a ring", () => {
  it("keeps the newest `limit` entries, oldest first, and counts the dropped ones", () => {
    const log = new RequestLog(3);
    for (let i = 1; i <= 5; i++) logRequest(log, `/v1/r${i}`);
    expect(log.entries().map((e) => [e.seq, e.path])).toEqual([
      [3, "/v1/r3"],
      [4, "/v1/r4"],
      [5, "/v1/r5"],
    ]);
    expect(log.dropped()).toBe(2);
    logRequest(log, "/v1/r6");
    expect(log.entries().map((e) => e.seq)).toEqual([4, 5, 6]);
    expect(log.dropped()).toBe(3);
  });

  it("records a kept entry's outcome after it was started", () => {
    const log = new RequestLog(2);
    const entry = logRequest(log, "/v1/a");
    entry.status = 201;
    expect(log.entries()[0]?.status).toBe(201);
  });

  it("clear empties it and resets the dropped count; sequence numbers keep growing", () => {
    const log = new RequestLog(2);
    for (let i = 0; i < 4; i++) logRequest(log, "/v1/x");
    log.clear();
    expect(log.entries()).toEqual([]);
    expect(log.dropped()).toBe(0);
    expect(log.counters()).toEqual({});
    logRequest(log, "/v1/y");
    expect(log.entries().map((e) => e.seq)).toEqual([5]);
    expect(log.dropped()).toBe(0);
  });

  it("with limit 0 keeps no entries but still counts the requests", () => {
    const log = new RequestLog(0);
    logRequest(log, "/v1/orgs");
    logRequest(log, "/v1/orgs");
    expect(log.entries()).toEqual([]);
    expect(log.dropped()).toBe(2);
    expect(log.counters()).toEqual({ "GET /v1/orgs": 2 });
  });

  it(`keeps ${DEFAULT_REQUEST_LOG_LIMIT} entries by default`, () => {
    const log = new RequestLog();
    for (let i = 0; i < DEFAULT_REQUEST_LOG_LIMIT + 7; i++) logRequest(log, "/v1/orgs");
    const entries = log.entries();
    expect(entries).toHaveLength(DEFAULT_REQUEST_LOG_LIMIT);
    expect(entries[0]?.seq).toBe(8);
    expect(entries.at(-1)?.seq).toBe(DEFAULT_REQUEST_LOG_LIMIT + 7);
    expect(log.dropped()).toBe(7);
  });

  it.each([-1, 1.5, Number.NaN, 10_000_001, "10"])("refuses the limit %s naming the option and the range", (limit) => {
    expect(() => new RequestLog(limit as number)).toThrow(
      /^requestLogLimit: must be an integer in 0\.\.10000000 \(entries kept; 0 keeps none\), got /,
    );
  });
});

describe("the counters stay bounded", () => {
  it(`count at most ${MAX_UNMATCHED_COUNTERS} unmatched paths by name, the rest together per method`, () => {
    const log = new RequestLog(1);
    for (let i = 0; i < MAX_UNMATCHED_COUNTERS + 5; i++) logRequest(log, `/v1/unknown/${i}`, null);
    logRequest(log, "/v1/unknown/0", null);
    logRequest(log, "/v1/collections/c1", "/v1/collections/{collectionId}");
    const counters = log.counters();
    expect(Object.keys(counters)).toHaveLength(MAX_UNMATCHED_COUNTERS + 2);
    expect(counters["GET /v1/unknown/0"]).toBe(2);
    expect(counters[`GET /v1/unknown/${MAX_UNMATCHED_COUNTERS}`]).toBeUndefined();
    expect(counters[`GET ${OTHER_UNMATCHED}`]).toBe(5);
    expect(counters["GET /v1/collections/{collectionId}"]).toBe(1);
  });

  it("the rate limiter forgets ended windows once it holds many tokens", () => {
    let now = 0;
    const limiter = new RateLimiter({ limit: 5, windowMs: 1000 }, () => now);
    for (let i = 0; i < 1024; i++) limiter.take(`token-${i}`);
    now = 1000;
    limiter.take("one-more");
    expect(limiter.trackedTokens()).toBe(1);
    // A window that has not ended is kept, with its count.
    limiter.take("one-more");
    expect(limiter.take("one-more")?.headers["X-RateLimit-Remaining"]).toBe("2");
  });
});

describe("the emulator's request log limit", () => {
  let emu: RunningEmulator | undefined;
  afterEach(async () => {
    await emu?.close();
    emu = undefined;
  });

  async function get(path: string): Promise<void> {
    await (await fetch(`${emu!.url}${path}`, { headers: { authorization: `Bearer ${emu!.token}` } })).text();
  }

  it("keeps the newest requestLogLimit requests; GET /__admin/requests says how many were dropped", async () => {
    emu = await startEmulator({ requestLogLimit: 2 });
    await get("/orgs");
    await get(`/orgs/${emu.organizationId}`);
    await get(`/orgs/${emu.organizationId}/spaces`);
    expect(emu.requests().map((e) => e.path)).toEqual([
      `/v1/orgs/${emu.organizationId}`,
      `/v1/orgs/${emu.organizationId}/spaces`,
    ]);
    expect(emu.droppedRequests()).toBe(1);
    const res = await fetch(`${emu.origin}/__admin/requests`);
    expect(res.headers.get("x-request-log-dropped")).toBe("1");
    expect(res.headers.get("x-request-log-limit")).toBe("2");
    expect(((await res.json()) as unknown[]).length).toBe(2);
    expect(emu.counters()["GET /v1/orgs"]).toBe(1);
  });

  it("reset and DELETE /__admin/requests start the dropped count afresh", async () => {
    emu = await startEmulator({ requestLogLimit: 1 });
    await get("/orgs");
    await get("/orgs");
    expect(emu.droppedRequests()).toBe(1);
    emu.reset();
    expect(emu.droppedRequests()).toBe(0);
    await get("/orgs");
    await get("/orgs");
    expect((await fetch(`${emu.origin}/__admin/requests`, { method: "DELETE" })).status).toBe(204);
    const res = await fetch(`${emu.origin}/__admin/requests`);
    expect(res.headers.get("x-request-log-dropped")).toBe("0");
    expect(await res.json()).toEqual([]);
  });

  it("refuses an invalid requestLogLimit", async () => {
    await expect(startEmulator({ requestLogLimit: -5 })).rejects.toThrow(/requestLogLimit: must be an integer/);
  });
});
