import { afterEach, describe, expect, it, vi } from "vitest";
import type { Props } from "../../provider/framework/kind";
import { UNKNOWN } from "../../provider/framework/unknown";
import { movesToOrder } from "../../provider/resources/siteOrder";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { checked, created, describeLifecycle, expectEachLimitRejected, type LimitCase } from "../support/lifecycle";

const fixture = useEmulator();
const sitePath = (site: string) => `/orgs/${fixture.org()}/sites/${site}`;

interface Built {
  siteId: string;
  sections: [string, string, string];
  /** The first section's site spaces, in creation order. */
  siteSpaces: [string, string];
}

/** A site with three sections (A, B, C, in that order) and a second site space in A. */
async function buildSite(): Promise<Built> {
  const siteId = await fixture.makeSite();
  const section = (i: number, title: string) => fixture.makeSection(siteId, fixture.space(i), title);
  const sections: Built["sections"] = [await section(0, "Alpha"), await section(1, "Beta"), await section(2, "Gamma")];
  const first = fixture.emulator.store.siteSpacesIn(siteId, sections[0])[0]?.id ?? "";
  const second = await fixture.apiCreate(`${sitePath(siteId)}/site-spaces`, {
    spaceId: fixture.space(3),
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
    organizationId: fixture.org(),
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
          siteId: await fixture.makeSite({ title: "Other" }),
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
      inputs: async () => ({ organizationId: fixture.org(), siteId: built?.siteId ?? "", order: built?.sections }),
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
      organizationId: fixture.org(),
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
        organizationId: fixture.org(),
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
    const news = await checked("SiteStructure", {
      organizationId: fixture.org(),
      siteId: site.siteId,
      order: [b, a, "nope"],
    });
    await expect(lifecycle("SiteStructure").create(news)).rejects.toThrow(
      new RegExp(`order must list every top-level item.*names "nope".*leaves out "${site.sections[2]}"`),
    );
  });

  it("orders a group among sections, the group's sections stay in the group", async () => {
    const site = await buildSite();
    const [a, b, c] = site.sections;
    const group = await fixture.apiCreate(`${sitePath(site.siteId)}/section-groups`, { title: "G", sections: [c] });
    const { state } = await created("SiteStructure", {
      organizationId: fixture.org(),
      siteId: site.siteId,
      order: [group, b, a],
    });
    expect(state.order).toEqual([group, b, a]);
    expect((await structureOf(site.siteId)).order).toEqual([group, b, a]);
    const sorts = fixture.emulator.requests().filter((r) => r.path.endsWith("/structure/sort"));
    expect(sorts.map((r) => (r.requestBody as { item: { type: string } }).item.type)).toContain("site-section-group");
    expect(fixture.emulator.store.sections.get(c)?.groupId).toBe(group);
  });

  it("keeps the titles of the items it orders, read with the structure", async () => {
    const { id, state } = await created("SiteStructure", await baseInputs());
    const [a, b, c] = built?.sections ?? [];
    const [first, second] = built?.siteSpaces ?? [];
    const structure = (await fixture.api("GET", `${sitePath(id)}/structure`)).body as {
      structure: { id: string; siteSpaces?: { id: string; title: string }[] }[];
    };
    const sectionA = structure.structure.find((item) => item.id === a);
    const spaceTitle = (ss?: string) => sectionA?.siteSpaces?.find((s) => s.id === ss)?.title;
    expect(state.titles).toEqual({
      [a ?? ""]: "Alpha",
      [b ?? ""]: "Beta",
      [c ?? ""]: "Gamma",
      [first ?? ""]: spaceTitle(first),
      [second ?? ""]: spaceTitle(second),
    });
    expect(spaceTitle(first)).toEqual(expect.any(String));
    expect((await lifecycle("SiteStructure").read(id, state)).props?.titles).toEqual(state.titles);
  });

  it("reads a structure whose site was deleted as gone", async () => {
    const { id, state } = await created("SiteStructure", await baseInputs());
    await fixture.api("DELETE", sitePath(id));
    expect((await lifecycle("SiteStructure").read(id, state)).id).toBe("");
  });
});

