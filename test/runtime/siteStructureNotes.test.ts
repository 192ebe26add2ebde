/**
 * SiteStructure's words: what a preview says a new order moves (describeChange), what `up` says when a declared list
 * does not match the site, and the titles and levels its state keeps.
 */
import { describe, expect, it } from "vitest";
import type { Props } from "../../provider/framework/kind";
import { siteStructureKind } from "../../provider/resources/siteStructure";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { checked, created } from "../support/lifecycle";

const fixture = useEmulator();
const sitePath = (site: string) => `/orgs/${fixture.org()}/sites/${site}`;

type State = Parameters<NonNullable<typeof siteStructureKind.describeChange>>[1];
type Inputs = Parameters<NonNullable<typeof siteStructureKind.describeChange>>[2];

function noteFor(olds: State, news: Partial<Inputs>, changed: string[]): string | undefined {
  const { describeChange } = siteStructureKind;
  if (!describeChange) throw new Error("SiteStructure no longer describes its changes");
  return describeChange("site-1", olds, { organizationId: "org", siteId: "site-1", ...news }, new Set(changed));
}

const olds: State = {
  organizationId: "org",
  siteId: "site-1",
  order: ["a", "b", "c"],
  siteSpaces: [
    { sectionId: "a", siteSpaceIds: ["a1", "a2"] },
    { sectionId: "b", siteSpaceIds: ["b1", "b2", "b3"] },
  ],
  type: "sections",
  titles: { a: "Alpha", b: "Beta", c: "Gamma", a1: "A one", a2: "A two", b1: "B one", b2: "B two", b3: "B three" },
};

describe("SiteStructure's note of what a new order moves", () => {
  it("says nothing of a top-level order that did not change, even when the declared one differs", () => {
    expect(noteFor(olds, { order: ["c", "a", "b"] }, ["siteSpaces"])).toBeUndefined();
  });

  it("says nothing when order is no longer declared, or declared as it is", () => {
    expect(noteFor(olds, {}, ["order"])).toBeUndefined();
    expect(noteFor(olds, { order: ["a", "b", "c"] }, ["order"])).toBeUndefined();
  });

  it("says nothing on a replacement by another organization or site", () => {
    expect(noteFor(olds, { order: ["c", "a", "b"] }, ["organizationId", "order"])).toBeUndefined();
    expect(noteFor(olds, { order: ["c", "a", "b"] }, ["siteId", "order"])).toBeUndefined();
    expect(noteFor(olds, { order: ["c", "a", "b"] }, ["order"])).toBe(
      'SiteStructure "site-1": order: "Gamma" moves from 3 to 1.',
    );
  });

  it("names the moves of the section whose site spaces changed, by that section's old order", () => {
    const siteSpaces = [
      { sectionId: "a", siteSpaceIds: ["a1", "a2"] },
      { sectionId: "b", siteSpaceIds: ["b2", "b1", "b4"] },
    ];
    expect(noteFor(olds, { siteSpaces }, ["siteSpaces"])).toBe(
      'SiteStructure "site-1": site spaces of "Beta": "B two" moves from 2 to 1, "b4" comes in at 3, "B three" leaves.',
    );
  });

  it("says nothing of a section whose site spaces were not ordered before", () => {
    const siteSpaces = [{ sectionId: "c", siteSpaceIds: ["c2", "c1"] }];
    expect(noteFor(olds, { siteSpaces }, ["siteSpaces"])).toBeUndefined();
    expect(noteFor({ ...olds, siteSpaces: [] }, { siteSpaces }, ["siteSpaces"])).toBeUndefined();
  });

  it("joins the top level and each section that moves, in the order declared", () => {
    const siteSpaces = [
      { sectionId: "b", siteSpaceIds: ["b2", "b1", "b3"] },
      { sectionId: "a", siteSpaceIds: ["a2", "a1"] },
    ];
    expect(noteFor(olds, { order: ["b", "a", "c"], siteSpaces }, ["order", "siteSpaces"])).toBe(
      'SiteStructure "site-1": order: "Beta" moves from 2 to 1; site spaces of "Beta": "B two" moves from 2 to 1; ' +
        'site spaces of "Alpha": "A two" moves from 2 to 1.',
    );
  });
});

interface Built {
  siteId: string;
  sections: [string, string, string];
}

/** A site with three sections: Alpha, Beta, Gamma, one site space each. */
async function buildSite(): Promise<Built> {
  const siteId = await fixture.makeSite();
  const section = (i: number, title: string) => fixture.makeSection(siteId, fixture.space(i), title);
  return { siteId, sections: [await section(0, "Alpha"), await section(1, "Beta"), await section(2, "Gamma")] };
}

const siteSpacesOf = (site: string, section: string) =>
  fixture.emulator.store.siteSpacesIn(site, section).map((ss) => ss.id);

async function createFails(inputs: Props): Promise<string> {
  const news = await checked("SiteStructure", inputs);
  const error = await lifecycle("SiteStructure")
    .create(news)
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(Error);
  return (error as Error).message;
}

