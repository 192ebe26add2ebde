import { describe, expect, it } from "vitest";
import type { Props } from "../../provider/framework/kind";
import { UNKNOWN } from "../../provider/framework/unknown";
import { movesToOrder } from "../../provider/resources/siteOrder";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { checked, created, describeLifecycle, expectEachLimitRejected, type LimitCase } from "../support/lifecycle";

const fixture = useEmulator();
const org = () => fixture.emulator.organizationId;
const space = (i: number) => {
  const id = fixture.emulator.spaceIds[i];
  if (id === undefined) throw new Error(`the emulator seeds no space ${i}`);
  return id;
};
const sitePath = (site: string) => `/orgs/${org()}/sites/${site}`;

interface Built {
  siteId: string;
  sections: [string, string, string];
  /** The first section's site spaces, in creation order. */
  siteSpaces: [string, string];
}

/** A site with three sections (A, B, C, in that order) and a second site space in A. */
async function buildSite(): Promise<Built> {
  const siteId = await fixture.apiCreate(`/orgs/${org()}/sites`, { title: "Docs" });
  const section = (i: number, title: string) =>
    fixture.apiCreate(`${sitePath(siteId)}/sections`, { spaceId: space(i), title });
  const sections: Built["sections"] = [await section(0, "Alpha"), await section(1, "Beta"), await section(2, "Gamma")];
  const first = fixture.emulator.store.siteSpacesIn(siteId, sections[0])[0]?.id ?? "";
  const second = await fixture.apiCreate(`${sitePath(siteId)}/site-spaces`, {
    spaceId: space(3),
    sectionId: sections[0],
  });
  return { siteId, sections, siteSpaces: [first, second] };
}

async function structureOf(site: string) {
  const answer = await fixture.api("GET", `${sitePath(site)}/structure`);
  const items = (answer.body as { structure: { id: string; siteSpaces?: { id: string }[] }[] }).structure;
  return { order: items.map((i) => i.id), siteSpaces: items.map((i) => (i.siteSpaces ?? []).map((ss) => ss.id)) };
}

let built: Built | undefined;

async function baseInputs(): Promise<Props> {
  built = await buildSite();
  const [a, b, c] = built.sections;
  return {
    organizationId: org(),
    siteId: built.siteId,
    order: [c, a, b],
    siteSpaces: [{ sectionId: a, siteSpaceIds: [built.siteSpaces[1], built.siteSpaces[0]] }],
  };
}

const sort = (site: string, item: string, before: string) =>
  fixture.api("PATCH", `${sitePath(site)}/structure/sort`, {
    item: { type: "site-section", id: item },
    position: { before: { type: "site-section", id: before } },
  });

describeLifecycle(
  {
    kind: "SiteStructure",
    inputs: baseInputs,
    created: (state) => {
      const [a, b, c] = built?.sections ?? [];
      expect(state.order).toEqual([c, a, b]);
      expect(state.siteSpaces).toEqual([{ sectionId: a, siteSpaceIds: [built?.siteSpaces[1], built?.siteSpaces[0]] }]);
      expect(state.type).toBe("sections");
      expect(fixture.lastRequestBody("PATCH", /\/structure\/sort$/)).toMatchObject({ item: { type: "site-space" } });
    },
    updates: [
      {
        name: "order",
        inputs: (_f, p) => ({ ...p, order: [...(p.order as string[])].reverse() }),
        expect: async (s) => {
          const [a, b, c] = built?.sections ?? [];
          expect(s.order).toEqual([b, a, c]);
          expect((await structureOf(s.siteId as string)).order).toEqual([b, a, c]);
        },
      },
      {
        name: "siteSpaces",
        inputs: (_f, p) => ({ ...p, siteSpaces: [{ sectionId: built?.sections[0], siteSpaceIds: built?.siteSpaces }] }),
        expect: (s) =>
          expect(s.siteSpaces).toEqual([{ sectionId: built?.sections[0], siteSpaceIds: built?.siteSpaces }]),
      },
    ],
    replaces: [
      {
        property: "siteId",
        inputs: async (_f, p) => ({
          ...p,
          siteId: await fixture.apiCreate(`/orgs/${org()}/sites`, { title: "Other" }),
        }),
      },
      { property: "organizationId", inputs: (f, p) => ({ ...p, organizationId: f.emulator.secondOrganizationId }) },
    ],
    outOfBand: {
      change: async (id) => {
        const { order } = await structureOf(id);
        expect((await sort(id, order[2] ?? "", order[0] ?? "")).status).toBe(200);
      },
      expect: (state) => {
        const [a, b, c] = built?.sections ?? [];
        expect(state.order).toEqual([b, c, a]);
      },
    },
    adopt: {
      existing: async () => {
        built = await buildSite();
        return built.siteId;
      },
      inputs: async () => ({ organizationId: org(), siteId: built?.siteId ?? "", order: built?.sections }),
      expect: (state) => expect(state.order).toEqual(built?.sections),
    },
    deleteKeepsObject: "the site keeps its order",
  },
  fixture,
);

