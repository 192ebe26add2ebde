import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { LocalWorkspace, PulumiCommand, type Stack, Stack as Stacks } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { toolchainVars, toolsDir } from "../../tools/toolchain.mjs";
import { callApi, startTestEmulator } from "../support/emulator";
import { type SeededOrganization, seedOrganization } from "../support/seed-organization";
import { changes, packedPackage } from "./harness";

const run = promisify(execFile);
const repoRoot = path.resolve(__dirname, "../..");
const cli = path.join(repoRoot, "dist/cli/main.js");

/**
 * `docs-platform import --split` of the seeded organization through the real CLI: the organization's project and one
 * per site, all stacks on one file backend. Each first `up` adopts without a write, each stack is clean on a refreshed
 * preview, and `unmanaged --stacks` over them finds nothing until an object is made by hand, and refuses a stack of
 * another organization. `drift --stacks` reports a hand edit in a site's stack and the hand-made object; `recover
 * --stacks`, run from the folder the projects are in, puts a killed adoption back into its stack.
 */
describe("import --split: a project for the organization and one per site", () => {
  let emulator: RunningEmulator;
  let seeded: SeededOrganization;
  let out: string;
  let projects: string[] = [];
  const stacks = new Map<string, Stack>();
  let env: Record<string, string>;
  const writes = () => emulator.requests().filter((r) => r.method !== "GET" && r.path.startsWith("/v1/"));

  async function docsPlatform(args: string[]) {
    try {
      const { stdout, stderr } = await run(process.execPath, [cli, ...args], {
        cwd: out,
        env: { ...process.env, ...env },
        maxBuffer: 64 << 20,
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { code: failed.code ?? -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
    }
  }

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0, token: "split-e2e-token" });
    seeded = await seedOrganization(emulator);
    out = path.join(repoRoot, ".e2e", `split-${process.pid}`);
    for (const old of existsSync(path.dirname(out)) ? readdirSync(path.dirname(out)) : []) {
      if (old.startsWith("split-")) rmSync(path.join(path.dirname(out), old), { recursive: true, force: true });
    }
    mkdirSync(path.join(out, ".state"), { recursive: true });
    env = {
      ...toolchainVars(),
      DOCS_API_URL: emulator.url,
      DOCS_API_TOKEN: emulator.token,
      PULUMI_BACKEND_URL: `file://${path.join(out, ".state")}`,
      PULUMI_CONFIG_PASSPHRASE: "e2e-passphrase",
      PULUMI_HOME: path.join(out, ".pulumi-home"),
      DOCS_API_MAX_ATTEMPTS: "3",
    };
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("writes the organization's project and one per site, and names each", async () => {
    const imported = await docsPlatform(["import", "--organization", emulator.organizationId, "--out", out, "--split"]);
    expect(imported.code, imported.stderr).toBe(0);
    projects = readdirSync(out)
      .filter((name) => name.startsWith("docs-platform-"))
      .sort((a, b) => Number(b.endsWith("-organization")) - Number(a.endsWith("-organization")));
    expect(projects[0]).toBe("docs-platform-organization");
    expect(projects).toHaveLength(1 + seeded.ids.Site!.length);
    for (const project of projects) expect(imported.stderr).toContain(`: project ${project}, `);
  });

  it("each project's first up adopts its objects and writes nothing", async () => {
    const pulumiCommand = await PulumiCommand.get({ root: toolsDir });
    const install = ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];
    const first = path.join(out, projects[0]!);
    await run("npm", [...install, await packedPackage()], { cwd: first, env: { ...process.env, ...env } });
    let resources = 0;
    for (const project of projects) {
      const dir = path.join(out, project);
      // One install serves every project: they depend on the same packages.
      if (dir !== first) symlinkSync(path.join(first, "node_modules"), path.join(dir, "node_modules"), "dir");
      const stack = await LocalWorkspace.createOrSelectStack(
        { stackName: "e2e", workDir: dir },
        { pulumiCommand, envVars: env, secretsProvider: "passphrase" },
      );
      stacks.set(project, stack);
      emulator.clearRequests();
      const up = await stack.up();
      const created = changes(up.summary.resourceChanges).create ?? 0;
      expect(Object.keys(changes(up.summary.resourceChanges)), project).toEqual(["create"]);
      resources += created - 1;
      expect(writes(), project).toEqual([]);
    }
    // As many as one project of the whole organization adopts (test/e2e/import.test.ts).
    expect(resources).toBe(seeded.count - seeded.ids.TeamMember!.length + seeded.ids.Site!.length);
  });

  it("each stack is clean on a refreshed preview", async () => {
    for (const [project, stack] of stacks) {
      const preview = await stack.preview({ refresh: true, expectNoChanges: true });
      expect(changes(preview.changeSummary), project).toEqual({});
    }
    expect(writes()).toEqual([]);
  });

  it("unmanaged --stacks: nothing, until a team is made by hand; a stack of another organization is refused", async () => {
    const names = projects.map((project) => `organization/${project}/e2e`);
    const args = ["unmanaged", "--organization", emulator.organizationId, "--stacks", names.join(",")];
    const clean = await docsPlatform(args);
    expect(clean.stderr).toBe("");
    expect(clean.code).toBe(0);
    // One stack alone leaves the others' objects unmanaged.
    const alone = await docsPlatform(["unmanaged", "--organization", emulator.organizationId, "--stacks", names[0]!]);
    expect(alone.code).toBe(3);
    expect(alone.stdout).toContain("  Site\n");

    const org = `/orgs/${emulator.organizationId}`;
    const contractors = (await callApi(emulator, "PUT", `${org}/teams`, { title: "Contractors" })).body.id as string;
    const found = await docsPlatform([...args, "--json"]);
    expect(found.code).toBe(3);
    expect(JSON.parse(found.stdout).unmanaged).toEqual([{ kind: "Team", id: contractors, title: "Contractors" }]);

    // A stack whose resources belong to another organization: the organization's stack, its ids rewritten.
    const organizationStack = stacks.get(projects[0]!)!;
    const exported = JSON.stringify(await organizationStack.exportStack())
      .replaceAll(emulator.organizationId, "another-org")
      .replaceAll("urn:pulumi:e2e::", "urn:pulumi:foreign::");
    const foreign = await Stacks.create("foreign", organizationStack.workspace);
    await foreign.importStack(JSON.parse(exported));
    const refused = await docsPlatform([
      "unmanaged",
      "--organization",
      emulator.organizationId,
      "--stacks",
      [...names, `organization/${projects[0]}/foreign`].join(","),
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `--stacks: organization/${projects[0]}/foreign (another-org) manages objects of another organization than ` +
        `${emulator.organizationId}: leave it out`,
    );
  });
  it("drift --stacks: a hand edit in a site's stack and the hand-made team, each stack previewed in its project", async () => {
    const names = projects.map((project) => `organization/${project}/e2e`);
    const siteProject = projects[1]!;
    const state = (await stacks.get(siteProject)!.exportStack()).deployment;
    const site = state.resources.find((r: { type: string }) => r.type.endsWith(":Site"));
    const org = `/orgs/${emulator.organizationId}`;
    const edit = await callApi(emulator, "PATCH", `${org}/sites/${site.id}`, { title: "Edited by hand" });
    expect(edit.status).toBe(200);
    try {
      const drift = await docsPlatform(["drift", "--stacks", names.join(","), "--json"]);
      expect(drift.code, drift.stderr).toBe(3);
      const report = JSON.parse(drift.stdout);
      const found = report.findings.map((f: { type: string; kind: string; id: string; urn?: string }) => [
        f.type,
        f.kind,
        f.id,
      ]);
      const contractors = (await callApi(emulator, "GET", `${org}/teams`)).body.items.find(
        (team: { title: string }) => team.title === "Contractors",
      ).id;
      expect(found).toEqual([
        ["changed", "Site", site.id],
        ["unmanaged", "Team", contractors],
      ]);
      const changed = report.findings[0];
      expect(changed.changes).toEqual([{ property: "title", declared: site.inputs.title, actual: "Edited by hand" }]);
      expect(changed.revert).toContain(`--stack organization/${siteProject}/e2e --cwd ${path.join(out, siteProject)}`);
    } finally {
      await callApi(emulator, "PATCH", `${org}/sites/${site.id}`, { title: site.inputs.title });
    }
  });

  it("recover --stacks puts a killed adoption back into its stack, in its project; the stack is then clean", async () => {
    const names = projects.map((project) => `organization/${project}/e2e`);
    const siteProject = projects[1]!;
    const siteStack = stacks.get(siteProject)!;
    // The state a kill leaves: an adopting create recorded as pending (a resource nothing depends on). Written into
    // the file backend's checkpoint: \`pulumi stack import\` drops pending operations.
    const checkpointFile = path.join(out, ".state", ".pulumi", "stacks", siteProject, "e2e.json");
    const checkpoint = JSON.parse(readFileSync(checkpointFile, "utf8"));
    const deployment = checkpoint.checkpoint.latest;
    type Recorded = { urn: string; id: string; type: string; inputs?: Record<string, unknown>; outputs?: unknown };
    const resources = deployment.resources as (Recorded & { dependencies?: string[]; parent?: string })[];
    const depended = new Set(resources.flatMap((r) => [...(r.dependencies ?? []), r.parent ?? ""]));
    const killed = resources.find(
      (r) =>
        r.type.startsWith("pulumi-nodejs:dynamic/docs:") &&
        typeof r.inputs?.importId === "string" &&
        !depended.has(r.urn),
    )!;
    expect(killed, "a leaf adopted resource in the site's stack").toBeDefined();
    deployment.resources = resources.filter((r) => r.urn !== killed.urn);
    const { id: _id, outputs: _outputs, ...recorded } = killed;
    deployment.pending_operations = [
      { type: "creating", resource: { ...recorded, created: new Date().toISOString() } },
    ];
    writeFileSync(checkpointFile, JSON.stringify(checkpoint));
    expect((await siteStack.exportStack()).deployment.pending_operations).toHaveLength(1);

    emulator.clearRequests();
    const recovered = await docsPlatform(["recover", "--stacks", names.join(",")]);
    expect(recovered.code, recovered.stderr).toBe(0);
    expect(recovered.stdout).toContain(`Stack organization/${siteProject}/e2e:\n`);
    expect(recovered.stdout).toContain(
      `Running: pulumi stack import --stack organization/${siteProject}/e2e --cwd ${path.join(out, siteProject)}`,
    );
    expect(writes()).toEqual([]);
    const after = (await siteStack.exportStack()).deployment;
    expect(after.pending_operations ?? []).toEqual([]);
    expect(after.resources.find((r: { urn: string }) => r.urn === killed.urn)?.id).toBe(killed.id);
    const preview = await siteStack.preview({ refresh: true, expectNoChanges: true });
    expect(changes(preview.changeSummary)).toEqual({});
  });
});