describe("SiteStructure's error for a list that does not match the site", () => {
  const topLevelRule = (site: string) =>
    `SiteStructure "${site}": order must list every top-level item of the site exactly once: `;
  const groupHint =
    "A section inside a group is ordered by its SiteSectionGroup's sectionIds; add new sections, groups and external links to order.";

  it("names the ids the order names that are not in the site, and only those", async () => {
    const { siteId, sections } = await buildSite();
    expect(await createFails({ organizationId: fixture.org(), siteId, order: [...sections, "x1", "x2"] })).toBe(
      `${topLevelRule(siteId)}it names "x1", "x2", not in the site's top level. ${groupHint}`,
    );
  });

  it("names the ids the order leaves out, and only those", async () => {
    const { siteId, sections } = await buildSite();
    const [a, b, c] = sections;
    expect(await createFails({ organizationId: fixture.org(), siteId, order: [a] })).toBe(
      `${topLevelRule(siteId)}it leaves out "${b}", "${c}", which the site's top level also holds. ${groupHint}`,
    );
  });

  it("names both, joined", async () => {
    const { siteId, sections } = await buildSite();
    const [a, b, c] = sections;
    expect(await createFails({ organizationId: fixture.org(), siteId, order: [c, "x1", a] })).toBe(
      `${topLevelRule(siteId)}it names "x1", not in the site's top level; it leaves out "${b}", which the site's ` +
        `top level also holds. ${groupHint}`,
    );
  });

  it("names a section's site spaces left out or unknown, and sorts nothing", async () => {
    const { siteId, sections } = await buildSite();
    const [a] = sections;
    const [first] = siteSpacesOf(siteId, a);
    const second = await fixture.apiCreate(`${sitePath(siteId)}/site-spaces`, {
      spaceId: fixture.space(3),
      sectionId: a,
    });
    fixture.emulator.clearRequests();
    expect(
      await createFails({
        organizationId: fixture.org(),
        siteId,
        siteSpaces: [{ sectionId: a, siteSpaceIds: [second, "x1"] }],
      }),
    ).toBe(
      `SiteStructure "${siteId}": siteSpaces of section "${a}" must list each of its site spaces once: it names "x1", ` +
        `not in section "${a}"; it leaves out "${first}", which section "${a}" also holds.`,
    );
    expect(fixture.writes()).toEqual([]);
  });

  it("names a section that is not in the site", async () => {
    const { siteId } = await buildSite();
    expect(
      await createFails({
        organizationId: fixture.org(),
        siteId,
        siteSpaces: [{ sectionId: "nope", siteSpaceIds: ["x"] }],
      }),
    ).toBe(`SiteStructure "${siteId}": siteSpaces names section "nope", not in the site`);
  });
});

describe("SiteStructure's state", () => {
  it("orders site spaces alone when order is not declared, and keeps no section level it was not given", async () => {
    const { siteId, sections } = await buildSite();
    const [a, b, c] = sections;
    const first = siteSpacesOf(siteId, a)[0] ?? "";
    const second = await fixture.apiCreate(`${sitePath(siteId)}/site-spaces`, {
      spaceId: fixture.space(3),
      sectionId: a,
    });
    const { state } = await created("SiteStructure", {
      organizationId: fixture.org(),
      siteId,
      siteSpaces: [{ sectionId: a, siteSpaceIds: [second, first] }],
    });
    expect(state.order).toEqual([a, b, c]);
    expect(siteSpacesOf(siteId, a)).toEqual([second, first]);
    const { state: orderOnly } = await created("SiteStructure", {
      organizationId: fixture.org(),
      siteId,
      order: [c, b, a],
    });
    expect(orderOnly.siteSpaces).toEqual([]);
  });

  it("accepts the site spaces of two sections, and keeps the title of a section inside a group", async () => {
    const { siteId, sections } = await buildSite();
    const [a, b, c] = sections;
    const group = await fixture.apiCreate(`${sitePath(siteId)}/section-groups`, { title: "Group", sections: [c] });
    const { state } = await created("SiteStructure", {
      organizationId: fixture.org(),
      siteId,
      siteSpaces: [
        { sectionId: c, siteSpaceIds: siteSpacesOf(siteId, c) },
        { sectionId: b, siteSpaceIds: siteSpacesOf(siteId, b) },
      ],
    });
    expect(state.order).toEqual([a, b, group]);
    const titles = state.titles as Record<string, string>;
    expect([titles[a], titles[b], titles[group], titles[c]]).toEqual(["Alpha", "Beta", "Group", "Gamma"]);
  });

  it("reads a section level whose section was deleted as empty, without a title for it", async () => {
    const { siteId, sections } = await buildSite();
    const [a, b, c] = sections;
    const { id, state } = await created("SiteStructure", {
      organizationId: fixture.org(),
      siteId,
      siteSpaces: [{ sectionId: c, siteSpaceIds: siteSpacesOf(siteId, c) }],
    });
    const title = siteSpacesOf(siteId, c)[0] ?? "";
    expect((state.titles as Record<string, string>)[title]).toEqual(expect.any(String));
    expect((await fixture.api("DELETE", `${sitePath(siteId)}/sections/${c}`)).status).toBe(205);
    const read = (await lifecycle("SiteStructure").read(id, state)).props as Props;
    expect(read.siteSpaces).toEqual([{ sectionId: c, siteSpaceIds: [] }]);
    expect(Object.keys(read.titles as Record<string, string>).sort()).toEqual([a, b].sort());
  });

  it("reads a structure whose id is not its site's as gone", async () => {
    const { siteId, sections } = await buildSite();
    const { id, state } = await created("SiteStructure", { organizationId: fixture.org(), siteId, order: sections });
    expect(id).toBe(siteId);
    expect((await lifecycle("SiteStructure").read(await fixture.makeSite({ title: "Other" }), state)).id).toBe("");
  });
});
