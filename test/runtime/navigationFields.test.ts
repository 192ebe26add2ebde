import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ENV_KEYS } from "../../provider/framework/settings";
import { UNKNOWN } from "../../provider/framework/unknown";
import { getPage, LookupError } from "../../provider/lookups";
import { lifecycle, startOperation } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { checked, created } from "../support/lifecycle";
import { pageIdAt } from "../support/pages";

/**
 * The navigation fields (`draft`, `localizedTitle`, `localizedDescription`, `pageId`) on the four navigation kinds,
 * `getPage`, and the preflight check of `pageId`. The lifecycle tables of each kind hold their update rows.
 */
const fixture = useEmulator();
const sitePath = (site: string) => `/orgs/${fixture.org()}/sites/${site}`;
const reasons = (result: { failures?: { property: string; reason: string }[] }) =>
  (result.failures ?? []).map((failure) => `${failure.property}: ${failure.reason}`);

describe("navigation fields on create", () => {
  it("SiteSection: draft and pageId go with the POST, the localized labels with the PATCH; read sees no change", async () => {
    const siteId = await fixture.makeSite();
    const pageId = pageIdAt(fixture, fixture.space(0), "getting-started/quickstart");
    const { id, state, inputs } = await created("SiteSection", {
      organizationId: fixture.org(),
      siteId,
      spaceId: fixture.space(0),
      title: "Guides",
      draft: true,
      pageId,
      localizedTitle: { fr: "Guides FR" },
      localizedDescription: { de: "Alle Anleitungen" },
    });
    expect(fixture.lastRequestBody("POST", /\/sections$/)).toEqual({
      spaceId: fixture.space(0),
      title: "Guides",
      draft: true,
      pageId,
    });
    expect(fixture.lastRequestBody("PATCH", /\/sections\/[^/]+$/)).toEqual({
      localizedTitle: { fr: "Guides FR" },
      localizedDescription: { de: "Alle Anleitungen" },
    });
    expect(state).toMatchObject({
      draft: true,
      pageId,
      localizedTitle: { fr: "Guides FR" },
      localizedDescription: { de: "Alle Anleitungen" },
    });
    expect(fixture.emulator.store.siteSpaces.get(state.siteSpaceId as string)?.pageId).toBe(pageId);
    const read = await lifecycle("SiteSection").read(id, state);
    expect(read.props).toEqual(state);
    expect((await lifecycle("SiteSection").diff(id, read.props ?? {}, inputs)).changes).toBe(false);
  });

  it("SiteSection: a change of spaceId sends the declared pageId along (the API drops the page otherwise)", async () => {
    const siteId = await fixture.makeSite();
    const base = { organizationId: fixture.org(), siteId, spaceId: fixture.space(0), title: "Guides" };
    const { id, state, inputs } = await created("SiteSection", {
      ...base,
      pageId: pageIdAt(fixture, fixture.space(0), "reference"),
    });
    const next = await checked("SiteSection", {
      ...inputs,
      spaceId: fixture.space(1),
      pageId: pageIdAt(fixture, fixture.space(1), "reference"),
    });
    const { outs } = await lifecycle("SiteSection").update(id, state, next);
    expect(fixture.lastRequestBody("PATCH", /\/site-spaces\/[^/]+$/)).toEqual({
      spaceId: fixture.space(1),
      pageId: pageIdAt(fixture, fixture.space(1), "reference"),
    });
    expect(outs).toMatchObject({ spaceId: fixture.space(1), pageId: pageIdAt(fixture, fixture.space(1), "reference") });
  });

  it("SiteSectionGroup: draft with the POST, localizedTitle with a PATCH after it", async () => {
    const siteId = await fixture.makeSite();
    await fixture.makeSection(siteId, fixture.space(0), "Guides");
    const { id, state, inputs } = await created("SiteSectionGroup", {
      organizationId: fixture.org(),
      siteId,
      title: "Product",
      draft: true,
      localizedTitle: { fr: "Produit" },
    });
    expect(fixture.lastRequestBody("POST", /\/section-groups$/)).toEqual({ title: "Product", draft: true });
    expect(fixture.lastRequestBody("PATCH", /\/section-groups\/[^/]+$/)).toEqual({ localizedTitle: { fr: "Produit" } });
    expect(state).toMatchObject({ draft: true, localizedTitle: { fr: "Produit" } });
    const read = await lifecycle("SiteSectionGroup").read(id, state);
    expect((await lifecycle("SiteSectionGroup").diff(id, read.props ?? {}, inputs)).changes).toBe(false);
  });

  it("SiteExternalLink: every field with the POST", async () => {
    const siteId = await fixture.makeSite();
    await fixture.makeSection(siteId, fixture.space(0), "Guides");
    const { state } = await created("SiteExternalLink", {
      organizationId: fixture.org(),
      siteId,
      title: "Status",
      url: "https://status.example.com",
      draft: true,
      localizedTitle: { fr: "Statut" },
      localizedDescription: { fr: "État du service" },
    });
    expect(fixture.lastRequestBody("POST", /\/external-links$/)).toEqual({
      title: "Status",
      url: "https://status.example.com",
      draft: true,
      localizedTitle: { fr: "Statut" },
      localizedDescription: { fr: "État du service" },
    });
    expect(fixture.emulator.requests().filter((r) => r.method === "PATCH")).toEqual([]);
    expect(state).toMatchObject({ draft: true, localizedTitle: { fr: "Statut" } });
  });

  it("SiteSpace: draft and pageId with the POST", async () => {
    const siteId = await fixture.makeSite();
    const section = await fixture.makeSection(siteId, fixture.space(0), "Guides");
    const pageId = pageIdAt(fixture, fixture.space(1), "introduction");
    const { state } = await created("SiteSpace", {
      organizationId: fixture.org(),
      siteId,
      sectionId: section,
      spaceId: fixture.space(1),
      draft: true,
      pageId,
    });
    expect(fixture.lastRequestBody("POST", /\/site-spaces$/)).toEqual({
      spaceId: fixture.space(1),
      sectionId: section,
      draft: true,
      pageId,
    });
    expect(state).toMatchObject({ draft: true, pageId });
  });

  it("rejects a language the document does not know and a label over its limit, offline", async () => {
    const result = await lifecycle("SiteExternalLink").check(
      {},
      {
        organizationId: fixture.org(),
        siteId: "site",
        title: "Status",
        url: "https://status.example.com",
        localizedTitle: { klingon: "x", fr: "y".repeat(129) },
      },
    );
    expect(reasons(result).join("\n")).toMatch(/localizedTitle/);
    expect(fixture.calls()).toEqual([]);
  });
});

