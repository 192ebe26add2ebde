#!/usr/bin/env node
// Usage: node tools/mutation-changed.mjs [base]   (npm run mutation:changed -- [base])
//
// Runs Stryker on the mutable files (stryker.config.mjs `mutate`) that differ from `base` (default: origin/main if
// it exists, else main), so a branch can check that its own tests assert what it changed without the
// hour-long run over the whole core. Exits 0 without running anything when no such file changed.
import { execFileSync, spawnSync } from "node:child_process";
import path from "node:path";
import config from "../stryker.config.mjs";

const repoRoot = path.resolve(import.meta.dirname, "..");
const git = (...args) => execFileSync("git", args, { cwd: repoRoot, encoding: "utf8" }).trim();

function defaultBase() {
  for (const ref of ["origin/main", "main"]) {
    try {
      git("rev-parse", "--verify", "--quiet", ref);
      return ref;
    } catch {
      // try the next one
    }
  }
  throw new Error("no base given and neither origin/main nor main exists");
}

const base = process.argv[2] ?? defaultBase();
const changed = git("diff", "--name-only", "--diff-filter=AMR", `${base}...HEAD`)
  .split("\n")
  .concat(git("diff", "--name-only", "--diff-filter=AMR").split("\n"))
  .filter((file) => file.endsWith(".ts") && path.matchesGlob(file, `{${config.mutate.join(",")}}`));
const files = [...new Set(changed)].sort();
if (files.length === 0) {
  console.log(`mutation: no file under ${config.mutate.join(", ")} changed since ${base}; nothing to run`);
  process.exit(0);
}
console.log(`mutation: ${files.length} changed file(s) since ${base}: ${files.join(" ")}`);
const run = spawnSync("npx", ["stryker", "run", "--mutate", files.join(",")], { cwd: repoRoot, stdio: "inherit" });
process.exit(run.status ?? 1);
