import { execFile } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { parse } from "parse5";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { toolchainVars } from "../../tools/toolchain.mjs";
import { callApi, startTestEmulator } from "../support/emulator";
import { seedOrganization } from "../support/seed-organization";
import { makeProject, makeStack, upConsistent } from "./harness";

const run = promisify(execFile);
const repoRoot = path.resolve(__dirname, "../..");
const cli = path.join(repoRoot, "dist/cli/main.js");
const AUDIT_ROUTE = "GET /v1/orgs/{organizationId}/audit-events";

const PROGRAM = `
const pulumi = require("@pulumi/pulumi");
const docs = require("pulumi-docs-platform");
const config = new pulumi.Config();
const site = new docs.Site("product-docs", { title: "Product docs" });
new docs.SpacePermission("linus-reads-the-guide", {
  spaceId: config.require("spaceId"),
  userId: config.require("linusId"),
  role: "read",
});
const archive = new docs.Collection("archive", { title: "Archive" });
exports.siteId = site.id;
exports.archiveId = archive.id;
`;

interface DriftRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `docs-platform drift` through the real Pulumi CLI against the emulator: after `up`, a site's title and a grant's
 * role edited "in the app" by another member (Grace) and a team made by hand; the report names each finding with
 * declared → actual, Grace's email, the time and `ui`, and not the stack's own `up`; its three formats hold the same
 * findings; its JSON validates against the checked-in schema; its HTML page has no external reference.
 */
