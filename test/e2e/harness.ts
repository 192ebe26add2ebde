import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { LocalWorkspace, PulumiCommand, type Stack, type UpOptions, type UpResult } from "@pulumi/pulumi/automation";
import type { RunningEmulator } from "../../emulator";
import { packPackage } from "../../tools/pack.mjs";
import { toolchainVars, toolsDir } from "../../tools/toolchain.mjs";

const run = promisify(execFile);
const repoRoot = path.resolve(__dirname, "../..");
const workRoot = path.join(repoRoot, ".e2e");
const pulumiVersion: string = require("@pulumi/pulumi/package.json").version;

let tarball: Promise<string> | undefined;

/** The package as users get it: `npm pack` of the built dist/ (npm test builds before it runs vitest). */
export function packedPackage(): Promise<string> {
  tarball ??= (async () => {
    if (!existsSync(path.join(repoRoot, "dist/provider/runtime.js"))) {
      throw new Error("dist/ is missing: run `npm run build` first (npm test does)");
    }
    return packPackage(path.join(workRoot, "pack"));
  })();
  return tarball;
}

export interface ProjectOptions {
  /** Run the program as TypeScript through ts-node, as `pulumi new typescript` projects do. */
  typescript?: boolean;
}

/**
 * A Pulumi project on disk whose program depends on the packed package and on @pulumi/pulumi, installed with npm
 * (from the local cache after the first run), so the engine loads the provider exactly as in a user's project.
 * `files` maps file names to contents; the entry point is index.js or index.ts.
 */
export async function makeProject(name: string, files: Record<string, string>, options: ProjectOptions = {}) {
  const dir = path.join(workRoot, `${name}-${process.pid}`);
  // Projects of earlier runs only take disk space (an npm install each).
  for (const old of existsSync(workRoot) ? readdirSync(workRoot) : []) {
    if (old.startsWith(`${name}-`)) rmSync(path.join(workRoot, old), { recursive: true, force: true });
  }
  mkdirSync(dir, { recursive: true });
  const typescript = options.typescript === true;
  writeFileSync(
    path.join(dir, "Pulumi.yaml"),
    `name: ${name}\nruntime:\n  name: nodejs\n  options:\n    typescript: ${typescript}\n` +
      (typescript ? "" : "main: index.js\n"),
  );
  const example = require(path.join(repoRoot, "examples/docs-site/package.json"));
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify(
      {
        name,
        private: true,
        dependencies: { "@pulumi/pulumi": pulumiVersion, "pulumi-docs-platform": `file:${await packedPackage()}` },
        devDependencies: typescript ? example.devDependencies : {},
      },
      null,
      2,
    ),
  );
  for (const [file, content] of Object.entries(files)) writeFileSync(path.join(dir, file), content);
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: dir,
    env: { ...process.env, ...toolchainVars() },
  });
  return dir;
}

export interface StackOptions {
  /** Give the API URL and token as stack config (token as a secret) instead of environment variables. */
  credentialsInConfig?: boolean;
}

/** A stack on a local file backend, driven by the real CLI from .tools/, talking to the emulator. */
export async function makeStack(dir: string, emulator: RunningEmulator, options: StackOptions = {}): Promise<Stack> {
  const pulumiCommand = await PulumiCommand.get({ root: toolsDir });
  const stateDir = path.join(dir, ".state");
  mkdirSync(stateDir, { recursive: true });
  const envVars: Record<string, string> = {
    ...toolchainVars(),
    PULUMI_BACKEND_URL: `file://${stateDir}`,
    PULUMI_CONFIG_PASSPHRASE: "e2e-passphrase",
    PULUMI_HOME: path.join(dir, ".pulumi-home"),
    // Keep test runs from waiting long on retries of injected faults.
    DOCS_API_MAX_ATTEMPTS: "3",
  };
  if (!options.credentialsInConfig) {
    envVars.DOCS_API_URL = emulator.url;
    envVars.DOCS_API_TOKEN = emulator.token;
  }
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: "e2e", workDir: dir },
    { pulumiCommand, envVars, secretsProvider: "passphrase" },
  );
  await stack.setConfig("organizationId", { value: emulator.organizationId });
  if (options.credentialsInConfig) {
    await stack.setConfig("docs:apiUrl", { value: emulator.url });
    await stack.setConfig("docs:apiToken", { value: emulator.token, secret: true });
  }
  return stack;
}

/** What a run of the real CLI gave: its exit code, and stdout and stderr together. */
export interface CliRun {
  code: number;
  output: string;
}

/** The real CLI from .tools/ with the stack's environment plus `env`, as a user runs it, whatever its exit code. */
export async function runPulumi(stack: Stack, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const options = {
    cwd: stack.workspace.workDir,
    env: { ...process.env, ...stack.workspace.envVars, ...env },
    // Room for the `-v=9` logs of a whole update, which secrets.test.ts reads in full.
    maxBuffer: 256 << 20,
  };
  try {
    const { stdout, stderr } = await run(
      path.join(toolsDir, "bin/pulumi"),
      [...args, "--stack", stack.name, "--non-interactive"],
      options,
    );
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, output: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
  }
}

