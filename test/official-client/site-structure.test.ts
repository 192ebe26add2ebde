import type { Site, SiteSection } from "@gitbook/api";
import { beforeEach, describe, expect, it } from "vitest";
import { allPages, expectApiError, expectDeleted, locationOf, useOfficialClient } from "./helpers";

const f = useOfficialClient();
const space = (i: number) => f.emu.spaceIds[i]!;
let site: Site;

beforeEach(async () => {
  site = (await f.api.orgs.createSite(f.org(), { title: "Docs" })).data;
});

async function addSection(spaceId: string, title: string): Promise<SiteSection> {
  const created = await f.api.orgs.addSectionToSite(f.org(), site.id, { spaceId, title });
  expect(created.status).toBe(201);
  return created.data;
}

describe("site sections through the official client", () => {
  it("creates, lists over several pages, updates and deletes", async () => {
    const created = await f.api.orgs.addSectionToSite(f.org(), site.id, { spaceId: space(0), title: "Guides" });
    expect(created.status).toBe(201);
    const guides = created.data;
    expect(guides).toMatchObject({ object: "site-section", title: "Guides", draft: false });
    expect(guides.siteSpaces.map((s) => s.space.id)).toEqual([space(0)]);
    expect(locationOf(created)).toBe(`${f.emu.url}/orgs/${f.org()}/sites/${site.id}/sections/${guides.id}`);
    await addSection(space(1), "API reference");
    await addSection(space(2), "Changelog");

    const { items, pages } = await allPages((page) =>
      f.api.orgs.listSiteSections(f.org(), site.id, { limit: 2, page }),
    );
    expect(pages).toBe(2);
    expect(items.map((s) => s.title)).toEqual(["Guides", "API reference", "Changelog"]);

    const updated = await f.api.orgs.updateSiteSectionById(f.org(), site.id, guides.id, {
      title: "User guides",
      path: "guides",
      description: "How to use the product",
      condition: "visitor.claims.isBetaUser",
      icon: "book",
    });
    expect(updated.status).toBe(200);
    expect(updated.data).toMatchObject({
      id: guides.id,
      title: "User guides",
      path: "guides",
      description: "How to use the product",
      condition: "visitor.claims.isBetaUser",
      icon: "book",
    });
    const cleared = await f.api.orgs.updateSiteSectionById(f.org(), site.id, guides.id, {
      condition: null,
      icon: null,
    });
    expect(cleared.data).not.toHaveProperty("condition");
    expect(cleared.data).not.toHaveProperty("icon");

    const structure = await f.api.orgs.getSiteStructure(f.org(), site.id);
    expect(structure.status).toBe(200);
    expect(structure.data.type).toBe("sections");
    expect(structure.data.structure.map((s) => s.id)).toEqual(items.map((s) => s.id));

    await expectDeleted(() => f.api.orgs.deleteSiteSectionById(f.org(), site.id, guides.id));
    const after = await f.api.orgs.listSiteSections(f.org(), site.id);
    expect(after.data.items.map((s) => s.title)).toEqual(["API reference", "Changelog"]);
  });

  it("fails on an unknown id with 404 and on bad input with 400", async () => {
    await expectApiError(
      f.api.orgs.updateSiteSectionById(f.org(), site.id, "unknownSection", { title: "Guides" }),
      404,
      /unknownSection/,
    );
    await expectApiError(f.api.orgs.listSiteSections(f.org(), "unknownSite"), 404, /unknownSite/);
    await expectApiError(f.api.orgs.addSectionToSite(f.org(), site.id, { spaceId: "unknownSpace" }), 400, /spaceId/);
    await expectApiError(
      f.api.orgs.addSectionToSite(f.org(), site.id, { spaceId: space(0), title: "x" }),
      400,
      /title/,
    );
    const section = await addSection(space(0), "Guides");
    await expectApiError(
      f.api.orgs.updateSiteSectionById(f.org(), site.id, section.id, { path: "p".repeat(101) }),
      400,
      /path/,
    );
  });
});

