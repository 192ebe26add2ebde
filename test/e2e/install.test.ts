import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localTarget } from "../../cli/project";
import type { RunningEmulator } from "../../emulator";
import { callApi, startTestEmulator } from "../support/emulator";
import { changes, makeStack, upConsistent } from "./harness";

const run = promisify(execFile);
const repoRoot = path.resolve(__dirname, "../..");
const readme = readFileSync(path.join(repoRoot, "README.md"), "utf8");

/** The commands of the README's install block, by where they run: the clone of this repository, or the project. */
interface InstallBlock {
  clone: string[];
  project: string[];
}

/**
 * The `sh` block after the README's `<!-- install: … -->` marker, line by line. A full-line comment starting with
 * `# In a clone` or `# In your project` says where the commands after it run; blank lines are skipped.
 */
function installBlock(text: string): InstallBlock {
  const block = /<!-- install: [^\n]*-->\n```sh\n([\s\S]*?)```/.exec(text)?.[1];
  if (!block) throw new Error("README.md has no ```sh block right after an `<!-- install: … -->` line");
  const commands: InstallBlock = { clone: [], project: [] };
  let where: keyof InstallBlock | undefined;
  for (const line of block.split("\n").filter((l) => l.trim() !== "")) {
    if (/^# In a clone\b/.test(line)) where = "clone";
    else if (/^# In your project\b/.test(line)) where = "project";
    else if (line.startsWith("#")) continue;
    else if (!where)
      throw new Error(`README install block: "${line}" comes before a "# In …" line saying where it runs`);
    else commands[where].push(line);
  }
  return commands;
}

/** `sh -c command` in `cwd`; a failure carries the command's output. */
async function sh(command: string, cwd: string, env: Record<string, string | undefined>) {
  try {
    return await run("sh", ["-c", command], { cwd, env, maxBuffer: 64 << 20 });
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    throw new Error(`\`${command}\` in ${cwd} exited ${failed.code}:\n${failed.stdout}${failed.stderr}`);
  }
}

/**
 * A new user's install, as the README's "Use it in your program" says it, command by command: in this clone, then
 * in an empty Pulumi TypeScript project (what `pulumi new typescript` makes: Pulumi.yaml, tsconfig.json, a stack,
 * with the README's own program as index.ts). Then `tsc`, `preview` and `up` against the emulator; then
 * `docs-platform import`, run from that project, writes a project that installs as written.
 */
describe("the README's install path, followed literally into an empty project", () => {
  let emulator: RunningEmulator;
  let project: string;
  let stack: Stack;
  let env: Record<string, string | undefined>;

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0, token: "install-e2e-token" });
    project = path.join(repoRoot, ".e2e", `install-${process.pid}`);
    for (const old of existsSync(path.dirname(project)) ? readdirSync(path.dirname(project)) : []) {
      if (old.startsWith("install-")) rmSync(path.join(path.dirname(project), old), { recursive: true, force: true });
    }
    mkdirSync(project, { recursive: true });
    const quickstart = path.join(repoRoot, "examples/quickstart");
    writeFileSync(path.join(project, "Pulumi.yaml"), "name: readme-install\nruntime:\n  name: nodejs\n");
    writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify({
        name: "readme-install",
        private: true,
        devDependencies: require(path.join(quickstart, "package.json")).devDependencies,
      }),
    );
    writeFileSync(path.join(project, "tsconfig.json"), readFileSync(path.join(quickstart, "tsconfig.json")));
    const program = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(program, "the README's first TypeScript block").toContain('from "pulumi-docs-platform"');
    writeFileSync(path.join(project, "index.ts"), program!);
    stack = await makeStack(project, emulator);
    // The token comes from the README's `pulumi config set --secret docs:apiToken` line, not from the harness.
    delete stack.workspace.envVars.DOCS_API_TOKEN;
    env = {
      ...process.env,
      ...(stack.workspace.envVars as Record<string, string>),
      // npm settings as environment, so that the README's npm commands run exactly as written.
      npm_config_prefer_offline: "true",
      npm_config_audit: "false",
      npm_config_fund: "false",
      npm_config_loglevel: "error",
    };
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await emulator?.close();
  });

  it("the README's commands install the package into the empty project", async () => {
    const { clone, project: inProject } = installBlock(readme);
    // `npm install` in this clone is what running this test already took; packing is run as written.
    expect(clone).toEqual(["npm install && npm run pack:local"]);
    await sh("npm run pack:local", repoRoot, env);

    const placeholders: Record<string, string> = {
      "<clone>": repoRoot,
      "<your organization id>": emulator.organizationId,
      "<API token>": emulator.token,
    };
    for (const line of inProject) {
      const command = line.replace(/<[^<>]+>/g, (placeholder) => {
        const value = placeholders[placeholder];
        if (value === undefined) throw new Error(`README install block: no value for ${placeholder} in "${line}"`);
        return value;
      });
      await sh(command, project, env);
    }
    const manifest = JSON.parse(readFileSync(path.join(project, "package.json"), "utf8"));
    expect(manifest.dependencies["pulumi-docs-platform"]).toBe("file:vendor/pulumi-docs-platform.tgz");
    expect(Object.keys(manifest.dependencies).sort()).toEqual(["@pulumi/pulumi", "pulumi-docs-platform"]);
    const config = await stack.getAllConfig();
    expect(config["docs:organizationId"]).toEqual({ value: emulator.organizationId, secret: false });
    expect(config["docs:apiToken"]?.secret).toBe(true);
  });

  it("the README's program passes tsc, then preview and up create it through the installed package", async () => {
    await sh("npx tsc --noEmit", project, env);
    const fixtures = (await callApi(emulator, "GET", new URL("/__admin/info", emulator.url).href)).body as {
      spaceIds: string[];
    };
    await stack.setConfig("guidesSpaceId", { value: fixtures.spaceIds[0]! });
    const resources = { create: 6 }; // Site, SiteSection, SiteShareLink, Team, Collection and the stack
    expect(changes((await stack.preview()).changeSummary)).toEqual(resources);
    const up = await upConsistent(stack);
    expect(changes(up.summary.resourceChanges)).toEqual(resources);
    expect(Object.keys(up.outputs).sort()).toEqual(["siteUrl", "writersTeamId"]);
  });

  it("docs-platform import, run from that project, writes a project that installs the same tarball as written", async () => {
    const adopted = path.join(project, "adopted");
    const credentials = { DOCS_API_URL: emulator.url, DOCS_API_TOKEN: emulator.token };
    const imported = await sh(
      `npx docs-platform import --organization ${emulator.organizationId} --out adopted --quiet`,
      project,
      { ...env, ...credentials },
    );
    // No line saying what to change in the generated package.json before `npm install`.
    expect(imported.stderr).not.toContain("npm install");
    const spec = JSON.parse(readFileSync(path.join(adopted, "package.json"), "utf8")).dependencies[
      "pulumi-docs-platform"
    ];
    expect(localTarget(spec, adopted)).toBe(path.join(project, "vendor/pulumi-docs-platform.tgz"));
    // The generated README's Adopt section starts with `npm install`.
    await sh("npm install", adopted, env);
    await sh("npm run typecheck", adopted, env);
  });
});
