import { describe, expect, it } from "vitest";
import { type Json, useEmulator } from "../support/emulator";

const h = useEmulator({ provider: false });

const sitesPath = () => `/orgs/${h.org()}/sites`;

async function createSite(body: Record<string, unknown> = { title: "Docs" }): Promise<string> {
  const res = await h.call("POST", sitesPath(), body);
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

async function addSection(site: string, spaceId: string, extra: Record<string, unknown> = {}) {
  const res = await h.call("POST", `${sitesPath()}/${site}/sections`, { spaceId, ...extra });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function addSiteSpace(site: string, body: Record<string, unknown>) {
  const res = await h.call("POST", `${sitesPath()}/${site}/site-spaces`, body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe("sites", () => {
  it("creates, reads, updates, publishes and deletes a site", async () => {
    const res = await h.call("POST", sitesPath(), { title: "Docs", visibility: "unlisted" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: "site",
      title: "Docs",
      visibility: "unlisted",
      type: "basic",
      published: false,
      siteSpaces: 0,
      agentsContext: "excluded",
    });
    expect(res.headers.get("location")).toBe(`${h.emulator.url}${sitesPath()}/${res.body.id}`);
    expect(res.body.urls).not.toHaveProperty("published");
    const id = res.body.id;

    const patched = await h.call("PATCH", `${sitesPath()}/${id}`, {
      title: "Developer docs",
      basename: "dev",
      adaptiveContent: { enabled: true },
      agentsContext: "included",
      proxy: "example.com/docs",
      defaultLevel: "read",
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({
      title: "Developer docs",
      basename: "dev",
      adaptiveContent: { enabled: true },
      agentsContext: "included",
      proxy: { origin: "example.com/docs" },
      defaultLevel: "read",
    });
    const noProxy = await h.call("PATCH", `${sitesPath()}/${id}`, { proxy: null });
    expect(noProxy.body).not.toHaveProperty("proxy");

    const published = await h.call("POST", `${sitesPath()}/${id}/publish`);
    expect(published.status).toBe(200);
    expect(published.body.published).toBe(true);
    expect(published.body.urls.published).toMatch(/^https:\/\/acme\.gitbook\.example\/dev$/);
    const unpublished = await h.call("POST", `${sitesPath()}/${id}/unpublish`);
    expect(unpublished.body.published).toBe(false);

    expect((await h.call("DELETE", `${sitesPath()}/${id}`)).status).toBe(205);
    expect((await h.call("GET", `${sitesPath()}/${id}`)).status).toBe(404);
    expect((await h.call("DELETE", `${sitesPath()}/${id}`)).status).toBe(204);
  });

  it("creates a site with root-level spaces, the first one default", async () => {
    const id = await createSite({ title: "Docs", spaces: [h.space(0), h.space(1)] });
    const got = await h.call("GET", `${sitesPath()}/${id}`);
    expect(got.body.siteSpaces).toBe(2);
    const list = await h.listAll(`${sitesPath()}/${id}/site-spaces`);
    expect(list.map((s) => [s.space.id, s.default, s.section])).toEqual([
      [h.space(0), true, undefined],
      [h.space(1), false, undefined],
    ]);
    const structure = await h.call("GET", `${sitesPath()}/${id}/structure`);
    expect(structure.body.type).toBe("siteSpaces");
    expect(structure.body.structure).toHaveLength(2);
  });

  it("validates site fields", async () => {
    const cases: [string, string, unknown, string][] = [
      ["POST", sitesPath(), { title: "D" }, "title: must be at least 2 characters"],
      ["POST", sitesPath(), { title: "x".repeat(129) }, "title: must be at most 128 characters"],
      [
        "POST",
        sitesPath(),
        { visibility: "private" },
        "visibility: must be one of public, unlisted, share-link, visitor-auth",
      ],
      [
        "POST",
        sitesPath(),
        { type: "gold" },
        "type: must be one of basic, premium, ultimate, sponsored, legacy-basic, legacy-premium",
      ],
      ["POST", sitesPath(), { spaces: ["nope"] }, `spaces[0]: space "nope" not found in organization "${h.org()}"`],
      [
        "POST",
        sitesPath(),
        { hostname: "docs.example.com" },
        "hostname: unknown field (allowed: type, title, visibility, spaces)",
      ],
    ];
    for (const [method, path, body, message] of cases) {
      const res = await h.call(method, path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    const id = await createSite();
    const patchCases: [unknown, RegExp][] = [
      [{ basename: "" }, /^basename: must not be empty/],
      [{ basename: "b".repeat(101) }, /^basename: must be at most 100 characters/],
      [{ proxy: "not a host" }, /^proxy: must be a host name followed by/],
      [{ proxy: "example.com" }, /^proxy:/],
      [{ proxy: `example.com/${"p".repeat(512)}` }, /^proxy: must be at most 512 characters/],
      [{ agentsContext: "maybe" }, /^agentsContext: must be one of excluded, included/],
      [{ adaptiveContent: {} }, /^adaptiveContent\.enabled: is required/],
      [{ defaultSiteSection: "nope" }, /^defaultSiteSection:/],
      [{ published: true }, /^published: unknown field/],
    ];
    for (const [body, message] of patchCases) {
      const res = await h.call("PATCH", `${sitesPath()}/${id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    expect((await h.call("GET", `${sitesPath()}/${id}`)).body.title).toBe("Docs");
  });

  it("filters the site list", async () => {
    const a = await createSite({ title: "Alpha docs", spaces: [h.space(0)] });
    const b = await createSite({ title: "Beta docs", type: "premium" });
    await h.call("POST", `${sitesPath()}/${b}/publish`);
    const ids = async (qs: string) => (await h.listAll(`${sitesPath()}${qs}`)).map((s) => s.id);
    expect(await ids("")).toEqual([a, b]);
    expect(await ids(`?space=${h.space(0)}`)).toEqual([a]);
    expect(await ids("?title=beta")).toEqual([b]);
    expect(await ids("?published=true")).toEqual([b]);
    expect(await ids("?published=false")).toEqual([a]);
    expect(await ids("?type=premium")).toEqual([b]);
    expect((await h.call("GET", `${sitesPath()}?type=gold`)).status).toBe(400);
  });

  it("does not find a site through another organization", async () => {
    const id = await createSite();
    expect((await h.call("GET", `/orgs/${h.emulator.secondOrganizationId}/sites/${id}`)).status).toBe(404);
    expect((await h.call("DELETE", `/orgs/${h.emulator.secondOrganizationId}/sites/${id}`)).status).toBe(204);
    expect((await h.call("GET", `${sitesPath()}/${id}`)).status).toBe(200);
  });

  it("makes a site's style guide space once (createSiteStyleguideById), and takes only style guides in PATCH", async () => {
    const site = await createSite();
    const made = await h.call("POST", `${sitesPath()}/${site}/styleguide`, { template: "default" });
    expect(made.status, made.text).toBe(200);
    expect(made.body).toMatchObject({ object: "space", type: "styleguide", title: "Docs style guide" });
    const guide = made.body.id as string;
    expect((await h.call("GET", `${sitesPath()}/${site}`)).body.styleguide).toEqual({ kind: "space", space: guide });
    // Idempotent: the site's style guide comes back, without a body too.
    expect((await h.call("POST", `${sitesPath()}/${site}/styleguide`)).body.id).toBe(guide);
    // A regular space has no `type`, and is refused as a style guide, as is a space of another organization.
    expect((await h.call("GET", `/spaces/${h.space(0)}`)).body).not.toHaveProperty("type");
    const other = await createSite({ title: "Other" });
    const regular = await h.call("PATCH", `${sitesPath()}/${other}`, { styleguide: h.space(0) });
    expect(regular.status).toBe(400);
    expect(regular.body.error.message).toContain(`styleguide: space "${h.space(0)}" is not a style guide`);
    const second = h.emulator.secondOrganizationId;
    const abroad = await h.call("POST", `/orgs/${second}/spaces`, { title: "Abroad" });
    const foreign = await h.call("PATCH", `${sitesPath()}/${other}`, { styleguide: abroad.body.id });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.message).toContain(`styleguide: space "${abroad.body.id}" not found in organization`);
    expect((await h.call("PATCH", `${sitesPath()}/${other}`, { styleguide: "missing" })).status).toBe(400);
    // Two sites may share one style guide (listOrganizationStyleguides lists each guide's sites); null detaches it.
    const shared = await h.call("PATCH", `${sitesPath()}/${other}`, { styleguide: guide });
    expect(shared.body.styleguide).toEqual({ kind: "space", space: guide });
    const detached = await h.call("PATCH", `${sitesPath()}/${other}`, { styleguide: null });
    expect(detached.body).not.toHaveProperty("styleguide");
    expect((await h.call("GET", `/spaces/${guide}`)).status).toBe(200);
  });

  it("deletes a site with all its sections, groups, site spaces, share links and adaptive schema", async () => {
    const site = await createSite();
    const keep = await createSite({ title: "Other", spaces: [h.space(2)] });
    const section = await addSection(site, h.space(0));
    await addSiteSpace(site, { spaceId: h.space(1), sectionId: section.id });
    const group = await h.call("POST", `${sitesPath()}/${site}/section-groups`, { title: "G", sections: [section.id] });
    expect(group.status).toBe(201);
    expect((await h.call("POST", `${sitesPath()}/${site}/share-links`, { name: "partner" })).status).toBe(201);
    const schema = {
      type: "object",
      properties: { beta: { type: "boolean", description: "Beta" } },
      additionalProperties: false,
    };
    expect((await h.call("PUT", `${sitesPath()}/${site}/adaptive-schema`, { jsonSchema: schema })).status).toBe(200);

    const store = h.emulator.store;
    expect(store.sections.size).toBe(1);
    expect((await h.call("DELETE", `${sitesPath()}/${site}`)).status).toBe(205);
    expect(store.sections.size).toBe(0);
    expect(store.sectionGroups.size).toBe(0);
    expect([...store.siteSpaces.values()].map((s) => s.siteId)).toEqual([keep]);
    expect(store.shareLinks.size).toBe(0);
    expect(store.adaptiveSchemas.size).toBe(0);
    for (const sub of ["sections", "section-groups", "site-spaces", "share-links", "adaptive-schema"]) {
      expect((await h.call("GET", `${sitesPath()}/${site}/${sub}`)).status, sub).toBe(404);
    }
  });
});

describe("site sections and their default site spaces", () => {
  it("makes the first section default and gives each section a default site space", async () => {
    const site = await createSite();
    const first = await addSection(site, h.space(0));
    expect(first).toMatchObject({
      object: "site-section",
      default: true,
      title: "Product Guide",
      path: "product-guide",
    });
    expect(first.siteSpaces).toHaveLength(1);
    expect(first.siteSpaces[0]).toMatchObject({ default: true, section: first.id, path: "product-guide" });
    expect(first.siteSpaces[0].space.id).toBe(h.space(0));

    const second = await addSection(site, h.space(1), { title: "API" });
    expect(second.default).toBe(false);
    expect(second.path).toBe("api");
    expect(second.siteSpaces[0].default).toBe(true);

    const siteObj = await h.call("GET", `${sitesPath()}/${site}`);
    expect(siteObj.body.siteSpaces).toBe(2);
  });

  it("keeps exactly one default site space per section", async () => {
    const site = await createSite();
    const section = await addSection(site, h.space(0));
    const variant = await addSiteSpace(site, { spaceId: h.space(1), sectionId: section.id });
    expect(variant.default).toBe(false);
    expect(variant.section).toBe(section.id);

    const moved = await h.call("PATCH", `${sitesPath()}/${site}/sections/${section.id}`, {
      defaultSiteSpace: variant.id,
    });
    expect(moved.status).toBe(200);
    expect(moved.body.siteSpaces.map((s: Json) => [s.id, s.default])).toEqual([
      [section.siteSpaces[0].id, false],
      [variant.id, true],
    ]);
    const defaults = await h.listAll(`${sitesPath()}/${site}/site-spaces?default=true`);
    expect(defaults.map((s) => s.id)).toEqual([variant.id]);
    const others = await h.listAll(`${sitesPath()}/${site}/site-spaces?default=false`);
    expect(others.map((s) => s.id)).toEqual([section.siteSpaces[0].id]);

    // deleting the default hands the default to the remaining site space
    expect((await h.call("DELETE", `${sitesPath()}/${site}/site-spaces/${variant.id}`)).status).toBe(205);
    const after = await h.listAll(`${sitesPath()}/${site}/site-spaces`);
    expect(after.map((s) => [s.id, s.default])).toEqual([[section.siteSpaces[0].id, true]]);
  });

  it("rejects a defaultSiteSpace from another section", async () => {
    const site = await createSite();
    const a = await addSection(site, h.space(0));
    const b = await addSection(site, h.space(1));
    const res = await h.call("PATCH", `${sitesPath()}/${site}/sections/${a.id}`, {
      defaultSiteSpace: b.siteSpaces[0].id,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^defaultSiteSpace:/);
  });

  it("adds site spaces to the default section, or the root level when there is no section", async () => {
    const site = await createSite();
    const root = await addSiteSpace(site, { spaceId: h.space(0) });
    expect(root).not.toHaveProperty("section");
    expect(root.default).toBe(true);
    const root2 = await addSiteSpace(site, { spaceId: h.space(1) });
    expect(root2.default).toBe(false);

    // PATCH site defaultSiteSpace at the root level
    const siteRes = await h.call("PATCH", `${sitesPath()}/${site}`, { defaultSiteSpace: root2.id });
    expect(siteRes.status).toBe(200);
    expect((await h.listAll(`${sitesPath()}/${site}/site-spaces?default=true`)).map((s) => s.id)).toEqual([root2.id]);

    const s1 = await addSection(site, h.space(2));
    const s2 = await addSection(site, h.space(3));
    // the root-level site spaces moved into the first section
    const inFirst = await h.listAll(`${sitesPath()}/${site}/site-spaces`);
    expect(
      inFirst
        .filter((s) => s.section === s1.id)
        .map((s) => s.space.id)
        .sort(),
    ).toEqual([h.space(0), h.space(1), h.space(2)].sort());
    expect(inFirst.filter((s) => s.section === s1.id && s.default).map((s) => s.space.id)).toEqual([h.space(2)]);
    expect(inFirst.filter((s) => s.section === undefined)).toEqual([]);

    await h.call("PATCH", `${sitesPath()}/${site}`, { defaultSiteSection: s2.id });
    const added = await addSiteSpace(site, { spaceId: h.space(0) });
    expect(added.section).toBe(s2.id);
    const sections = await h.listAll(`${sitesPath()}/${site}/sections`);
    expect(sections.map((s) => [s.id, s.default])).toEqual([
      [s1.id, false],
      [s2.id, true],
    ]);
    const explicit = await addSiteSpace(site, { spaceId: h.space(3), sectionId: s1.id });
    expect(explicit.section).toBe(s1.id);
  });

  it("rejects the same space twice in one section and bad references", async () => {
    const site = await createSite();
    const section = await addSection(site, h.space(0));
    const dup = await h.call("POST", `${sitesPath()}/${site}/site-spaces`, {
      spaceId: h.space(0),
      sectionId: section.id,
    });
    // The official addSpaceToSite lists no 409: a bad spaceId is a 400.
    expect(dup.status).toBe(400);
    expect(dup.body.error.message).toMatch(/^spaceId: space ".*" is already in site section/);
    const unknownSpace = await h.call("POST", `${sitesPath()}/${site}/sections`, { spaceId: "nope" });
    expect(unknownSpace.status).toBe(400);
    expect(unknownSpace.body.error.message).toMatch(/^spaceId: space "nope" not found/);
    const otherOrgSpace = await h.call("POST", `${sitesPath()}/${site}/site-spaces`, {
      spaceId: h.emulator.store.fixtures.secondOrganizationSpaceIds[0],
    });
    expect(otherOrgSpace.status).toBe(400);
    const unknownSection = await h.call("POST", `${sitesPath()}/${site}/site-spaces`, {
      spaceId: h.space(1),
      sectionId: "x",
    });
    expect(unknownSection.status).toBe(400);
    expect(unknownSection.body.error.message).toMatch(/^sectionId:/);
    const missing = await h.call("POST", `${sitesPath()}/${site}/site-spaces`, {});
    expect(missing.body.error.message).toBe("spaceId: is required");
  });

  it("deleting a section removes its site spaces and group membership; the next section becomes default", async () => {
    const site = await createSite();
    const a = await addSection(site, h.space(0));
    const b = await addSection(site, h.space(1));
    await addSiteSpace(site, { spaceId: h.space(2), sectionId: a.id });
    const group = await h.call("POST", `${sitesPath()}/${site}/section-groups`, { title: "G", sections: [a.id, b.id] });
    expect(group.body.sections.map((s: Json) => s.id)).toEqual([a.id, b.id]);

    expect((await h.call("DELETE", `${sitesPath()}/${site}/sections/${a.id}`)).status).toBe(205);
    expect((await h.call("DELETE", `${sitesPath()}/${site}/sections/${a.id}`)).status).toBe(204);
    const siteSpaces = await h.listAll(`${sitesPath()}/${site}/site-spaces`);
    expect(siteSpaces.map((s) => s.section)).toEqual([b.id]);
    const groups = await h.listAll(`${sitesPath()}/${site}/section-groups`);
    expect(groups[0].sections.map((s: Json) => s.id)).toEqual([b.id]);
    const sections = await h.listAll(`${sitesPath()}/${site}/sections`);
    expect(sections.map((s) => [s.id, s.default])).toEqual([[b.id, true]]);
    expect((await h.call("GET", `${sitesPath()}/${site}`)).body.siteSpaces).toBe(1);
  });

  it("derives unique paths and rejects a clashing path", async () => {
    const site = await createSite();
    const a = await addSection(site, h.space(0), { title: "Guides" });
    const b = await addSection(site, h.space(1), { title: "Guides" });
    expect([a.path, b.path]).toEqual(["guides", "guides-2"]);
    const clash = await h.call("PATCH", `${sitesPath()}/${site}/sections/${b.id}`, { path: "guides" });
    expect(clash.status).toBe(400);
    expect(clash.body.error.message).toMatch(/^path: "guides" is already used by site section/);
    const ok = await h.call("PATCH", `${sitesPath()}/${site}/sections/${b.id}`, { path: "more-guides" });
    expect(ok.body.path).toBe("more-guides");
  });

  it("validates section fields", async () => {
    const site = await createSite();
    const section = await addSection(site, h.space(0));
    const path = `${sitesPath()}/${site}/sections/${section.id}`;
    const cases: [unknown, string][] = [
      [{ title: "x" }, "title: must be at least 2 characters"],
      [{ title: "x".repeat(129) }, "title: must be at most 128 characters"],
      [{ path: "" }, "path: must not be empty"],
      [{ path: "p".repeat(101) }, "path: must be at most 100 characters"],
      [{ condition: "c".repeat(1025) }, "condition: must be at most 1024 characters"],
      [{ description: "d".repeat(257) }, "description: must be at most 256 characters"],
      [{ icon: "i".repeat(51) }, "icon: must be at most 50 characters"],
      [{ siteSectionGroupId: "nope" }, `siteSectionGroupId: site section group "nope" not found in site "${site}"`],
    ];
    for (const [body, message] of cases) {
      const res = await h.call("PATCH", path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    const createTitle = await h.call("POST", `${sitesPath()}/${site}/sections`, { spaceId: h.space(1), title: "x" });
    expect(createTitle.status).toBe(400);
  });

  it("sets, keeps and removes condition, icon and description", async () => {
    const site = await createSite();
    const section = await addSection(site, h.space(0), { icon: "book" });
    expect(section.icon).toBe("book");
    const path = `${sitesPath()}/${site}/sections/${section.id}`;
    const set = await h.call("PATCH", path, { condition: "visitor.claims.beta", description: "Beta docs" });
    expect(set.body).toMatchObject({ condition: "visitor.claims.beta", description: "Beta docs", icon: "book" });
    const keep = await h.call("PATCH", path, { title: "Renamed" });
    expect(keep.body).toMatchObject({ condition: "visitor.claims.beta", description: "Beta docs" });
    const removed = await h.call("PATCH", path, { condition: null, icon: null, description: null });
    expect(removed.body).not.toHaveProperty("condition");
    expect(removed.body).not.toHaveProperty("icon");
    expect(removed.body).not.toHaveProperty("description");
  });

  it("reorders sections with the deprecated move and the structure sort", async () => {
    const site = await createSite();
    const a = await addSection(site, h.space(0));
    const b = await addSection(site, h.space(1));
    const c = await addSection(site, h.space(2));
    const order = async () => (await h.listAll(`${sitesPath()}/${site}/sections`)).map((s) => s.id);
    const moved = await h.call("POST", `${sitesPath()}/${site}/sections/${c.id}/move`, {
      position: { before: { type: "site-section", siteSection: a.id } },
    });
    expect(moved.status).toBe(200);
    expect(await order()).toEqual([c.id, a.id, b.id]);
    const sorted = await h.call("PATCH", `${sitesPath()}/${site}/structure/sort`, {
      item: { type: "site-section", id: c.id },
      position: { after: { type: "site-section", id: b.id } },
    });
    expect(sorted.status).toBe(200);
    expect(await order()).toEqual([a.id, b.id, c.id]);
    const unknown = await h.call("POST", `${sitesPath()}/${site}/sections/${a.id}/move`, {
      position: { before: { type: "site-section", siteSection: "nope" } },
    });
    expect(unknown.status).toBe(404);
    const structure = await h.call("GET", `${sitesPath()}/${site}/structure`);
    expect(structure.body.type).toBe("sections");
    expect(structure.body.structure.map((s: Json) => s.id)).toEqual([a.id, b.id, c.id]);
  });

  it("supports prefer: return=minimal", async () => {
    const site = await createSite();
    const section = await addSection(site, h.space(0));
    const res = await h.call(
      "PATCH",
      `${sitesPath()}/${site}/sections/${section.id}`,
      { title: "Minimal" },
      { headers: { prefer: "return=minimal" } },
    );
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(res.headers.get("preference-applied")).toBe("return=minimal");
    expect((await h.listAll(`${sitesPath()}/${site}/sections`))[0].title).toBe("Minimal");
  });
});

describe("site spaces", () => {
  it("updates path and condition, retargets the space, rejects clashes", async () => {
    const site = await createSite({ title: "Docs", spaces: [h.space(0), h.space(1)] });
    const [a, b] = await h.listAll(`${sitesPath()}/${site}/site-spaces`);
    const path = `${sitesPath()}/${site}/site-spaces/${b.id}`;
    const res = await h.call("PATCH", path, { path: "v2", condition: "visitor.claims.v2" });
    expect(res.body).toMatchObject({ path: "v2", condition: "visitor.claims.v2" });
    expect((await h.call("PATCH", path, { condition: null })).body).not.toHaveProperty("condition");
    expect((await h.call("PATCH", path, { path: a.path })).status).toBe(400);
    expect((await h.call("PATCH", path, { spaceId: h.space(0) })).status).toBe(400);
    const retarget = await h.call("PATCH", path, { spaceId: h.space(2) });
    expect(retarget.body.space.id).toBe(h.space(2));
    const limit = await h.call("PATCH", path, { path: "p".repeat(101) });
    expect(limit.body.error.message).toBe("path: must be at most 100 characters");
    const cond = await h.call("PATCH", path, { condition: "c".repeat(1025) });
    expect(cond.body.error.message).toBe("condition: must be at most 1024 characters");
    expect((await h.call("PATCH", `${sitesPath()}/${site}/site-spaces/nope`, { path: "x" })).status).toBe(404);
  });

  it("reorders site spaces", async () => {
    const site = await createSite({ title: "Docs", spaces: [h.space(0), h.space(1), h.space(2)] });
    const [a, b, c] = await h.listAll(`${sitesPath()}/${site}/site-spaces`);
    const res = await h.call("POST", `${sitesPath()}/${site}/site-spaces/${a.id}/move`, {
      position: { after: { type: "site-space", siteSpace: c.id } },
    });
    expect(res.status).toBe(200);
    expect((await h.listAll(`${sitesPath()}/${site}/site-spaces`)).map((s) => s.id)).toEqual([b.id, c.id, a.id]);
  });
});

describe("section groups", () => {
  it("creates groups, manages membership with the API reference's own operations and ungroups on delete", async () => {
    const site = await createSite();
    const a = await addSection(site, h.space(0));
    const b = await addSection(site, h.space(1));
    const base = `${sitesPath()}/${site}/section-groups`;
    const g = await h.call("POST", base, { title: "Guides", icon: "book" });
    expect(g.status).toBe(201);
    expect(g.body).toMatchObject({
      object: "site-section-group",
      title: "Guides",
      icon: "book",
      sections: [],
      children: [],
    });

    const add = await h.call("POST", `${base}/${g.body.id}/sections`, { sectionId: a.id });
    expect(add.status).toBe(201);
    expect(add.body.sections.map((s: Json) => s.id)).toEqual([a.id]);
    const sec = (await h.listAll(`${sitesPath()}/${site}/sections`)).find((s) => s.id === a.id);
    expect(sec.sectionGroup).toBe(g.body.id);

    const badAdd = await h.call("POST", `${base}/${g.body.id}/sections`, { sectionId: "nope" });
    expect(badAdd.status).toBe(400);

    const rm = await h.call("DELETE", `${base}/${g.body.id}/sections/${a.id}`);
    expect(rm.status).toBe(205);
    expect((await h.call("DELETE", `${base}/${g.body.id}/sections/${a.id}`)).status).toBe(204);
    expect((await h.listAll(base))[0].sections).toEqual([]);

    await h.call("PATCH", `${sitesPath()}/${site}/sections/${b.id}`, { siteSectionGroupId: g.body.id });
    expect((await h.listAll(base))[0].sections.map((s: Json) => s.id)).toEqual([b.id]);
    expect((await h.call("DELETE", `${base}/${g.body.id}`)).status).toBe(205);
    const sections = await h.listAll(`${sitesPath()}/${site}/sections`);
    expect(sections.map((s) => s.sectionGroup)).toEqual([undefined, undefined]);
    expect((await h.call("DELETE", `${base}/${g.body.id}`)).status).toBe(204);
  });

  it("nests groups, rejects cycles and validates the title", async () => {
    const site = await createSite();
    const base = `${sitesPath()}/${site}/section-groups`;
    const outer = (await h.call("POST", base, { title: "Outer" })).body;
    const inner = (await h.call("POST", base, { title: "Inner", parent: outer.id })).body;
    expect(inner.sectionGroup).toBe(outer.id);
    const listed = (await h.listAll(base)).find((g) => g.id === outer.id);
    expect(listed.children.map((c: Json) => c.id)).toEqual([inner.id]);
    const cycle = await h.call("PATCH", `${base}/${outer.id}`, { parentSectionGroupId: inner.id });
    expect(cycle.status).toBe(400);
    expect(cycle.body.error.message).toMatch(/^parentSectionGroupId: cannot nest/);
    expect((await h.call("POST", base, { title: "" })).body.error.message).toBe("title: must not be empty");
    expect((await h.call("POST", base, { title: "t".repeat(101) })).body.error.message).toBe(
      "title: must be at most 100 characters",
    );
    expect((await h.call("POST", base, {})).body.error.message).toBe("title: is required");
    expect((await h.call("POST", base, { title: "x", sections: ["nope"] })).status).toBe(400);
  });
});

describe("share links", () => {
  it("creates links whose published URL carries a secret token", async () => {
    const site = await createSite();
    const base = `${sitesPath()}/${site}/share-links`;
    const a = await h.call("POST", base, { name: "Partner" });
    const b = await h.call("POST", base, { name: "Press" });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ object: "share-link", name: "Partner", active: true });
    const token = (url: string) => new URL(url).searchParams.get("token");
    expect(token(a.body.urls.published)).toMatch(/^[A-Za-z0-9]{20,}$/);
    expect(token(a.body.urls.published)).not.toBe(token(b.body.urls.published));
    expect(new URL(a.body.urls.published).host).toBe("acme.gitbook.example");

    const off = await h.call("PATCH", `${base}/${a.body.id}`, { active: false });
    expect(off.body.active).toBe(false);
    expect(off.body.urls.published).toBe(a.body.urls.published);
    const on = await h.call("PATCH", `${base}/${a.body.id}`, { active: true, name: "Partners" });
    expect(on.body).toMatchObject({ active: true, name: "Partners" });
    expect((await h.listAll(`${base}?search=press`)).map((l) => l.id)).toEqual([b.body.id]);
    expect((await h.call("DELETE", `${base}/${a.body.id}`)).status).toBe(205);
    expect((await h.call("DELETE", `${base}/${a.body.id}`)).status).toBe(204);
    expect((await h.call("PATCH", `${base}/${a.body.id}`, { active: true })).status).toBe(404);
  });

  it("validates share link fields", async () => {
    const site = await createSite();
    const base = `${sitesPath()}/${site}/share-links`;
    expect((await h.call("POST", base, { name: "n".repeat(51) })).body.error.message).toBe(
      "name: must be at most 50 characters",
    );
    expect((await h.call("POST", base, {})).body.error.message).toBe("name: is required");
    const link = (await h.call("POST", base, { name: "" })).body;
    const empty = await h.call("PATCH", `${base}/${link.id}`, {});
    expect(empty.status).toBe(400);
    expect((await h.call("PATCH", `${base}/${link.id}`, { active: "yes" })).status).toBe(400);
  });
});

describe("adaptive schema", () => {
  const valid = {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: {
      isBeta: { type: "boolean", description: "Beta tester" },
      plan: { type: "string", enum: ["free", "pro"], description: "Plan" },
      seats: { type: "number", description: "Seats" },
      roles: { type: "array", description: "Roles", items: { type: "string", description: "Role" } },
      org: {
        type: "object",
        description: "Organization",
        properties: { verified: { type: "boolean", description: "Verified" } },
        additionalProperties: false,
      },
      unsigned: {
        type: "object",
        description: "Unsigned claims of the site visitor.",
        properties: { theme: { type: "string", description: "Theme" } },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  };

  it("answers 404 until a schema is written (official), then stores a valid schema and derives template conditions", async () => {
    const site = await createSite();
    const path = `${sitesPath()}/${site}/adaptive-schema`;
    const none = await h.call("GET", path);
    expect(none.status).toBe(404);
    expect(none.body).toEqual({
      error: { code: 404, message: `No visitor attributes schema found for site "${site}"` },
    });
    expect((await h.call("GET", `${path}/template-conditions`)).body).toEqual({ items: [] });
    const put = await h.call("PUT", path, { jsonSchema: valid });
    expect(put.status, put.text).toBe(200);
    expect(put.body.jsonSchema).toEqual(valid);
    expect((await h.call("GET", path)).body.jsonSchema).toEqual(valid);
    const conditions = await h.call("GET", `${path}/template-conditions`);
    expect(conditions.status).toBe(200);
    const conds = conditions.body.items.map((c: Json) => c.condition);
    expect(conds).toContain("visitor.claims.isBeta === true");
    expect(conds).toContain('visitor.claims.plan === "pro"');
    expect(conds).toContain("visitor.claims.org.verified === true");
  });

  it("rejects schemas the official document does not accept", async () => {
    const site = await createSite();
    const path = `${sitesPath()}/${site}/adaptive-schema`;
    const bad: [unknown, RegExp][] = [
      [{ ...valid, additionalProperties: true }, /^jsonSchema\.additionalProperties: must be false/],
      [{ ...valid, type: "array" }, /^jsonSchema\.type:/],
      [{ type: "object", additionalProperties: false }, /^jsonSchema\.properties: is required/],
      [
        { type: "object", properties: { x: { type: "integer", description: "x" } }, additionalProperties: false },
        /^jsonSchema\.properties\.x\.type:/,
      ],
      [
        { type: "object", properties: { x: { type: "boolean" } }, additionalProperties: false },
        /description: is required/,
      ],
      [
        {
          type: "object",
          properties: { x: { type: "boolean", description: "x", default: true } },
          additionalProperties: false,
        },
        /^jsonSchema\.properties\.x\.default: unknown keyword/,
      ],
      [
        {
          type: "object",
          properties: {
            unsigned: { type: "object", description: "Other", properties: {}, additionalProperties: false },
          },
          additionalProperties: false,
        },
        /^jsonSchema\.properties\.unsigned\.description:/,
      ],
      [{ ...valid, $schema: "https://json-schema.org/draft/2020-12/schema" }, /^jsonSchema\.\$schema:/],
    ];
    for (const [jsonSchema, message] of bad) {
      const res = await h.call("PUT", path, { jsonSchema });
      expect(res.status, JSON.stringify(jsonSchema)).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    expect((await h.call("PUT", path, {})).body.error.message).toBe("jsonSchema: is required");
    expect(h.emulator.store.adaptiveSchemas.size).toBe(0);
  });
});