describe("docs-platform drift through the Pulumi CLI", () => {
  let emulator: RunningEmulator;
  let stack: Stack;
  let siteId = "";
  const linus = () => emulator.userIds[2]!;
  let teamId = "";
  let archiveId = "";
  const guide = () => emulator.spaceIds[0]!;
  const listAll = async (apiPath: string) => {
    const items: unknown[] = [];
    let page = "";
    for (let i = 0; i < 100; i++) {
      const answer = await callApi(emulator, "GET", `${apiPath}?limit=100${page ? `&page=${page}` : ""}`);
      items.push(...answer.body.items);
      page = answer.body.next?.page ?? "";
      if (!page) return items;
    }
    throw new Error(`${apiPath}: more than 100 pages`);
  };
  const inTheApp = () => ({ headers: { "x-emulator-actor": "grace@example.com", "x-emulator-source": "ui" } });
  const drift = async (...args: string[]): Promise<DriftRun> => {
    const env = {
      ...process.env,
      ...(stack.workspace.envVars as Record<string, string>),
      ...toolchainVars(),
      DOCS_API_URL: emulator.url,
      DOCS_API_TOKEN: emulator.token,
    };
    try {
      const { stdout, stderr } = await run(process.execPath, [cli, "drift", "--stack", stack.name, ...args], {
        cwd: stack.workspace.workDir,
        env,
        maxBuffer: 64 << 20,
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { code: failed.code ?? -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
    }
  };

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0, token: "drift-e2e-token" });
    const dir = await makeProject("drift", { "index.js": PROGRAM });
    stack = await makeStack(dir, emulator);
    await stack.setConfig("docs:organizationId", { value: emulator.organizationId });
    await stack.setConfig("spaceId", { value: emulator.spaceIds[0]! });
    await stack.setConfig("linusId", { value: linus() });
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("exits 0 with no drift after up", async () => {
    const up = await upConsistent(stack);
    siteId = up.outputs.siteId?.value as string;
    archiveId = up.outputs.archiveId?.value as string;
    const result = await drift();
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Stack e2e: no drift, and every object is managed\.\n/);
  });

  it("names each hand edit with declared → actual, the member's email, the time and ui; the team made by hand too", async () => {
    const org = emulator.organizationId;
    const edits = [
      await callApi(
        emulator,
        "PATCH",
        `/orgs/${org}/sites/${siteId}`,
        { title: "Docs (edited in the app)" },
        inTheApp(),
      ),
      await callApi(emulator, "PATCH", `/spaces/${guide()}/permissions/users/${linus()}`, { role: "edit" }, inTheApp()),
      await callApi(emulator, "PUT", `/orgs/${org}/teams`, { title: "Contractors" }, inTheApp()),
      await callApi(emulator, "DELETE", `/collections/${archiveId}`, undefined, inTheApp()),
    ];
    expect(edits.map((e) => e.status)).toEqual([200, 204, 201, 205]);
    teamId = edits[2]!.body.id as string;
    const when = async (target: string) =>
      (await callApi(emulator, "GET", `/orgs/${org}/audit-events?target=${target}`)).body.items[0].occurredAt as string;

    emulator.clearRequests();
    const result = await drift();
    console.log(`docs-platform drift (exit ${result.code}):\n${result.stdout}${result.stderr}`);
    expect(result.code, result.stderr).toBe(3);
    // One listing of the audit trail for the whole run, whatever the number of findings.
    expect(emulator.counters()[AUDIT_ROUTE]).toBe(1);
    const text = result.stdout;
    expect(text).toContain("Stack e2e: 2 changed, 1 deleted, 1 unmanaged.");
    const block = (heading: string) => text.split("\n\n").find((b) => b.startsWith(heading)) ?? "";
    const site = block(`changed: Site "product-docs" ${siteId}`);
    expect(site).toContain('  title: "Product docs" → "Docs (edited in the app)"');
    expect(site).toContain(`  by: ${await when(siteId)}  grace@example.com (user) from ui: site.updated`);
    expect(site).toContain(
      `pulumi up --refresh --target 'urn:pulumi:e2e::drift::pulumi-nodejs:dynamic/docs:Site::product-docs'`,
    );
    const grant = block(`changed: SpacePermission "linus-reads-the-guide" ${guide()}/${linus()}`);
    expect(grant).toContain('  role: "read" → "edit"');
    expect(grant).toContain(`  by: ${await when(`${guide()}/${linus()}`)}  grace@example.com (user) from ui:`);
    const team = block(`unmanaged: Team "Contractors" ${teamId}`);
    expect(team).toContain(`  by: ${await when(teamId)}  grace@example.com (user) from ui: team.created`);
    const archive = block(`deleted: Collection "archive" ${archiveId}`);
    expect(archive).toContain(`  by: ${await when(archiveId)}  grace@example.com (user) from ui: collection.deleted`);
    expect(archive).toContain(
      `pulumi up --refresh --target 'urn:pulumi:e2e::drift::pulumi-nodejs:dynamic/docs:Collection::archive'`,
    );
    // The stack's own up made events through the API in the window: none is reported.
    expect(text).not.toContain("from api");

    const json = await drift("--json");
    expect(json.code).toBe(3);
    const report = JSON.parse(json.stdout);
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(ajv);
    const validate = ajv.compile(
      JSON.parse(readFileSync(path.join(repoRoot, "docs/drift-report.schema.json"), "utf8")),
    );
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.audit[0].ownRunEvents).toBeGreaterThanOrEqual(2);
    const ids = report.findings.map((f: { type: string; kind: string; id: string }) => `${f.type} ${f.kind} ${f.id}`);
    expect(ids.sort()).toEqual(
      [
        `changed Site ${siteId}`,
        `changed SpacePermission ${guide()}/${linus()}`,
        `deleted Collection ${archiveId}`,
        `unmanaged Team ${teamId}`,
      ].sort(),
    );

    const markdown = await drift("--markdown");
    expect(markdown.code).toBe(3);
    const htmlFile = path.join(stack.workspace.workDir, "drift.html");
    expect((await drift("--html", htmlFile)).code).toBe(3);
    const html = readFileSync(htmlFile, "utf8");
    const rows = findingRows(html);
    for (const finding of report.findings) {
      expect(markdown.stdout).toContain(`| ${finding.type} | ${finding.kind} |`);
      expect(markdown.stdout).toContain(`\`${finding.id}\``);
      const row = rows.find((r) => r[0] === finding.type && r[1] === finding.kind && r[2]?.includes(finding.id));
      expect(row, `${finding.type} ${finding.kind} ${finding.id} in the HTML table`).toBeDefined();
      expect(row?.[4]).toBe("grace@example.com");
      expect(row?.[6]).toBe("ui");
    }
    expect(rows).toHaveLength(report.findings.length);
    expect(externalReferences(html)).toEqual([]);

    // The page as a browser renders it, offline: every name resolves nowhere, so an external asset could not load.
    const browser = headlessBrowser();
    const flags = ["--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP * ~NOTFOUND", "--window-size=1280,900"];
    const rendered = await run(browser, [...flags, "--dump-dom", `file://${htmlFile}`], { maxBuffer: 16 << 20 });
    expect(findingRows(rendered.stdout)).toEqual(rows);
    const screenshot = path.join(stack.workspace.workDir, "drift.png");
    await run(browser, [...flags, `--screenshot=${screenshot}`, `file://${htmlFile}`]);
    expect(readFileSync(screenshot).subarray(1, 4).toString()).toBe("PNG");
    expect(statSync(screenshot).size).toBeGreaterThan(20_000);
  });

  it("still reports the drift when the token may not read the audit trail, saying so once", async () => {
    emulator.injectFault({ method: "GET", path: "/audit-events$", count: 1, status: 403 });
    const result = await drift();
    expect(result.code, result.stderr).toBe(3);
    expect(result.stdout.match(/may not read the audit trail/g)).toHaveLength(1);
    expect(result.stdout).toContain("Stack e2e: 2 changed, 1 deleted, 1 unmanaged.");
    expect(result.stdout).toContain("not attributed: the audit trail could not be read");
  });

  it("lists the audit trail of the seeded organization once per 100 events, whatever the number of findings", async () => {
    const seeded = await seedOrganization(emulator);
    // Past one page of 100 events.
    for (let i = 0; i < 20; i++) {
      const org = emulator.organizationId;
      await callApi(emulator, "PATCH", `/orgs/${org}/teams/${teamId}`, { title: `Contractors ${i}` }, inTheApp());
    }
    const inWindow = (await listAll(`/orgs/${emulator.organizationId}/audit-events`)).length;
    emulator.clearRequests();
    const json = await drift("--json");
    expect(json.code, json.stderr).toBe(3);
    const report = JSON.parse(json.stdout);
    expect(report.summary.unmanaged).toBeGreaterThan(seeded.count / 2);
    const pages = Math.ceil(report.audit[0].events / 100);
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(report.audit[0].events).toBeLessThanOrEqual(inWindow);
    expect(emulator.counters()[AUDIT_ROUTE]).toBe(pages);
    console.log(
      `drift on the seeded organization: ${report.findings.length} findings, ${report.audit[0].events} audit events, ` +
        `${emulator.counters()[AUDIT_ROUTE]} audit request(s)`,
    );
  });
});

