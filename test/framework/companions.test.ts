import { beforeEach, describe, expect, it } from "vitest";
import { Companions } from "../../provider/framework/companions";
import type { CompanionRule } from "../../provider/framework/kind";
import { UNKNOWN } from "../../provider/framework/unknown";
import { captureStderr } from "../support/log";
import { operationTellingAtExit } from "../support/processExit";

/** The companion rule as data, on made-up kinds: a gated site wants a gate declared for it. */
const rule: CompanionRule = {
  when: { property: "visibility", equals: "gated" },
  kind: "Gate",
  parent: "siteId",
  why: "declare a Gate with siteId: site.id.",
};
const Site = { kind: "Site", programRules: { companion: rule } };
const Gate = { kind: "Gate" };
const warning = (name: string, id?: string) =>
  `Site ${name}${id ? ` ("${id}")` : ""} has visibility: "gated" but the program declares no Gate for it: ${rule.why}`;

const written = captureStderr();

/** What one operation saw; a test starts another where a new operation would. */
let companions: Companions;
beforeEach(() => {
  companions = new Companions();
});

const partners = { title: "Partners", visibility: "gated" };

describe("companions", () => {
  it("warns about a subject whose companion is missing, naming it, the property and the rule's advice", () => {
    companions.noteChecked(Site, partners);
    companions.noteChecked(Site, { visibility: "gated" });
    expect(companions.missing()).toEqual([warning('"Partners"'), warning("(untitled)")]);
  });

  it("says nothing of a resource the rule does not apply to, or no longer applies to", () => {
    companions.noteChecked(Site, { title: "Docs", visibility: "public" });
    companions.noteChecked(Site, partners);
    companions.noteChecked(Site, { title: "Partners", visibility: "public" });
    companions.noteChecked(Gate, { siteId: "s-1" });
    expect(companions.missing()).toEqual([]);
  });

  it("matches a known subject by id, and a new one by a companion whose parent is not known yet", () => {
    companions.noteChecked(Site, partners);
    companions.noteId(Site, partners, "s-1");
    companions.noteChecked(Gate, { siteId: "s-1" });
    expect(companions.missing()).toEqual([]);

    companions = new Companions();
    companions.noteChecked(Site, { title: "New", visibility: "gated" });
    companions.noteChecked(Gate, { siteId: UNKNOWN });
    expect(companions.missing()).toEqual([]);
  });

  it("spends each companion once, and an id alone does not count as a companion", () => {
    companions.noteChecked(Site, { title: "A", visibility: "gated" });
    companions.noteChecked(Site, { title: "B", visibility: "gated" });
    companions.noteChecked(Gate, { siteId: UNKNOWN });
    companions.noteId(Gate, { siteId: "s-9" }, "gate-id");
    expect(companions.missing()).toEqual([warning('"B"')]);
  });

  it("keeps a subject's id whatever comes first, its check or its id, and lists subjects with an id first", () => {
    companions.noteChecked(Site, { title: "New", visibility: "gated" });
    companions.noteId(Site, { title: "Old", visibility: "gated" }, "s-1");
    companions.noteChecked(Site, { title: "Old", visibility: "gated" });
    companions.noteChecked(Gate, { siteId: "s-2" });
    expect(companions.missing()).toEqual([warning('"Old"', "s-1"), warning('"New"')]);
  });

  // The orders the engine shows a subject and its companion to the provider process, in each operation.
  it("the update of `pulumi up` creating the subject: its id comes from its create, before the companion's check", () => {
    companions.noteChecked(Site, partners);
    companions.noteId(Site, partners, "s-new");
    companions.noteChecked(Gate, { siteId: "s-new" });
    expect(companions.missing()).toEqual([]);
    // The same order without the companion still warns, with the id.
    companions = new Companions();
    companions.noteChecked(Site, partners);
    companions.noteId(Site, partners, "s-new");
    expect(companions.missing()).toEqual([warning('"Partners"', "s-new")]);
  });

  it("a preview replacing the subject: the companion's parent is unknown, and the old id does not count", () => {
    companions.noteChecked(Site, partners);
    companions.noteId(Site, partners, "s-old");
    companions.noteId(Site, partners, undefined);
    companions.noteChecked(Gate, { siteId: UNKNOWN });
    expect(companions.missing()).toEqual([]);
  });

  it("the update replacing the subject: the create's new id replaces the diff's old one", () => {
    companions.noteChecked(Site, partners);
    companions.noteId(Site, partners, undefined);
    companions.noteId(Site, partners, "s-new");
    companions.noteChecked(Gate, { siteId: "s-new" });
    expect(companions.missing()).toEqual([]);
  });

  it("a companion with a literal parent, checked before its subject: judged at the end all the same", () => {
    companions.noteChecked(Gate, { siteId: "s-1" });
    companions.noteChecked(Site, partners);
    companions.noteId(Site, partners, "s-1");
    expect(companions.missing()).toEqual([]);
  });

  it("a refresh, which diffs the state without checking the program: no subject, no warning", () => {
    companions.noteId(Site, partners, "s-1");
    companions.noteId(Gate, { siteId: "s-1" }, "gate-id");
    expect(companions.missing()).toEqual([]);
  });

  it("writes the warnings once, when the provider process exits, and exits on SIGINT and SIGTERM", () => {
    const { operation, ...atExit } = operationTellingAtExit();
    expect(atExit.events()).toEqual(["exit", "SIGINT", "SIGTERM"]);

    operation.companions.noteChecked(Site, partners);
    atExit.emit("exit");
    expect(written).toEqual([`warning: ${warning('"Partners"')}\n`]);
    expect(atExit.exitCodesOn("SIGINT", "SIGTERM")).toEqual([130, 143]);
  });
});
