/**
 * Killing the real CLI mid-command as a lost CI runner does, and running the README's recovery commands: shared by
 * interrupted.test.ts (a killed `up`) and interrupted-destroy-refresh.test.ts.
 */
import { execFile, spawn } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import type { RunningEmulator } from "../../emulator";
import { toolsDir } from "../../tools/toolchain.mjs";

const run = promisify(execFile);

export interface KillCondition {
  /** What `count` counts, for the error when the command ends first. */
  what: string;
  count: () => number;
  /** Kill once `count()` reaches this. */
  target: number;
}

export interface Killed {
  /** `count()` when the kill was sent. */
  reached: number;
  seconds: number;
  /** When the kill was sent, epoch ms. */
  killedAt: number;
  output: string;
}

/**
 * What a kill takes: `tree`, every process the CLI started (a lost runner, a container gone); `cli`, the CLI's process
 * group alone (`kill -9` of the CLI, a cancelled CI step), which leaves the plugins the engine started in groups of
 * their own to notice on their own.
 */
export type KillScope = "tree" | "cli";

/**
 * `pulumi <args>` as a CI job runs it, SIGKILLed (with every process it started, or alone) once the condition holds;
 * fails if the command ends before.
 */
export async function killAfter(
  stack: Stack,
  args: string[],
  when: KillCondition,
  scope: KillScope = "tree",
): Promise<Killed> {
  const started = Date.now();
  const child = spawn(path.join(toolsDir, "bin/pulumi"), [...args, "--non-interactive", "--stack", stack.name], {
    cwd: stack.workspace.workDir,
    env: { ...process.env, ...stack.workspace.envVars },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr.on("data", (chunk) => {
    output += chunk;
  });
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.on("exit", (code) => {
      exitCode = code;
      resolve();
    }),
  );
  let seen = when.count();
  while (seen < when.target && exitCode === undefined) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    seen = when.count();
  }
  if (exitCode !== undefined) {
    throw new Error(
      `pulumi ${args[0]} ended (${exitCode}) after ${seen} of ${when.target} ${when.what}:\n${output.slice(-3000)}`,
    );
  }
  const killedAt = Date.now();
  if (scope === "tree") killTree(child.pid as number);
  else process.kill(-(child.pid as number), "SIGKILL");
  await exited;
  return { reached: seen, seconds: (killedAt - started) / 1000, killedAt, output };
}

/** The provider's writes (every method but GET) or reads the emulator received (the tests' own calls left out). */
export function providerRequests(emulator: RunningEmulator, kind: "write" | "read") {
  return emulator
    .requests()
    .filter(
      (r) =>
        (kind === "read") === (r.method === "GET") &&
        r.path.startsWith("/v1/") &&
        r.userAgent?.startsWith("pulumi-docs-platform"),
    );
}

/**
 * The README's note to step 1: a SIGKILL while the CLI saves the state can leave the file backend's metadata file
 * (`<stack>.json.attrs`, written in place, unlike the state) empty, and every command then fails with `failed to
 * load checkpoint: EOF`. Removes such empty files under the backend's directory; returns their names.
 */
export function removeEmptyAttrs(backend: string): string[] {
  const removed: string[] = [];
  const stacks = path.join(backend, ".pulumi/stacks");
  for (const entry of readdirSync(stacks, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && entry.name.endsWith(".json.attrs") && statSync(file).size === 0) {
      rmSync(file);
      removed.push(path.relative(backend, file));
    }
  }
  return removed;
}

/**
 * SIGKILL for the CLI's process group and for the groups of everything below it: the engine starts its plugins
 * (the language host, the dynamic provider) in process groups of their own, so a lost runner (every process gone at
 * once) takes more than the CLI's group.
 */
function killTree(root: number) {
  const parents = new Map<number, number>();
  const groups = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parents.set(Number(entry), Number(fields[1]));
      groups.set(Number(entry), Number(fields[2]));
    } catch {
      // The process ended while we looked.
    }
  }
  const tree = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (tree.has(parent) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  const kill = (target: number) => {
    try {
      process.kill(target, "SIGKILL");
    } catch {
      // Already gone.
    }
  };
  kill(-root);
  for (const pid of tree) {
    const group = groups.get(pid);
    if (group && group !== root) kill(-group);
    kill(pid);
  }
}

export interface CliRun {
  code: number;
  output: string;
}

/** `pulumi` (naming the stack) or a bin of the project's packages, in the project, whatever its exit code. */
export async function runCli(command: string, args: string[], dir: string, stack: Stack): Promise<CliRun> {
  const file = command === "pulumi" ? path.join(toolsDir, "bin/pulumi") : path.join(dir, "node_modules/.bin", command);
  const extra = command === "pulumi" ? ["--stack", stack.name, "--non-interactive"] : [];
  try {
    const { stdout, stderr } = await run(file, [...args, ...extra], {
      cwd: dir,
      env: { ...process.env, ...stack.workspace.envVars },
      maxBuffer: 256 << 20,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, output: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
  }
}
