import { readFileSync } from "node:fs";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { census } from "../support/census";
import { callApi, startTestEmulator } from "../support/emulator";
import { changes, exportAsStored, makeProject, makeStack, runPulumi, stateFiles, upConsistent } from "./harness";

/**
 * Git Sync through the real CLI: a space synced with GitHub (its repository by name, with an agent instruction
 * file) and a site with GitLab (its access token a secret), a no-change preview that sends nothing (every PATCH is a
 * sync), a branch and the agent files changed by hand seen and put back, an installation made by hand adopted with
 * `importId` (its repository by name too), and destroy.
 */
const GITLAB_TOKEN = "glpat-e2e-secret-value";
const program = `
const pulumi = require("@pulumi/pulumi");
const docs = require("pulumi-docs-platform");

const config = new pulumi.Config();
const organizationId = config.require("organizationId");

const handbook = new docs.Space("handbook", { organizationId, title: "Handbook" });
const site = new docs.Site("docs", { organizationId, title: "Docs" });
const handbookGit = new docs.GitSyncInstallation("handbook-git", {
  organizationId,
  provider: "github",
  spaceId: handbook.id,
  repository: "acme/docs",
  agentInstructions: ["agents"],
  branch: "main",
  projectDirectory: "handbook",
  priority: "gitbook",
});
const siteGit = new docs.GitSyncInstallation("docs-git", {
  organizationId,
  provider: "gitlab",
  siteId: site.id,
  projectId: 2001,
  accessToken: config.requireSecret("gitlabToken"),
});
const adopted = config.get("adoptInstallationId");
if (adopted) {
  new docs.GitSyncInstallation("runbooks-git", {
    organizationId,
    provider: "github",
    spaceId: config.require("runbooksSpaceId"),
    repository: "acme/handbook",
    importId: adopted,
  });
}

exports.handbookInstallation = handbookGit.id;
exports.siteInstallation = siteGit.id;
exports.siteStatus = siteGit.status;
`;

describe("Git Sync through the Pulumi CLI", () => {
  let emulator: RunningEmulator;
  let stack: Stack;

  const api = (method: string, path: string, body?: unknown) => callApi(emulator, method, path, body);
  const output = async (name: string) => (await stack.outputs())[name]?.value as string;
  const writes = () => emulator.requests().filter((r) => r.method !== "GET");

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0 });
    stack = await makeStack(await makeProject("git-sync", { "index.js": program }), emulator);
    await stack.setConfig("gitlabToken", { value: GITLAB_TOKEN, secret: true });
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await emulator?.close();
  });

  it("installs and configures both, then previews no change and sends nothing", async () => {
    const up = await upConsistent(stack);
    expect(up.stdout).not.toContain(GITLAB_TOKEN);
    const handbook = (await api("GET", `/git/installations/${await output("handbookInstallation")}`)).body;
    expect(handbook).toMatchObject({
      provider: "github",
      providerConfiguration: { repositoryId: 1001, branch: "refs/heads/main" },
      projectDirectory: "handbook",
      agentInstructions: ["agents"],
      status: "active",
    });
    expect(await output("siteStatus")).toBe("active");
    // What anyone with access to the backend reads: the export without --show-secrets, and every file of the backend.
    expect(await exportAsStored(stack)).not.toContain(GITLAB_TOKEN);
    for (const file of stateFiles(stack.workspace.workDir))
      expect(readFileSync(file, "utf8")).not.toContain(GITLAB_TOKEN);
    emulator.clearRequests();
    const preview = await runPulumi(stack, ["preview", "--expect-no-changes", "--diff"]);
    expect(preview.code, preview.output).toBe(0);
    expect(preview.output).not.toContain(GITLAB_TOKEN);
    expect(writes()).toEqual([]);
  });

  it("sees a branch changed by hand in preview --refresh, and puts it back with one PATCH (one sync)", async () => {
    const id = await output("handbookInstallation");
    const byHand = {
      provider: "github",
      providerConfiguration: { branch: "refs/heads/by-hand" },
      agentInstructions: ["agents", "claude"],
    };
    expect((await api("PATCH", `/git/installations/${id}`, byHand)).status).toBe(200);
    const preview = await stack.preview({ refresh: true, diff: true });
    expect(changes(preview.changeSummary)).toEqual({ update: 1 });
    expect(preview.stdout).toMatch(/branch/);
    emulator.clearRequests();
    await upConsistent(stack, { refresh: true });
    expect(writes().map((r) => `${r.method} ${r.route}`)).toEqual(["PATCH /v1/git/installations/{installationId}"]);
    const after = (await api("GET", `/git/installations/${id}`)).body;
    expect(after.providerConfiguration.branch).toBe("refs/heads/main");
    expect(after.agentInstructions).toEqual(["agents"]);
    const clean = await runPulumi(stack, ["refresh", "--expect-no-changes", "--yes"]);
    expect(clean.code, clean.output).toBe(0);
  });

  it("adopts an installation made by hand with importId, writing nothing", async () => {
    const runbooks = await api("POST", `/orgs/${emulator.organizationId}/spaces`, { title: "Runbooks" });
    const made = await api("POST", "/git/installations", {
      provider: "github",
      target: { type: "space", spaceId: runbooks.body.id },
    });
    expect(made.status).toBe(201);
    const configured = await api("PATCH", `/git/installations/${made.body.id}`, {
      provider: "github",
      providerConfiguration: { repositoryId: 1002 },
    });
    expect(configured.status).toBe(200);
    await stack.setConfig("runbooksSpaceId", { value: runbooks.body.id });
    await stack.setConfig("adoptInstallationId", { value: made.body.id });
    emulator.clearRequests();
    const result = await upConsistent(stack);
    expect(changes(result.summary.resourceChanges)).toMatchObject({ create: 1 });
    expect(writes()).toEqual([]);
    const clean = await runPulumi(stack, ["preview", "--expect-no-changes"]);
    expect(clean.code, clean.output).toBe(0);
  });

  it("destroy uninstalls every installation", async () => {
    await stack.destroy();
    expect((await census(emulator)).GitSyncInstallation).toEqual([]);
  });
});
