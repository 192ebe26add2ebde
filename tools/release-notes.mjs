#!/usr/bin/env node
// Usage: node tools/release-notes.mjs <version>: prints CHANGELOG.md's section of that version, the GitHub release's
// notes (.github/workflows/release.yml). Fails when the CHANGELOG has no such heading.
import { readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "./toolchain.mjs";

export function releaseNotes(changelog, version) {
  const heading = new RegExp(`^## \\[${version.replaceAll(".", "\\.")}\\][^\\n]*\\n`, "m").exec(changelog);
  if (!heading) throw new Error(`CHANGELOG.md has no "## [${version}]" heading`);
  const rest = changelog.slice(heading.index + heading[0].length);
  const next = rest.search(/^## \[/m);
  return (next === -1 ? rest : rest.slice(0, next)).trim();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const version = process.argv[2];
  if (!version) {
    console.error("usage: node tools/release-notes.mjs <version>");
    process.exit(2);
  }
  console.log(releaseNotes(readFileSync(path.join(repoRoot, "CHANGELOG.md"), "utf8"), version));
}
