/** The navigation-order helpers SiteStructure and SiteSectionGroup share (provider/resources/siteOrder.ts). */
import { describe, expect, it } from "vitest";
import type { ApiStructureItem } from "../../provider/client";
import { describeMoves, sectionsIn, typeOfListed } from "../../provider/resources/siteOrder";

const nameOf = (id: string) => `"${id.toUpperCase()}"`;

describe("describeMoves", () => {
  it("says an item left out leaves, and does not count it as a move of the others", () => {
    expect(describeMoves(["x", "a", "b"], ["a", "b"], nameOf)).toEqual(['"X" leaves']);
    expect(describeMoves(["a", "x", "b"], ["b", "a"], nameOf)).toEqual(['"B" moves from 3 to 1', '"X" leaves']);
  });
});

const item = (object: string, id: string, children?: ApiStructureItem[]) =>
  ({ object, id, title: id, ...(children ? { children } : {}) }) as unknown as ApiStructureItem;

describe("sectionsIn", () => {
  it("lists the sections of the top level and of groups at any depth, and no group", () => {
    const structure = [
      item("site-section", "s1"),
      item("site-section-group", "g1", [
        item("site-section", "s2"),
        item("site-section-group", "g2", [item("site-section", "s3")]),
      ]),
      item("site-section", "s4"),
    ];
    expect(sectionsIn(structure).map((section) => section.id)).toEqual(["s1", "s2", "s3", "s4"]);
  });
});

describe("typeOfListed", () => {
  const listed = [
    { id: "s1", object: "site-section" },
    { id: "g1", object: "site-section-group" },
    { id: "p1", object: "page" },
  ];

  it("gives each listed item's pointer type", () => {
    const typeOf = typeOfListed(listed);
    expect([typeOf("s1"), typeOf("g1")]).toEqual(["site-section", "site-section-group"]);
  });

  it("refuses an item the sort operation cannot name, and one the listing does not hold", () => {
    const typeOf = typeOfListed(listed);
    expect(() => typeOf("p1")).toThrow(
      new Error(`the site's structure lists "p1" as an item the sort operation cannot move`),
    );
    expect(() => typeOf("nope")).toThrow(
      new Error(`the site's structure lists "nope" as an item the sort operation cannot move`),
    );
  });
});
