import { describe, expect, it } from "vitest";
import { camelCase, Names, slugify } from "../../cli/names";

describe("resource names", () => {
  it("slugs keep latin letters and digits, drop accents and cut long titles at a word", () => {
    expect(slugify("Getting Started")).toBe("getting-started");
    expect(slugify("Ünïcödé Notes")).toBe("unicode-notes");
    expect(slugify("Legal & Compliance")).toBe("legal-compliance");
    expect(slugify("  FAQ / Help  ")).toBe("faq-help");
    expect(slugify("Références")).toBe("references");
    expect(slugify("日本語ガイド")).toBe("");
    expect(slugify("The quick brown fox jumps over the lazy dog")).toBe("the-quick-brown-fox");
    expect(slugify("Supercalifragilisticexpialidocious-and-more")).toBe("supercalifragilisticexpi");
  });

  it("identifiers are the slugs in camelCase", () => {
    expect(camelCase("getting-started")).toBe("gettingStarted");
    expect(camelCase("q3-launch")).toBe("q3Launch");
  });

  it("duplicates take the kind's word, then a number, in the order names are taken", () => {
    const names = new Names();
    expect(names.take("Guides", "section")).toEqual({ slug: "guides", identifier: "guides" });
    expect(names.take("Guides", "section")).toEqual({ slug: "guides-section", identifier: "guidesSection" });
    expect(names.take("Guides", "section")).toEqual({ slug: "guides-section-2", identifier: "guidesSection2" });
    expect(names.take("Guides", "space")).toEqual({ slug: "guides-space", identifier: "guidesSpace" });
  });

  it("titles without latin letters are named after the kind; digits and reserved words get the kind in front", () => {
    const names = new Names(["docsPlatform", "organizationId"]);
    expect(names.take("日本語ガイド", "section").slug).toBe("section");
    expect(names.take("Руководство", "section").slug).toBe("section-2");
    expect(names.take("2025 Roadmap", "collection")).toEqual({
      slug: "2025-roadmap",
      identifier: "collection2025Roadmap",
    });
    expect(names.take("Default", "section")).toEqual({ slug: "default", identifier: "sectionDefault" });
    expect(names.take("Docs Platform", "site")).toEqual({ slug: "docs-platform-site", identifier: "docsPlatformSite" });
  });

  it("the same titles in the same order give the same names", () => {
    const titles = ["Handbook", "Handbook", "日本語", "Руководство", "Q3"];
    const run = () => {
      const names = new Names();
      return titles.map((title) => names.take(title, "collection").slug);
    };
    expect(run()).toEqual(run());
    expect(run()).toEqual(["handbook", "handbook-collection", "collection", "collection-2", "q3"]);
  });
});
