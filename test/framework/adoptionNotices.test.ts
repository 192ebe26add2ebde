import { beforeEach, describe, expect, it } from "vitest";
import { Adoptions, adoptedMessage } from "../../provider/framework/adoptions";
import { captureStderr } from "../support/log";
import { operationTellingAtExit } from "../support/processExit";

/** The tally of one operation; a test starts another where a new operation would. */
let adoptions: Adoptions;
const messages = () => adoptions.notices().map((notice) => `${notice.severity}: ${notice.message}`);
const written = captureStderr();

beforeEach(() => {
  adoptions = new Adoptions();
});

describe("the adoptions of `up`: one line for all, one more for each that changed its object", () => {
  it("counts every importId adoption and names only those that changed something, nothing written meanwhile", () => {
    adoptions.report("Collection", "c-1", [], "importId");
    adoptions.report("Team", "t-1", ["title", "members"], "importId");
    adoptions.report("Space", "s-1", [], "importId");
    expect(written).toEqual([]);
    expect(messages()).toEqual([
      `info: ${adoptedMessage("Team", "t-1", ["title", "members"], "importId")}`,
      "info: 3 adopted, 1 changed (listed above): 3 of the creates counted below took over existing objects instead " +
        "of making new ones.",
    ]);
  });

  it("in the singular, and once per object however often it is reported", () => {
    adoptions.report("Collection", "c-1", [], "importId");
    adoptions.report("Collection", "c-1", [], "importId");
    expect(messages()).toEqual([
      "info: 1 adopted, 0 changed: 1 of the creates counted below took over an existing object instead of making a " +
        "new one.",
    ]);
  });

  it("tells what the update did, not what its checks expected", () => {
    adoptions.announce("Collection", "c-1", "unread");
    adoptions.announce("Team", "t-1", { changed: ["title"], notice: "Team t-1 will change title" });
    adoptions.report("Collection", "c-1", [], "importId");
    adoptions.report("Team", "t-1", [], "importId");
    expect(messages()).toEqual([
      "info: 2 adopted, 0 changed: 2 of the creates counted below took over existing objects instead of making new " +
        "ones.",
    ]);
  });

  it("tells a take-over the program did not ask for at once, and does not count it", () => {
    adoptions.report("OrganizationSettings", "org-1", [], "adoptsOnCreate");
    adoptions.report("Site", "s-1", ["published"], "recovery");
    expect(written).toEqual([
      `info: ${adoptedMessage("OrganizationSettings", "org-1", [], "adoptsOnCreate")}\n`,
      `info: ${adoptedMessage("Site", "s-1", ["published"], "recovery")}\n`,
    ]);
    expect(messages()).toEqual([]);
  });
});

describe("the adoptions of a preview: what check expects of each importId", () => {
  const takeOver = (count: number) =>
    `${count} of the creates counted below take over the existing objects their importId names instead of making ` +
    "new ones";

  it("without preflight: how many, and how to see what they change", () => {
    adoptions.announce("Collection", "c-1", "unread");
    adoptions.announce("Team", "t-1", "unread");
    adoptions.announce("Team", "t-1", "unread");
    expect(messages()).toEqual([
      `info: 2 to adopt: ${takeOver(2)}; turn on docs:preflight to see what adoption changes.`,
    ]);
  });

  it("with preflight: what will change, each object that changes named above the count", () => {
    adoptions.announce("Collection", "c-1", { changed: [], notice: "unused" });
    adoptions.announce("Team", "t-1", { changed: ["title"], notice: 'Team importId "t-1": … will change title.' });
    expect(messages()).toEqual([
      'info: Team importId "t-1": … will change title.',
      `info: 2 to adopt, 1 to change (listed above): ${takeOver(2)}.`,
    ]);
  });

  it("with preflight, objects found through a parent without an id yet are counted as read at `up`", () => {
    adoptions.announce("Site", "s-1", { changed: [], notice: "unused" });
    adoptions.announce("SiteShareLink", "l-1", "pending");
    expect(messages()).toEqual([
      "info: 2 to adopt, 0 to change, 1 read only at `up` (found through a parent the same update adopts or " +
        `creates, which has no id yet): ${takeOver(2)}.`,
    ]);
  });

  it("in the singular; and nothing at all when nothing is adopted", () => {
    expect(messages()).toEqual([]);
    adoptions.announce("Collection", "c-1", { changed: [], notice: "unused" });
    expect(messages()).toEqual([
      "info: 1 to adopt, 0 to change: 1 of the creates counted below takes over the existing object its importId " +
        "names instead of making a new one.",
    ]);
  });
});

describe("the notices at the end of the operation", () => {
  it("writes the adoptions, then the missing companions, once, when the process exits; the signals exit", () => {
    const { operation, ...atExit } = operationTellingAtExit();
    expect(atExit.events()).toEqual(["exit", "SIGINT", "SIGTERM"]);

    operation.adoptions.report("Collection", "c-1", [], "importId");
    const gated = {
      when: { property: "visibility", equals: "gated" },
      kind: "Gate",
      parent: "siteId",
      why: "add one.",
    };
    operation.companions.noteChecked(
      { kind: "Site", programRules: { companion: gated } },
      { title: "Docs", visibility: "gated" },
    );
    atExit.emit("exit");
    expect(written).toEqual([
      "info: 1 adopted, 0 changed: 1 of the creates counted below took over an existing object instead of making " +
        "a new one.\n",
      'warning: Site "Docs" has visibility: "gated" but the program declares no Gate for it: add one.\n',
    ]);
    expect(atExit.exitCodesOn("SIGINT", "SIGTERM")).toEqual([130, 143]);
  });
});
