import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { census } from "../support/census";
import { callApi, startTestEmulator } from "../support/emulator";
import { changes, exportAsStored, makeProject, makeStack, runPulumi } from "./harness";

/**
 * What the docs agent reads, through the real CLI: a GitHub-issues context connection whose token comes from the
 * environment. Created (the token sent, never stored in plain text or read back), a no-change preview that sends
 * nothing, a hand edit of its label, filter and usage settings seen and reverted (without resending the token), a
 * token put among the plain settings refused at preview, a connection made by hand adopted with `importId`, destroy.
 */
const TOKEN = "ghp-e2e-context-7c21d9";

const program = `
const pulumi = require("@pulumi/pulumi");
const docs = require("pulumi-docs-platform");

const config = new pulumi.Config();
const organizationId = config.require("organizationId");

const site = new docs.Site("docs", { organizationId, title: "Context docs" });
const misplaced = config.getBoolean("tokenInSetupSettings");
const issues = new docs.SiteContextConnection("support-issues", {
  organizationId,
  siteId: site.id,
  connector: "builtin:github-issues",
  setupSettings: misplaced
    ? { repository: "acme/support", token: process.env.CONTEXT_TOKEN }
    : { repository: "acme/support" },
  credentials: misplaced ? undefined : { token: process.env.CONTEXT_TOKEN },
  usageSettings: { search: true, changeRequests: true, searchBoost: "x1.2" },
  filter: "label:docs",
  label: "Support issues",
});
const adopted = config.get("adoptConnectionId");
if (adopted) {
  new docs.SiteContextConnection("status-page", {
    organizationId,
    siteId: site.id,
    connector: "builtin:website",
    setupSettings: { url: "https://status.acme.example/" },
    importId: adopted,
  });
}

exports.siteId = site.id;
exports.issuesId = issues.id;
exports.issuesStatus = issues.status;
exports.issuesCredentials = issues.credentials;
`;

describe("a site's context connections through the Pulumi CLI", () => {
  let emulator: RunningEmulator;
  let stack: Stack;

  const api = (method: string, path: string, body?: unknown) => callApi(emulator, method, path, body);
  const output = async (name: string) => (await stack.outputs())[name]?.value;
  const sitePath = async () => `/orgs/${emulator.organizationId}/sites/${await output("siteId")}`;
  const writes = () => emulator.requests().filter((r) => r.method !== "GET");
  const connectionWrites = () =>
    writes()
      .filter((r) => r.route?.includes("/context-connections"))
      .map((r) => [`${r.method} ${r.route}`, r.requestBody]);

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0 });
    stack = await makeStack(await makeProject("site-context", { "index.js": program }), emulator);
    stack.workspace.envVars.CONTEXT_TOKEN = TOKEN;
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await emulator?.close();
  });

  it("creates the connection with its token, keeps the token a secret, and previews no change without a request", async () => {
    emulator.clearRequests();
    await stack.up();
    expect(connectionWrites()).toEqual([
      [
        "POST /v1/orgs/{organizationId}/sites/{siteId}/context-connections",
        {
          connector: "builtin:github-issues",
          setupSettings: { repository: "acme/support", token: TOKEN },
          usageSettings: { search: true, changeRequests: true, searchBoost: "x1.2", sync: false },
          filter: "label:docs",
        },
      ],
      [
        "PATCH /v1/orgs/{organizationId}/sites/{siteId}/context-connections/{siteContextConnectionId}",
        { label: "Support issues" },
      ],
    ]);
    const listed = (await api("GET", `${await sitePath()}/context-connections`)).body as {
      items: Record<string, unknown>[];
    };
    expect(listed.items).toEqual([
      expect.objectContaining({
        connector: "builtin:github-issues",
        setupSettings: { repository: "acme/support", token: "********" },
        label: "Support issues",
        filter: "label:docs",
      }),
    ]);
    expect(await output("issuesStatus")).toBe("pending");
    expect((await stack.outputs()).issuesCredentials?.secret).toBe(true);
    expect(await exportAsStored(stack)).not.toContain(TOKEN);
    emulator.clearRequests();
    const preview = await runPulumi(stack, ["preview", "--expect-no-changes", "--diff"]);
    expect(preview.code, preview.output).toBe(0);
    expect(preview.output).not.toContain(TOKEN);
    expect(emulator.requests()).toEqual([]);
  });

  it("sees the label, filter and usage settings changed by hand in preview --refresh, and puts them back without resending the token", async () => {
    const path = `${await sitePath()}/context-connections/${await output("issuesId")}`;
    const handEdit = {
      label: "Edited by hand",
      filter: "",
      usageSettings: { search: false, changeRequests: true, searchBoost: "x0.8" },
    };
    expect((await api("PATCH", path, handEdit)).status).toBe(200);
    const preview = await stack.preview({ refresh: true, diff: true });
    expect(changes(preview.changeSummary)).toEqual({ update: 1 });
    expect(preview.stdout).toMatch(/~ label\s*: "Edited by hand" => "Support issues"/);
    expect(preview.stdout).not.toContain(TOKEN);
    emulator.clearRequests();
    await stack.up({ refresh: true });
    expect(connectionWrites()).toEqual([
      [
        "PATCH /v1/orgs/{organizationId}/sites/{siteId}/context-connections/{siteContextConnectionId}",
        {
          usageSettings: { search: true, changeRequests: true, searchBoost: "x1.2", sync: false },
          filter: "label:docs",
          label: "Support issues",
        },
      ],
    ]);
    const clean = await runPulumi(stack, ["refresh", "--expect-no-changes", "--yes"]);
    expect(clean.code, clean.output).toBe(0);
  });

  it("refuses a token put among the plain setupSettings at preview, naming the field and the fix, never the token", async () => {
    await stack.setConfig("tokenInSetupSettings", { value: "true" });
    emulator.clearRequests();
    const preview = await runPulumi(stack, ["preview"]).finally(() => stack.removeConfig("tokenInSetupSettings"));
    expect(preview.code).not.toBe(0);
    expect(preview.output).toContain(
      "SiteContextConnection.setupSettings: `token` is a credential: declare it in `credentials` (a secret, never shown)",
    );
    // The engine prints the value of a property a failed check names: this failure names it in its reason only.
    expect(preview.output).not.toContain(TOKEN);
    expect(writes()).toEqual([]);
  });

  it("adopts a connection made by hand with importId, writing nothing when it matches", async () => {
    const made = await api("POST", `${await sitePath()}/context-connections`, {
      connector: "builtin:website",
      setupSettings: { url: "https://status.acme.example/" },
    });
    expect(made.status).toBe(201);
    await stack.setConfig("adoptConnectionId", { value: made.body.id });
    emulator.clearRequests();
    const result = await stack.up();
    expect(changes(result.summary.resourceChanges)).toMatchObject({ create: 1 });
    expect(writes()).toEqual([]);
    const clean = await runPulumi(stack, ["preview", "--expect-no-changes"]);
    expect(clean.code, clean.output).toBe(0);
  });

  it("destroy removes every connection the program made or adopted", async () => {
    await stack.destroy();
    expect((await census(emulator)).SiteContextConnection).toEqual([]);
  });
});
