import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { documentOf, textOf } from "../../provider/client";
import { census } from "../support/census";
import { callApi, startTestEmulator } from "../support/emulator";
import { changes, makeProject, makeStack, runPulumi } from "./harness";

/**
 * The docs agent's governance through the real CLI: a Slack channel with its allow-list and role, and the
 * organization's agent instructions. Created (the instructions taken over from what was set by hand), a no-change
 * preview that sends nothing, a hand edit of each seen and reverted, a channel made by hand adopted with `importId`, a
 * malformed entry refused at preview, destroy (the instructions left as they are).
 */
const program = `
const pulumi = require("@pulumi/pulumi");
const docs = require("pulumi-docs-platform");

const config = new pulumi.Config();
const organizationId = config.require("organizationId");

const site = new docs.Site("docs", { organizationId, title: "Agent docs" });
const slack = new docs.SiteChannel("slack", {
  organizationId,
  siteId: site.id,
  type: "builtin:slack",
  role: "support",
  allowedChannels: JSON.parse(config.get("allowedChannels") ?? '["help", "support-*"]'),
});
new docs.OrganizationAgentInstructions("agent", {
  organizationId,
  instructions: "Answer in the reader's language.\\nLink to the page an answer comes from.",
});
const adopted = config.get("adoptChannelId");
if (adopted) {
  new docs.SiteChannel("github", {
    organizationId,
    siteId: site.id,
    type: "builtin:github",
    role: "collaborator",
    allowedRepositories: ["acme/docs"],
    importId: adopted,
  });
}

exports.siteId = site.id;
exports.slackId = slack.id;
exports.slackStatus = slack.status;
`;

describe("a site's agent channels through the Pulumi CLI", () => {
  let emulator: RunningEmulator;
  let stack: Stack;

  const api = (method: string, path: string, body?: unknown) => callApi(emulator, method, path, body);
  const output = async (name: string) => (await stack.outputs())[name]?.value;
  const sitePath = async () => `/orgs/${emulator.organizationId}/sites/${await output("siteId")}`;
  const writes = () => emulator.requests().filter((r) => r.method !== "GET");

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0 });
    stack = await makeStack(await makeProject("site-agent", { "index.js": program }), emulator);
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await emulator?.close();
  });

  const instructionsPath = () => `/orgs/${emulator.organizationId}/agent-instructions`;
  const instructions = async () => textOf((await api("GET", instructionsPath())).body.instructions);

  it("creates the channel with its allow-list and role, takes over the instructions, and previews no change without a request", async () => {
    expect((await api("PUT", instructionsPath(), { instructions: documentOf("Set by hand.") })).status).toBe(200);
    emulator.clearRequests();
    await stack.up();
    expect(writes().map((r) => `${r.method} ${r.route}`)).toContain("PUT /v1/orgs/{organizationId}/agent-instructions");
    expect(await instructions()).toBe("Answer in the reader's language.\nLink to the page an answer comes from.");
    const channels = (await api("GET", `${await sitePath()}/channels`)).body as { items: Record<string, unknown>[] };
    expect(channels.items).toEqual([
      expect.objectContaining({
        type: "builtin:slack",
        role: "support",
        setupSettings: { allowedChannels: ["help", "support-*"] },
      }),
    ]);
    expect(await output("slackStatus")).toBe("active");
    emulator.clearRequests();
    const preview = await runPulumi(stack, ["preview", "--expect-no-changes", "--diff"]);
    expect(preview.code, preview.output).toBe(0);
    expect(emulator.requests()).toEqual([]);
  });

  it("sees an allow-list and the instructions changed by hand in preview --refresh, and puts both back", async () => {
    const path = `${await sitePath()}/channels/${await output("slackId")}`;
    const handEdit = { type: "builtin:slack", setupSettings: { allowedChannels: ["random"] }, role: "collaborator" };
    expect((await api("PATCH", path, handEdit)).status).toBe(200);
    expect((await api("PUT", instructionsPath(), { instructions: documentOf("Edited by hand.") })).status).toBe(200);
    const preview = await stack.preview({ refresh: true, diff: true });
    expect(changes(preview.changeSummary)).toEqual({ update: 2 });
    expect(preview.stdout).toContain("Edited by hand.");
    expect(preview.stdout).toMatch(/~ role\s*: "collaborator" => "support"/);
    expect(preview.stdout).toContain("random");
    emulator.clearRequests();
    await stack.up({ refresh: true });
    expect(writes().map((r) => `${r.method} ${r.route}`)).toContain("PUT /v1/orgs/{organizationId}/agent-instructions");
    expect(await instructions()).toBe("Answer in the reader's language.\nLink to the page an answer comes from.");
    expect(
      writes()
        .filter((r) => r.route?.includes("/channels"))
        .map((r) => [`${r.method} ${r.route}`, r.requestBody]),
    ).toEqual([
      [
        "PATCH /v1/orgs/{organizationId}/sites/{siteId}/channels/{siteChannelId}",
        { type: "builtin:slack", setupSettings: { allowedChannels: ["help", "support-*"] }, role: "support" },
      ],
    ]);
    const clean = await runPulumi(stack, ["refresh", "--expect-no-changes", "--yes"]);
    expect(clean.code, clean.output).toBe(0);
  });

  it("refuses a malformed allow-list entry at preview, naming the entry and the shape, with no write", async () => {
    await stack.setConfig("allowedChannels", { value: '["#help"]' });
    emulator.clearRequests();
    const preview = await runPulumi(stack, ["preview"]);
    expect(preview.code).not.toBe(0);
    expect(preview.output).toContain(
      "SiteChannel.allowedChannels.0: must be a channel name or pattern such as `general`",
    );
    expect(writes()).toEqual([]);
    await stack.removeConfig("allowedChannels");
  });

  it("adopts a channel made by hand with importId, writing nothing when it matches", async () => {
    const made = await api("POST", `${await sitePath()}/channels`, {
      type: "builtin:github",
      setupSettings: { allowedRepositories: ["acme/docs"] },
      role: "collaborator",
    });
    expect(made.status).toBe(201);
    await stack.setConfig("adoptChannelId", { value: made.body.id });
    emulator.clearRequests();
    const result = await stack.up();
    expect(changes(result.summary.resourceChanges)).toMatchObject({ create: 1 });
    expect(writes()).toEqual([]);
    const clean = await runPulumi(stack, ["preview", "--expect-no-changes"]);
    expect(clean.code, clean.output).toBe(0);
  });

  it("destroy removes every channel the program made or adopted, and leaves the instructions as they are", async () => {
    await stack.destroy();
    expect((await census(emulator)).SiteChannel).toEqual([]);
    expect(await instructions()).toBe("Answer in the reader's language.\nLink to the page an answer comes from.");
  });
});