/** The findings table's rows, each cell's text, from the page parsed as a browser would. */
function findingRows(html: string): string[][] {
  const document = parse(html);
  const rows: string[][] = [];
  const walk = (node: ParsedNode) => {
    if (node.nodeName === "tr" && node.attrs?.some((a) => a.name === "data-finding")) {
      rows.push((node.childNodes ?? []).filter((c) => c.nodeName === "td").map(textOf));
    }
    for (const child of node.childNodes ?? []) walk(child);
  };
  walk(document as unknown as ParsedNode);
  return rows;
}

interface ParsedNode {
  nodeName: string;
  value?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: ParsedNode[];
}

function textOf(node: ParsedNode): string {
  if (node.nodeName === "#text") return node.value ?? "";
  return (node.childNodes ?? []).map(textOf).join("").trim();
}

/** Every reference of the page to something outside it: a script, a style sheet, an image, a link elsewhere. */
function externalReferences(html: string): string[] {
  const found: string[] = [];
  const walk = (node: ParsedNode) => {
    if (["script", "link", "img", "iframe", "object", "embed"].includes(node.nodeName)) found.push(node.nodeName);
    for (const attr of node.attrs ?? []) {
      if (["src", "srcset", "action"].includes(attr.name)) found.push(`${attr.name}=${attr.value}`);
      if (attr.name === "href" && !attr.value.startsWith("#")) found.push(`href=${attr.value}`);
      if (attr.name === "style" && /url\(/.test(attr.value)) found.push(attr.value);
    }
    if (node.nodeName === "style" && /url\(|@import/.test(textOf(node))) found.push("style with url()");
    for (const child of node.childNodes ?? []) walk(child);
  };
  walk(parse(html) as unknown as ParsedNode);
  return found;
}

/**
 * Debian's headless Chromium (`apt-get install chromium-headless-shell`, which .ci/run does), or a Chromium on the
 * PATH: the registries here serve no browser build of Playwright's or Puppeteer's, and Debian's is enough to render.
 */
function headlessBrowser(): string {
  for (const name of ["chromium-headless-shell", "chromium", "chromium-browser", "google-chrome"]) {
    for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
      if (dir && existsSync(path.join(dir, name))) return path.join(dir, name);
    }
  }
  throw new Error("no headless Chromium on the PATH: install Debian's `chromium-headless-shell` (as .ci/run does)");
}