describe("site section groups through the official client", () => {
  it("creates, lists over several pages, updates, groups sections and deletes", async () => {
    const guides = await addSection(space(0), "Guides");
    const api = await addSection(space(1), "API reference");
    const created = await f.api.orgs.addSectionGroupToSite(f.org(), site.id, {
      title: "Product",
      icon: "box",
      sections: [guides.id],
    });
    expect(created.status).toBe(201);
    const group = created.data;
    expect(group).toMatchObject({ object: "site-section-group", title: "Product", icon: "box", draft: false });
    expect(group.children.map((c) => c.id)).toEqual([guides.id]);
    expect(locationOf(created)).toBe(`${f.emu.url}/orgs/${f.org()}/sites/${site.id}/section-groups/${group.id}`);
    for (const title of ["Platform", "Company"]) {
      expect((await f.api.orgs.addSectionGroupToSite(f.org(), site.id, { title })).status).toBe(201);
    }
    const { items, pages } = await allPages((page) =>
      f.api.orgs.listSiteSectionGroups(f.org(), site.id, { limit: 2, page }),
    );
    expect(pages).toBe(2);
    expect(items.map((g) => g.title)).toEqual(["Product", "Platform", "Company"]);

    const updated = await f.api.orgs.updateSiteSectionGroupById(f.org(), site.id, group.id, {
      title: "Products",
      icon: null,
    });
    expect(updated.status).toBe(200);
    expect(updated.data).toMatchObject({ id: group.id, title: "Products" });
    expect(updated.data).not.toHaveProperty("icon");

    // The document's way to put a section into a group, and to take it out again.
    const grouped = await f.api.orgs.updateSiteSectionById(f.org(), site.id, api.id, { siteSectionGroupId: group.id });
    expect(grouped.data.sectionGroup).toBe(group.id);
    const listed = await f.api.orgs.listSiteSectionGroups(f.org(), site.id);
    expect(listed.data.items.find((g) => g.id === group.id)!.children.map((c) => c.id)).toEqual([guides.id, api.id]);
    const ungrouped = await f.api.orgs.updateSiteSectionById(f.org(), site.id, api.id, { siteSectionGroupId: null });
    expect(ungrouped.data).not.toHaveProperty("sectionGroup");

    await expectDeleted(() => f.api.orgs.deleteSiteSectionGroupById(f.org(), site.id, group.id));
    const left = await f.api.orgs.listSiteSectionGroups(f.org(), site.id);
    expect(left.data.items.map((g) => g.title)).toEqual(["Platform", "Company"]);
  });

  it("fails on an unknown id with 404 and on bad input with 400", async () => {
    await expectApiError(
      f.api.orgs.updateSiteSectionGroupById(f.org(), site.id, "unknownGroup", { title: "x" }),
      404,
      /unknownGroup/,
    );
    await expectApiError(f.api.orgs.addSectionGroupToSite(f.org(), site.id, { title: "" }), 400, /title/);
    await expectApiError(
      f.api.orgs.addSectionGroupToSite(f.org(), site.id, { title: "Product", sections: ["unknownSection"] }),
      400,
      /unknownSection/,
    );
  });
});

describe("site spaces through the official client", () => {
  it("creates, lists over several pages, updates, reorders and deletes", async () => {
    const created = await f.api.orgs.addSpaceToSite(f.org(), site.id, { spaceId: space(0) });
    expect(created.status).toBe(201);
    const first = created.data;
    expect(first).toMatchObject({ object: "site-space", space: { id: space(0) }, draft: false });
    expect(locationOf(created)).toBe(`${f.emu.url}/orgs/${f.org()}/sites/${site.id}/site-spaces/${first.id}`);
    for (const i of [1, 2])
      expect((await f.api.orgs.addSpaceToSite(f.org(), site.id, { spaceId: space(i) })).status).toBe(201);

    const { items, pages } = await allPages((page) => f.api.orgs.listSiteSpaces(f.org(), site.id, { limit: 2, page }));
    expect(pages).toBe(2);
    expect(items.map((s) => s.space.id)).toEqual([space(0), space(1), space(2)]);
    const defaults = await f.api.orgs.listSiteSpaces(f.org(), site.id, { default: true });
    expect(defaults.data.items.map((s) => s.id)).toEqual([first.id]);
    expect((await f.api.orgs.getSiteById(f.org(), site.id)).data.siteSpaces).toBe(3);

    const updated = await f.api.orgs.updateSiteSpaceById(f.org(), site.id, items[1]!.id, {
      path: "v2",
      condition: "visitor.claims.isBetaUser",
      hidden: true,
    });
    expect(updated.status).toBe(200);
    expect(updated.data).toMatchObject({ path: "v2", condition: "visitor.claims.isBetaUser", hidden: true });

    const sorted = await f.api.orgs.sortSiteStructure(f.org(), site.id, {
      item: { type: "site-space", id: items[2]!.id },
      position: { before: { type: "site-space", id: first.id } },
    });
    expect(sorted.status).toBe(200);
    expect(sorted.data).toMatchObject({ object: "site-space", id: items[2]!.id });
    const structure = await f.api.orgs.getSiteStructure(f.org(), site.id);
    expect(structure.data).toMatchObject({ type: "siteSpaces" });
    expect(structure.data.structure.map((s) => s.id)).toEqual([items[2]!.id, first.id, items[1]!.id]);

    await expectDeleted(() => f.api.orgs.deleteSiteSpaceById(f.org(), site.id, first.id));
    expect((await f.api.orgs.listSiteSpaces(f.org(), site.id)).data.items).toHaveLength(2);
  });

  it("fails on an unknown id with 404 and a duplicate or bad input with 400", async () => {
    await expectApiError(
      f.api.orgs.updateSiteSpaceById(f.org(), site.id, "unknownSiteSpace", { path: "x" }),
      404,
      /unknownSiteSpace/,
    );
    const { data } = await f.api.orgs.addSpaceToSite(f.org(), site.id, { spaceId: space(0) });
    await expectApiError(f.api.orgs.addSpaceToSite(f.org(), site.id, { spaceId: space(0) }), 400, /already/);
    await expectApiError(f.api.orgs.updateSiteSpaceById(f.org(), site.id, data.id, { path: "" }), 400, /path/);
    await expectApiError(
      f.api.orgs.addSpaceToSite(f.org(), site.id, { spaceId: space(1), sectionId: "unknownSection" }),
      400,
      /sectionId/,
    );
  });
});
