import { describe, expect, it } from "vitest";
import { newSiteCustomization } from "../../emulator/families/siteSettings/siteBranding";
import { SITE_CUSTOMIZATION_DEFAULTS } from "../../provider/client";
import { redirectLog } from "../../provider/framework/log";
import { lifecycle } from "../../provider/runtime";
import { type Json, useEmulator } from "../support/emulator";
import { created, describeLifecycle, expectEachLimitRejected } from "../support/lifecycle";

const fixture = useEmulator();
const path = (site: string) => `/orgs/${fixture.org()}/sites/${site}/customization`;
const settings = async (site: string) => (await fixture.api("GET", path(site))).body as Json;
/** A change by hand: GET, change, PUT (the API has only the full replacement). */
async function byHand(site: string, change: (current: Json) => void) {
  const { updatedAt: _u, ...current } = await settings(site);
  change(current);
  expect((await fixture.api("PUT", path(site), current)).status).toBe(200);
}
const logo = { light: "https://example.com/logo.png", dark: "https://example.com/logo-dark.png" };
const statusLink = { title: "Status", to: { kind: "url", url: "https://status.example.com" }, links: [] };
const base = async () => ({
  organizationId: fixture.org(),
  siteId: await fixture.makeSite(),
  styling: { theme: "bold" },
  header: { links: [statusLink] },
  pagination: { enabled: false },
});

let adoptSite: string | undefined;

describeLifecycle(
  {
    kind: "SiteCustomization",
    inputs: base,
    created: (state) => {
      expect(state.styling).toEqual({ theme: "bold" });
      expect(state.header).toEqual({ links: [statusLink] });
      expect(state.footer).toBeUndefined();
    },
    updates: [
      {
        name: "a field of a section (styling.theme)",
        inputs: (_f, p) => ({ ...p, styling: { theme: "gradient" } }),
        expect: (state) => expect(state.styling).toEqual({ theme: "gradient" }),
      },
      {
        name: "a newly declared section (announcement)",
        inputs: (_f, p) => ({ ...p, announcement: { enabled: true, message: "Hello", style: "info" } }),
        expect: (state) => expect(state.announcement).toEqual({ enabled: true, message: "Hello", style: "info" }),
      },
      {
        name: "a field added to a section (header.logo)",
        inputs: (_f, p) => ({ ...p, header: { ...(p.header as object), logo } }),
        expect: (state) => expect(state.header).toEqual({ links: [statusLink], logo }),
      },
    ],
    replaces: [
      { property: "siteId", inputs: async (_f, p) => ({ ...p, siteId: await fixture.makeSite() }) },
      { property: "organizationId", inputs: (f, p) => ({ ...p, organizationId: f.emulator.secondOrganizationId }) },
    ],
    outOfBand: {
      change: (id) => byHand(id, (c) => (c.styling.theme = "muted")),
      expect: (state) => expect(state.styling).toEqual({ theme: "muted" }),
    },
    adopt: {
      existing: async () => {
        adoptSite = await fixture.makeSite();
        await byHand(adoptSite, (c) => (c.styling.theme = "bold"));
        return adoptSite;
      },
      inputs: async () => ({
        organizationId: fixture.org(),
        siteId: adoptSite ?? (await fixture.makeSite()),
        styling: { theme: "muted" },
      }),
      expect: (state) => expect(state.styling).toEqual({ theme: "muted" }),
    },
    deleteKeepsObject: "every site has a customization; delete puts the declared parts back to their defaults",
  },
  fixture,
);

