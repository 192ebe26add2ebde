import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { callApi, startTestEmulator } from "../support/emulator";
import { changes, makeProject, makeStack, upConsistent } from "./harness";

/**
 * One site's redirects as an authoritative SiteRedirects, another site's as a single SiteRedirect; config `both`
 * adds a SiteRedirect to the first site, which preview warns about.
 */
const program = `
const pulumi = require("@pulumi/pulumi");
const docs = require("pulumi-docs-platform");

const config = new pulumi.Config();
const organizationId = config.require("organizationId");
const spaces = JSON.parse(config.require("spaceIds"));

const site = new docs.Site("docs", { organizationId, title: "Migrated docs" });
const guides = new docs.SiteSection("guides", { organizationId, siteId: site.id, spaceId: spaces[0], title: "Guides" });
new docs.SiteRedirects("redirects", {
  organizationId,
  siteId: site.id,
  redirects: [
    { source: "/getting-started", destination: { kind: "site-section", siteSectionId: guides.id }, permanent: true },
    // Config \`about\` adds a rule in the middle of the list whose source sorts before every other.
    ...(config.getBoolean("about")
      ? [{ source: "/about", destination: { kind: "external", url: "https://about.example.com/" } }]
      : []),
    { source: "/v1/*", destination: { kind: "external", url: "https://v1.example.com/" }, captureWildcard: true },
    { source: "/blog", destination: { kind: "external", url: "https://blog.example.com/" } },
  ],
});

const other = new docs.Site("other", { organizationId, title: "Other docs" });
new docs.SiteRedirect("status", {
  organizationId,
  siteId: other.id,
  source: "/status",
  destination: { kind: "external", url: "https://status.example.com/" },
});
if (config.getBoolean("both")) {
  new docs.SiteRedirect("stray", {
    organizationId,
    siteId: site.id,
    source: "/stray",
    destination: { kind: "external", url: "https://stray.example.com/" },
  });
}

exports.siteId = site.id;
exports.otherSiteId = other.id;
`;

const DECLARED = ["/blog", "/getting-started", "/v1/*"];

/** The lines of a `--diff` preview that add, remove or change something, without their indentation. */
const changedLines = (stdout: string) =>
  stdout
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => /^[-+~] /.test(line));

describe("redirects through the Pulumi CLI", () => {
  let emulator: RunningEmulator;
  let stack: Stack;

  const api = (method: string, path: string, body?: unknown) => callApi(emulator, method, path, body);
  const redirectsOf = async (output: string) =>
    `/orgs/${emulator.organizationId}/sites/${(await stack.outputs())[output]?.value}/redirects`;
  const sources = async (output: string) =>
    ((await api("GET", `${await redirectsOf(output)}?orderBy=source`)).body.items as { source: string }[]).map(
      (r) => r.source,
    );

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0 });
    stack = await makeStack(await makeProject("redirects", { "index.js": program }), emulator);
    await stack.setConfig("spaceIds", { value: JSON.stringify(emulator.spaceIds) });
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await emulator?.close();
  });

  it("up creates a site's redirects with one bulk request, and a second preview is empty", async () => {
    emulator.clearRequests();
    await upConsistent(stack);
    const writes = emulator.requests().filter((r) => r.method !== "GET" && r.path.endsWith("/redirects"));
    expect(writes.map((r) => r.method).sort()).toEqual(["POST", "PUT"]);
    expect(await sources("siteId")).toEqual(DECLARED);
    expect(await sources("otherSiteId")).toEqual(["/status"]);
    expect(changes((await stack.preview()).changeSummary)).toEqual({});
  });

  it("a rule added in the middle of the list previews as that one rule, by its source, and up adds only it", async () => {
    await stack.setConfig("about", { value: "true" });
    try {
      const preview = await stack.preview({ diff: true });
      expect(changes(preview.changeSummary)).toEqual({ update: 1 });
      // Before: `~ [0]`, `~ [1]` (two rules rewritten) and `+ [3]`, as the CLI compares arrays by position.
      expect(changedLines(preview.stdout)).toEqual([
        "~ pulumi-nodejs:dynamic/docs:SiteRedirects: (update)",
        "~ redirects     : {",
        "+ /about          : {",
        "+ captureWildcard: false",
        "+ destination    : {",
        '+ kind: "external"',
        '+ url : "https://about.example.com/"',
        "+ permanent      : false",
        "~ 1 to update",
      ]);
      emulator.clearRequests();
      await upConsistent(stack);
      const bulk = emulator.requests().filter((r) => r.method === "PUT" && r.path.endsWith("/redirects"));
      expect(bulk.map((r) => (r.requestBody as { redirects: { source: string }[] }).redirects)).toEqual([
        [expect.objectContaining({ source: "/about" })],
      ]);
    } finally {
      await stack.removeConfig("about");
    }
    await upConsistent(stack);
    expect(await sources("siteId")).toEqual(DECLARED);
  });

  it("a redirect added and one removed by hand show in preview --refresh, and up --refresh puts the list back", async () => {
    const path = await redirectsOf("siteId");
    expect(
      (await api("POST", path, { source: "/by-hand", destination: { kind: "external", url: "https://x.example/" } }))
        .status,
    ).toBe(201);
    const blog = ((await api("GET", path)).body.items as { id: string; source: string }[]).find(
      (r) => r.source === "/blog",
    );
    expect((await api("DELETE", `${path}/${blog?.id}`)).status).toBe(205);

    const preview = await stack.preview({ refresh: true, diff: true });
    expect(changes(preview.changeSummary)).toEqual({ update: 1 });
    const changed = changedLines(preview.stdout);
    expect(changed.filter((line) => /^[-+~] \//.test(line))).toEqual([
      expect.stringMatching(/^\+ \/blog +: \{$/),
      expect.stringMatching(/^- \/by-hand +: \{$/),
    ]);
    await upConsistent(stack, { refresh: true });
    expect(await sources("siteId")).toEqual(DECLARED);
  });

  it("a refresh reads each site's redirects with one listing", async () => {
    emulator.clearRequests();
    await stack.refresh();
    const listings = emulator.requests().filter((r) => r.method === "GET" && r.path.endsWith("/redirects"));
    expect(listings).toHaveLength(2);
  });

  it("preview warns when a site has both a SiteRedirects and a SiteRedirect", async () => {
    await stack.setConfig("both", { value: "true" });
    try {
      const chunks: string[] = [];
      await stack.preview({ onOutput: (text) => chunks.push(text) });
      expect(chunks.join("")).toContain(
        `warning: SiteRedirect and SiteRedirects are both declared under siteId "${(await stack.outputs()).siteId?.value}"`,
      );
    } finally {
      await stack.removeConfig("both");
    }
  });

  it("destroy deletes every redirect", async () => {
    await stack.destroy();
    expect(emulator.store.redirects.size).toBe(0);
  });
});
