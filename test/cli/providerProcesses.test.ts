import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EXIT } from "../../cli/main";
import { projectDirectory, providerProcessesIn } from "../../cli/providerProcesses";
import { runCli, useTempDirs } from "../support/cli";

const tempDir = useTempDirs("provider-processes-");
const repoRoot = path.resolve(__dirname, "../..");
const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0)) child.kill("SIGKILL");
});

/** A process named like a provider plugin (a shell running a script called `name`), working in `cwd`. */
async function fakeProcess(cwd: string, name: string): Promise<number> {
  const script = path.join(tempDir(), name);
  writeFileSync(script, "sleep 30\n");
  const child = spawn("sh", [script], { cwd, stdio: "ignore" });
  running.push(child);
  await new Promise((resolve) => child.once("spawn", resolve));
  return child.pid as number;
}

describe("the provider processes of a program (Linux: /proc)", () => {
  it("lists a provider plugin working in the project or below it, and nothing else", async () => {
    const project = tempDir();
    writeFileSync(path.join(project, "Pulumi.yaml"), "name: p\nruntime: yaml\n");
    mkdirSync(path.join(project, "src"));
    const elsewhere = tempDir();
    const plugin = await fakeProcess(project, "pulumi-resource-docs");
    const below = await fakeProcess(path.join(project, "src"), "pulumi-resource-pulumi-nodejs");
    await fakeProcess(project, "not-a-provider");
    await fakeProcess(elsewhere, "pulumi-resource-docs");

    expect(projectDirectory(path.join(project, "src"))).toBe(project);
    const found = providerProcessesIn(project);
    expect(found?.map((p) => p.pid)).toEqual([plugin, below].sort((a, b) => a - b));
    expect(found?.find((p) => p.pid === plugin)?.command).toMatch(/^sh .*\/pulumi-resource-docs$/);
  });

  it("says it cannot tell where there is no /proc", () => {
    expect(providerProcessesIn(tempDir(), path.join(tempDir(), "no-proc"))).toBeUndefined();
  });

  it("recover refuses while one runs, naming its pid, before it reads the state", async () => {
    // recover looks in the project of its working directory: this repository's (it has a Pulumi.yaml).
    expect(projectDirectory(process.cwd())).toBe(repoRoot);
    const pid = await fakeProcess(path.join(repoRoot, "test"), "pulumi-resource-docs");
    const refused = await runCli(["recover", "--stack", "no-such-stack"]);
    expect(refused.code).toBe(EXIT.failure);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toMatch(
      new RegExp(
        `^docs-platform recover refused: \\d+ provider process\\(es\\) of the program in ${repoRoot} are still running:\n`,
      ),
    );
    expect(refused.stderr).toMatch(new RegExp(`\\n  pid ${pid}: sh .*/pulumi-resource-docs\\n`));
    expect(refused.stderr).toMatch(new RegExp(`end them: kill (\\d+ )*${pid}\\b`));
    expect(refused.stderr).not.toContain("no-such-stack");
  });
});