describe("what a new order moves, said by diff", () => {
  afterEach(() => vi.restoreAllMocks());
  const stderr = () => {
    const lines: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    return lines;
  };

  it("names the item that moves by its title, with its old and new positions, once per operation", async () => {
    const { id, state, inputs } = await created("SiteStructure", await baseInputs());
    const [a, b, c] = built?.sections ?? [];
    const printed = stderr();
    expect((await lifecycle("SiteStructure").diff(id, state, inputs)).changes).toBe(false);
    expect(printed).toEqual([]);
    const next = await checked("SiteStructure", { ...inputs, order: [a, b, c] });
    expect((await lifecycle("SiteStructure").diff(id, state, next)).changes).toBe(true);
    // preview --refresh diffs a drifted resource twice with the same result.
    await lifecycle("SiteStructure").diff(id, state, next);
    expect(printed).toEqual([`info: SiteStructure "${id}": order: "Gamma" moves from 1 to 3.\n`]);
  });

  it("names the site spaces that move within a section, new items and items left out", async () => {
    const { id, state, inputs } = await created("SiteStructure", await baseInputs());
    const [a, , c] = built?.sections ?? [];
    const [first, second] = built?.siteSpaces ?? [];
    const titles = state.titles as Record<string, string>;
    const printed = stderr();
    const next = await checked("SiteStructure", {
      ...inputs,
      order: [UNKNOWN, c, a],
      siteSpaces: [{ sectionId: a, siteSpaceIds: [first, second] }],
    });
    await lifecycle("SiteStructure").diff(id, state, next);
    expect(printed).toEqual([
      `info: SiteStructure "${id}": order: a new item comes in at 1, "Beta" leaves; site spaces of "Alpha": ` +
        `"${titles[first ?? ""]}" moves from 2 to 1.\n`,
    ]);
  });

  it("names items by id in a state written before titles were kept; nothing without an old order or on a replace", async () => {
    const { id, state, inputs } = await created("SiteStructure", await baseInputs());
    const [a, b, c] = built?.sections ?? [];
    const { titles: _titles, ...older } = state;
    const printed = stderr();
    const next = await checked("SiteStructure", { ...inputs, order: [a, b, c] });
    await lifecycle("SiteStructure").diff(id, older, next);
    expect(printed).toEqual([`info: SiteStructure "${id}": order: "${c}" moves from 1 to 3.\n`]);
    await lifecycle("SiteStructure").diff(id, { ...state, order: [] }, { ...next, order: [b, a, c] });
    // A new site is a replacement: its order is not a move within this one.
    await lifecycle("SiteStructure").diff(id, state, { ...next, siteId: "another-site" });
    expect(printed).toHaveLength(1);
  });
});

describe("movesToOrder", () => {
  it("moves only the items out of place, and none when the order matches", () => {
    expect(movesToOrder(["a", "b", "c"], ["a", "b", "c"])).toEqual([]);
    expect(movesToOrder(["a", "b", "c"], ["c", "a", "b"])).toEqual([{ id: "c", before: "a" }]);
    expect(movesToOrder(["a", "b", "c"], ["a", "c", "b"])).toEqual([{ id: "c", after: "a" }]);
    expect(movesToOrder(["a", "b", "c", "d"], ["d", "c", "b", "a"])).toHaveLength(3);
  });

  it("moves each item out of place once, and only those: the fewest moves", () => {
    expect(movesToOrder(["a", "b", "c", "d"], ["b", "c", "d", "a"])).toEqual([{ id: "a", after: "d" }]);
    expect(movesToOrder(["a", "b", "c", "d"], ["d", "a", "b", "c"])).toEqual([{ id: "d", before: "a" }]);
    const permutations = (items: string[]): string[][] =>
      items.length <= 1
        ? [items]
        : items.flatMap((item, i) => permutations(items.filter((_, j) => j !== i)).map((rest) => [item, ...rest]));
    const items = ["a", "b", "c", "d", "e"];
    /** The most items already in the desired relative order (every subset tried). */
    const inOrder = (desired: string[]) => {
      let best = 0;
      for (let mask = 0; mask < 1 << items.length; mask++) {
        const subset = items.filter((_, i) => mask & (1 << i));
        const ranks = subset.map((id) => desired.indexOf(id));
        if (ranks.every((rank, i) => i === 0 || rank > (ranks[i - 1] ?? -1))) best = Math.max(best, subset.length);
      }
      return best;
    };
    for (const desired of permutations(items)) {
      const moves = movesToOrder(items, desired);
      expect(moves, desired.join("")).toHaveLength(items.length - inOrder(desired));
      const order = [...items];
      for (const move of moves) {
        order.splice(order.indexOf(move.id), 1);
        const anchor = order.indexOf(move.before ?? move.after ?? "");
        order.splice(move.before ? anchor : anchor + 1, 0, move.id);
      }
      expect(order).toEqual(desired);
    }
  });

  it("puts the desired items first and keeps the others' order after them; ids not in the level are left out", () => {
    const moves = movesToOrder(["a", "x", "b", "y", "c"], ["c", "a", "new"]);
    const order = ["a", "x", "b", "y", "c"];
    for (const move of moves) {
      order.splice(order.indexOf(move.id), 1);
      const anchor = order.indexOf(move.before ?? move.after ?? "");
      order.splice(move.before ? anchor : anchor + 1, 0, move.id);
    }
    expect(order).toEqual(["c", "a", "x", "b", "y"]);
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
  const valid = () => ({ organizationId: fixture.org(), siteId: "site", order: ["a", "b"] });

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
