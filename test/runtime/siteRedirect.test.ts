import { afterEach, describe, expect, it, vi } from "vitest";
import { ECHO_LIMIT } from "../../provider/framework/inputRules";
import { UNKNOWN } from "../../provider/framework/unknown";
import { redirectOperations } from "../../provider/resources/siteRedirects";
import { lifecycle, startOperation } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { created, describeLifecycle, expectEachLimitRejected, type LimitCase, updateTo } from "../support/lifecycle";

const fixture = useEmulator();
const sitePath = (site: unknown) => `/orgs/${fixture.org()}/sites/${site}`;
const redirectsPath = (site: unknown) => `${sitePath(site)}/redirects`;
const LISTING = "GET /v1/orgs/{organizationId}/sites/{siteId}/redirects";
const BULK = "PUT /v1/orgs/{organizationId}/sites/{siteId}/redirects";

const external = (url: string) => ({ kind: "external" as const, url });
const rule = (source: string, url = `https://new.example${source}`) => ({ source, destination: external(url) });
/** A rule as check defaults it and state holds it. */
const full = (source: string, url?: string) => ({ ...rule(source, url), permanent: false, captureWildcard: false });
const sources = (state: Record<string, unknown>) => (state.redirects as { source: string }[]).map((r) => r.source);

let adoptSite: string | undefined;

describeLifecycle(
  {
    kind: "SiteRedirect",
    inputs: async () => ({ organizationId: fixture.org(), siteId: await fixture.makeSite(), ...rule("/old") }),
    created: (state) => {
      expect(state).toMatchObject({ ...full("/old") });
      expect(state.createdAt).toMatch(/^\d{4}-/);
    },
    updates: [
      updateTo("source", "/older/*"),
      updateTo("destination", external("https://elsewhere.example/")),
      updateTo("permanent", true),
      updateTo("captureWildcard", true),
      {
        name: "destination (to a section of the site)",
        inputs: async (f, p) => {
          const section = await f.makeSection(p.siteId as string, f.space(0));
          return { ...p, destination: { kind: "site-section", siteSectionId: section } };
        },
        expect: (state) => {
          expect((state.destination as { kind: string }).kind).toBe("site-section");
          const patch = fixture.emulator.requests().findLast((r) => r.method === "PATCH");
          expect(Object.keys(patch?.requestBody as object)).toEqual(["destination"]);
        },
      },
    ],
    replaces: [
      { property: "siteId", inputs: async (_f, p) => ({ ...p, siteId: await fixture.makeSite() }) },
      { property: "organizationId", inputs: (f, p) => ({ ...p, organizationId: f.emulator.secondOrganizationId }) },
    ],
    outOfBand: {
      change: async (id) => {
        const site = fixture.emulator.store.redirects.get(id)?.siteId;
        expect((await fixture.api("PATCH", `${redirectsPath(site)}/${id}`, { permanent: true })).status).toBe(200);
      },
      expect: (state) => expect(state.permanent).toBe(true),
    },
    adopt: {
      existing: async () => {
        adoptSite = await fixture.makeSite();
        return fixture.apiCreate(redirectsPath(adoptSite), rule("/legacy", "https://old.example/"));
      },
      inputs: async () => ({
        organizationId: fixture.org(),
        siteId: adoptSite ?? (await fixture.makeSite()),
        ...rule("/legacy"),
      }),
      expect: (state) => expect(state).toMatchObject(full("/legacy")),
    },
  },
  fixture,
);

describeLifecycle(
  {
    kind: "SiteRedirects",
    inputs: async () => ({
      organizationId: fixture.org(),
      siteId: await fixture.makeSite(),
      redirects: [rule("/a"), rule("/b/*")],
    }),
    created: (state) => expect(state.redirects).toEqual([full("/a"), full("/b/*")]),
    updates: [
      {
        name: "redirects (one added, one changed, one removed)",
        inputs: (_f, p) => ({ ...p, redirects: [rule("/a", "https://moved.example/"), rule("/c")] }),
        expect: (state) => {
          expect(state.redirects).toEqual([full("/a", "https://moved.example/"), full("/c")]);
          const put = fixture.emulator.requests().findLast((r) => r.method === "PUT");
          expect(put?.requestBody).toEqual({
            redirects: [
              { source: "/b/*", intent: "live", destination: null },
              { ...full("/a", "https://moved.example/"), intent: "live" },
              { ...full("/c"), intent: "live" },
            ],
          });
        },
      },
    ],
    replaces: [
      { property: "siteId", inputs: async (_f, p) => ({ ...p, siteId: await fixture.makeSite() }) },
      { property: "organizationId", inputs: (f, p) => ({ ...p, organizationId: f.emulator.secondOrganizationId }) },
    ],
    outOfBand: {
      change: async (id) => {
        await fixture.apiCreate(redirectsPath(id), rule("/by-hand"));
      },
      expect: (state) => expect(sources(state)).toEqual(["/a", "/b/*", "/by-hand"]),
    },
    adopt: {
      existing: async () => {
        adoptSite = await fixture.makeSite();
        await fixture.apiCreate(redirectsPath(adoptSite), rule("/kept"));
        await fixture.apiCreate(redirectsPath(adoptSite), rule("/dropped"));
        return adoptSite;
      },
      inputs: async () => ({
        organizationId: fixture.org(),
        siteId: adoptSite ?? (await fixture.makeSite()),
        redirects: [rule("/kept"), rule("/new")],
      }),
      expect: (state) => expect(sources(state)).toEqual(["/kept", "/new"]),
    },
    deleteKeepsObject: "the site stays, with no live redirects",
  },
  fixture,
);

