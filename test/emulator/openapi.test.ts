import { describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator";

const STEP = 1000;
/** The emulator's clock, advanced by hand: processing states are deterministic. */
let now = Date.parse("2025-03-01T12:00:00.000Z");
const advance = (ms: number) => {
  now += ms;
};
const h = useEmulator({ provider: false, openApiStepMs: STEP, clock: () => now });

const base = () => `/orgs/${h.org()}/openapi`;

async function waitComplete(slug: string) {
  advance(2 * STEP);
  const res = await h.call("GET", `${base()}/${slug}`);
  expect(res.body.processingState).toBe("complete");
  return res.body;
}

const PETSTORE = JSON.stringify({ openapi: "3.0.3", info: { title: "Pets", version: "1" }, paths: {} });

describe("OpenAPI specs", () => {
  it("processes a url source pending → progress → complete and records a version", async () => {
    const res = await h.call("POST", base(), { slug: "petstore", source: { url: "https://example.com/openapi.yaml" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: "openapi-spec",
      slug: "petstore",
      processingState: "pending",
      sourceURL: "https://example.com/openapi.yaml",
      lastProcessedErrorCount: 0,
    });
    expect(res.body).not.toHaveProperty("lastVersion");
    const get = async () => (await h.call("GET", `${base()}/petstore`)).body;
    advance(STEP - 1);
    expect((await get()).processingState).toBe("pending");
    advance(1);
    expect((await get()).processingState).toBe("progress");
    expect(await get()).not.toHaveProperty("lastVersion");
    advance(STEP);
    const spec = await get();
    expect(spec.processingState).toBe("complete");
    expect(spec.lastProcessedAt).toBe(new Date(now).toISOString());
    expect(spec.lastVersion).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(spec).not.toHaveProperty("lastProcessErrorCode");

    const latest = await h.call("GET", `${base()}/petstore/versions/latest`);
    expect(latest.body).toMatchObject({
      object: "openapi-spec-version",
      id: spec.lastVersion,
      url: "https://example.com/openapi.yaml",
    });
    const byId = await h.call("GET", `${base()}/petstore/versions/${spec.lastVersion}`);
    expect(byId.body).toEqual(latest.body);
    const content = await h.call("GET", `${base()}/petstore/versions/${spec.lastVersion}/content`);
    expect(content.body.urls.source).toBe("https://example.com/openapi.yaml");
    expect(content.body.urls.public).toBeNull();
    expect((await h.call("GET", `${base()}/petstore/versions/nope`)).status).toBe(404);
  });

  it("records one version per accepted source; PUT answers 201 when creating and 200 when updating", async () => {
    const created = await h.call("PUT", `${base()}/billing`, { source: { text: PETSTORE } });
    expect(created.status).toBe(201);
    const first = await waitComplete("billing");
    const updated = await h.call("PUT", `${base()}/billing`, { source: { text: "openapi: 3.1.0\ninfo: {}\n" } });
    expect(updated.status).toBe(200);
    expect(updated.body.processingState).toBe("pending");
    expect(updated.body.lastVersion).toBe(first.lastVersion);
    const second = await waitComplete("billing");
    expect(second.lastVersion).not.toBe(first.lastVersion);
    const versions = await h.listAll(`${base()}/billing/versions`);
    expect(versions.map((v) => v.id)).toEqual([second.lastVersion, first.lastVersion]);
    const raw = await h.call("GET", `${base()}/billing/versions/latest/content/raw`);
    expect(raw.body).toEqual({ text: "openapi: 3.1.0\ninfo: {}\n", format: "yaml" });
    const firstContent = await h.call("GET", `${base()}/billing/versions/${first.lastVersion}/content`);
    expect(firstContent.body.filesystem["openapi.json"]).toEqual(JSON.parse(PETSTORE));
  });

  it("ends with PARSE_ERROR for an unparseable text source, keeping the previous version", async () => {
    await h.call("POST", base(), { slug: "api", source: { text: PETSTORE } });
    const good = await waitComplete("api");
    await h.call("PUT", `${base()}/api`, { source: { text: "this: is not: openapi {" } });
    const bad = await waitComplete("api");
    expect(bad.lastProcessErrorCode).toBe("PARSE_ERROR");
    expect(bad.lastProcessedErrorCount).toBe(1);
    expect(bad.lastVersion).toBe(good.lastVersion);
    expect((await h.listAll(`${base()}/api/versions`)).length).toBe(1);

    await h.call("POST", base(), { slug: "broken", source: { text: "[1, 2" } });
    const broken = await waitComplete("broken");
    expect(broken.lastProcessErrorCode).toBe("PARSE_ERROR");
    expect(broken).not.toHaveProperty("lastVersion");
    expect((await h.call("GET", `${base()}/broken/versions/latest`)).status).toBe(404);
  });

  it("reports FETCH_ERROR for an unreachable url", async () => {
    await h.call("POST", base(), { slug: "remote", source: { url: "https://unreachable.invalid/openapi.json" } });
    const spec = await waitComplete("remote");
    expect(spec.lastProcessErrorCode).toBe("FETCH_ERROR");
  });

  it("does not lose a source replaced while still processing", async () => {
    await h.call("POST", base(), { slug: "fast", source: { text: PETSTORE } });
    await h.call("PUT", `${base()}/fast`, { source: { url: "https://example.com/v2.json" } });
    await waitComplete("fast");
    const versions = await h.listAll(`${base()}/fast/versions`);
    expect(versions.map((v) => v.url)[0]).toBe("https://example.com/v2.json");
    expect(versions).toHaveLength(2);
  });

  it("changes visibility, lists and deletes specs", async () => {
    await h.call("POST", base(), { slug: "one", source: { text: PETSTORE } });
    await h.call("POST", base(), { slug: "two", source: { text: PETSTORE } });
    const vis = await h.call("PATCH", `${base()}/one`, { visibility: "public" });
    expect(vis.status).toBe(200);
    expect(vis.body.visibility).toBe("public");
    expect((await h.call("PATCH", `${base()}/one`, { visibility: "secret" })).status).toBe(400);
    expect((await h.call("PATCH", `${base()}/nope`, { visibility: "public" })).status).toBe(404);
    expect((await h.listAll(base())).map((s) => s.slug)).toEqual(["one", "two"]);
    expect((await h.call("DELETE", `${base()}/one`)).status).toBe(205);
    expect((await h.call("GET", `${base()}/one`)).status).toBe(404);
    expect((await h.call("GET", `${base()}/one/versions`)).status).toBe(404);
    expect((await h.call("DELETE", `${base()}/one`)).status).toBe(204);
  });

  it("validates slug, source and duplicates", async () => {
    const cases: [unknown, RegExp][] = [
      [{ slug: "bad slug", source: { text: "x" } }, /^slug: must match/],
      [{ slug: "-lead", source: { text: "x" } }, /^slug: must match/],
      [{ slug: "s".repeat(101), source: { text: "x" } }, /^slug: must be at most 100 characters/],
      [{ slug: "ok", source: {} }, /^source: must have exactly one of url, text/],
      [{ slug: "ok", source: { url: "https://a.example", text: "x" } }, /^source: must have exactly one of url, text/],
      [{ slug: "ok", source: { text: "" } }, /^source\.text: must not be empty/],
      [{ slug: "ok", source: { url: "nope" } }, /^source\.url: must be a valid absolute URI/],
      [{ slug: "ok", source: { url: `https://a.example/${"p".repeat(2048)}` } }, /^source\.url: must be at most 2048/],
      [{ slug: "ok", source: { file: "x" } }, /^source\.file: unknown field/],
      [{ slug: "ok" }, /^source: is required/],
    ];
    for (const [body, message] of cases) {
      const res = await h.call("POST", base(), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    expect((await h.call("PUT", `${base()}/bad%20slug`, { source: { text: PETSTORE } })).status).toBe(400);
    expect((await h.call("POST", base(), { slug: "dup", source: { text: PETSTORE } })).status).toBe(201);
    // The official createOpenAPISpec lists 201 and 400 only.
    const dup = await h.call("POST", base(), { slug: "dup", source: { text: PETSTORE } });
    expect(dup.status).toBe(400);
    expect(dup.body.error.message).toMatch(/^slug: an OpenAPI spec "dup" already exists/);
  });
});
