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
new docs.SiteStructure("navigation", { organizationId, siteId: site.id, order: [beta.id, group.id, alpha.id] });

exports.siteId = site.id;
`;

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
    await stack.up({ refresh: true });
    expect(await navigation()).toEqual(expected);
  });
});