describe("SiteRedirect behaviour", () => {
  it("reads the redirects of one site with one listing", async () => {
    const siteId = await fixture.makeSite();
    const made = [];
    for (const source of ["/a", "/b", "/c"])
      made.push(await created("SiteRedirect", { organizationId: fixture.org(), siteId, ...rule(source) }));
    fixture.emulator.clearRequests();
    const reads = await Promise.all(made.map(({ id, state }) => lifecycle("SiteRedirect").read(id, state)));
    expect(reads.map((r) => r.props?.source)).toEqual(["/a", "/b", "/c"]);
    expect(fixture.emulator.counters()).toEqual({ [LISTING]: 1 });
  });

  it("a redirect deleted by hand is gone on refresh", async () => {
    const { id, state } = await created("SiteRedirect", {
      organizationId: fixture.org(),
      siteId: await fixture.makeSite(),
      ...rule("/x"),
    });
    expect((await fixture.api("DELETE", `${redirectsPath(state.siteId)}/${id}`)).status).toBe(205);
    expect((await lifecycle("SiteRedirect").read(id, state)).id).toBe("");
  });

  it("a create whose answer was lost adopts the redirect of its source instead of making a second", async () => {
    const inputs = { organizationId: fixture.org(), siteId: await fixture.makeSite(), ...rule("/lost") };
    fixture.emulator.injectFault({ method: "POST", path: "/redirects$", afterHandling: "drop" });
    const { id } = await created("SiteRedirect", inputs);
    const listed = await fixture.listAll(redirectsPath(inputs.siteId));
    expect(listed.map((r) => r.id)).toEqual([id]);
    expect(fixture.calls().filter((c) => c.startsWith("POST") && c.endsWith("/redirects"))).toHaveLength(1);
    expect(fixture.calls()).toContain(`GET /v1${sitePath(inputs.siteId)}/redirect`);
  });

  it("a create lost before the API acted finds nothing by its source and is repeated once", async () => {
    const inputs = { organizationId: fixture.org(), siteId: await fixture.makeSite(), ...rule("/lost") };
    fixture.emulator.injectFault({ method: "POST", path: "/redirects$", drop: true });
    const { id } = await created("SiteRedirect", inputs);
    expect((await fixture.listAll(redirectsPath(inputs.siteId))).map((r) => r.id)).toEqual([id]);
    expect(fixture.calls().filter((c) => c.startsWith("POST") && c.endsWith("/redirects"))).toHaveLength(2);
  });

  it("a source another redirect of the site holds is a 409 that suggests importId", async () => {
    const siteId = await fixture.makeSite();
    await fixture.apiCreate(redirectsPath(siteId), rule("/taken"));
    const error = await created("SiteRedirect", { organizationId: fixture.org(), siteId, ...rule("/taken") }).catch(
      (e: Error) => e.message,
    );
    expect(error).toMatch(/SiteRedirect create: .*already exists.*importId/);
  });

  it("adoption that matches the declared rule writes nothing", async () => {
    const siteId = await fixture.makeSite();
    const existing = await fixture.apiCreate(redirectsPath(siteId), rule("/same"));
    fixture.emulator.clearRequests();
    const { id } = await created("SiteRedirect", {
      organizationId: fixture.org(),
      siteId,
      ...rule("/same"),
      importId: existing,
    });
    expect(id).toBe(existing);
    expect(fixture.calls()).toEqual([`GET /v1${redirectsPath(siteId)}`]);
  });
});

