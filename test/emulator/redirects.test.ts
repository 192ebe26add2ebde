import { describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator";

const h = useEmulator({ provider: false });

const sitesPath = () => `/orgs/${h.org()}/sites`;
const external = (url: string) => ({ kind: "external", url });

async function site(): Promise<string> {
  const res = await h.call("POST", sitesPath(), { title: "Docs" });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

const base = (id: string) => `${sitesPath()}/${id}/redirects`;

describe("site redirects", () => {
  it("creates, lists, looks up by source, updates and deletes a redirect", async () => {
    const s = await site();
    const made = await h.call("POST", base(s), { source: "/old", destination: external("https://new.example/") });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      object: "site-redirect",
      source: "/old",
      draft: false,
      permanent: false,
      captureWildcard: false,
      destination: external("https://new.example/"),
    });
    expect(made.body.updatedAt).toBeUndefined();
    expect((await h.listAll(base(s))).map((r) => r.id)).toEqual([made.body.id]);

    const found = await h.call("GET", `${sitesPath()}/${s}/redirect?source=%2Fold`);
    expect(found.body).toEqual({ redirect: made.body, target: "https://new.example/" });
    expect((await h.call("GET", `${sitesPath()}/${s}/redirect?source=%2Fnone`)).status).toBe(404);

    const patched = await h.call("PATCH", `${base(s)}/${made.body.id}`, { source: "/older/*", permanent: true });
    expect(patched.body).toMatchObject({ source: "/older/*", permanent: true });
    expect(patched.body.updatedAt).toMatch(/^\d{4}-/);

    expect((await h.call("DELETE", `${base(s)}/${made.body.id}`)).status).toBe(205);
    expect((await h.call("DELETE", `${base(s)}/${made.body.id}`)).status).toBe(204);
    expect((await h.call("PATCH", `${base(s)}/${made.body.id}`, { permanent: false })).status).toBe(404);
  });

  it("keeps a source unique per site among live (and among draft) redirects", async () => {
    const s = await site();
    const rule = { source: "/a", destination: external("https://x.example/") };
    expect((await h.call("POST", base(s), rule)).status).toBe(201);
    const twice = await h.call("POST", base(s), rule);
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toMatch(/redirect with source "\/a" already exists/);
    expect((await h.call("POST", base(s), { ...rule, draft: true })).status).toBe(201);
    expect((await h.call("POST", base(await site()), rule)).status).toBe(201);
    const other = await h.call("POST", base(s), { ...rule, source: "/b" });
    expect((await h.call("PATCH", `${base(s)}/${other.body.id}`, { source: "/a" })).status).toBe(409);
  });

  it("validates sources, destinations and references to the site's sections and site spaces", async () => {
    const s = await site();
    const post = (body: unknown) => h.call("POST", base(s), body);
    const url = external("https://x.example/");
    expect((await post({ source: "old", destination: url })).body.error.message).toMatch(/^source: must be a path/);
    expect((await post({ source: "/a*/b", destination: url })).status).toBe(400);
    expect((await post({ source: `/${"x".repeat(512)}`, destination: url })).body.error.message).toBe(
      "source: must be at most 512 characters",
    );
    expect((await post({ source: "/a", destination: { kind: "nope" } })).body.error.message).toMatch(
      /^destination\.kind: must be one of external, site-section, site-space, site-page, path/,
    );
    const section = { kind: "site-section", siteSectionId: "missing" };
    expect((await post({ source: "/a", destination: section })).body.error.message).toMatch(
      /destination\.siteSectionId: no section "missing"/,
    );
    const sectionId = (await h.call("POST", `${sitesPath()}/${s}/sections`, { spaceId: h.space(0) })).body.id;
    const ok = await post({ source: "/a", destination: { kind: "site-section", siteSectionId: sectionId } });
    expect(ok.status).toBe(201);
    const target = (await h.call("GET", `${sitesPath()}/${s}/redirect?source=%2Fa`)).body.target;
    expect(target).toMatch(/^https:\/\/acme\.gitbook\.example\//);
  });

  it("lists live redirects by default; draft, search and orderBy filter and sort", async () => {
    const s = await site();
    for (const source of ["/b", "/a", "/c"])
      await h.call("POST", base(s), { source, destination: external("https://x.example/") });
    await h.call("POST", base(s), { source: "/a", draft: true, destination: external("https://x.example/") });
    expect((await h.listAll(`${base(s)}?orderBy=source`)).map((r) => r.source)).toEqual(["/a", "/b", "/c"]);
    expect((await h.listAll(`${base(s)}?draft=true`)).map((r) => [r.source, r.draft])).toEqual([["/a", true]]);
    expect((await h.listAll(`${base(s)}?search=B`)).map((r) => r.source)).toEqual(["/b"]);
    expect((await h.call("GET", `${base(s)}?orderBy=title`)).status).toBe(400);
  });

  it("bulk PUT: upserts, deletes and publishes per item, reporting errors without failing the others", async () => {
    const s = await site();
    const url = external("https://x.example/");
    await h.call("POST", base(s), { source: "/keep", destination: url });
    await h.call("POST", base(s), { source: "/gone", destination: url });
    await h.call("POST", base(s), { source: "/soon", draft: true, destination: external("https://soon.example/") });
    const res = await h.call("PUT", base(s), {
      redirects: [
        { source: "/keep", destination: external("https://moved.example/"), permanent: true },
        { source: "/new", destination: url },
        { source: "/gone", destination: null },
        { source: "/never", destination: null },
        { source: "/soon", intent: "publish" },
        { source: "/bad", destination: { kind: "site-space", siteSpaceId: "missing" } },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { status: string; source: string }) => [r.status, r.source])).toEqual([
      ["updated", "/keep"],
      ["created", "/new"],
      ["deleted", "/gone"],
      ["deleted", "/never"],
      ["published", "/soon"],
      ["error", "/bad"],
    ]);
    expect(res.body.results[5].error).toMatch(/no site space "missing"/);
    const live = await h.listAll(`${base(s)}?orderBy=source`);
    expect(live.map((r) => [r.source, r.destination.url, r.permanent])).toEqual([
      ["/keep", "https://moved.example/", true],
      ["/new", "https://x.example/", false],
      ["/soon", "https://soon.example/", false],
    ]);
    expect(await h.listAll(`${base(s)}?draft=true`)).toEqual([]);
  });

  it("bulk PUT takes 1 to 500 operations", async () => {
    const s = await site();
    const op = (i: number) => ({ source: `/r${i}`, destination: external("https://x.example/") });
    expect((await h.call("PUT", base(s), { redirects: [] })).body.error.message).toBe(
      "redirects: must have at least 1 items",
    );
    const over = await h.call("PUT", base(s), { redirects: Array.from({ length: 501 }, (_, i) => op(i)) });
    expect(over.body.error.message).toBe("redirects: must have at most 500 items");
    const full = await h.call("PUT", base(s), { redirects: Array.from({ length: 500 }, (_, i) => op(i)) });
    expect(full.status).toBe(200);
    expect(h.emulator.store.redirects.size).toBe(500);
  });

  it("deleting a site deletes its redirects", async () => {
    const s = await site();
    await h.call("POST", base(s), { source: "/a", destination: external("https://x.example/") });
    expect((await h.call("DELETE", `${sitesPath()}/${s}`)).status).toBe(205);
    expect(h.emulator.store.redirects.size).toBe(0);
    expect((await h.call("GET", base(s))).status).toBe(404);
  });
});
