import { beforeEach, describe, expect, it } from "vitest";
import type { ReferencedExpectation } from "../../provider/framework/kind";
import { CrossResourceRules } from "../../provider/framework/programRules";
import { UNKNOWN } from "../../provider/framework/unknown";
import { captureStderr } from "../support/log";

/** The cross-resource rules as data on made-up kinds, each rule's words and its silences, without an API. */
const warnings = captureStderr();
/** The rules of one operation; a test starts another where a new operation would. */
let rules: CrossResourceRules;
beforeEach(() => {
  rules = new CrossResourceRules();
});

describe("uniqueBy", () => {
  const Settings = { kind: "Settings", programRules: { uniqueBy: ["siteId", "locale"] } };
  const failure = {
    property: "siteId",
    reason:
      'Settings.siteId: another Settings of this program already declares siteId "s-1", locale "en"; each would undo ' +
      "the other's changes on every run. Declare them in one resource.",
  };

  it("fails a second resource naming the same object, and takes the same inputs in any order for the same one", () => {
    expect(rules.duplicateFailures(Settings, { siteId: "s-1", locale: "en", theme: "bold" })).toEqual([]);
    expect(rules.duplicateFailures(Settings, { theme: "bold", locale: "en", siteId: "s-1" })).toEqual([]);
    expect(rules.duplicateFailures(Settings, { siteId: "s-1", locale: "en", theme: "clean" })).toEqual([failure]);
    expect(rules.duplicateFailures(Settings, { siteId: "s-1", locale: "en", theme: "other" })).toEqual([failure]);
    expect(rules.duplicateFailures(Settings, { siteId: "s-1", locale: "fr", theme: "clean" })).toEqual([]);
  });

  it("cannot tell objects apart before their ids are known, and forgets in a new operation", () => {
    expect(rules.duplicateFailures(Settings, { siteId: UNKNOWN, locale: "en", a: 1 })).toEqual([]);
    expect(rules.duplicateFailures(Settings, { siteId: UNKNOWN, locale: "en", a: 2 })).toEqual([]);
    expect(rules.duplicateFailures(Settings, { locale: "en", a: 2 })).toEqual([]);
    expect(rules.duplicateFailures(Settings, { siteId: "s-1", locale: "en", a: 1 })).toEqual([]);
    rules = new CrossResourceRules();
    expect(rules.duplicateFailures(Settings, { siteId: "s-1", locale: "en", a: 2 })).toEqual([]);
    expect(rules.duplicateFailures({ kind: "Free" }, { siteId: "s-1", locale: "en" })).toEqual([]);
  });
});

describe("exclusiveFlag", () => {
  const Section = { kind: "Section", programRules: { exclusiveFlag: { property: "default", parent: "siteId" } } };

  it("warns when a second resource under the same parent sets the flag, naming both", () => {
    rules.warnOnConflicts(Section, { siteId: "s-1", title: "Guides", default: true });
    rules.warnOnConflicts(Section, { siteId: "s-1", title: "Guides", default: true });
    rules.warnOnConflicts(Section, { siteId: "s-2", title: "API", default: true });
    rules.warnOnConflicts(Section, { siteId: "s-1", title: "Changelog", default: false });
    expect(warnings).toEqual([]);
    rules.warnOnConflicts(Section, { siteId: "s-1", default: true });
    expect(warnings).toEqual([
      'warning: Section "Guides" and Section (untitled) both declare default: true under siteId "s-1": the API keeps ' +
        "one, so every run would move it back and forth. Declare default: true on one of them only.\n",
    ]);
  });

  it("names the two in the same order whichever is checked first", () => {
    rules.warnOnConflicts(Section, { siteId: "s-1", title: "Guides", default: true });
    rules.warnOnConflicts(Section, { siteId: "s-1", title: "API", default: true });
    rules = new CrossResourceRules();
    rules.warnOnConflicts(Section, { siteId: "s-1", title: "API", default: true });
    rules.warnOnConflicts(Section, { siteId: "s-1", title: "Guides", default: true });
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/^warning: Section "API" and Section "Guides" both declare default: true/);
    expect(warnings[1]).toBe(warnings[0]);
  });

  it("says nothing while the parent is not known, and forgets in a new operation", () => {
    rules.warnOnConflicts(Section, { siteId: UNKNOWN, title: "A", default: true });
    rules.warnOnConflicts(Section, { siteId: UNKNOWN, title: "B", default: true });
    rules.warnOnConflicts(Section, { siteId: "s-1", title: "A", default: true });
    rules = new CrossResourceRules();
    rules.warnOnConflicts(Section, { siteId: "s-1", title: "B", default: true });
    expect(warnings).toEqual([]);
  });
});

