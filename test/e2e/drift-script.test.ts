import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { toolchainVars, toolsDir } from "../../tools/toolchain.mjs";
import { callApi, startTestEmulator } from "../support/emulator";
import { changes, packedPackage, upConsistent } from "./harness";

const run = promisify(execFile);
const repoRoot = path.resolve(__dirname, "../..");

/** The script of the README's "Nightly drift check", exactly as a user copies it. */
function readmeDriftScript(): string {
  const readme = readFileSync(path.join(repoRoot, "README.md"), "utf8");
  const section = readme.split(/^## Nightly drift check$/m)[1]?.split(/^## /m)[0];
  const script = section && /^```sh\n([\s\S]*?)^```$/m.exec(section)?.[1];
  if (!script) throw new Error('README.md: no ```sh block under "## Nightly drift check"');
  return script;
}

/** Runs a bash script in `cwd`; its exit code and output, never a throw. */
async function bash(script: string, cwd: string, env: Record<string, string | undefined>) {
  const file = path.join(cwd, "nightly-drift.sh");
  writeFileSync(file, script);
  try {
    const { stdout, stderr } = await run("bash", [file], { cwd, env, maxBuffer: 64 << 20 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

/**
 * The README's nightly drift script, run verbatim on a program made by `docs-platform import` (which names its
 * organization in the code, not in the stack's `docs:organizationId`), on a stack called `production` as in the
 * script: 0 while nothing changed; 3 once an adopted object was edited by hand, and once another was also made by
 * hand, with both in its Markdown report (also written as HTML).
 */
describe("the README's nightly drift script on an imported program", () => {
  let emulator: RunningEmulator;
  let project: string;
  let stack: Stack;
  let handbook: string;
  const api = (method: string, apiPath: string, body?: unknown) => callApi(emulator, method, apiPath, body);
  /** What cron gives the script: the toolchain's PATH, the backend's settings and the API token, nothing else. */
  const scriptEnv = () => {
    const { DOCS_ORGANIZATION_ID: _none, ...base } = process.env;
    return {
      ...base,
      ...(stack.workspace.envVars as Record<string, string>),
      DOCS_API_URL: emulator.url,
      DOCS_API_TOKEN: emulator.token,
    };
  };

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0, token: "drift-script-e2e-token" });
    handbook = (await api("POST", `/orgs/${emulator.organizationId}/collections`, { title: "Handbook" })).body
      .id as string;
    await api("PUT", `/orgs/${emulator.organizationId}/teams`, { title: "Writers" });
    project = path.join(repoRoot, ".e2e", `drift-script-${process.pid}`);
    for (const old of existsSync(path.dirname(project)) ? readdirSync(path.dirname(project)) : []) {
      if (old.startsWith("drift-script-"))
        rmSync(path.join(path.dirname(project), old), { recursive: true, force: true });
    }
    mkdirSync(project, { recursive: true });
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("import writes the program, which installs and adopts the organization on a stack named production", async () => {
    const env = { ...process.env, ...toolchainVars(), DOCS_API_URL: emulator.url, DOCS_API_TOKEN: emulator.token };
    const cli = path.join(repoRoot, "dist/cli/main.js");
    await run(process.execPath, [cli, "import", "--organization", emulator.organizationId, "--out", project], { env });
    expect(readFileSync(path.join(project, "index.ts"), "utf8")).toContain(`"${emulator.organizationId}"`);
    const install = ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];
    await run("npm", [...install, await packedPackage()], { cwd: project, env });

    const stateDir = path.join(project, ".state");
    mkdirSync(stateDir, { recursive: true });
    stack = await LocalWorkspace.createOrSelectStack(
      { stackName: "production", workDir: project },
      {
        pulumiCommand: await PulumiCommand.get({ root: toolsDir }),
        envVars: {
          ...toolchainVars(),
          PULUMI_BACKEND_URL: `file://${stateDir}`,
          PULUMI_CONFIG_PASSPHRASE: "e2e-passphrase",
          PULUMI_HOME: path.join(project, ".pulumi-home"),
          DOCS_API_URL: emulator.url,
          DOCS_API_TOKEN: emulator.token,
        },
        secretsProvider: "passphrase",
      },
    );
    // The stack's config holds no organization: the program names it, as `import` wrote it.
    expect(await stack.getAllConfig()).toEqual({});
    const up = await upConsistent(stack);
    expect(changes(up.summary.resourceChanges)).toMatchObject({ create: expect.any(Number) });
  });

  it("exits 0 while nothing changed and the stack manages every object", async () => {
    const result = await bash(readmeDriftScript(), project, scriptEnv());
    expect(result.stderr).not.toContain("--organization is required");
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain("## Drift: Stack production: no drift, and every object is managed.");
    expect(readFileSync(path.join(project, "drift-report.md"), "utf8")).toBe(result.stdout);
  });

  it("exits 3 on an adopted object edited by hand, naming the property, who and from where", async () => {
    expect((await api("PATCH", `/collections/${handbook}`, { title: "Handbook (edited)" })).status).toBe(200);
    const result = await bash(readmeDriftScript(), project, scriptEnv());
    expect(result.code, result.stdout + result.stderr).toBe(3);
    expect(result.stdout).toContain("Stack production: 1 changed, 0 deleted, 0 unmanaged.");
    expect(result.stdout).toMatch(
      /\| changed \| Collection \| handbook \(`\w+`\) \| `title`: "Handbook" → "Handbook \(edited\)" \| ada@example\.com \| \S+ \| api \|/,
    );
  });

  it("exits 3 on that edit plus an object made by hand, and reports both, in Markdown and HTML", async () => {
    const contractors = (await api("PUT", `/orgs/${emulator.organizationId}/teams`, { title: "Contractors" })).body
      .id as string;
    const result = await bash(readmeDriftScript(), project, scriptEnv());
    console.log(`nightly drift script (exit ${result.code}):\n${result.stdout}${result.stderr}`);
    expect(result.code).toBe(3);
    expect(result.stdout).toContain("Stack production: 1 changed, 0 deleted, 1 unmanaged.");
    expect(result.stdout).toMatch(/\| changed \| Collection \| handbook/);
    expect(result.stdout).toContain(`| unmanaged | Team | Contractors (\`${contractors}\`) |`);
    const html = readFileSync(path.join(project, "drift-report.html"), "utf8");
    expect(html).toContain(contractors);
    expect(html).toContain("Handbook (edited)");
  });
});