describe("SiteStructure behaviour", () => {
  it("writes nothing when the order already matches: adoption, and a second up", async () => {
    const site = await buildSite();
    fixture.emulator.clearRequests();
    const inputs = await checked("SiteStructure", {
      organizationId: org(),
      siteId: site.siteId,
      order: site.sections,
      siteSpaces: [{ sectionId: site.sections[0], siteSpaceIds: site.siteSpaces }],
      importId: site.siteId,
    });
    const { id, outs } = await lifecycle("SiteStructure").create(inputs);
    expect(fixture.emulator.requests().filter((r) => r.method !== "GET")).toEqual([]);
    expect((await lifecycle("SiteStructure").diff(id, outs, inputs)).changes).toBe(false);
  });

  it("gives the same order whatever the creation order of the sections (two fresh sites, one program)", async () => {
    const orders = [];
    for (const reversed of [false, true]) {
      const site = await buildSite();
      const [a, b, c] = site.sections;
      if (reversed) await sort(site.siteId, c, a);
      const { state } = await created("SiteStructure", {
        organizationId: org(),
        siteId: site.siteId,
        order: [b, c, a],
      });
      const names = (await structureOf(site.siteId)).order.map((id) => fixture.emulator.store.sections.get(id)?.title);
      orders.push(names);
      expect(state.order).toEqual([b, c, a]);
    }
    expect(orders[0]).toEqual(["Beta", "Gamma", "Alpha"]);
    expect(orders[1]).toEqual(orders[0]);
  });

  it("fails naming the ids when order leaves out a top-level item or names one that is not", async () => {
    const site = await buildSite();
    const [a, b] = site.sections;
    const news = await checked("SiteStructure", { organizationId: org(), siteId: site.siteId, order: [b, a, "nope"] });
    await expect(lifecycle("SiteStructure").create(news)).rejects.toThrow(
      new RegExp(`order must list every top-level item.*names "nope".*leaves out "${site.sections[2]}"`),
    );
  });

  it("orders a group among sections, the group's sections stay in the group", async () => {
    const site = await buildSite();
    const [a, b, c] = site.sections;
    const group = await fixture.apiCreate(`${sitePath(site.siteId)}/section-groups`, { title: "G", sections: [c] });
    const { state } = await created("SiteStructure", {
      organizationId: org(),
      siteId: site.siteId,
      order: [group, b, a],
    });
    expect(state.order).toEqual([group, b, a]);
    expect((await structureOf(site.siteId)).order).toEqual([group, b, a]);
    const sorts = fixture.emulator.requests().filter((r) => r.path.endsWith("/structure/sort"));
    expect(sorts.map((r) => (r.requestBody as { item: { type: string } }).item.type)).toContain("site-section-group");
    expect(fixture.emulator.store.sections.get(c)?.groupId).toBe(group);
  });

  it("reads a structure whose site was deleted as gone", async () => {
    const { id, state } = await created("SiteStructure", await baseInputs());
    await fixture.api("DELETE", sitePath(id));
    expect((await lifecycle("SiteStructure").read(id, state)).id).toBe("");
  });
});

describe("movesToOrder", () => {
  it("moves only the items out of place, and none when the order matches", () => {
    expect(movesToOrder(["a", "b", "c"], ["a", "b", "c"])).toEqual([]);
    expect(movesToOrder(["a", "b", "c"], ["c", "a", "b"])).toEqual([{ id: "c", before: "a" }]);
    expect(movesToOrder(["a", "b", "c"], ["a", "c", "b"])).toEqual([{ id: "c", after: "a" }]);
    expect(movesToOrder(["a", "b", "c", "d"], ["d", "c", "b", "a"])).toHaveLength(3);
  });

  it("ends in the desired order for every permutation of four items", () => {
    const permutations = (items: string[]): string[][] =>
      items.length <= 1
        ? [items]
        : items.flatMap((item, i) => permutations(items.filter((_, j) => j !== i)).map((rest) => [item, ...rest]));
    for (const desired of permutations(["a", "b", "c", "d"])) {
      const order = ["a", "b", "c", "d"];
      for (const move of movesToOrder(order, desired)) {
        order.splice(order.indexOf(move.id), 1);
        const anchor = order.indexOf(move.before ?? move.after ?? "");
        order.splice(move.before ? anchor : anchor + 1, 0, move.id);
      }
      expect(order).toEqual(desired);
    }
  });
});

describe("SiteStructure check", () => {
  const valid = () => ({ organizationId: org(), siteId: "site", order: ["a", "b"] });

  it("rejects each limit with the property and the rule, without calling the API", async () => {
    const cases: LimitCase[] = [
      [{ order: ["a", "a"] }, "order", /must not list an id twice/],
      [{ order: ["a/.."] }, "order.0", /must be an id/],
      [{ siteSpaces: [{ sectionId: "s", siteSpaceIds: [] }] }, "siteSpaces.0.siteSpaceIds", /at least 1/],
      [{ siteSpaces: [{ sectionId: "s", siteSpaceIds: ["x", "x"] }] }, "siteSpaces.0.siteSpaceIds", /twice/],
      [
        {
          siteSpaces: [
            { sectionId: "s", siteSpaceIds: ["x"] },
            { sectionId: "s", siteSpaceIds: ["y"] },
          ],
        },
        "siteSpaces",
        /must not list a section twice/,
      ],
      [{ siteSpaces: [{ sectionId: "s", siteSpaceIds: ["x"], extra: 1 }] }, "siteSpaces.0", /unknown property extra/],
      [{ siteId: "" }, "siteId", /must be an id/],
    ];
    await expectEachLimitRejected("SiteStructure", valid(), cases);
    expect(fixture.emulator.requests()).toEqual([]);
  });

  it("lets unknown values through during preview", async () => {
    const result = await lifecycle("SiteStructure").check({}, { ...valid(), order: [UNKNOWN, "b"] });
    expect(result.failures).toBeUndefined();
  });
});
