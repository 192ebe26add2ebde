import { readFileSync } from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import {
  AUDIT_WINDOW_NOTE,
  attribute,
  type DriftReport,
  engineFindings,
  historyTime,
  lastSuccessfulUpdate,
  madeByRun,
  renderHtml,
  renderMarkdown,
  renderText,
  SECRET,
  stackRuns,
  summaryOf,
  unmanagedFinding,
} from "../../cli/drift";
import type { ApiAuditEvent } from "../../provider/client";

const schema = JSON.parse(readFileSync(path.resolve(__dirname, "../../docs/drift-report.schema.json"), "utf8"));
const SIG = "4dabf18193072939515e22adb298388d";
const siteUrn = "urn:pulumi:prod::docs::pulumi-nodejs:dynamic/docs:Site::product-docs";
const tokenUrn = "urn:pulumi:prod::docs::pulumi-nodejs:dynamic/docs:SiteMcpServer::search";
const gone = "urn:pulumi:prod::docs::pulumi-nodejs:dynamic/docs:Team::writers";
const fresh = "urn:pulumi:prod::docs::pulumi-nodejs:dynamic/docs:Team::new-in-the-program";

const steps = [
  { op: "same", urn: "urn:pulumi:prod::docs::pulumi:pulumi:Stack::docs-prod" },
  {
    op: "update",
    urn: siteUrn,
    oldState: {
      id: "site1",
      type: "pulumi-nodejs:dynamic/docs:Site",
      inputs: { title: "Edited", organizationId: "o" },
      outputs: { organizationId: "o" },
    },
    newState: { inputs: { title: "Product docs", organizationId: "o", __provider: "x" } },
  },
  {
    op: "update",
    urn: tokenUrn,
    oldState: { id: "mcp1", inputs: { headers: { [SIG]: "1", ciphertext: "zzz" } } },
    newState: {
      type: "pulumi-nodejs:dynamic/docs:SiteMcpServer",
      inputs: { headers: { [SIG]: "1", ciphertext: "yyy" } },
    },
    detailedDiff: { headers: { kind: "update" } },
  },
  { op: "create", urn: gone, newState: { type: "pulumi-nodejs:dynamic/docs:Team", inputs: { title: "Writers" } } },
  { op: "create", urn: fresh, newState: { type: "pulumi-nodejs:dynamic/docs:Team", inputs: { title: "New" } } },
];

const event = (at: string, target: string, source = "ui", label = "grace@example.com"): ApiAuditEvent => ({
  id: `${at}-${target}`,
  occurredAt: at,
  action: "site.updated",
  actor: { type: "user", id: "u2", label },
  source,
  target: { type: "site", id: target },
});

