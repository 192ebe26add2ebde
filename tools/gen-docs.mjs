#!/usr/bin/env node
// Writes every file that `generatedFiles()` (codegen/generatedFiles.ts) derives from the kinds' definitions, the
// one list of them: whole generated files, and generated blocks inside hand-written documents. With --check it writes
// nothing and fails naming each file (or block) that differs. Reads the built package: run `npm run build` first
// (`npm run docs` and `npm run docs:check` do). TypeScript is laid out by biome (format-generated.mjs). The same check
// runs as a fast test (test/runtime/reference.test.ts). It also writes, or checks, the
// language SDKs generated from the plugin's schema (sdk/python, sdk/go: gen-sdks.mjs).
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { formatGenerated } from "./format-generated.mjs";
import { generateSdks } from "./gen-sdks.mjs";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const { generatedFiles } = require(path.join(root, "dist/codegen/generatedFiles.js"));
const { DOCUMENTS_WITH_BLOCKS, staleness } = require(path.join(root, "dist/codegen/conventionFacts.js"));
const { definitions } = require(path.join(root, "dist/provider/registry.js"));
const { FUNCTIONS } = require(path.join(root, "dist/provider/functions.js"));

const read = (file) => {
  try {
    return readFileSync(path.join(root, file), "utf8");
  } catch {
    return "";
  }
};
const check = process.argv.includes("--check");
const documents = Object.fromEntries(DOCUMENTS_WITH_BLOCKS.map((file) => [file, read(file)]));
const files = generatedFiles(definitions, documents, FUNCTIONS);
const stale = [];
for (const [file, generated] of Object.entries(files)) {
  const text = formatGenerated(file, generated);
  const current = read(file);
  const differs = staleness(file, current, text);
  if (differs === undefined) continue;
  stale.push(differs);
  if (!check) writeFileSync(path.join(root, file), text);
}
// The SDKs are generated from the schema as generated now, so a stale schema and its stale SDKs are named together.
const sdkStale = generateSdks(files["provider/plugin/schema.json"], { check });
if (sdkStale.length > 0) {
  const shown = sdkStale.slice(0, 5).join(", ") + (sdkStale.length > 5 ? ` and ${sdkStale.length - 5} more` : "");
  stale.push(`the SDKs generated from the schema (${shown})`);
}
if (check && stale.length > 0) {
  console.error(`Generated files are out of date: ${stale.join(", ")}. Run \`npm run docs\` and commit the result.`);
  process.exit(1);
}
console.log(
  check ? "generated files are up to date" : `wrote ${stale.length ? stale.join(", ") : "nothing (up to date)"}`,
);
