// Lays out a generated TypeScript file as biome lays out every other source file (line width, a long union one
// member a line), so that provider/resources/generated.ts reads as hand-written code and `npm run lint` checks it
// like the rest. Used by tools/gen-docs.mjs and by the test that compares the checked-in files with the generator.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const biome = createRequire(import.meta.url).resolve("@biomejs/biome/bin/biome");

/** `text` formatted by biome with the repository's settings when `file` (a path from the root) is TypeScript. */
export function formatGenerated(file, text) {
  if (!file.endsWith(".ts")) return text;
  const result = spawnSync(process.execPath, [biome, "format", `--stdin-file-path=${file}`], {
    cwd: root,
    input: text,
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`biome could not format ${file}:\n${result.stderr}`);
  return result.stdout;
}