/**
 * `pulumi stack export` as a user would run it, without `--show-secrets` (which the Automation API's exportStack
 * always adds): what anyone with access to the backend can read.
 */
export async function exportAsStored(stack: Stack): Promise<string> {
  const { stdout } = await run(
    path.join(toolsDir, "bin/pulumi"),
    ["stack", "export", "--stack", stack.name, "--non-interactive"],
    { cwd: stack.workspace.workDir, env: { ...process.env, ...stack.workspace.envVars }, maxBuffer: 64 << 20 },
  );
  return stdout;
}

/** Every file of a project's local backend: checkpoints, their backups and history. */
export function stateFiles(dir: string): string[] {
  const root = path.join(dir, ".state");
  return (readdirSync(root, { recursive: true }) as string[])
    .map((file) => path.join(root, file))
    .filter((file) => statSync(file).isFile());
}

/** Change counts that matter for "no changes", as `engine.HasChanges` counts them. */
export function changes(summary: Record<string, number | undefined> | undefined): Record<string, number> {
  const result: Record<string, number> = {};
  for (const [op, count] of Object.entries(summary ?? {})) {
    if (count && !["same", "read", "discard", "read-replacement"].includes(op)) result[op] = count;
  }
  return result;
}

interface StoredResource {
  urn: string;
  type: string;
  outputs?: Record<string, unknown>;
}

/** Whether a resource is one of the package's, on either route: a dynamic resource or the plugin's `docs:index:`. */
export function isDocsResource(type: string): boolean {
  return type.startsWith("pulumi-nodejs:dynamic/docs:") || type.startsWith("docs:index:");
}

/** Every docs resource's outputs by URN, as the backend holds them now. */
async function outputsByUrn(stack: Stack): Promise<Map<string, unknown>> {
  const resources: StoredResource[] = (await stack.exportStack()).deployment.resources ?? [];
  return new Map(resources.filter((r) => isDocsResource(r.type)).map((r) => [r.urn, r.outputs]));
}

/** The key that marks a secret in a deployment the Automation API exports (with its plaintext beside it). */
const SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d";

/**
 * An output as a refresh must keep it: its value with every secret opened, and whether it holds a secret. Where the
 * secrets sit inside it is the engine's doing, not the provider's: a create copies the secretness of a secret nested
 * in an input onto the same place in the output (`annotateSecrets`), then wraps the whole output in its own secret
 * (`additionalSecretOutputs`), while a read gets only the whole secret. Both are secret; neither shows as a change.
 */
function comparable(value: unknown): { secret: boolean; value: unknown } {
  let secret = false;
  const open = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(open);
    if (v === null || typeof v !== "object") return v;
    const object = v as Record<string, unknown>;
    if (SECRET_SIGNATURE in object) {
      secret = true;
      return open(JSON.parse(String(object.plaintext)));
    }
    return Object.fromEntries(Object.entries(object).map(([key, inner]) => [key, open(inner)]));
  };
  return { value: open(value), secret };
}

/** `urn: property` for each top-level output that differs between two snapshots, added or removed resources too. */
function staleOutputs(before: Map<string, unknown>, after: Map<string, unknown>): string[] {
  const stale: string[] = [];
  for (const urn of new Set([...before.keys(), ...after.keys()])) {
    const old = (before.get(urn) ?? {}) as Record<string, unknown>;
    const now = (after.get(urn) ?? {}) as Record<string, unknown>;
    if (!before.has(urn) || !after.has(urn)) {
      stale.push(`${urn}: ${before.has(urn) ? "gone after refresh" : "appeared after refresh"}`);
      continue;
    }
    for (const key of new Set([...Object.keys(old), ...Object.keys(now)])) {
      if (JSON.stringify(comparable(old[key])) !== JSON.stringify(comparable(now[key]))) {
        stale.push(`${urn}: ${key} ${JSON.stringify(old[key])} → ${JSON.stringify(now[key])}`);
      }
    }
  }
  return stale;
}

/**
 * Consistency after apply: a refresh straight after the update must find nothing to change. Checks both what the
 * engine reports (`pulumi refresh --expect-no-changes`, which judges declared inputs through the provider's diff) and
 * what it silently rewrites: every output of every resource, compared before and after the refresh. Use it for every
 * `up` of an e2e test; it throws naming each stale output.
 */
export async function upConsistent(stack: Stack, options: UpOptions = {}): Promise<UpResult> {
  const up = await stack.up(options);
  const before = await outputsByUrn(stack);
  await stack.refresh({ expectNoChanges: true });
  const stale = staleOutputs(before, await outputsByUrn(stack));
  if (stale.length > 0) {
    throw new Error(`a refresh straight after up changed ${stale.length} output(s):\n  ${stale.join("\n  ")}`);
  }
  return up;
}