describe("drift's pieces", () => {
  it("reads Go's and epoch history times, and starts the window at the last successful update, naming failed ones", () => {
    expect(historyTime("2026-11-28 20:01:02.5 +0100 CET")).toBe("2026-11-28T19:01:02.500Z");
    expect(historyTime(1_700_000_000)).toBe("2023-11-14T22:13:20.000Z");
    expect(historyTime("yesterday")).toBeUndefined();
    const runs = stackRuns([
      {
        version: 1,
        kind: "update",
        result: "succeeded",
        startTime: "2026-01-01T00:00:00Z",
        endTime: "2026-01-01T00:01:00Z",
      },
      {
        version: 2,
        kind: "refresh",
        result: "succeeded",
        startTime: "2026-01-02T00:00:00Z",
        endTime: "2026-01-02T00:01:00Z",
      },
      {
        version: 3,
        kind: "update",
        result: "failed",
        startTime: "2026-01-03T00:00:00Z",
        endTime: "2026-01-03T00:01:00Z",
      },
    ]);
    const { update, failedAfter } = lastSuccessfulUpdate(runs);
    expect(update?.version).toBe(1);
    expect(failedAfter.map((r) => r.version)).toEqual([3]);
    expect(lastSuccessfulUpdate([]).update).toBeUndefined();
  });

  it("takes changed and deleted resources from the engine's steps, secrets masked, new program resources left out", () => {
    const findings = engineFindings(steps, new Set([siteUrn, tokenUrn, gone]), "prod");
    expect(findings.map((f) => [f.type, f.kind, f.name])).toEqual([
      ["changed", "Site", "product-docs"],
      ["changed", "SiteMcpServer", "search"],
      ["deleted", "Team", "writers"],
    ]);
    expect(findings[0]?.changes).toEqual([{ property: "title", declared: "Product docs", actual: "Edited" }]);
    expect(findings[1]?.changes).toEqual([{ property: "headers", declared: SECRET, actual: SECRET }]);
    expect(findings[0]?.revert).toBe(`pulumi up --refresh --target '${siteUrn}' --stack prod`);
    expect(findings[0]?.adopt).toContain('title: "Edited"');
  });

  it("attributes events on each object, tells the stack's own runs apart, and says when there is none or no trail", () => {
    const run = {
      version: 1,
      kind: "update",
      result: "succeeded",
      startTime: "2026-01-01T00:00:00.000Z",
      endTime: "2026-01-01T00:01:00.000Z",
    };
    expect(madeByRun(event("2026-01-01T00:00:30Z", "site1", "api"), [run])).toBe(true);
    expect(madeByRun(event("2026-01-01T00:00:30Z", "site1", "ui"), [run])).toBe(false);
    expect(madeByRun(event("2026-01-01T00:05:00Z", "site1", "api"), [run])).toBe(false);
    const [changed, , deleted] = engineFindings(steps, new Set([siteUrn, tokenUrn, gone]), "prod").map((f) => ({
      ...f,
      organizationId: "o",
    }));
    const team = unmanagedFinding("o", { kind: "Team", id: "t9", title: "Contractors" });
    const trail = [
      event("2026-01-01T00:03:00Z", "site1"),
      event("2026-01-01T00:02:00Z", "site1"),
      event("2026-01-01T00:02:00Z", "t9"),
    ];
    const attributed = attribute([changed!, deleted!, team], new Map([["o", trail]]));
    expect(attributed.map((f) => f.attribution)).toEqual(["attributed", "outside-window", "attributed"]);
    expect(attributed[0]?.events.map((e) => e.occurredAt)).toEqual(["2026-01-01T00:02:00Z", "2026-01-01T00:03:00Z"]);
    expect(attribute([team], new Map([["o", undefined]]))[0]?.attribution).toBe("unavailable");
  });

  it("renders the same findings in text, Markdown, a self-contained HTML page and JSON valid against the schema", () => {
    const findings = attribute(
      [
        ...engineFindings(steps, new Set([siteUrn, gone]), "prod").map((f) => ({ ...f, organizationId: "o" })),
        unmanagedFinding("o", { kind: "Team", id: "t9", title: "<Contractors>" }),
      ],
      new Map([["o", [event("2026-01-01T00:02:00Z", "site1")]]]),
    );
    const report: DriftReport = {
      version: 1,
      stack: "prod",
      generatedAt: "2026-01-02T00:00:00.000Z",
      lastUpdate: {
        version: 1,
        kind: "update",
        result: "succeeded",
        startTime: "2026-01-01T00:00:00.000Z",
        endTime: "2026-01-01T00:01:00.000Z",
      },
      window: { from: "2026-01-01T00:00:00.000Z", to: "2026-01-02T00:00:00.000Z" },
      notes: [],
      audit: [{ organizationId: "o", requests: 1, events: 1, ownRunEvents: 0, truncated: false }],
      summary: summaryOf(findings),
      findings,
    };
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    expect(validate(JSON.parse(JSON.stringify(report))), JSON.stringify(validate.errors)).toBe(true);
    const text = renderText(report);
    const markdown = renderMarkdown(report);
    const html = renderHtml(report);
    expect(text).toContain('title: "Product docs" → "Edited"');
    expect(text).toContain("grace@example.com (user) from ui");
    expect(text).toContain(AUDIT_WINDOW_NOTE);
    for (const rendered of [text, markdown]) {
      for (const f of findings) expect(rendered).toContain(f.name);
    }
    expect(html).toContain("&lt;Contractors&gt;");
    expect(html).not.toMatch(/<script|<link|\ssrc=|url\(|@import|https?:\/\//i);
  });
});
