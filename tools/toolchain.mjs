// Shared by tools/setup.mjs, tools/with-toolchain.mjs and test code: where the local toolchain
// lives and the environment that makes `pulumi`, its plugins and the right `node` win on PATH.
// Node builtins only, so it runs before `npm install` and under any supported Node.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Pass as `PulumiCommand.get({ root: toolsDir })`: the Automation API runs `<root>/bin/pulumi`. */
export const toolsDir = path.join(repoRoot, ".tools");
export const binDir = path.join(toolsDir, "bin");
export const nodeModulesBinDir = path.join(repoRoot, "node_modules", ".bin");
export const defaultPulumiHome = path.join(toolsDir, "pulumi-home");
export const stampFile = path.join(toolsDir, "setup-stamp.json");

/**
 * Only the variables the toolchain sets or overrides, computed from `base`.
 *
 * - PATH gets .tools/bin (pulumi, its plugins and, on Node < 22 hosts, Node 24) and
 *   node_modules/.bin in front, without duplicating them when nested.
 * - PULUMI_SKIP_UPDATE_CHECK: the CLI would otherwise ask api.pulumi.com for a newer version.
 * - PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: a missing plugin must fail at once instead
 *   of trying a GitHub download that cannot work here.
 * - PULUMI_HOME keeps plugin caches, workspaces and credentials out of ~/.pulumi, unless the
 *   caller chose one.
 */
export function toolchainVars(base = process.env) {
  const ours = [binDir, nodeModulesBinDir];
  const rest = (base.PATH ?? "").split(path.delimiter).filter((p) => p !== "" && !ours.includes(p));
  return {
    PATH: [...ours, ...rest].join(path.delimiter),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_HOME: base.PULUMI_HOME || defaultPulumiHome,
  };
}

/** The full environment for a child process: `base` plus {@link toolchainVars}. */
export function toolchainEnv(base = process.env) {
  return { ...base, ...toolchainVars(base) };
}

/** What the last successful `node tools/setup.mjs` provided, or undefined before the first run. */
export function readStamp() {
  try {
    return JSON.parse(readFileSync(stampFile, "utf8"));
  } catch {
    return undefined;
  }
}
