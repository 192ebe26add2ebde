import { describe, expect, it } from "vitest";
import type { Props } from "../../provider/framework/kind";
import { UNKNOWN } from "../../provider/framework/unknown";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { created, describeLifecycle, expectEachLimitRejected, type LimitCase, updateTo } from "../support/lifecycle";

const fixture = useEmulator();

async function makeSections(site: string): Promise<string[]> {
  const ids: string[] = [];
  for (const spaceId of fixture.emulator.spaceIds.slice(0, 3)) {
    ids.push(await fixture.makeSection(site, spaceId));
  }
  return ids;
}

/** The site's three sections; the group under test starts with the first two. */
let sections: string[] = [];

async function baseInputs(): Promise<Props> {
  const siteId = await fixture.makeSite();
  sections = await makeSections(siteId);
  return { organizationId: fixture.org(), siteId, title: "Products", icon: "box", sectionIds: sections.slice(0, 2) };
}

const groupsPath = (site: unknown) => `/orgs/${fixture.org()}/sites/${site}/section-groups`;
const groupPath = (site: unknown, id: string) => `/orgs/${fixture.org()}/sites/${site}/section-groups/${id}`;
let adoptSite: string | undefined;

describeLifecycle(
  {
    kind: "SiteSectionGroup",
    inputs: baseInputs,
    created: (state) => {
      expect(state).toMatchObject({ title: "Products", icon: "box" });
      expect(state.sectionIds).toEqual(sections.slice(0, 2));
      // Membership is created with the group.
      expect(fixture.lastRequestBody("POST", /section-groups$/)).toEqual({
        title: "Products",
        icon: "box",
        sections: sections.slice(0, 2),
      });
    },
    updates: [
      updateTo("draft", true, "draft (true stages the group)"),
      updateTo("localizedTitle", { fr: "Produit" }),
      updateTo("title", "Platform"),
      updateTo("icon", "gear"),
      updateTo("icon", null, "icon (null removes it)"),
      {
        name: "sectionIds (add one, in another order)",
        inputs: (_f, p) => ({ ...p, sectionIds: [sections[2], sections[1], sections[0]] }),
        expect: (s) => {
          expect(s.sectionIds).toEqual([sections[2], sections[1], sections[0]]);
          const membership = fixture.emulator.requests().filter((r) => /\/sections\/[^/]+$/.test(r.path));
          expect(membership.map((r) => [r.method, r.path.split("/").at(-1), r.requestBody])).toEqual([
            ["PATCH", sections[2], { siteSectionGroupId: expect.any(String) }],
          ]);
        },
      },
      {
        name: "sectionIds (remove one)",
        inputs: (_f, p) => ({ ...p, sectionIds: [sections[1]] }),
        expect: (s) => {
          expect(s.sectionIds).toEqual([sections[1]]);
          expect(fixture.lastRequestBody("PATCH", new RegExp(`/sections/${sections[0]}$`))).toEqual({
            siteSectionGroupId: null,
          });
        },
      },
      updateTo("sectionIds", [], "sectionIds (empty)"),
      {
        name: "parentId (nested in another group, sent as parentSectionGroupId)",
        inputs: async (f, p) => ({ ...p, parentId: await f.apiCreate(groupsPath(p.siteId), { title: "Outer" }) }),
        expect: (s) => {
          expect(s.parentId).toEqual(expect.any(String));
          expect(fixture.lastRequestBody("PATCH", /section-groups\/[^/]+$/)).toEqual({
            parentSectionGroupId: s.parentId,
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
        const site = fixture.emulator.store.sectionGroups.get(id)?.siteId;
        expect((await fixture.api("DELETE", `${groupPath(site, id)}/sections/${sections[0]}`)).status).toBe(205);
      },
      expect: (state) => expect(state.sectionIds).toEqual([sections[1]]),
    },
    adopt: {
      existing: async () => {
        adoptSite = await fixture.makeSite();
        return fixture.apiCreate(`/orgs/${fixture.org()}/sites/${adoptSite}/section-groups`, { title: "Old" });
      },
      inputs: async () => ({
        organizationId: fixture.org(),
        siteId: adoptSite ?? (await fixture.makeSite()),
        title: "Adopted",
      }),
      expect: (state) => expect(state).toMatchObject({ title: "Adopted", sectionIds: [] }),
    },
  },
  fixture,
);

describe("SiteSectionGroup behaviour", () => {
  it("creates a nested group with parent, moves it to the top level with null, and sees a move by hand as drift", async () => {
    const base = await baseInputs();
    const outer = await fixture.apiCreate(groupsPath(base.siteId), { title: "Outer" });
    const { id, state, inputs } = await created("SiteSectionGroup", { ...base, parentId: outer });
    expect(state.parentId).toBe(outer);
    expect(fixture.lastRequestBody("POST", /section-groups$/)).toMatchObject({ parent: outer });
    const { outs } = await lifecycle("SiteSectionGroup").update(id, state, { ...inputs, parentId: null });
    expect(outs.parentId).toBeNull();
    expect(fixture.lastRequestBody("PATCH", /section-groups\/[^/]+$/)).toEqual({ parentSectionGroupId: null });
    await fixture.api("PATCH", groupPath(base.siteId, id), { parentSectionGroupId: outer });
    const read = await lifecycle("SiteSectionGroup").read(id, outs);
    expect(read.props?.parentId).toBe(outer);
    expect(
      (await lifecycle("SiteSectionGroup").diff(id, read.props ?? {}, { ...inputs, parentId: null })).changes,
    ).toBe(true);
    // Undeclared, the nesting is not managed (a group nested by hand before this input existed stays nested).
    const { parentId: _, ...undeclared } = inputs;
    expect((await lifecycle("SiteSectionGroup").diff(id, read.props ?? {}, undeclared)).changes).toBe(false);
  });

  it("changes membership only the official way (PATCH of the section): no request to a path the API lacks", async () => {
    const { id, state, inputs } = await created("SiteSectionGroup", await baseInputs());
    fixture.emulator.clearRequests();
    const { outs } = await lifecycle("SiteSectionGroup").update(id, state, {
      ...inputs,
      sectionIds: [sections[1], sections[2]],
    });
    expect([...(outs.sectionIds as string[])].sort()).toEqual([sections[1], sections[2]].sort());
    const site = inputs.siteId as string;
    expect(fixture.lastRequestBody("PATCH", new RegExp(`/sites/${site}/sections/${sections[2]}$`))).toEqual({
      siteSectionGroupId: id,
    });
    expect(fixture.lastRequestBody("PATCH", new RegExp(`/sites/${site}/sections/${sections[0]}$`))).toEqual({
      siteSectionGroupId: null,
    });
    // The API reference's `…/section-groups/{id}/sections` is in no official document: the real API answers 404.
    expect(fixture.calls().filter((call) => /\/section-groups\/[^/]+\/sections/.test(call))).toEqual([]);
  });

  it("fails when the official way fails, with the API's answer", async () => {
    const { id, state, inputs } = await created("SiteSectionGroup", await baseInputs());
    fixture.emulator.injectFault({ method: "PATCH", path: "/sections/[^/]+$", count: 1, status: 400 });
    await expect(lifecycle("SiteSectionGroup").update(id, state, { ...inputs, sectionIds: sections })).rejects.toThrow(
      /PATCH \/v1\/orgs\/\S+\/sections\/\S+ failed with 400 Bad Request/,
    );
  });

  it("orders sectionIds: another order is a change, which update applies with the sort operation", async () => {
    const { id, state, inputs } = await created("SiteSectionGroup", await baseInputs());
    const reversed = [...(inputs.sectionIds as string[])].reverse();
    const reordered = { ...inputs, sectionIds: reversed };
    expect(await lifecycle("SiteSectionGroup").diff(id, state, reordered)).toMatchObject({
      changes: true,
      replaces: [],
    });
    fixture.emulator.clearRequests();
    const { outs } = await lifecycle("SiteSectionGroup").update(id, state, reordered);
    expect(outs.sectionIds).toEqual(reversed);
    expect(fixture.calls().filter((c) => !c.startsWith("GET"))).toEqual([
      expect.stringMatching(/^PATCH .*\/structure\/sort$/),
    ]);
    const read = await lifecycle("SiteSectionGroup").read(id, outs);
    expect((await lifecycle("SiteSectionGroup").diff(id, read.props ?? {}, reordered)).changes).toBe(false);
  });

  it("sees a reorder by hand as drift", async () => {
    const { id, state, inputs } = await created("SiteSectionGroup", await baseInputs());
    const [first, second] = inputs.sectionIds as string[];
    await fixture.api("PATCH", `/orgs/${fixture.org()}/sites/${state.siteId}/structure/sort`, {
      item: { type: "site-section", id: second },
      position: { before: { type: "site-section", id: first } },
    });
    const read = await lifecycle("SiteSectionGroup").read(id, state);
    expect(read.props?.sectionIds).toEqual([second, first]);
    expect((await lifecycle("SiteSectionGroup").diff(id, read.props ?? {}, inputs)).changes).toBe(true);
  });

  it("leaves membership unmanaged when sectionIds is omitted", async () => {
    const { sectionIds: _omitted, ...inputs } = await baseInputs();
    const { id, state } = await created("SiteSectionGroup", inputs);
    await fixture.api("POST", `${groupPath(state.siteId, id)}/sections`, { sectionId: sections[2] });
    const read = await lifecycle("SiteSectionGroup").read(id, state);
    expect(read.props?.sectionIds).toEqual([sections[2]]);
    expect((await lifecycle("SiteSectionGroup").diff(id, read.props ?? {}, inputs)).changes).toBe(false);
  });

  it("drops the site's shared listings after a write, so update and the next read see it", async () => {
    const { id, state, inputs } = await created("SiteSectionGroup", await baseInputs());
    await lifecycle("SiteSectionGroup").read(id, state);
    const { outs } = await lifecycle("SiteSectionGroup").update(id, state, { ...inputs, sectionIds: [sections[2]] });
    expect(outs.sectionIds).toEqual([sections[2]]);
    expect((await lifecycle("SiteSectionGroup").read(id, outs)).props?.sectionIds).toEqual([sections[2]]);
  });

  it("leaves its sections in the site when deleted", async () => {
    const { id, state } = await created("SiteSectionGroup", await baseInputs());
    await lifecycle("SiteSectionGroup").delete(id, state);
    const listed = await fixture.api("GET", `/orgs/${fixture.org()}/sites/${state.siteId}/sections`);
    expect((listed.body as { items: unknown[] }).items).toHaveLength(3);
  });
});

describe("SiteSectionGroup check", () => {
  const check = (news: Record<string, unknown>) => lifecycle("SiteSectionGroup").check({}, news);
  const valid = () => ({ organizationId: fixture.org(), siteId: "site", title: "ok" });

  it("rejects each limit with the property and the rule, without calling the API", async () => {
    const cases: LimitCase[] = [
      [{ title: "" }, "title", /at least 1 character/],
      [{ title: "x".repeat(101) }, "title", /at most 100 characters/],
      [{ icon: "x".repeat(51) }, "icon", /at most 50 characters/],
      [{ sectionIds: "s1" }, "sectionIds", /must be an array/],
      [{ sectionIds: ["s1", ""] }, "sectionIds.1", /must be an id/],
      [{ siteId: "" }, "siteId", /must be an id/],
      [{ organizationId: "" }, "organizationId", /must be an id/],
      [{ sections: [] }, "sections", /unknown property sections/],
    ];
    await expectEachLimitRejected("SiteSectionGroup", valid(), cases);
    expect(fixture.emulator.requests()).toEqual([]);
  });

  it("accepts values at the exact limits", async () => {
    for (const news of [
      { title: "x", icon: "" },
      { title: "x".repeat(100), icon: "i".repeat(50), sectionIds: [] },
      { icon: null, sectionIds: ["a", "b"] },
    ]) {
      expect((await check({ ...valid(), ...news })).failures).toBeUndefined();
    }
  });

  it("lets unknown values through during preview", async () => {
    expect((await check({ ...valid(), siteId: UNKNOWN, sectionIds: [UNKNOWN] })).failures).toBeUndefined();
  });
});
