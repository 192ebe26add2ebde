import { beforeEach, describe, expect, it } from "vitest";
import { lifecycle, startOperation } from "../../provider/runtime";
import { captureStderr } from "../support/log";

const stderr = captureStderr();
beforeEach(() => startOperation());

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
      'warning: SiteSection "API" and SiteSection "Guides" both declare default: true under siteId "site1": the API ' +
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

const shareLink = (name: string, siteId: string) => ({ organizationId: "org1", siteId, name });
const siteState = (visibility: string) => ({ organizationId: "org1", title: "Docs", visibility, type: "basic" });
const shareLinkWarning = (visibility: string) =>
  `warning: SiteShareLink "Reviewers" targets Site "site1" ("Docs"), whose visibility is "${visibility}", not ` +
  '"share-link": a share link only takes effect on a site whose visibility is `share-link`, so this one opens ' +
  'nothing. Set visibility: "share-link" on the Site.\n';

describe("a share link's site must have visibility share-link", () => {
  it("warns when the site's diff came first (the link depends on the site's id)", async () => {
    await lifecycle("Site").diff("site1", siteState("public"), { title: "Docs", visibility: "public" });
    await lifecycle("SiteShareLink").check({}, shareLink("Reviewers", "site1"));
    expect(stderr).toEqual([shareLinkWarning("public")]);
  });

  it("warns when the link was checked first (a literal siteId), once the site's diff runs", async () => {
    await lifecycle("SiteShareLink").check({}, shareLink("Reviewers", "site1"));
    expect(stderr).toEqual([]);
    await lifecycle("Site").diff("site1", siteState("visitor-auth"), { title: "Docs", visibility: undefined });
    expect(stderr).toEqual([shareLinkWarning("visitor-auth")]);
  });

  it("takes the declared visibility over the state's, and stays quiet for share-link sites and other sites", async () => {
    await lifecycle("Site").diff("site1", siteState("public"), { title: "Docs", visibility: "share-link" });
    await lifecycle("Site").diff("site2", siteState("public"), { title: "Docs", visibility: "public" });
    await lifecycle("SiteShareLink").check({}, shareLink("Reviewers", "site1"));
    await lifecycle("SiteShareLink").check({}, shareLink("Reviewers", "site3"));
    expect(stderr).toEqual([]);
  });

  it("says nothing while the site's id is unknown", async () => {
    const unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    await lifecycle("Site").diff(unknown, siteState("public"), {});
    await lifecycle("SiteShareLink").check({}, shareLink("Reviewers", unknown));
    expect(stderr).toEqual([]);
  });
});