describe("SiteRedirects behaviour", () => {
  it("creates hundreds of rules with one bulk request, and an unchanged update sends nothing", async () => {
    const siteId = await fixture.makeSite();
    const redirects = Array.from({ length: 500 }, (_, i) => rule(`/page-${String(i).padStart(3, "0")}`));
    fixture.emulator.clearRequests();
    const { id, state, inputs } = await created("SiteRedirects", { organizationId: fixture.org(), siteId, redirects });
    expect(fixture.emulator.counters()[BULK]).toBe(1);
    expect(sources(state)).toHaveLength(500);
    expect((await lifecycle("SiteRedirects").diff(id, state, inputs)).changes).toBe(false);
    fixture.emulator.clearRequests();
    await lifecycle("SiteRedirects").update(id, state, inputs);
    expect(fixture.calls()).toEqual([]);
  });

  it("splits more than 500 operations into requests of at most 500", async () => {
    const siteId = await fixture.makeSite();
    const first = Array.from({ length: 400 }, (_, i) => rule(`/a-${i}`));
    const { id, state, inputs } = await created("SiteRedirects", {
      organizationId: fixture.org(),
      siteId,
      redirects: first,
    });
    const second = Array.from({ length: 400 }, (_, i) => rule(`/b-${i}`));
    fixture.emulator.clearRequests();
    const { outs } = await lifecycle("SiteRedirects").update(id, state, { ...inputs, redirects: second });
    const puts = fixture.emulator.requests().filter((r) => r.method === "PUT");
    expect(puts.map((r) => (r.requestBody as { redirects: unknown[] }).redirects.length)).toEqual([500, 300]);
    expect(sources(outs)).toHaveLength(400);
    expect(sources(outs).every((source) => source.startsWith("/b-"))).toBe(true);
  });

  it("a redirect removed by hand is drift that the next update puts back", async () => {
    const { id, state, inputs } = await created("SiteRedirects", {
      organizationId: fixture.org(),
      siteId: await fixture.makeSite(),
      redirects: [rule("/a"), rule("/b")],
    });
    const [gone] = (await fixture.listAll(redirectsPath(id))).filter((r) => r.source === "/b");
    await fixture.api("DELETE", `${redirectsPath(id)}/${gone.id}`);
    const read = await lifecycle("SiteRedirects").read(id, state);
    expect(sources(read.props ?? {})).toEqual(["/a"]);
    expect((await lifecycle("SiteRedirects").diff(id, read.props ?? {}, inputs)).changes).toBe(true);
    const { outs } = await lifecycle("SiteRedirects").update(id, read.props ?? {}, inputs);
    expect(sources(outs)).toEqual(["/a", "/b"]);
  });

  it("delete removes every live redirect of the site, also ones added by hand, and leaves drafts", async () => {
    const { id, state } = await created("SiteRedirects", {
      organizationId: fixture.org(),
      siteId: await fixture.makeSite(),
      redirects: [rule("/a")],
    });
    await fixture.apiCreate(redirectsPath(id), rule("/by-hand"));
    await fixture.apiCreate(redirectsPath(id), { ...rule("/draft"), draft: true });
    fixture.emulator.clearRequests();
    await lifecycle("SiteRedirects").delete(id, state);
    expect(fixture.calls()).toEqual([`GET /v1${redirectsPath(id)}`, `PUT /v1${redirectsPath(id)}`]);
    expect(await fixture.listAll(redirectsPath(id))).toEqual([]);
    expect((await fixture.listAll(`${redirectsPath(id)}?draft=true`)).map((r) => r.source)).toEqual(["/draft"]);
  });

  it("reports the items the API refused, naming their sources, and applies the rest", async () => {
    const siteId = await fixture.makeSite();
    const error = await created("SiteRedirects", {
      organizationId: fixture.org(),
      siteId,
      redirects: [rule("/ok"), { source: "/bad", destination: { kind: "site-section", siteSectionId: "missing" } }],
    }).catch((e: Error) => e.message);
    expect(error).toMatch(/the API refused 1 of 2 redirect operations \("\/bad": .*no section "missing"/);
    expect((await fixture.listAll(redirectsPath(siteId))).map((r) => r.source)).toEqual(["/ok"]);
  });

  it("reads through the listing SiteRedirect reads share: one request per site", async () => {
    const { id, state } = await created("SiteRedirects", {
      organizationId: fixture.org(),
      siteId: await fixture.makeSite(),
      redirects: [rule("/a")],
    });
    fixture.emulator.clearRequests();
    await lifecycle("SiteRedirects").read(id, state);
    expect(fixture.emulator.counters()).toEqual({ [LISTING]: 1 });
  });

  it("check stores the rules by source, so a preview shows one rule added as that rule; the state keeps the list", async () => {
    const siteId = await fixture.makeSite();
    const { id, state, inputs } = await created("SiteRedirects", {
      organizationId: fixture.org(),
      siteId,
      redirects: [rule("/b"), rule("/a")],
    });
    const { source: _a, ...a } = full("/a");
    const { source: _b, ...b } = full("/b");
    // The CLI prints the diff of the old and new stored inputs itself, arrays by position, objects by key.
    expect(inputs.redirects).toEqual({ "/b": b, "/a": a });
    expect(state.redirects).toEqual([full("/a"), full("/b")]);
    expect((await lifecycle("SiteRedirects").diff(id, state, inputs)).changes).toBe(false);

    const next = (await lifecycle("SiteRedirects").check(inputs, { ...inputs, redirects: [rule("/b"), rule("/0")] }))
      .inputs as Record<string, unknown>;
    expect(Object.keys(next.redirects as object)).toEqual(["/b", "/0"]);
    expect((await lifecycle("SiteRedirects").diff(id, state, next)).changes).toBe(true);
    fixture.emulator.clearRequests();
    const { outs } = await lifecycle("SiteRedirects").update(id, state, next);
    expect(fixture.emulator.requests().find((r) => r.method === "PUT")?.requestBody).toEqual({
      redirects: [
        { source: "/a", intent: "live", destination: null },
        { ...full("/0"), intent: "live" },
      ],
    });
    expect(outs.redirects).toEqual([full("/0"), full("/b")]);
  });

  it("inputs stored as a list by earlier versions still check, diff, update and refresh", async () => {
    const { id, state } = await created("SiteRedirects", {
      organizationId: fixture.org(),
      siteId: await fixture.makeSite(),
      redirects: [rule("/a")],
    });
    const stored = { organizationId: fixture.org(), siteId: id, redirects: [full("/a")] };
    expect((await lifecycle("SiteRedirects").check(stored, stored)).failures).toBeUndefined();
    expect((await lifecycle("SiteRedirects").diff(id, state, stored)).changes).toBe(false);
    const added = { ...stored, redirects: [full("/a"), full("/b")] };
    expect((await lifecycle("SiteRedirects").diff(id, state, added)).changes).toBe(true);
    const { outs } = await lifecycle("SiteRedirects").update(id, state, added);
    expect(sources(outs)).toEqual(["/a", "/b"]);
    // A refresh replaces the stored inputs with the keyed form the next preview compares with.
    const { source: _a, ...a } = full("/a");
    const { source: _b, ...b } = full("/b");
    expect((await lifecycle("SiteRedirects").read(id, outs)).inputs?.redirects).toEqual({ "/a": a, "/b": b });
  });

  it("docs-platform import's lookup reports the rules as the list a program declares", async () => {
    const siteId = await fixture.makeSite();
    await fixture.apiCreate(redirectsPath(siteId), rule("/kept"));
    const found = await lifecycle("SiteRedirects").lookup(siteId, { organizationId: fixture.org(), siteId });
    expect(found.inputs?.redirects).toEqual([full("/kept")]);
  });

  it("a list whose sources are not known yet at preview stays a list", async () => {
    const result = await lifecycle("SiteRedirects").check(
      {},
      { organizationId: fixture.org(), siteId: "site", redirects: [rule("/a"), { ...rule("/b"), source: UNKNOWN }] },
    );
    expect(result.failures).toBeUndefined();
    expect(Array.isArray(result.inputs?.redirects)).toBe(true);
  });

  it("plans deletions of unlisted sources and upserts of new or changed rules only", () => {
    const current = [full("/keep"), full("/change"), full("/drop")];
    const desired = [full("/keep"), full("/change", "https://x.example/"), full("/add")];
    expect(redirectOperations(current, desired).map((op) => [op.source, op.destination === null])).toEqual([
      ["/drop", true],
      ["/change", false],
      ["/add", false],
    ]);
  });
});

describe("redirect checks", () => {
  const valid = () => ({ organizationId: fixture.org(), siteId: "site", ...rule("/ok") });

  it("rejects each limit of a SiteRedirect with the property and the rule, without calling the API", async () => {
    fixture.emulator.clearRequests();
    const cases: LimitCase[] = [
      [{ source: "old" }, "source", /must be a path/],
      [{ source: "/*" }, "source", /must be a path/],
      [{ source: "/a*/b" }, "source", /must be a path/],
      [{ source: "/a b" }, "source", /must be a path/],
      [{ source: `/${"x".repeat(512)}` }, "source", /at most 512 characters/],
      [{ destination: { kind: "external", url: "ftp://x.example" } }, "destination.url", /URL/i],
      [
        { destination: { kind: "path", spaceId: "s", path: "a" } },
        "destination.kind",
        /^SiteRedirect\.destination\.kind: must be one of "external", "site-section", "site-space", "site-page"$/,
      ],
      [{ destination: { kind: "site-section", siteSectionId: ".." } }, "destination.siteSectionId", /must be an id/],
      [{ destination: { kind: "site-page", siteSpaceId: "s" } }, "destination.pageId", /must be a string/],
      [{ permanent: "yes" }, "permanent", /must be a boolean/],
    ];
    await expectEachLimitRejected("SiteRedirect", valid(), cases);
    expect(fixture.emulator.requests()).toEqual([]);
  });

  it("accepts the official source shapes and a 512-character source", async () => {
    for (const source of ["/a", "/a/b-c_d.e~f+g", "/docs/*", "/docs*", "/%7Euser", `/${"x".repeat(511)}`]) {
      const result = await lifecycle("SiteRedirect").check({}, { ...valid(), source });
      expect(result.failures, source).toBeUndefined();
    }
  });

  it("rejects duplicate sources and more than 500 rules in a SiteRedirects", async () => {
    const base = { organizationId: fixture.org(), siteId: "site" };
    const cases: LimitCase[] = [
      [{ redirects: [rule("/a"), rule("/b"), rule("/a")] }, "redirects.2.source", /also the source of redirects\[0\]/],
      [{ redirects: [{ source: "nope", destination: external("https://x.example") }] }, "redirects.0.source", /path/],
      [{ redirects: Array.from({ length: 501 }, (_, i) => rule(`/r${i}`)) }, "redirects", /at most 500/, "hidden"],
    ];
    await expectEachLimitRejected("SiteRedirects", base, cases);
    const atLimit = Array.from({ length: 500 }, (_, i) => rule(`/r${i}`));
    expect((await lifecycle("SiteRedirects").check({}, { ...base, redirects: atLimit })).failures).toBeUndefined();
  });

  it("a failure in a list too long to echo names the rule without the list", async () => {
    const redirects = Array.from({ length: 200 }, (_, i) => rule(`/r${i}`));
    redirects.push(rule("/r7"));
    expect(JSON.stringify(redirects).length).toBeGreaterThan(ECHO_LIMIT);
    const result = await lifecycle("SiteRedirects").check(
      {},
      { organizationId: fixture.org(), siteId: "s", redirects },
    );
    expect(result.failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(
          /^SiteRedirects\.redirects\.200\.source: .*redirects\[7\].*\(value not shown: too long\)$/,
        ),
      },
    ]);
  });

  it("lets unknown values through during preview", async () => {
    expect((await lifecycle("SiteRedirect").check({}, { ...valid(), siteId: UNKNOWN })).failures).toBeUndefined();
    const destination = { kind: "site-section", siteSectionId: UNKNOWN };
    expect((await lifecycle("SiteRedirect").check({}, { ...valid(), destination })).failures).toBeUndefined();
  });
});