describe("a pageId naming no page of the space", () => {
  beforeEach(() => {
    process.env[ENV_KEYS.preflight] = "true";
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  });
  afterEach(() => {
    delete process.env[ENV_KEYS.preflight];
    vi.restoreAllMocks();
  });

  it("fails the preview (preflight), naming the field, the space and how to find the id; one listing per space", async () => {
    startOperation();
    const siteId = await fixture.makeSite();
    const good = pageIdAt(fixture, fixture.space(0), "introduction");
    const ofAnotherSpace = pageIdAt(fixture, fixture.space(1), "introduction");
    fixture.emulator.clearRequests();
    const base = { organizationId: fixture.org(), siteId, spaceId: fixture.space(0) };
    for (const kind of ["SiteSection", "SiteSpace"]) {
      expect(reasons(await lifecycle(kind).check({}, { ...base, pageId: good }))).toEqual([]);
      expect(reasons(await lifecycle(kind).check({}, { ...base, pageId: ofAnotherSpace }))).toEqual([
        `pageId: ${kind}.pageId: preflight: space "${fixture.space(0)}" has no page with the id "${ofAnotherSpace}". ` +
          `Give the id of one of its pages: find it by path with \`getPage({ spaceId: "${fixture.space(0)}", ` +
          `path: "<page path>" })\`, or list them with \`GET /spaces/${fixture.space(0)}/content/pages\`.`,
      ]);
    }
    // The space's pages are listed once, and once more for the first miss (the page may have been made since).
    const pageListings = fixture.calls().filter((call) => call.endsWith("/content/pages"));
    expect(pageListings).toEqual([
      `GET /v1/spaces/${fixture.space(0)}/content/pages`,
      `GET /v1/spaces/${fixture.space(0)}/content/pages`,
      `GET /v1/spaces/${fixture.space(0)}/content/pages`,
    ]);
    // Unknown during preview (an output of another resource): `up`'s to check, with no request.
    fixture.emulator.clearRequests();
    expect(reasons(await lifecycle("SiteSpace").check({}, { ...base, pageId: UNKNOWN }))).toEqual([]);
    expect(fixture.calls().filter((call) => call.includes("/content/"))).toEqual([]);
  });

  it("fails `up` with the API's 400 naming pageId when preflight is off", async () => {
    delete process.env[ENV_KEYS.preflight];
    const siteId = await fixture.makeSite();
    const section = await fixture.makeSection(siteId, fixture.space(0), "Guides");
    const inputs = await checked("SiteSpace", {
      organizationId: fixture.org(),
      siteId,
      sectionId: section,
      spaceId: fixture.space(1),
      pageId: "noSuchPage",
    });
    await expect(lifecycle("SiteSpace").create(inputs)).rejects.toThrow(/pageId: page "noSuchPage" not found/);
    // Nothing is left behind: the POST was refused.
    expect(fixture.emulator.store.siteSpacesIn(siteId, section).map((ss) => ss.spaceId)).toEqual([fixture.space(0)]);
  });
});

