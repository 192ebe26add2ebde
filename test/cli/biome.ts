import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const repoRoot = path.resolve(__dirname, "../..");

/** `biome check` of a program as a file of a project with this repository's settings; then what `--write` makes of it. */
export function biomeCheck(program: string): { status: number | null; fixed: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "generated-"));
  const file = path.join(dir, "index.ts");
  writeFileSync(file, program);
  const biome = path.join(repoRoot, "node_modules/.bin/biome");
  const config = `--config-path=${path.join(repoRoot, "biome.json")}`;
  const checked = spawnSync(biome, ["check", config, file], { encoding: "utf8" });
  spawnSync(biome, ["check", "--write", config, file], { encoding: "utf8" });
  const fixed = readFileSync(file, "utf8");
  rmSync(dir, { recursive: true, force: true });
  return { status: checked.status, fixed };
}
