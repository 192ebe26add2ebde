import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type CompanionRule,
  missingCompanions,
  noteChecked,
  noteId,
  resetCompanions,
  warnAtExit,
} from "../../provider/framework/companions";
import { resetNoticesAtExit } from "../../provider/framework/notices";
import { UNKNOWN } from "../../provider/framework/unknown";

/** The companion rule as data, on made-up kinds: a gated site wants a gate declared for it. */
const rule: CompanionRule = {
  when: { property: "visibility", equals: "gated" },
  kind: "Gate",
  parent: "siteId",
  why: "declare a Gate with siteId: site.id.",
};
const Site = { kind: "Site", companion: rule };
const Gate = { kind: "Gate" };
const warning = (name: string, id?: string) =>
  `Site ${name}${id ? ` ("${id}")` : ""} has visibility: "gated" but the program declares no Gate for it: ${rule.why}`;

beforeEach(() => resetCompanions());
afterEach(() => vi.restoreAllMocks());

const partners = { title: "Partners", visibility: "gated" };

describe("companions", () => {
  it("warns about a subject whose companion is missing, naming it, the property and the rule's advice", () => {
    noteChecked(Site, partners);
    noteChecked(Site, { visibility: "gated" });
    expect(missingCompanions()).toEqual([warning('"Partners"'), warning("(untitled)")]);
  });

  it("says nothing of a resource the rule does not apply to, or no longer applies to", () => {
    noteChecked(Site, { title: "Docs", visibility: "public" });
    noteChecked(Site, partners);
    noteChecked(Site, { title: "Partners", visibility: "public" });
    noteChecked(Gate, { siteId: "s-1" });
    expect(missingCompanions()).toEqual([]);
  });

  it("matches a known subject by id, and a new one by a companion whose parent is not known yet", () => {
    noteChecked(Site, partners);
    noteId(Site, partners, "s-1");
    noteChecked(Gate, { siteId: "s-1" });
    expect(missingCompanions()).toEqual([]);

    resetCompanions();
    noteChecked(Site, { title: "New", visibility: "gated" });
    noteChecked(Gate, { siteId: UNKNOWN });
    expect(missingCompanions()).toEqual([]);
  });

  it("spends each companion once, and an id alone does not count as a companion", () => {
    noteChecked(Site, { title: "A", visibility: "gated" });
    noteChecked(Site, { title: "B", visibility: "gated" });
    noteChecked(Gate, { siteId: UNKNOWN });
    noteId(Gate, { siteId: "s-9" }, "gate-id");
    expect(missingCompanions()).toEqual([warning('"B"')]);
  });

  it("keeps a subject's id whatever comes first, its check or its id, and lists subjects with an id first", () => {
    noteChecked(Site, { title: "New", visibility: "gated" });
    noteId(Site, { title: "Old", visibility: "gated" }, "s-1");
    noteChecked(Site, { title: "Old", visibility: "gated" });
    noteChecked(Gate, { siteId: "s-2" });
    expect(missingCompanions()).toEqual([warning('"Old"', "s-1"), warning('"New"')]);
  });

  // The orders the engine shows a subject and its companion to the provider process, in each operation.
  it("the update of `pulumi up` creating the subject: its id comes from its create, before the companion's check", () => {
    noteChecked(Site, partners);
    noteId(Site, partners, "s-new");
    noteChecked(Gate, { siteId: "s-new" });
    expect(missingCompanions()).toEqual([]);
    // The same order without the companion still warns, with the id.
    resetCompanions();
    noteChecked(Site, partners);
    noteId(Site, partners, "s-new");
    expect(missingCompanions()).toEqual([warning('"Partners"', "s-new")]);
  });

  it("a preview replacing the subject: the companion's parent is unknown, and the old id does not count", () => {
    noteChecked(Site, partners);
    noteId(Site, partners, "s-old");
    noteId(Site, partners, undefined);
    noteChecked(Gate, { siteId: UNKNOWN });
    expect(missingCompanions()).toEqual([]);
  });

  it("the update replacing the subject: the create's new id replaces the diff's old one", () => {
    noteChecked(Site, partners);
    noteId(Site, partners, undefined);
    noteId(Site, partners, "s-new");
    noteChecked(Gate, { siteId: "s-new" });
    expect(missingCompanions()).toEqual([]);
  });

  it("a companion with a literal parent, checked before its subject: judged at the end all the same", () => {
    noteChecked(Gate, { siteId: "s-1" });
    noteChecked(Site, partners);
    noteId(Site, partners, "s-1");
    expect(missingCompanions()).toEqual([]);
  });

  it("a refresh, which diffs the state without checking the program: no subject, no warning", () => {
    noteId(Site, partners, "s-1");
    noteId(Gate, { siteId: "s-1" }, "gate-id");
    expect(missingCompanions()).toEqual([]);
  });

  it("writes the warnings once, when the provider process exits, and exits on SIGINT and SIGTERM", () => {
    const handlers = new Map<string, () => void>();
    vi.spyOn(process, "once").mockImplementation(((event: string, handler: () => void) => {
      handlers.set(event, handler);
      return process;
    }) as typeof process.once);
    const exit = vi.spyOn(process, "exit").mockImplementation((() => undefined) as never);
    const stderr = vi.spyOn(process.stderr, "write").mockReturnValue(true);
    // Another test file of the same worker may have called configure, which listens already.
    resetNoticesAtExit();
    try {
      warnAtExit();
      warnAtExit();
      expect(vi.mocked(process.once).mock.calls.map(([event]) => event)).toEqual(["exit", "SIGINT", "SIGTERM"]);

      noteChecked(Site, partners);
      handlers.get("exit")?.();
      expect(stderr.mock.calls).toEqual([[`warning: ${warning('"Partners"')}\n`]]);
      handlers.get("SIGINT")?.();
      handlers.get("SIGTERM")?.();
      expect(exit.mock.calls).toEqual([[130], [143]]);
    } finally {
      resetNoticesAtExit();
    }
  });
});
