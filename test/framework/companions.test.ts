import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type CompanionRule,
  missingCompanions,
  noteResource,
  resetCompanions,
} from "../../provider/framework/companions";
import * as diagnostics from "../../provider/framework/diagnostics";
import * as unknown from "../../provider/framework/unknown";

const { UNKNOWN } = unknown;

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

describe("companions", () => {
  it("warns about a subject whose companion is missing, naming it, the property and the rule's advice", () => {
    noteResource(Site, { title: "Partners", visibility: "gated" });
    noteResource(Site, { visibility: "gated" });
    expect(missingCompanions()).toEqual([warning('"Partners"'), warning("(untitled)")]);
  });

  it("says nothing of a resource the rule does not apply to, or no longer applies to", () => {
    noteResource(Site, { title: "Docs", visibility: "public" });
    noteResource(Site, { title: "Partners", visibility: "gated" });
    noteResource(Site, { title: "Partners", visibility: "public" });
    noteResource(Gate, { siteId: "s-1" });
    expect(missingCompanions()).toEqual([]);
  });

  it("matches a known subject by id, and a new one by a companion whose parent is not known yet", () => {
    noteResource(Site, { title: "Partners", visibility: "gated" });
    noteResource(Site, { title: "Partners", visibility: "gated" }, "s-1");
    noteResource(Gate, { siteId: "s-1" });
    expect(missingCompanions()).toEqual([]);

    resetCompanions();
    noteResource(Site, { title: "New", visibility: "gated" });
    noteResource(Gate, { siteId: UNKNOWN });
    expect(missingCompanions()).toEqual([]);
  });

  it("spends each companion once, and a diff's id does not count as a companion", () => {
    noteResource(Site, { title: "A", visibility: "gated" });
    noteResource(Site, { title: "B", visibility: "gated" });
    noteResource(Gate, { siteId: UNKNOWN });
    noteResource(Gate, { siteId: "s-9" }, "gate-id");
    expect(missingCompanions()).toEqual([warning('"B"')]);
  });

  it("keeps a subject's id from diff when check sees it again, and lists subjects with an id first", () => {
    noteResource(Site, { title: "New", visibility: "gated" });
    noteResource(Site, { title: "Old", visibility: "gated" }, "s-1");
    noteResource(Site, { title: "Old", visibility: "gated" });
    noteResource(Gate, { siteId: "s-2" });
    expect(missingCompanions()).toEqual([warning('"Old"', "s-1"), warning('"New"')]);
  });

  it("writes the warnings once, when the provider process exits, and exits on SIGINT and SIGTERM", async () => {
    const handlers = new Map<string, () => void>();
    vi.spyOn(process, "once").mockImplementation(((event: string, handler: () => void) => {
      handlers.set(event, handler);
      return process;
    }) as typeof process.once);
    const exit = vi.spyOn(process, "exit").mockImplementation((() => undefined) as never);
    const stderr = vi.spyOn(process.stderr, "write").mockReturnValue(true);
    // A module of its own: another test file of the same worker may have called configure, which listens already.
    // Only companions is loaded again: its imports are handed the loaded modules, so that a mutation run does not
    // count this test as covering the load-time code of everything diagnostics imports (test/support/mutation-preload.ts).
    vi.resetModules();
    vi.doMock("../../provider/framework/diagnostics", () => diagnostics);
    vi.doMock("../../provider/framework/unknown", () => unknown);
    const fresh = await import("../../provider/framework/companions");
    vi.doUnmock("../../provider/framework/diagnostics");
    vi.doUnmock("../../provider/framework/unknown");
    fresh.warnAtExit();
    fresh.warnAtExit();
    expect(vi.mocked(process.once).mock.calls.map(([event]) => event)).toEqual(["exit", "SIGINT", "SIGTERM"]);

    fresh.noteResource(Site, { title: "Partners", visibility: "gated" });
    handlers.get("exit")?.();
    expect(stderr.mock.calls).toEqual([[`warning: ${warning('"Partners"')}\n`]]);
    handlers.get("SIGINT")?.();
    handlers.get("SIGTERM")?.();
    expect(exit.mock.calls).toEqual([[130], [143]]);
  });
});
