import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/framework/unknown";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { created, describeLifecycle, expectEachLimitRejected, type LimitCase, updateTo } from "../support/lifecycle";

const fixture = useEmulator();
/** A site whose visibility is `share-link`, the only kind where a share link takes effect. */
const SHARE_LINK = { visibility: "share-link" };
const linksPath = (site: unknown) => `/orgs/${fixture.org()}/sites/${site}/share-links`;

let adoptSite: string | undefined;

describeLifecycle(
  {
    kind: "SiteShareLink",
    inputs: async () => ({
      organizationId: fixture.org(),
      siteId: await fixture.makeSite(SHARE_LINK),
      name: "Partners",
    }),
    created: (state) => {
      expect(state).toMatchObject({ name: "Partners", active: true });
      expect(state.url).toMatch(/^https?:\/\/.*token=/);
      expect(state.createdAt).toMatch(/^\d{4}-/);
    },
    updates: [
      updateTo("name", "Customers"),
      {
        name: "active (deactivate)",
        inputs: (_f, p) => ({ ...p, active: false }),
        expect: (s) => {
          expect(s.active).toBe(false);
          const patch = fixture.emulator.requests().findLast((r) => r.method === "PATCH");
          expect(patch?.requestBody).toEqual({ active: false });
        },
      },
    ],
    replaces: [
      { property: "siteId", inputs: async (_f, p) => ({ ...p, siteId: await fixture.makeSite(SHARE_LINK) }) },
      { property: "organizationId", inputs: (f, p) => ({ ...p, organizationId: f.emulator.secondOrganizationId }) },
    ],
    outOfBand: {
      change: async (id) => {
        const site = fixture.emulator.store.shareLinks.get(id)?.siteId;
        expect((await fixture.api("PATCH", `${linksPath(site)}/${id}`, { active: false })).status).toBe(200);
      },
      // `active` defaults to true, so a link deactivated by hand is drift.
      expect: (state) => expect(state.active).toBe(false),
    },
    adopt: {
      existing: async () => {
        adoptSite = await fixture.makeSite(SHARE_LINK);
        return fixture.apiCreate(linksPath(adoptSite), { name: "Old" });
      },
      inputs: async () => ({
        organizationId: fixture.org(),
        siteId: adoptSite ?? (await fixture.makeSite(SHARE_LINK)),
        name: "Adopted",
      }),
      expect: (state) => expect(state).toMatchObject({ name: "Adopted", active: true }),
    },
  },
  fixture,
);

describe("SiteShareLink behaviour", () => {
  it("creates an inactive link when asked (POST, then PATCH active: false)", async () => {
    const { state } = await created("SiteShareLink", {
      organizationId: fixture.org(),
      siteId: await fixture.makeSite(SHARE_LINK),
      name: "Later",
      active: false,
    });
    expect(state.active).toBe(false);
    expect(fixture.emulator.requests().map((r) => [r.method, r.requestBody])).toContainEqual([
      "POST",
      { name: "Later" },
    ]);
  });

  it("declares url, which holds the secret token, as a secret output", () => {
    const { definition } = lifecycle("SiteShareLink");
    expect(definition.secretOutputs).toEqual(["url"]);
    expect(definition.outputs).toContain("url");
  });

  it("drops the site's shared listings after a write, so the next read sees the write", async () => {
    const { id, state, inputs } = await created("SiteShareLink", {
      organizationId: fixture.org(),
      siteId: await fixture.makeSite(SHARE_LINK),
      name: "a",
    });
    await lifecycle("SiteShareLink").read(id, state);
    const { outs } = await lifecycle("SiteShareLink").update(id, state, { ...inputs, name: "b" });
    expect((await lifecycle("SiteShareLink").read(id, outs)).props?.name).toBe("b");
  });

  it("reads the links of one site with one listing", async () => {
    const siteId = await fixture.makeSite(SHARE_LINK);
    const links = [];
    for (const name of ["a", "b", "c"])
      links.push(await created("SiteShareLink", { organizationId: fixture.org(), siteId, name }));
    fixture.emulator.clearRequests();
    const reads = await Promise.all(links.map(({ id, state }) => lifecycle("SiteShareLink").read(id, state)));
    expect(reads.map((r) => r.props?.name)).toEqual(["a", "b", "c"]);
    expect(fixture.emulator.counters()["GET /v1/orgs/{organizationId}/sites/{siteId}/share-links"]).toBe(1);
  });
});

describe("SiteShareLink check", () => {
  const check = (news: Record<string, unknown>) => lifecycle("SiteShareLink").check({}, news);
  const valid = () => ({ organizationId: fixture.org(), siteId: "site", name: "ok" });

  it("rejects each limit with the property and the rule, without calling the API", async () => {
    const cases: LimitCase[] = [
      [{ name: "x".repeat(51) }, "name", /at most 50 characters/],
      [{ name: undefined }, "name", /must be a string/],
      [{ active: "no" }, "active", /must be a boolean/],
      [{ siteId: "" }, "siteId", /must be an id/],
      [{ organizationId: "" }, "organizationId", /must be an id/],
      [{ url: "https://x" }, "url", /unknown property url/],
    ];
    await expectEachLimitRejected("SiteShareLink", valid(), cases);
    expect(fixture.emulator.requests()).toEqual([]);
  });

  it("accepts values at the exact limits and defaults active to true", async () => {
    expect((await check({ ...valid(), name: "" })).inputs).toMatchObject({ name: "", active: true });
    expect((await check({ ...valid(), name: "x".repeat(50), active: false })).failures).toBeUndefined();
  });

  it("lets unknown values through during preview", async () => {
    expect((await check({ ...valid(), siteId: UNKNOWN, name: UNKNOWN })).failures).toBeUndefined();
  });
});