describe("a draft item's place in SiteStructure.order", () => {
  it("stays in the structure where it was: order lists it, and leaving it out fails naming it", async () => {
    const siteId = await fixture.makeSite();
    const a = await fixture.makeSection(siteId, fixture.space(0), "Alpha");
    const { id: b } = await created("SiteSection", {
      organizationId: fixture.org(),
      siteId,
      spaceId: fixture.space(1),
      title: "Beta",
      draft: true,
    });
    const c = await fixture.makeSection(siteId, fixture.space(2), "Gamma");
    const structure = (await fixture.api("GET", `${sitePath(siteId)}/structure`)).body as {
      structure: { id: string; draft: boolean }[];
    };
    expect(structure.structure.map((item) => [item.id, item.draft])).toEqual([
      [a, false],
      [b, true],
      [c, false],
    ]);
    const { id, state, inputs } = await created("SiteStructure", {
      organizationId: fixture.org(),
      siteId,
      order: [c, b, a],
    });
    expect(state.order).toEqual([c, b, a]);
    const read = await lifecycle("SiteStructure").read(id, state);
    expect((await lifecycle("SiteStructure").diff(id, read.props ?? {}, inputs)).changes).toBe(false);
    // Publishing it (draft: false) keeps its place.
    const section = fixture.emulator.store.sections.get(b);
    await fixture.api("PATCH", `${sitePath(siteId)}/sections/${b}`, { draft: false });
    expect(section?.draft).toBe(false);
    const after = (await fixture.api("GET", `${sitePath(siteId)}/structure`)).body as { structure: { id: string }[] };
    expect(after.structure.map((item) => item.id)).toEqual([c, b, a]);
    const without = await checked("SiteStructure", { organizationId: fixture.org(), siteId, order: [c, a] });
    await expect(lifecycle("SiteStructure").update(id, state, without)).rejects.toThrow(
      new RegExp(`order must list every top-level item.*leaves out "${b}"`),
    );
  });
});

describe("getPage", () => {
  beforeEach(() => {
    process.env.DOCS_ORGANIZATION_ID = fixture.org();
  });
  afterEach(() => {
    delete process.env.DOCS_ORGANIZATION_ID;
  });

  it("finds a page by path in a space with one request, and in a site space's space", async () => {
    const space = fixture.space(0);
    fixture.emulator.clearRequests();
    expect(await getPage({ spaceId: space, path: "getting-started/quickstart" })).toEqual({
      id: pageIdAt(fixture, space, "getting-started/quickstart"),
      title: "Quickstart",
      path: "getting-started/quickstart",
      type: "document",
      spaceId: space,
      organizationId: fixture.org(),
    });
    expect(fixture.calls()).toEqual([`GET /v1/spaces/${space}/content/path/getting-started%2Fquickstart`]);

    const siteId = await fixture.makeSite();
    await fixture.makeSection(siteId, fixture.space(2), "Guides");
    const siteSpaceId = fixture.emulator.store.siteSpacesIn(
      siteId,
      [...fixture.emulator.store.sections.values()].find((s) => s.siteId === siteId)?.id,
    )[0]?.id as string;
    const found = await getPage({ siteId, siteSpaceId, path: "/reference" });
    expect(found).toMatchObject({ id: pageIdAt(fixture, fixture.space(2), "reference"), spaceId: fixture.space(2) });
  });

  it("fails on a path naming no page, listing the space's pages; and on arguments that name no space", async () => {
    const space = fixture.space(0);
    await expect(getPage({ spaceId: space, path: "nope" })).rejects.toThrow(
      new RegExp(
        `getPage: no page at path "nope" in space "${space}" in organization "${fixture.org()}"; it has ` +
          `"getting-started" \\(${pageIdAt(fixture, space, "getting-started")}, Getting started\\)`,
      ),
    );
    await expect(getPage({ path: "introduction" })).rejects.toThrow(LookupError);
    await expect(getPage({ spaceId: space, siteId: "s", siteSpaceId: "x", path: "introduction" })).rejects.toThrow(
      "getPage: give either spaceId, or siteId and siteSpaceId, not both or neither.",
    );
    await expect(getPage({ siteId: "s", path: "introduction" })).rejects.toThrow("give either spaceId");
  });
});
