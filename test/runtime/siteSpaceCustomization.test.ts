import { describe, expect, it } from "vitest";
import { redirectLog } from "../../provider/framework/log";
import { lifecycle } from "../../provider/runtime";
import { type Json, useEmulator } from "../support/emulator";
import { created, describeLifecycle, expectEachLimitRejected } from "../support/lifecycle";

const fixture = useEmulator();
const sitePath = (site: string) => `/orgs/${fixture.org()}/sites/${site}`;
const overridePath = (site: string, siteSpace: string) => `${sitePath(site)}/site-spaces/${siteSpace}/customization`;

/** A new site with one site space (of the first seeded space). */
async function makeSiteSpace(): Promise<{ siteId: string; siteSpaceId: string }> {
  const siteId = await fixture.makeSite();
  const siteSpaceId = await fixture.apiCreate(`${sitePath(siteId)}/site-spaces`, {
    spaceId: fixture.space(0),
  });
  return { siteId, siteSpaceId };
}
const shown = async (site: string, siteSpace: string) =>
  (await fixture.api("GET", overridePath(site, siteSpace))).body as Json;
/** A change by hand through the official PATCH. */
async function byHand(site: string, siteSpace: string, body: Json) {
  expect((await fixture.api("PATCH", overridePath(site, siteSpace), body)).status).toBe(200);
}
/** A change by hand of the site's own customization (the full PUT). */
async function siteByHand(site: string, change: (current: Json) => void) {
  const { updatedAt: _u, ...current } = (await fixture.api("GET", `${sitePath(site)}/customization`)).body as Json;
  change(current);
  expect((await fixture.api("PUT", `${sitePath(site)}/customization`, current)).status).toBe(200);
}
const announcement = { enabled: true, message: "Nouvelle version", style: "info" };
const base = async () => ({
  organizationId: fixture.org(),
  ...(await makeSiteSpace()),
  styling: { theme: "bold" },
  pagination: { enabled: false },
});

let adopted: { siteId: string; siteSpaceId: string } | undefined;

describeLifecycle(
  {
    kind: "SiteSpaceCustomization",
    inputs: base,
    created: (state) => {
      expect(state.styling).toEqual({ theme: "bold" });
      expect(state.pagination).toEqual({ enabled: false });
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
        inputs: (_f, p) => ({ ...p, announcement }),
        expect: (state) => expect(state.announcement).toEqual(announcement),
      },
      {
        name: "a whole section (title)",
        inputs: (_f, p) => ({ ...p, title: "Documentation" }),
        expect: (state) => expect(state.title).toBe("Documentation"),
      },
    ],
    replaces: [
      {
        property: "siteSpaceId",
        inputs: async (f, p) => ({
          ...p,
          siteSpaceId: await f.apiCreate(`${sitePath(p.siteId as string)}/site-spaces`, {
            spaceId: f.space(1),
          }),
        }),
      },
      { property: "siteId", inputs: async (_f, p) => ({ ...p, ...(await makeSiteSpace()) }) },
      { property: "organizationId", inputs: (f, p) => ({ ...p, organizationId: f.emulator.secondOrganizationId }) },
    ],
    outOfBand: {
      change: async (id, f) => {
        const siteId = (f.emulator.store.siteSpaces.get(id) as { siteId: string }).siteId;
        await byHand(siteId, id, { styling: { theme: "muted" } });
      },
      expect: (state) => expect(state.styling).toEqual({ theme: "muted" }),
    },
    adopt: {
      existing: async () => {
        adopted = await makeSiteSpace();
        await byHand(adopted.siteId, adopted.siteSpaceId, { styling: { theme: "bold" } });
        return adopted.siteSpaceId;
      },
      inputs: async () => ({
        organizationId: fixture.org(),
        ...(adopted ?? (await makeSiteSpace())),
        styling: { theme: "muted" },
      }),
      expect: (state) => expect(state.styling).toEqual({ theme: "muted" }),
    },
    deleteKeepsObject: "every site space shows a customization; delete removes the overrides, the site's remains",
  },
  fixture,
);