describe("SiteCustomization behaviour", () => {
  it("writes the declared parts over what the site has: one GET and one PUT, the rest kept", async () => {
    const siteId = await fixture.makeSite();
    await byHand(siteId, (c) => {
      c.styling.primaryColor = { light: "#111111", dark: "#222222" };
      c.footer.copyright = "© Acme";
    });
    fixture.emulator.clearRequests();
    await created("SiteCustomization", { organizationId: fixture.org(), siteId, styling: { theme: "bold" } });
    expect(fixture.emulator.requests().map((r) => `${r.method} ${r.route}`)).toEqual([
      "GET /v1/orgs/{organizationId}/sites/{siteId}/customization",
      "PUT /v1/orgs/{organizationId}/sites/{siteId}/customization",
    ]);
    const after = await settings(siteId);
    expect(after.styling).toMatchObject({ theme: "bold", primaryColor: { light: "#111111", dark: "#222222" } });
    expect(after.footer.copyright).toBe("© Acme");
  });

  it("does not see a change by hand to an undeclared part, and never overwrites it", async () => {
    const { id, state, inputs } = await created("SiteCustomization", await base());
    await byHand(id, (c) => {
      c.styling.primaryColor = { light: "#abcdef", dark: "#abcdef" };
      c.feedback.enabled = true;
    });
    const read = await lifecycle("SiteCustomization").read(id, state);
    expect(read.props).toEqual(state);
    const next = { ...inputs, styling: { theme: "muted" } };
    const { outs } = await lifecycle("SiteCustomization").update(id, state, next);
    expect(outs.styling).toEqual({ theme: "muted" });
    const after = await settings(id);
    expect(after.styling.primaryColor).toEqual({ light: "#abcdef", dark: "#abcdef" });
    expect(after.feedback.enabled).toBe(true);
  });

  it("adopts with importId writing nothing when the declared parts match", async () => {
    const siteId = await fixture.makeSite();
    await byHand(siteId, (c) => (c.styling.theme = "gradient"));
    fixture.emulator.clearRequests();
    const inputs = { organizationId: fixture.org(), siteId, styling: { theme: "gradient" }, importId: siteId };
    const result = await lifecycle("SiteCustomization").create(
      (await lifecycle("SiteCustomization").check({}, inputs)).inputs!,
    );
    expect(result.outs.styling).toEqual({ theme: "gradient" });
    expect(fixture.emulator.requests().map((r) => r.method)).toEqual(["GET"]);
  });

  it("delete puts back the defaults of the declared fields only, and says so", async () => {
    const { id, state } = await created("SiteCustomization", {
      ...(await base()),
      announcement: { enabled: true, message: "Maintenance tonight", style: "warning" },
    });
    await byHand(id, (c) => (c.footer.copyright = "© Acme"));
    const lines: string[] = [];
    const restore = redirectLog((_level, line) => lines.push(line));
    try {
      await lifecycle("SiteCustomization").delete(id, state);
    } finally {
      restore();
    }
    const after = await settings(id);
    expect(after.styling.theme).toBe("clean");
    expect(after.header.links).toEqual([]);
    expect(after.pagination).toEqual({ enabled: true });
    expect(after.announcement).toBeUndefined();
    expect(after.footer.copyright).toBe("© Acme");
    expect(lines).toEqual([
      `SiteCustomization "${id}": styling.theme, header.links, announcement, pagination.enabled put back to the platform's defaults; the site's other customization is left as it is.`,
    ]);
  });

  it("unsets a field declared null that was set by hand", async () => {
    const { id, state, inputs } = await created("SiteCustomization", {
      ...(await base()),
      header: { links: [], logo: null },
    });
    await byHand(id, (c) => (c.header.logo = logo));
    const read = await lifecycle("SiteCustomization").read(id, state);
    expect(read.props.header).toEqual({ links: [], logo });
    expect((await lifecycle("SiteCustomization").diff(id, read.props, inputs)).changes).toBe(true);
    await lifecycle("SiteCustomization").update(id, read.props, inputs);
    expect((await settings(id)).header.logo).toBeUndefined();
  });

  it("knows the same defaults as a new site has", () => {
    const fresh = newSiteCustomization();
    for (const [section, fields] of Object.entries(SITE_CUSTOMIZATION_DEFAULTS)) {
      expect(fresh[section], section).toEqual(fields);
    }
  });
});

describe("SiteCustomization check", () => {
  it("rejects each limit of the official schema offline", async () => {
    const valid = { organizationId: fixture.org(), siteId: "site" };
    await expectEachLimitRejected("SiteCustomization", valid, [
      [{ title: "x" }, "title", /at least 2/],
      [{ styling: { theme: "dark" } }, "styling.theme", /clean, muted, bold, gradient|one of/],
      [{ styling: { primaryColor: { light: "blue", dark: "#000" } } }, "styling.primaryColor.light", /hex color/],
      [{ styling: { colour: "red" } }, "styling", /colour/],
      [{ header: { links: [{ title: "x", to: { kind: "url" } }] } }, "header.links.0.to.url", /string/],
      [{ footer: { copyright: "c".repeat(513) } }, "footer.copyright", /at most 512/],
      [{ announcement: { enabled: true, message: "x", style: "info" } }, "announcement.message", /at least 2/],
      [{ announcement: { enabled: true, message: "Hi", style: "loud" } }, "announcement.style", /one of/],
      [{ ai: { suggestions: ["one", "two", "three", "four", "five", "six"] } }, "ai.suggestions", /at most 5/],
      [{ socialPreview: { url: "ftp://example.com/x.png" } }, "socialPreview.url", /URL|url/],
      [{ favicon: { emoji: "" } }, "favicon", /.+/],
    ]);
    expect(fixture.emulator.requests()).toEqual([]);
  });
});
