// The language SDKs generated from the plugin's schema (sdk/python, sdk/go, sdk/dotnet), by Pulumi's own code
// generators: tools/pulumi-sdkgen (Python and Go, at the CLI's version) and tools/pulumi-sdkgen-dotnet (C#, on the
// newest pkg/v3 that still ships that generator), which tools/setup.mjs builds into .tools/bin (cached by its stamp).
// Used by tools/gen-docs.mjs: `npm run docs` rewrites them, `npm run docs:check` names the files that differ.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The languages written, each under sdk/<language>. */
export const SDK_LANGUAGES = ["python", "go", "dotnet"];

/** Every file under `dir`, by path from it. */
function filesUnder(dir, prefix = "") {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    const relative = prefix ? `${prefix}/${name}` : name;
    return statSync(full).isDirectory() ? filesUnder(full, relative) : [relative];
  });
}

function run(command, args, what) {
  const result = spawnSync(command, args, { cwd: root, encoding: "utf8" });
  if (result.status !== 0) {
    throw new Error(`${what} failed (${result.error?.message ?? `exit code ${result.status}`}):\n${result.stderr}`);
  }
  return result.stdout;
}

/**
 * Generates the SDKs of `schemaText` and compares them with sdk/: returns the paths that differ (changed, missing or
 * extra files); unless `check`, sdk/<language> is replaced by what was generated.
 */
export function generateSdks(schemaText, { check }) {
  run(process.execPath, [path.join(root, "tools/setup.mjs"), "--sdkgen-only"], "tools/setup.mjs --sdkgen-only");
  const scratch = mkdtempSync(path.join(os.tmpdir(), "docs-sdkgen-"));
  try {
    const schemaFile = path.join(scratch, "schema.json");
    writeFileSync(schemaFile, schemaText);
    const out = path.join(scratch, "sdk");
    run(
      path.join(root, ".tools/bin/pulumi-sdkgen"),
      ["-schema", schemaFile, "-out", out, "python", "go"],
      "pulumi-sdkgen",
    );
    run(
      path.join(root, ".tools/bin/pulumi-sdkgen-dotnet"),
      ["-schema", schemaFile, "-out", out],
      "pulumi-sdkgen-dotnet",
    );
    const stale = [];
    for (const language of SDK_LANGUAGES) {
      const generated = path.join(out, language);
      const current = path.join(root, "sdk", language);
      const names = [...new Set([...filesUnder(generated), ...filesUnder(current)])].sort();
      const differing = names.filter((name) => {
        const a = path.join(generated, name);
        const b = path.join(current, name);
        return !existsSync(a) || !existsSync(b) || !readFileSync(a).equals(readFileSync(b));
      });
      if (differing.length === 0) continue;
      stale.push(...differing.map((name) => `sdk/${language}/${name}`));
      if (!check) {
        rmSync(current, { recursive: true, force: true });
        cpSync(generated, current, { recursive: true });
      }
    }
    return stale;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