describe("a SiteRedirect and a SiteRedirects on one site", () => {
  afterEach(() => vi.restoreAllMocks());

  it("warn once at preview, naming the site and the fix; other sites are fine", async () => {
    startOperation();
    const stderr: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      stderr.push(String(chunk));
      return true;
    });
    const base = { organizationId: "org1" };
    await lifecycle("SiteRedirects").check({}, { ...base, siteId: "site1", redirects: [rule("/a")] });
    await lifecycle("SiteRedirect").check({}, { ...base, siteId: "site2", ...rule("/b") });
    expect(stderr).toEqual([]);
    await lifecycle("SiteRedirect").check({}, { ...base, siteId: "site1", ...rule("/b") });
    await lifecycle("SiteRedirect").check({}, { ...base, siteId: "site1", ...rule("/c") });
    expect(stderr).toEqual([
      expect.stringMatching(
        /^warning: SiteRedirect and SiteRedirects are both declared under siteId "site1": a SiteRedirects owns every .*Move the SiteRedirect's rule into the SiteRedirects' redirects list\.\n$/,
      ),
    ]);
    // Named in the same order when the SiteRedirect is checked first.
    await lifecycle("SiteRedirect").check({}, { ...base, siteId: "site3", ...rule("/d") });
    await lifecycle("SiteRedirects").check({}, { ...base, siteId: "site3", redirects: [] });
    expect(stderr[1]).toMatch(/^warning: SiteRedirect and SiteRedirects are both declared under siteId "site3"/);
  });
});
