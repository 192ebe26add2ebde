import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { lifecycle, resetCaches } from "../../provider/runtime";

let stderr: string[] = [];
beforeEach(() => {
  resetCaches();
  stderr = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    stderr.push(String(chunk));
    return true;
  });
});
afterEach(() => vi.restoreAllMocks());

const section = (title: string, siteId: string, isDefault: boolean) => ({
  organizationId: "org1",
  siteId,
  spaceId: "space1",
  title,
  default: isDefault,
});

/** Pairs found offline by what check has seen in this process. */
describe("cross-resource warnings in check", () => {
  it("warns once a second section of the same site declares default: true", async () => {
    const sections = lifecycle("SiteSection");
    await sections.check({}, section("Guides", "site1", true));
    await sections.check({}, section("Other site", "site2", true));
    await sections.check({}, section("Not default", "site1", false));
    await sections.check({}, section("Guides", "site1", true));
    expect(stderr).toEqual([]);
    await sections.check({}, section("API", "site1", true));
    expect(stderr).toEqual([
      'warning: SiteSection "Guides" and SiteSection "API" both declare default: true under siteId "site1": the API ' +
        "keeps one, so every run would move it back and forth. Declare default: true on one of them only.\n",
    ]);
  });

  it("cannot tell sites apart before their ids are known", async () => {
    const sections = lifecycle("SiteSection");
    const unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    await sections.check({}, section("Guides", unknown, true));
    await sections.check({}, section("API", unknown, true));
    expect(stderr).toEqual([]);
  });
});
