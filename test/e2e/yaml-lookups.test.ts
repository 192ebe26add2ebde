import { execFile } from "node:child_process";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import type { RunningEmulator } from "../../emulator";
import { packPlugin } from "../../tools/pack-plugin.mjs";
import { toolsDir } from "../../tools/toolchain.mjs";
import { callApi, startTestEmulator } from "../support/emulator";
import { makeProject, makeStack, runPulumi, upConsistent } from "./harness";

const repoRoot = path.resolve(__dirname, "../..");
const runFile = promisify(execFile);

/** A CLI command that takes no `--stack` (`plugin install`, `plugin ls`), with the stack's environment. */
async function runPulumiCommand(stack: Stack, args: string[]): Promise<{ code: number; output: string }> {
  const options = { cwd: stack.workspace.workDir, env: { ...process.env, ...stack.workspace.envVars } };
  try {
    const { stdout, stderr } = await runFile(path.join(toolsDir, "bin/pulumi"), args, options);
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, output: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
  }
}
const exampleDir = path.join(repoRoot, "examples/yaml-lookups");

/**
 * examples/yaml-lookups through the real CLI, the YAML language host and the `docs` plugin's functions: a space
 * found by its title is published on a site, a member found by their email owns a team; a title that matches
 * nothing fails the preview, naming it.
 */
describe("a YAML program's lookups, as the provider's functions", () => {
  let emulator: RunningEmulator;
  let stack: Stack;
  let dir: string;
  const api = (method: string, apiPath: string, body?: unknown) =>
    callApi(emulator, method, `/orgs/${emulator.organizationId}${apiPath}`, body);

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0 });
    dir = await makeProject("yaml-lookups", {
      "Pulumi.yaml": readFileSync(path.join(exampleDir, "Pulumi.yaml"), "utf8"),
    });
    stack = await makeStack(dir, emulator, { credentialsInConfig: true });
    await stack.setConfig("docs:organizationId", { value: emulator.organizationId });
    await stack.setConfig("spaceTitle", { value: "API Reference" });
    await stack.setConfig("ownerEmail", { value: "Grace@Example.com" });
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("finds the space and the member, publishes the space and makes the member the team's owner", async () => {
    const up = await upConsistent(stack);
    expect(up.summary.resourceChanges?.create).toBe(4); // 3 resources and the stack
    const outputs = await stack.outputs();
    const spaceId = emulator.spaceIds[1];
    expect(outputs.spaceId?.value).toBe(spaceId);
    expect(outputs.ownerId?.value).toBe(emulator.userIds[1]);
    const siteSpaces = await api("GET", `/sites/${outputs.siteId?.value}/site-spaces?limit=100`);
    expect((siteSpaces.body.items as { space: { id: string } }[]).map((item) => item.space.id)).toEqual([spaceId]);
    const members = await api("GET", `/teams/${outputs.teamId?.value}/members?limit=100`);
    const owners = members.body.items as { team: { role: string }; organization: { user: { id: string } } }[];
    expect(owners.map((member) => [member.organization.user.id, member.team.role])).toEqual([
      [emulator.userIds[1], "owner"],
    ]);
    const clean = await runPulumi(stack, ["preview", "--expect-no-changes"]);
    expect(clean.code, clean.output).toBe(0);
  });

  it("fails the preview on a title that matches nothing, naming the title and the spaces there are", async () => {
    await stack.setConfig("spaceTitle", { value: "API Referense" });
    try {
      const preview = await runPulumi(stack, ["preview"]);
      expect(preview.code).not.toBe(0);
      expect(preview.output).toContain(
        `getSpace: no space titled "API Referense" in organization "${emulator.organizationId}"; it has "API Reference" (`,
      );
    } finally {
      await stack.setConfig("spaceTitle", { value: "API Reference" });
    }
  });

  it("without the plugin fails as the README says, and runs with it installed by the README's command from the tarball of `npm run pack:plugin`", async () => {
    const tarball = await packPlugin(path.join(dir, "plugin-tarball"));
    const { version } = require(path.join(repoRoot, "package.json"));
    const readme = readFileSync(path.join(repoRoot, "README.md"), "utf8");
    const troubleshooting = readme.slice(readme.indexOf("**The `docs` plugin is missing.**"));
    const original = readFileSync(path.join(dir, "Pulumi.yaml"), "utf8");
    const program = parse(original);
    delete program.plugins;
    writeFileSync(path.join(dir, "Pulumi.yaml"), stringify(program));
    renameSync(path.join(dir, "node_modules"), path.join(dir, "node_modules.away"));
    try {
      const missing = await runPulumi(stack, ["preview"], { PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true" });
      expect(missing.code).not.toBe(0);
      const engineSays = "no resource plugin 'pulumi-resource-docs' found in the workspace or on your $PATH";
      expect(missing.output).toContain(engineSays);
      expect(troubleshooting).toContain(engineSays);
      // The fix the README gives, run as written with this version and tarball.
      const command = /```\n(pulumi plugin install resource docs <version> --file \S+)\n```/.exec(troubleshooting)?.[1];
      expect(command).toBe(
        "pulumi plugin install resource docs <version> --file pulumi-resource-docs-v<version>.tar.gz",
      );
      expect(path.basename(tarball)).toBe(`pulumi-resource-docs-v${version}.tar.gz`);
      const args = command!.replaceAll("<version>", version).split(" ").slice(1);
      args[args.length - 1] = tarball;
      const install = await runPulumiCommand(stack, args);
      expect(install.code, install.output).toBe(0);
      const listed = await runPulumiCommand(stack, ["plugin", "ls"]);
      expect(listed.output).toMatch(new RegExp(`docs\\s+resource\\s+${version.replace(/\./g, "\\.")}`));
      const preview = await runPulumi(stack, ["preview", "--expect-no-changes"]);
      expect(preview.code, preview.output).toBe(0);
    } finally {
      renameSync(path.join(dir, "node_modules.away"), path.join(dir, "node_modules"));
      writeFileSync(path.join(dir, "Pulumi.yaml"), original);
    }
  });

  it("destroy removes the site and the team, and leaves the space it found", async () => {
    const { siteId, teamId } = await stack.outputs();
    const destroy = await runPulumi(stack, ["destroy", "--yes"]);
    expect(destroy.code, destroy.output).toBe(0);
    expect((await api("GET", `/sites/${siteId?.value}`)).status).toBe(404);
    expect((await api("GET", `/teams/${teamId?.value}`)).status).toBe(404);
    expect((await callApi(emulator, "GET", `/spaces/${emulator.spaceIds[1]}`)).status).toBe(200);
  });
});
