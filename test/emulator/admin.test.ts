import { describe, expect, it } from "vitest";
import type { Exchange } from "../../emulator";
import { type Json, startTestEmulator, useEmulator } from "../support/emulator";

const h = useEmulator({ provider: false });

async function admin(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${h.emulator.origin}/__admin${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const collectionsPath = () => `/orgs/${h.org()}/collections`;

describe("admin endpoints", () => {
  it("resets to the fixtures over HTTP without auth", async () => {
    const created = await h.call("POST", collectionsPath(), { title: "Temp" });
    expect(created.status).toBe(201);
    const reset = await admin("POST", "/reset");
    expect(reset.status).toBe(200);
    expect((await h.call("GET", `/collections/${created.body.id}`)).status).toBe(404);
    expect((await h.call("GET", `/spaces/${h.space(0)}`)).status).toBe(200);
  });

  it("logs requests with status and clears the log", async () => {
    await h.call("GET", "/orgs");
    await h.call("GET", "/collections/missing");
    await h.call("GET", "/orgs", undefined, { noAuth: true, headers: { "idempotency-key": "k1" } });
    const log = await admin("GET", "/requests");
    expect(log.status).toBe(200);
    expect(log.body.map((e: Json) => [e.method, e.path, e.status])).toEqual([
      ["GET", "/v1/orgs", 200],
      ["GET", "/v1/collections/missing", 404],
      ["GET", "/v1/orgs", 401],
    ]);
    expect(log.body[1].route).toBe("/v1/collections/{collectionId}");
    expect(log.body[0].authorized).toBe(true);
    expect(log.body[2].authorized).toBe(false);
    expect(log.body[2].idempotencyKey).toBe("k1");
    expect(log.body[0].headers.authorization).toBe("<redacted>");
    expect(h.emulator.requests()).toHaveLength(3);
    expect((await admin("DELETE", "/requests")).status).toBe(204);
    expect((await admin("GET", "/requests")).body).toEqual([]);
    expect(h.emulator.requests()).toEqual([]);
  });

  it("says in headers how many entries the request log dropped and how many it keeps (default 10000)", async () => {
    await h.call("GET", "/orgs");
    const res = await fetch(`${h.emulator.origin}/__admin/requests`);
    expect(res.headers.get("x-request-log-dropped")).toBe("0");
    expect(res.headers.get("x-request-log-limit")).toBe("10000");
    expect(Array.isArray(await res.json())).toBe(true);
  });

  it("counts requests per operation template", async () => {
    const a = await h.call("POST", collectionsPath(), { title: "A" });
    const b = await h.call("POST", collectionsPath(), { title: "B" });
    await h.call("GET", `/collections/${a.body.id}`);
    await h.call("GET", `/collections/${b.body.id}`);
    await h.call("GET", `/collections/${b.body.id}`);
    const counters = (await admin("GET", "/counters")).body;
    expect(counters["GET /v1/collections/{collectionId}"]).toBe(3);
    expect(counters["POST /v1/orgs/{organizationId}/collections"]).toBe(2);
    expect(h.emulator.counters()).toEqual(counters);
    expect(h.emulator.requests()[0]!.requestBody).toEqual({ title: "A" });
    h.emulator.clearRequests();
    expect(h.emulator.counters()).toEqual({});
  });

  it("answers 404 for unknown admin routes", async () => {
    const res = await admin("GET", "/nope");
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe(404);
  });
});

describe("fault injection", () => {
  it("answers 429 with Retry-After for the next N matching requests, then normally", async () => {
    const res = await admin("POST", "/faults", {
      method: "GET",
      path: "^/v1/orgs$",
      count: 2,
      status: 429,
      retryAfter: "3",
    });
    expect(res.status).toBe(201);
    const other = await h.call("GET", `/orgs/${h.org()}`);
    expect(other.status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const r = await h.call("GET", "/orgs");
      expect(r.status).toBe(429);
      expect(r.headers.get("retry-after")).toBe("3");
      expect(r.body).toEqual({ error: { code: 429, message: expect.any(String) } });
    }
    expect((await h.call("GET", "/orgs")).status).toBe(200);
    const log = h.emulator.requests().filter((e) => e.path === "/v1/orgs");
    expect(log.map((e) => e.status)).toEqual([429, 429, 200]);
    expect(log[0]!.fault).toMatchObject({ status: 429, retryAfter: "3" });
    expect(h.emulator.counters()["GET /v1/orgs"]).toBe(3);
  });

  it("injects a 503 with a custom body and an HTTP-date Retry-After", async () => {
    const date = new Date(Date.now() + 5000).toUTCString();
    h.emulator.injectFault({
      path: "/collections",
      count: 1,
      status: 503,
      retryAfter: date,
      body: { error: { code: 503, message: "maintenance" } },
    });
    const r = await h.call("POST", collectionsPath(), { title: "A" });
    expect(r.status).toBe(503);
    expect(r.headers.get("retry-after")).toBe(date);
    expect(r.body.error.message).toBe("maintenance");
    expect(h.emulator.store.collections.size).toBe(0);
    expect((await h.call("POST", collectionsPath(), { title: "A" })).status).toBe(201);
  });

  it("adds latency and then handles the request normally", async () => {
    h.emulator.injectFault({ path: "^/v1/orgs$", count: 1, latencyMs: 300 });
    const started = Date.now();
    const r = await h.call("GET", "/orgs");
    expect(r.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    await h.call("GET", "/orgs");
    // The fault had a count of 1: the second request is not delayed (asserted on the log, not on a stopwatch).
    expect(h.emulator.requests()[0]!.fault).toMatchObject({ latencyMs: 300 });
    expect(h.emulator.requests()[1]!.fault).toBeUndefined();
  });

  it("drops the connection without answering", async () => {
    h.emulator.injectFault({ method: "get", path: "^/v1/orgs$", count: 1, drop: true });
    await expect(h.call("GET", "/orgs")).rejects.toThrow();
    expect((await h.call("GET", "/orgs")).status).toBe(200);
    expect(h.emulator.requests().map((e) => e.status)).toEqual(["dropped", 200]);
  });

  it("matches on method and clears faults", async () => {
    h.emulator.injectFault({ method: "POST", count: 5, status: 500 });
    expect((await h.call("GET", "/orgs")).status).toBe(200);
    expect((await h.call("POST", collectionsPath(), {})).status).toBe(500);
    expect((await admin("GET", "/faults")).body).toHaveLength(1);
    expect((await admin("DELETE", "/faults")).status).toBe(204);
    expect((await h.call("POST", collectionsPath(), {})).status).toBe(201);
  });

  it("validates fault specs", async () => {
    expect((await admin("POST", "/faults", { count: 1 })).status).toBe(400);
    expect((await admin("POST", "/faults", { count: 1, status: 500, path: "(" })).status).toBe(400);
    expect((await admin("POST", "/faults", { count: 0, status: 500 })).status).toBe(400);
    expect((await admin("POST", "/faults", { count: 1, status: 500, colour: 1 })).status).toBe(400);
    expect((await admin("GET", "/faults")).body).toEqual([]);
  });

  it("reset clears faults", async () => {
    h.emulator.injectFault({ count: 10, status: 500 });
    await admin("POST", "/reset");
    expect((await h.call("GET", "/orgs")).status).toBe(200);
  });
});

describe("onExchange", () => {
  it("reports every /v1 request and response, with injected faults flagged", async () => {
    const seen: Exchange[] = [];
    const emu = await startTestEmulator({ onExchange: (x) => seen.push(x) });
    try {
      const headers = { authorization: `Bearer ${emu.token}`, "content-type": "application/json" };
      await fetch(`${emu.url}/orgs/${emu.organizationId}/collections?x=1`, {
        method: "POST",
        headers,
        body: JSON.stringify({ title: "A" }),
      });
      emu.injectFault({ count: 1, status: 429 });
      await fetch(`${emu.url}/orgs`, { headers });
      await fetch(`${emu.origin}/__admin/counters`);
      expect(seen).toHaveLength(2);
      expect(seen[0]).toMatchObject({
        method: "POST",
        path: `/v1/orgs/${emu.organizationId}/collections`,
        query: { x: "1" },
        requestBody: { title: "A" },
        status: 201,
        injected: false,
        route: "/v1/orgs/{organizationId}/collections",
      });
      expect(seen[0]!.responseHeaders.Location).toMatch(/\/v1\/collections\//);
      expect((seen[0]!.responseBody as { title: string }).title).toBe("A");
      expect(seen[1]).toMatchObject({ status: 429, injected: true });
    } finally {
      await emu.close();
    }
  });
});