describe("SiteSpaceCustomization behaviour", () => {
  it("creates with one PATCH of the declared parts; the site's own customization is untouched", async () => {
    const where = await makeSiteSpace();
    fixture.emulator.clearRequests();
    const { state } = await created("SiteSpaceCustomization", {
      organizationId: fixture.org(),
      ...where,
      announcement,
    });
    const requests = fixture.emulator.requests();
    expect(requests.map((r) => `${r.method} ${r.route}`)).toEqual([
      "PATCH /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization",
    ]);
    expect(requests[0]?.requestBody).toEqual({ announcement });
    expect(state).toMatchObject({ organizationId: fixture.org(), ...where, announcement });
    expect(
      Object.keys(state)
        .filter((key) => !key.startsWith("__"))
        .sort(),
    ).toEqual(["announcement", "organizationId", "siteId", "siteSpaceId"]);
    expect((await shown(where.siteId, where.siteSpaceId)).announcement).toEqual(announcement);
    const site = (await fixture.api("GET", `${sitePath(where.siteId)}/customization`)).body as Json;
    expect(site.announcement).toBeUndefined();
  });

  it("does not see a change by hand to an undeclared part, and never overwrites it", async () => {
    const { id, state, inputs } = await created("SiteSpaceCustomization", await base());
    await byHand(inputs.siteId as string, id, { footer: { copyright: "© Acme FR" }, styling: { corners: "straight" } });
    await siteByHand(inputs.siteId as string, (c) => (c.feedback.enabled = true));
    const read = await lifecycle("SiteSpaceCustomization").read(id, state);
    expect(read.props).toEqual(state);
    fixture.emulator.clearRequests();
    const { outs } = await lifecycle("SiteSpaceCustomization").update(id, state, {
      ...inputs,
      styling: { theme: "muted" },
    });
    expect(outs.styling).toEqual({ theme: "muted" });
    // Only the changed section is sent; the PATCH keeps every other override.
    expect(fixture.emulator.requests().map((r) => r.requestBody)).toEqual([{ styling: { theme: "muted" } }]);
    const after = await shown(inputs.siteId as string, id);
    expect(after.footer.copyright).toBe("© Acme FR");
    expect(after.styling).toMatchObject({ theme: "muted", corners: "straight" });
    expect(after.feedback.enabled).toBe(true);
  });

  it("sees an override removed by hand as drift, and puts it back", async () => {
    const { id, state, inputs } = await created("SiteSpaceCustomization", await base());
    const siteId = inputs.siteId as string;
    expect((await fixture.api("DELETE", overridePath(siteId, id))).status).toBe(205);
    const read = await lifecycle("SiteSpaceCustomization").read(id, state);
    // The site space follows the site again: its theme and pagination are the site's.
    expect(read.props).toMatchObject({ styling: { theme: "clean" }, pagination: { enabled: true } });
    expect((await lifecycle("SiteSpaceCustomization").diff(id, read.props, inputs)).changes).toBe(true);
    await lifecycle("SiteSpaceCustomization").update(id, read.props, inputs);
    expect((await shown(siteId, id)).styling.theme).toBe("bold");
  });

  it("adopts with importId writing nothing when the declared parts match", async () => {
    const where = await makeSiteSpace();
    await byHand(where.siteId, where.siteSpaceId, { styling: { theme: "gradient" }, title: "Docs FR" });
    fixture.emulator.clearRequests();
    const inputs = {
      organizationId: fixture.org(),
      ...where,
      styling: { theme: "gradient" },
      title: "Docs FR",
      importId: where.siteSpaceId,
    };
    const provider = lifecycle("SiteSpaceCustomization");
    const result = await provider.create((await provider.check({}, inputs)).inputs!);
    expect(result.outs).toMatchObject({ styling: { theme: "gradient" }, title: "Docs FR" });
    expect(fixture.emulator.requests().map((r) => r.method)).toEqual(["GET"]);
  });

  it("delete removes every override with the official DELETE, and says the site space follows the site", async () => {
    const { id, state, inputs } = await created("SiteSpaceCustomization", { ...(await base()), announcement });
    const siteId = inputs.siteId as string;
    await byHand(siteId, id, { footer: { copyright: "© Acme FR" } });
    await siteByHand(siteId, (c) => (c.styling.theme = "muted"));
    const lines: string[] = [];
    const restore = redirectLog((_level, line) => lines.push(line));
    fixture.emulator.clearRequests();
    try {
      await lifecycle("SiteSpaceCustomization").delete(id, state);
    } finally {
      restore();
    }
    expect(fixture.emulator.requests().map((r) => `${r.method} ${r.status}`)).toEqual(["DELETE 205"]);
    const after = await shown(siteId, id);
    expect(after.styling.theme).toBe("muted");
    expect(after.pagination).toEqual({ enabled: true });
    expect(after.announcement).toBeUndefined();
    expect(after.footer.copyright).toBeUndefined();
    expect(lines).toEqual([
      `SiteSpaceCustomization "${id}": every override removed; the site space follows the site's customization again.`,
    ]);
    // A second delete finds nothing to remove (204) and succeeds.
    await lifecycle("SiteSpaceCustomization").delete(id, state);
    expect(fixture.emulator.requests().at(-1)?.status).toBe(204);
  });
});

