import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { callApi, startTestEmulator } from "../support/emulator";
import { changes, makeProject, makeStack } from "./harness";

/**
 * Sections created in parallel land in whatever order the engine finished them; SiteStructure and the group's
 * ordered sectionIds make the navigation the program's.
 */
const program = `
const pulumi = require("@pulumi/pulumi");
const docs = require("pulumi-docs-platform");

const config = new pulumi.Config();
const organizationId = config.require("organizationId");
const spaces = JSON.parse(config.require("spaceIds"));

const site = new docs.Site("docs", { organizationId, title: "Ordered docs" });
const section = (name, i) =>
  new docs.SiteSection(name, { organizationId, siteId: site.id, spaceId: spaces[i], title: name, path: name });
const [alpha, beta, gamma, delta] = ["alpha", "beta", "gamma", "delta"].map(section);
const group = new docs.SiteSectionGroup("group", {
  organizationId,
  siteId: site.id,
  title: "Group",
  sectionIds: [delta.id, gamma.id],
});
// Config \`reorder\` moves alpha from last to first.
const order = config.getBoolean("reorder") ? [alpha.id, beta.id, group.id] : [beta.id, group.id, alpha.id];
new docs.SiteStructure("navigation", { organizationId, siteId: site.id, order });

exports.siteId = site.id;
`;

/** How many lines of `text` contain `line`. */
const linesOf = (text: string, line: string) => text.split("\n").filter((l) => l.includes(line)).length;
/** The "Diagnostics:" section of a preview without --diff (its progress lines repeat the latest message). */
const diagnosticsOf = (stdout: string) => stdout.split("\nDiagnostics:\n")[1]?.split("\nResources:\n")[0] ?? "";

interface Item {
  id: string;
  title: string;
  children?: Item[];
}

describe("navigation order through the Pulumi CLI", () => {
  let emulator: RunningEmulator;
  let stack: Stack;

  const api = (method: string, path: string, body?: unknown) => callApi(emulator, method, path, body);
  const siteId = async () => (await stack.outputs()).siteId?.value as string;
  const sitePath = async () => `/orgs/${emulator.organizationId}/sites/${await siteId()}`;
  /** The navigation as titles: top level, with a group's sections after it. */
  const navigation = async () => {
    const structure = (await api("GET", `${await sitePath()}/structure`)).body as { structure: Item[] };
    return structure.structure.map((item) =>
      item.children ? `${item.title}: ${item.children.map((c) => c.title).join(", ")}` : item.title,
    );
  };
  const expected = ["beta", "Group: delta, gamma", "alpha"];

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0 });
    stack = await makeStack(await makeProject("site-order", { "index.js": program }), emulator);
    await stack.setConfig("spaceIds", { value: JSON.stringify(emulator.spaceIds) });
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await emulator?.close();
  });

  it("two consecutive ups of a fresh stack give the declared order on the API, and a second preview is empty", async () => {
    await stack.up();
    expect(await navigation()).toEqual(expected);
    expect(changes((await stack.preview()).changeSummary)).toEqual({});
    await stack.destroy();
    await stack.up();
    expect(await navigation()).toEqual(expected);
  });

  it("sees a reorder by hand in preview --refresh, and up --refresh sorts it back", async () => {
    const path = await sitePath();
    const [first, , last] = ((await api("GET", `${path}/structure`)).body as { structure: Item[] }).structure;
    const sorted = await api("PATCH", `${path}/structure/sort`, {
      item: { type: "site-section", id: last?.id },
      position: { before: { type: "site-section", id: first?.id } },
    });
    expect(sorted.status).toBe(200);
    expect(await navigation()).toEqual(["alpha", "beta", "Group: delta, gamma"]);
    const preview = await stack.preview({ refresh: true });
    expect(changes(preview.changeSummary)).toEqual({ update: 1 });
    // The refresh's diff and the program's both find it: said once.
    const line = `info: SiteStructure "${await siteId()}": order: "alpha" moves from 1 to 3.`;
    expect(linesOf(diagnosticsOf(preview.stdout), line)).toBe(1);
    await stack.up({ refresh: true });
    expect(await navigation()).toEqual(expected);
  });

  it("a reorder in the program previews the item that moves by its title, once, and up makes that one move", async () => {
    await stack.setConfig("reorder", { value: "true" });
    try {
      // The property diff shows the ids by position (all the CLI can do with a dynamic provider's inputs); the line
      // under it says what the update does. With --diff the CLI prints provider messages on stderr.
      const line = `info: SiteStructure "${await siteId()}": order: "alpha" moves from 3 to 1.`;
      const detailed = await stack.preview({ diff: true });
      expect(changes(detailed.changeSummary)).toEqual({ update: 1 });
      expect(detailed.stdout).toMatch(/~ order +: \[/);
      expect(linesOf(detailed.stderr, line)).toBe(1);
      const plain = await stack.preview();
      expect(linesOf(diagnosticsOf(plain.stdout), line)).toBe(1);
      // The line says what the update does: one move.
      emulator.clearRequests();
      await stack.up();
      const sorts = emulator.requests().filter((r) => r.method === "PATCH" && r.path.endsWith("/structure/sort"));
      expect(sorts).toHaveLength(1);
      expect(await navigation()).toEqual(["alpha", "beta", "Group: delta, gamma"]);
    } finally {
      await stack.removeConfig("reorder");
    }
  });
});