describe("conflictsUnder", () => {
  const Redirect = {
    kind: "Redirect",
    programRules: { conflictsUnder: { kind: "Redirects", parent: "siteId", why: "pick one." } },
  };
  const Redirects = {
    kind: "Redirects",
    programRules: { conflictsUnder: { kind: "Redirect", parent: "siteId", why: "pick one." } },
  };

  it("warns once per parent, naming the two kinds in one order whichever comes first", () => {
    rules.warnOnConflicts(Redirects, { siteId: "s-1" });
    rules.warnOnConflicts(Redirect, { siteId: "s-2" });
    expect(warnings).toEqual([]);
    rules.warnOnConflicts(Redirect, { siteId: "s-1" });
    rules.warnOnConflicts(Redirect, { siteId: "s-1" });
    rules.warnOnConflicts(Redirects, { siteId: "s-2" });
    expect(warnings).toEqual([
      'warning: Redirect and Redirects are both declared under siteId "s-1": pick one.\n',
      'warning: Redirect and Redirects are both declared under siteId "s-2": pick one.\n',
    ]);
  });

  it("says nothing while the parent is not known, and forgets in a new operation", () => {
    rules.warnOnConflicts(Redirects, { siteId: UNKNOWN });
    rules.warnOnConflicts(Redirect, { siteId: UNKNOWN });
    rules.warnOnConflicts(Redirects, { siteId: "s-1" });
    rules = new CrossResourceRules();
    rules.warnOnConflicts(Redirect, { siteId: "s-1" });
    expect(warnings).toEqual([]);
  });
});

describe("expectsOfReferenced", () => {
  const rule: ReferencedExpectation = {
    reference: "siteId",
    kind: "Site",
    property: "visibility",
    value: "share-link",
    why: "readers need a link.",
  };
  const Link = { kind: "Link", programRules: { expectsOfReferenced: rule } };
  const warning = (name: string, title = "") =>
    `warning: Link ${name} targets Site "s-1"${title}, whose visibility is "public", not "share-link": readers need ` +
    'a link. Set visibility: "share-link" on the Site.\n';

  it("names the resource by its title, name or label, and warns once per message", () => {
    rules.observeResource("Site", "s-1", { title: "Docs", visibility: "public" });
    rules.warnOnExpectations(Link, { siteId: "s-1", title: "", name: "Review" });
    rules.warnOnExpectations(Link, { siteId: "s-1", label: "Partners" });
    rules.warnOnExpectations(Link, { siteId: "s-1", label: "Partners" });
    rules.warnOnExpectations(Link, { siteId: "s-1" });
    expect(warnings).toEqual([
      warning('"Review"', ' ("Docs")'),
      warning('"Partners"', ' ("Docs")'),
      warning("(unnamed)", ' ("Docs")'),
    ]);
  });

  it("waits for a resource not seen yet, then warns once it is, without a title if it has none", () => {
    rules.warnOnExpectations(Link, { siteId: "s-1", title: "Review" });
    expect(warnings).toEqual([]);
    rules.observeResource("Site", "s-1", { visibility: "public" });
    expect(warnings).toEqual([warning('"Review"')]);
    rules.observeResource("Site", "s-1", { visibility: "public" });
    expect(warnings).toHaveLength(1);
  });

  it("stays quiet for the expected value, a value not known or absent, an unknown reference and an empty id", () => {
    rules.observeResource("Site", "", { visibility: "public" });
    rules.warnOnExpectations(Link, { siteId: "", title: "Empty" });
    rules.observeResource("Site", "s-1", { visibility: "share-link" });
    rules.observeResource("Site", "s-2", { visibility: UNKNOWN });
    rules.observeResource("Site", "s-3", {});
    for (const siteId of ["s-1", "s-2", "s-3", UNKNOWN]) rules.warnOnExpectations(Link, { siteId, title: "Review" });
    rules.warnOnExpectations({ kind: "Free" }, { siteId: "s-1" });
    expect(warnings).toEqual([]);
  });

  it("forgets what it saw and warned in a new operation", () => {
    rules.observeResource("Site", "s-1", { visibility: "public" });
    rules.warnOnExpectations(Link, { siteId: "s-1", title: "Review" });
    rules = new CrossResourceRules();
    rules.warnOnExpectations(Link, { siteId: "s-1", title: "Later" });
    expect(warnings).toEqual([warning('"Review"', "")]);
    rules.observeResource("Site", "s-1", { visibility: "public" });
    rules.warnOnExpectations(Link, { siteId: "s-1", title: "Review" });
    expect(warnings).toEqual([warning('"Review"', ""), warning('"Later"', ""), warning('"Review"', "")]);
  });
});
