import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach } from "vitest";

/** What one run of `docs-platform` returned and wrote. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `docs-platform` in this process, as `docs-platform <args>` would, keeping what it writes. */
export async function runCli(args: string[]): Promise<CliRun> {
  // Loaded here rather than at the top so that tests using only the directories and state helpers do not load the CLI.
  const { main } = await import("../../cli/main");
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    out: { write: (text: string) => (stdout += text) },
    err: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr };
}

/** Makes temporary directories for the tests of the calling file; each is removed after the test that made it. */
export function useTempDirs(prefix: string): () => string {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(path.join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}

/** Puts these environment variables back after each test of the calling file as they were before it, set or unset. */
export function restoreEnvAfterEach(...names: string[]): void {
  const saved = new Map<string, string | undefined>();
  beforeEach(() => {
    for (const name of names) saved.set(name, process.env[name]);
  });
  afterEach(() => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
}

/** A resource of this package as `pulumi stack export` shows it. */
export function stateResource(kind: string, id: string, fields: { urn?: string; inputs?: object; outputs?: object }) {
  return { type: `pulumi-nodejs:dynamic/docs:${kind}`, id, ...fields };
}

/** The text of `pulumi stack export` for a stack of these resources. */
export function stackExport(resources: unknown[]): string {
  return JSON.stringify({ version: 3, deployment: { resources } });
}

/** Writes the stack export of these resources to `state.json` in `dir`, for `--state`; returns its path. */
export function stateFile(dir: string, resources: unknown[] = []): string {
  const file = path.join(dir, "state.json");
  writeFileSync(file, stackExport(resources));
  return file;
}
