import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { allPagesOf } from "../../emulator/families/content/spacePages";
import { census } from "../support/census";
import { callApi, startTestEmulator } from "../support/emulator";
import { changes, makeProject, makeStack, runPulumi } from "./harness";

/**
 * Staged navigation, localized labels, custom home pages and a generated space, through the real CLI: a draft section
 * with labels per language and a home page found with `getPage`, a draft group and link, a draft site space with a
 * home page, all placed by SiteStructure's `order`, and a space generated from an OpenAPI spec. A no-change preview
 * proves each reads back as declared; hand edits are seen and reverted; a changed computed source previews as a
 * replacement that says why; a hand-made section is adopted with `importId`; destroy leaves nothing.
 */
const program = `
const pulumi = require("@pulumi/pulumi");
const docs = require("pulumi-docs-platform");

const config = new pulumi.Config();
const organizationId = config.require("organizationId");
const spaces = JSON.parse(config.require("spaceIds"));

const home = docs.getPageOutput({ organizationId, spaceId: spaces[0], path: "getting-started" });
const reference = docs.getPageOutput({ organizationId, spaceId: spaces[1], path: "reference" });

const site = new docs.Site("docs", { organizationId, title: "Staged docs" });
const guides = new docs.SiteSection("guides", {
  organizationId,
  siteId: site.id,
  spaceId: spaces[0],
  title: "Guides",
  draft: true,
  localizedTitle: { fr: "Guides FR", de: "Anleitungen" },
  localizedDescription: { fr: "Tous les guides" },
  pageId: home.id,
});
new docs.SiteSpace("beta", {
  organizationId,
  siteId: site.id,
  sectionId: guides.id,
  spaceId: spaces[1],
  draft: true,
  pageId: reference.id,
});
const product = new docs.SiteSectionGroup("product", {
  organizationId,
  siteId: site.id,
  title: "Product",
  draft: true,
  localizedTitle: { fr: "Produit" },
});
const status = new docs.SiteExternalLink("status", {
  organizationId,
  siteId: site.id,
  title: "Status",
  url: "https://status.example.com",
  draft: true,
  localizedTitle: { fr: "Statut" },
  localizedDescription: { fr: "État du service" },
}, { dependsOn: [guides] });
new docs.SiteStructure("navigation", { organizationId, siteId: site.id, order: [status.id, guides.id, product.id] });

new docs.Space("apiReference", {
  organizationId,
  title: "API reference",
  computedSource: { type: "builtin:openapi", spec: config.require("specSlug"), models: true, grouping: "by-tag" },
});

const adopted = config.get("adoptSectionId");
if (adopted) {
  new docs.SiteSection("legacy", {
    organizationId,
    siteId: config.require("adoptSiteId"),
    spaceId: spaces[2],
    title: "Legacy",
    draft: true,
    localizedTitle: { fr: "Ancien" },
    pageId: config.require("adoptPageId"),
    importId: adopted,
  });
}

exports.siteId = site.id;
exports.guidesId = guides.id;
exports.guidesSiteSpaceId = guides.siteSpaceId;
`;

interface Item {
  id: string;
  object: string;
  title: string;
  draft: boolean;
  localizedTitle?: Record<string, string>;
  siteSpaces?: { id: string; draft: boolean; pageId?: string | null; space: { id: string } }[];
}