describe("SiteSpaceCustomization on the emulator", () => {
  it("clears one override with null, overrides nested style fields one by one, and rejects what the PATCH lacks", async () => {
    const { siteId, siteSpaceId } = await makeSiteSpace();
    await byHand(siteId, siteSpaceId, { styling: { theme: "bold", sidebar: { list: "pill" } }, title: "FR" });
    let now = await shown(siteId, siteSpaceId);
    expect(now.styling).toMatchObject({ theme: "bold", sidebar: { background: "default", list: "pill" } });
    await byHand(siteId, siteSpaceId, { styling: { theme: null }, title: null });
    now = await shown(siteId, siteSpaceId);
    expect(now.styling).toMatchObject({ theme: "clean", sidebar: { list: "pill" } });
    expect(now.title).toBeUndefined();
    for (const [body, message] of [
      [{ ai: { mode: "none" } }, /ai: unknown field/],
      [{ styling: { font: "Roboto" } }, /styling.font: unknown field/],
      [{ styling: { theme: "dark" } }, /styling.theme/],
      [{ announcement: null }, /announcement: must not be null/],
      [{ feedback: {} }, /feedback.enabled: is required/],
    ] as const) {
      const answer = await fixture.api("PATCH", overridePath(siteId, siteSpaceId), body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(answer.body)).toMatch(message);
    }
  });

  it("drops the overrides with their site space", async () => {
    const { siteId, siteSpaceId } = await makeSiteSpace();
    await byHand(siteId, siteSpaceId, { title: "FR" });
    expect((await fixture.api("DELETE", `${sitePath(siteId)}/site-spaces/${siteSpaceId}`)).status).toBe(205);
    expect((await fixture.api("GET", overridePath(siteId, siteSpaceId))).status).toBe(404);
    expect([...fixture.emulator.store.siteSpaces.values()].some((ss) => ss.customization)).toBe(false);
  });
});

describe("SiteSpaceCustomization check", () => {
  it("rejects each limit of the official override offline, null and what only a site can set", async () => {
    const valid = { organizationId: fixture.org(), siteId: "site", siteSpaceId: "site-space" };
    await expectEachLimitRejected("SiteSpaceCustomization", valid, [
      [{ title: "x" }, "title", /at least 2/],
      [{ title: null }, "title", /string/],
      [{ styling: { theme: "dark" } }, "styling.theme", /one of|clean/],
      [{ styling: { tint: null } }, "styling.tint", /object/],
      [{ styling: { font: "Inter" } }, "styling", /font/],
      [{ header: { logo: null } }, "header.logo", /object/],
      [{ footer: { copyright: "c".repeat(513) } }, "footer.copyright", /at most 512/],
      [{ announcement: null }, "announcement", /object/],
      [{ announcement: { ...announcement, link: null } }, "announcement.link", /object/],
      [{ announcement: { enabled: true, message: "x", style: "info" } }, "announcement.message", /at least 2/],
      [{ socialPreview: { url: "ftp://example.com/x.png" } }, "socialPreview.url", /URL|url/],
      [{ ai: { mode: "none" } }, "ai", /ai|unrecognized/i],
      [{ siteSpaceId: "../x" }, "siteSpaceId", /must be an id/],
    ]);
    expect(fixture.emulator.requests()).toEqual([]);
  });
});
