#!/usr/bin/env node
// Writes the files generated from the kinds' schemas (docs/resources.md, provider/resources/generated.ts, the README's
// kinds table), or with --check fails listing those that differ. Reads the built package: run `npm run build` first
// (`npm run docs` and `npm run docs:check` do). TypeScript is laid out by biome (format-generated.mjs). The same
// check runs as a fast test (test/runtime/reference.test.ts).
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { formatGenerated } from "./format-generated.mjs";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const { generatedFiles } = require(path.join(root, "dist/provider/framework/reference.js"));
const { definitions } = require(path.join(root, "dist/provider/registry.js"));

const check = process.argv.includes("--check");
const files = generatedFiles(definitions, readFileSync(path.join(root, "README.md"), "utf8"));
const stale = [];
for (const [file, generated] of Object.entries(files)) {
  const text = formatGenerated(file, generated);
  const target = path.join(root, file);
  let current = "";
  try {
    current = readFileSync(target, "utf8");
  } catch {}
  if (current === text) continue;
  stale.push(file);
  if (!check) writeFileSync(target, text);
}
if (check && stale.length > 0) {
  console.error(`Generated files are out of date: ${stale.join(", ")}. Run \`npm run docs\` and commit the result.`);
  process.exit(1);
}
console.log(
  check ? "generated files are up to date" : `wrote ${stale.length ? stale.join(", ") : "nothing (up to date)"}`,
);