describe("navigation fields, getPage and computedSource through the Pulumi CLI", () => {
  let emulator: RunningEmulator;
  let stack: Stack;

  const api = (method: string, path: string, body?: unknown) => callApi(emulator, method, path, body);
  const output = async (name: string) => (await stack.outputs())[name]?.value as string;
  const sitePath = async () => `/orgs/${emulator.organizationId}/sites/${await output("siteId")}`;
  const structure = async () =>
    ((await api("GET", `${await sitePath()}/structure`)).body as { structure: Item[] }).structure;
  const pageAt = (spaceId: string, path: string) => {
    const space = emulator.store.spaces.get(spaceId);
    return space && allPagesOf(space).find((page) => page.path === path)?.id;
  };
  const writes = () => emulator.requests().filter((r) => r.method !== "GET");

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0 });
    stack = await makeStack(await makeProject("navigation", { "index.js": program }), emulator);
    await stack.setConfig("spaceIds", { value: JSON.stringify(emulator.spaceIds) });
    await stack.setConfig("specSlug", { value: "petstore" });
    for (const slug of ["petstore", "orders"]) {
      const made = await api("POST", `/orgs/${emulator.organizationId}/openapi`, {
        slug,
        source: { text: `openapi: 3.1.0\ninfo:\n  title: ${slug}\n  version: 1.0.0\npaths: {}\n` },
      });
      expect(made.status).toBe(201);
    }
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await emulator?.close();
  });

  it("creates drafts with their labels and home pages, in the declared order; a preview right after has no change", async () => {
    await stack.up();
    const items = await structure();
    expect(items.map((item) => [item.title, item.draft])).toEqual([
      ["Status", true],
      ["Guides", true],
      ["Product", true],
    ]);
    const guides = items.find((item) => item.title === "Guides");
    expect(guides?.localizedTitle).toEqual({ fr: "Guides FR", de: "Anleitungen" });
    const [own, beta] = guides?.siteSpaces ?? [];
    expect(own?.pageId).toBe(pageAt(emulator.spaceIds[0]!, "getting-started"));
    expect(beta).toMatchObject({ draft: true, pageId: pageAt(emulator.spaceIds[1]!, "reference") });
    const generated = [...emulator.store.spaces.values()].find((space) => space.title === "API reference");
    expect(generated?.computedSource).toEqual({
      type: "builtin:openapi",
      spec: "petstore",
      models: true,
      grouping: "by-tag",
    });
    emulator.clearRequests();
    const preview = await runPulumi(stack, ["preview", "--expect-no-changes"]);
    expect(preview.code, preview.output).toBe(0);
    // The program's getPage calls read; the preview writes nothing.
    expect(writes()).toEqual([]);
  });

  it("sees a section published and relabelled by hand in preview --refresh, and up --refresh puts it back", async () => {
    const guides = await output("guidesId");
    const edited = await api("PATCH", `${await sitePath()}/sections/${guides}`, {
      draft: false,
      localizedTitle: { fr: "Changé à la main" },
    });
    expect(edited.status).toBe(200);
    const ownSiteSpace = await output("guidesSiteSpaceId");
    expect((await api("PATCH", `${await sitePath()}/site-spaces/${ownSiteSpace}`, { pageId: null })).status).toBe(200);
    const preview = await stack.preview({ refresh: true, diff: true });
    expect(changes(preview.changeSummary)).toEqual({ update: 1 });
    expect(preview.stdout).toMatch(/~ draft +: false => true/);
    expect(preview.stdout).toContain('fr: "Changé à la main"');
    emulator.clearRequests();
    await stack.up({ refresh: true });
    expect(
      writes()
        .map((r) => `${r.method} ${r.route}`)
        .sort(),
    ).toEqual([
      "PATCH /v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}",
      "PATCH /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}",
    ]);
    const section = (await structure()).find((item) => item.id === guides);
    expect(section).toMatchObject({ draft: true, localizedTitle: { fr: "Guides FR", de: "Anleitungen" } });
    expect(section?.siteSpaces?.[0]?.pageId).toBe(pageAt(emulator.spaceIds[0]!, "getting-started"));
    const clean = await runPulumi(stack, ["refresh", "--expect-no-changes", "--yes"]);
    expect(clean.code, clean.output).toBe(0);
  });

  it("previews a changed computedSource as a replacement of the space, saying why", async () => {
    await stack.setConfig("specSlug", { value: "orders" });
    try {
      const preview = await runPulumi(stack, ["preview", "--diff"]);
      expect(preview.code, preview.output).toBe(0);
      expect(preview.output).toMatch(/docs:Space: \(replace\)\s+\[id=\S+\]\s+\[urn=\S+::apiReference\]/);
      expect(preview.output).toContain('computedSource changes from OpenAPI spec "petstore" to OpenAPI spec "orders"');
      expect(preview.output).toContain("never reports it back, so this replaces the space");
    } finally {
      await stack.setConfig("specSlug", { value: "petstore" });
    }
    const clean = await runPulumi(stack, ["preview", "--expect-no-changes"]);
    expect(clean.code, clean.output).toBe(0);
  });

  it("adopts a draft section with its labels and home page made by hand, writing nothing", async () => {
    // On a site of its own, so the program's SiteStructure (which names every top-level item of its site) stays.
    const org = `/orgs/${emulator.organizationId}`;
    const handMade = (await api("POST", `${org}/sites`, { title: "Partner docs" })).body.id as string;
    const pageId = pageAt(emulator.spaceIds[2]!, "introduction");
    const made = await api("POST", `${org}/sites/${handMade}/sections`, {
      spaceId: emulator.spaceIds[2],
      title: "Legacy",
      draft: true,
      pageId,
    });
    expect(made.status).toBe(201);
    const labelled = await api("PATCH", `${org}/sites/${handMade}/sections/${made.body.id}`, {
      localizedTitle: { fr: "Ancien" },
    });
    expect(labelled.status).toBe(200);
    await stack.setConfig("adoptSiteId", { value: handMade });
    await stack.setConfig("adoptSectionId", { value: made.body.id as string });
    await stack.setConfig("adoptPageId", { value: pageId ?? "" });
    emulator.clearRequests();
    const result = await stack.up();
    expect(changes(result.summary.resourceChanges)).toMatchObject({ create: 1 });
    expect(writes()).toEqual([]);
    const clean = await runPulumi(stack, ["preview", "--expect-no-changes"]);
    expect(clean.code, clean.output).toBe(0);
  });

  it("destroy removes every section, group, link and site space the program made or adopted, and the space", async () => {
    await stack.destroy();
    const left = await census(emulator);
    expect(left.SiteSection).toEqual([]);
    expect(left.SiteSectionGroup).toEqual([]);
    expect(left.SiteExternalLink).toEqual([]);
    expect([...emulator.store.spaces.values()].filter((s) => s.title === "API reference" && !s.deletedAt)).toEqual([]);
  });
});
