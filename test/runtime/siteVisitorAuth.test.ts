import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/framework/unknown";
import { currentOperation, lifecycle, startOperation } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { created, describeLifecycle, expectEachLimitRejected, updateTo } from "../support/lifecycle";

const fixture = useEmulator();
/** A site whose readers sign in, the only kind where visitor authentication takes effect. */
const VISITOR_AUTH = { visibility: "visitor-auth" };
const authPath = (site: string) => `/orgs/${fixture.org()}/sites/${site}/publishing/auth`;
const auth = async (site: string) => (await fixture.api("GET", authPath(site))).body as Record<string, unknown>;
const LOGIN = "https://auth.example.com/login";

let adoptSite: string | undefined;

describeLifecycle(
  {
    kind: "SiteVisitorAuth",
    inputs: async () => ({
      organizationId: fixture.org(),
      siteId: await fixture.makeSite(VISITOR_AUTH),
      fallbackURL: LOGIN,
    }),
    created: (state) => {
      expect(state).toMatchObject({ backend: "custom", fallbackURL: LOGIN, logoutURL: null, rotation: null });
      expect(state.privateKey).toEqual(expect.any(String));
    },
    updates: [
      updateTo("fallbackURL", "https://auth.example.com/again"),
      updateTo("logoutURL", "https://auth.example.com/logout"),
      updateTo("backend", "integration"),
      {
        name: "rotation (a new signing key)",
        inputs: (_f, p) => ({ ...p, rotation: { quarter: "2026-Q4" } }),
        expect: async (state) => {
          expect(state.rotation).toEqual({ quarter: "2026-Q4" });
          expect((await auth(state.siteId as string)).privateKey).toBe(state.privateKey);
        },
      },
    ],
    replaces: [
      { property: "siteId", inputs: async (_f, p) => ({ ...p, siteId: await fixture.makeSite(VISITOR_AUTH) }) },
      { property: "organizationId", inputs: (f, p) => ({ ...p, organizationId: f.emulator.secondOrganizationId }) },
    ],
    outOfBand: {
      change: async (id) => {
        const body = { backend: "custom", fallbackURL: "https://elsewhere.example.com/" };
        expect((await fixture.api("PATCH", authPath(id), body)).status).toBe(200);
      },
      expect: (state) => expect(state.fallbackURL).toBe("https://elsewhere.example.com/"),
    },
    adopt: {
      existing: async () => {
        adoptSite = await fixture.makeSite(VISITOR_AUTH);
        expect((await fixture.api("PATCH", authPath(adoptSite), { backend: "custom" })).status).toBe(200);
        return adoptSite;
      },
      inputs: async () => ({
        organizationId: fixture.org(),
        siteId: adoptSite ?? (await fixture.makeSite(VISITOR_AUTH)),
        fallbackURL: LOGIN,
      }),
      expect: (state) => expect(state.fallbackURL).toBe(LOGIN),
    },
    deleteKeepsObject: "every site has its publishing authentication; delete unsets the URLs",
  },
  fixture,
);

describe("SiteVisitorAuth behaviour", () => {
  it("makes a new key only when rotation changes", async () => {
    const { id, state, inputs } = await created("SiteVisitorAuth", {
      organizationId: fixture.org(),
      siteId: await fixture.makeSite(VISITOR_AUTH),
      rotation: { quarter: "2026-Q3" },
    });
    const moved = { ...inputs, fallbackURL: LOGIN };
    const first = (await lifecycle("SiteVisitorAuth").update(id, state, moved)).outs;
    expect(first.privateKey).toBe(state.privateKey);
    fixture.emulator.clearRequests();
    const rotated = (
      await lifecycle("SiteVisitorAuth").update(id, first, { ...moved, rotation: { quarter: "2026-Q4" } })
    ).outs;
    expect(rotated.privateKey).not.toBe(state.privateKey);
    expect(fixture.emulator.requests().map((r) => `${r.method} ${r.route}`)).toEqual([
      "POST /v1/orgs/{organizationId}/sites/{siteId}/publishing/auth/regenerate",
    ]);
  });

  it("keeps the site's key on create, adopts writing nothing when the settings match, and stores the key as a secret", async () => {
    const siteId = await fixture.makeSite(VISITOR_AUTH);
    const key = (await auth(siteId)).privateKey;
    expect((await created("SiteVisitorAuth", { organizationId: fixture.org(), siteId })).state.privateKey).toBe(key);
    fixture.emulator.clearRequests();
    const checked = await lifecycle("SiteVisitorAuth").check(
      {},
      { organizationId: fixture.org(), siteId, importId: siteId },
    );
    await lifecycle("SiteVisitorAuth").create(checked.inputs!);
    expect(fixture.emulator.requests().map((r) => r.method)).toEqual(["GET"]);
    expect(lifecycle("SiteVisitorAuth").definition.secretOutputs).toEqual(["privateKey"]);
  });

  it("delete unsets the URLs and keeps the key", async () => {
    const { id, state } = await created("SiteVisitorAuth", {
      organizationId: fixture.org(),
      siteId: await fixture.makeSite(VISITOR_AUTH),
      fallbackURL: LOGIN,
      logoutURL: "https://auth.example.com/logout",
    });
    await lifecycle("SiteVisitorAuth").delete(id, state);
    expect(await auth(id)).toEqual({ object: "publishing-auth", backend: "custom", privateKey: state.privateKey });
  });

  it("rejects bad values offline", async () => {
    const valid = { organizationId: fixture.org(), siteId: "site" };
    await expectEachLimitRejected("SiteVisitorAuth", valid, [
      [{ backend: "saml" }, "backend", /custom|one of/],
      [{ fallbackURL: "not a url" }, "fallbackURL", /URL|url/],
      [{ logoutURL: "javascript:alert(1)" }, "logoutURL", /URL|url/],
      [{ rotation: { quarter: 4 } }, "rotation.quarter", /string/],
    ]);
    expect(fixture.emulator.requests()).toEqual([]);
  });
});

describe("a visitor-auth site without SiteVisitorAuth", () => {
  const site = (title: string, visibility = "visitor-auth") => ({ organizationId: fixture.org(), title, visibility });

  it("is warned about when the program declares none for it", async () => {
    await lifecycle("Site").check({}, site("Handbook"));
    await lifecycle("Site").check({}, site("Public", "public"));
    expect(currentOperation().companions.missing()).toEqual([
      expect.stringMatching(
        /^Site "Handbook" has visibility: "visitor-auth" but the program declares no SiteVisitorAuth for it: .*Declare a SiteVisitorAuth/,
      ),
    ]);
  });

  it("is not warned about when a SiteVisitorAuth for it is declared (new site, or by id)", async () => {
    await lifecycle("Site").check({}, site("Handbook"));
    await lifecycle("SiteVisitorAuth").check({}, { organizationId: fixture.org(), siteId: UNKNOWN });
    expect(currentOperation().companions.missing()).toEqual([]);
    startOperation();
    const siteId = await fixture.makeSite(VISITOR_AUTH);
    await lifecycle("Site").check({}, site("Handbook"));
    await lifecycle("Site").diff(siteId, site("Handbook"), site("Handbook"));
    await lifecycle("SiteVisitorAuth").check({}, { organizationId: fixture.org(), siteId: "another-site" });
    expect(currentOperation().companions.missing()).toEqual([expect.stringContaining(`Site "Handbook" ("${siteId}")`)]);
    await lifecycle("SiteVisitorAuth").check({}, { organizationId: fixture.org(), siteId });
    expect(currentOperation().companions.missing()).toEqual([]);
  });
});
