import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { census } from "../support/census";
import { callApi, startTestEmulator } from "../support/emulator";
import { changes, makeProject, makeStack, runPulumi } from "./harness";

/**
 * External links and the inputs added beside them, through the real CLI: a top-level link placed by SiteStructure's
 * `order` by reference, a link in a nested group, one adopted with `importId`; a site's default level, a hidden site
 * space, a guest grant and a space's merge rules. A no-change preview proves each reads back as declared; a hand edit
 * is seen and reverted; destroy leaves nothing.
 */
const program = `
const pulumi = require("@pulumi/pulumi");
const docs = require("pulumi-docs-platform");

const config = new pulumi.Config();
const organizationId = config.require("organizationId");
const spaces = JSON.parse(config.require("spaceIds"));

const site = new docs.Site("docs", { organizationId, title: "Linked docs", defaultLevel: "read" });
const guides = new docs.SiteSection("guides", { organizationId, siteId: site.id, spaceId: spaces[0], title: "Guides" });
new docs.SiteSpace("drafts", { organizationId, siteId: site.id, sectionId: guides.id, spaceId: spaces[1], hidden: true });
const outer = new docs.SiteSectionGroup("outer", { organizationId, siteId: site.id, title: "Outer" });
const more = new docs.SiteSectionGroup("more", { organizationId, siteId: site.id, title: "More", parentId: outer.id });
new docs.SitePermission("guest", { organizationId, siteId: site.id, userId: config.require("guestUserId"), role: "guest" });
new docs.Space("reviewed", {
  organizationId,
  title: "Reviewed",
  mergeRules: {
    type: "rules",
    rules: [{ rule: "require_at_least_one_approved_review" }, { rule: "require_change_request_subject" }],
  },
});
const status = new docs.SiteExternalLink("status", {
  organizationId,
  siteId: site.id,
  title: "Status",
  url: "https://status.example.com",
  icon: "signal",
});
new docs.SiteExternalLink("forum", {
  organizationId,
  siteId: site.id,
  parentId: more.id,
  title: "Forum",
  url: "https://forum.example.com",
  description: "Ask the community",
});
const adopted = config.get("adoptLinkId");
if (adopted) {
  new docs.SiteExternalLink("changelog", {
    organizationId,
    siteId: config.require("adoptSiteId"),
    title: "Changelog",
    url: "https://changelog.example.com",
    importId: adopted,
  });
}
new docs.SiteStructure("navigation", { organizationId, siteId: site.id, order: [status.id, guides.id, outer.id] });

exports.siteId = site.id;
exports.statusId = status.id;
`;

interface Item {
  id: string;
  object: string;
  title: string;
  url?: string;
  children?: Item[];
}

describe("external links and the new inputs through the Pulumi CLI", () => {
  let emulator: RunningEmulator;
  let stack: Stack;

  const api = (method: string, path: string, body?: unknown) => callApi(emulator, method, path, body);
  const output = async (name: string) => (await stack.outputs())[name]?.value as string;
  const sitePath = async () => `/orgs/${emulator.organizationId}/sites/${await output("siteId")}`;
  /** The navigation as titles, a group's children after it (nested groups in parentheses). */
  const navigation = async () => {
    const { structure } = (await api("GET", `${await sitePath()}/structure`)).body as { structure: Item[] };
    const named = (item: Item): string =>
      item.children
        ? `${item.title}: ${item.children.map((c) => (c.children ? `(${named(c)})` : c.title)).join(", ")}`
        : item.title;
    return structure.map(named);
  };
  const writes = () => emulator.requests().filter((r) => r.method !== "GET");

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0 });
    stack = await makeStack(await makeProject("links-and-fields", { "index.js": program }), emulator);
    await stack.setConfig("spaceIds", { value: JSON.stringify(emulator.spaceIds) });
    await stack.setConfig("guestUserId", { value: emulator.userIds[2]! });
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await emulator?.close();
  });

  it("creates the links where the program puts them, and a preview right after has no change", async () => {
    await stack.up();
    expect(await navigation()).toEqual(["Status", "Guides", "Outer: (More: Forum)"]);
    expect((await census(emulator)).SiteExternalLink).toHaveLength(2);
    const site = (await api("GET", await sitePath())).body as { defaultLevel: unknown };
    expect(site.defaultLevel).toBe("read");
    const users = (await api("GET", `${await sitePath()}/permissions/users`)).body as {
      items: { permission: unknown }[];
    };
    expect(users.items.map((grant) => grant.permission)).toEqual([null]);
    emulator.clearRequests();
    const preview = await runPulumi(stack, ["preview", "--expect-no-changes"]);
    expect(preview.code, preview.output).toBe(0);
    // Offline: preview reads nothing and writes nothing.
    expect(emulator.requests()).toEqual([]);
  });

  it("sees a URL changed by hand in preview --refresh, and up --refresh puts it back", async () => {
    const status = await output("statusId");
    const edited = await api("PATCH", `${await sitePath()}/external-links/${status}`, { url: "https://hand.example" });
    expect(edited.status).toBe(200);
    const preview = await stack.preview({ refresh: true, diff: true });
    expect(changes(preview.changeSummary)).toEqual({ update: 1 });
    expect(preview.stdout).toMatch(/~ url +: "https:\/\/hand\.example" => "https:\/\/status\.example\.com"/);
    emulator.clearRequests();
    await stack.up({ refresh: true });
    expect(writes().map((r) => `${r.method} ${r.route}`)).toEqual([
      "PATCH /v1/orgs/{organizationId}/sites/{siteId}/external-links/{siteExternalLinkId}",
    ]);
    const { structure } = (await api("GET", `${await sitePath()}/structure`)).body as { structure: Item[] };
    expect(structure.find((item) => item.id === status)?.url).toBe("https://status.example.com");
    const clean = await runPulumi(stack, ["refresh", "--expect-no-changes", "--yes"]);
    expect(clean.code, clean.output).toBe(0);
  });

  it("adopts a link made by hand with importId, writing nothing when it matches", async () => {
    // On a site of its own made by hand, so that the program's SiteStructure (which names every top-level item of
    // its site) stays as it is.
    const org = `/orgs/${emulator.organizationId}`;
    const handMade = (await api("POST", `${org}/sites`, { title: "Partner docs" })).body.id as string;
    expect((await api("POST", `${org}/sites/${handMade}/sections`, { spaceId: emulator.spaceIds[1] })).status).toBe(
      201,
    );
    const made = await api("POST", `${org}/sites/${handMade}/external-links`, {
      title: "Changelog",
      url: "https://changelog.example.com",
    });
    expect(made.status).toBe(201);
    await stack.setConfig("adoptSiteId", { value: handMade });
    await stack.setConfig("adoptLinkId", { value: made.body.id });
    emulator.clearRequests();
    const result = await stack.up();
    expect(changes(result.summary.resourceChanges)).toMatchObject({ create: 1 });
    expect(writes()).toEqual([]);
    const resources = (await stack.exportStack()).deployment.resources as { urn: string; id?: string }[];
    expect(resources.find((r) => r.urn.endsWith("::changelog"))?.id).toBe(made.body.id);
    const clean = await runPulumi(stack, ["preview", "--expect-no-changes"]);
    expect(clean.code, clean.output).toBe(0);
  });

  it("destroy removes every link the program made or adopted", async () => {
    await stack.destroy();
    expect((await census(emulator)).SiteExternalLink).toEqual([]);
  });
});
