#!/usr/bin/env node
// `npm run pack:local`: packs the build of this checkout as .tools/pack/pulumi-docs-platform.tgz, the file the
// examples' package.json files install, so an example runs the package exactly as users get it from npm.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "./toolchain.mjs";

const packDir = path.join(repoRoot, ".tools/pack");
rmSync(packDir, { recursive: true, force: true });
mkdirSync(packDir, { recursive: true });
execFileSync("npm", ["pack", "--silent", "--pack-destination", packDir], { cwd: repoRoot, stdio: "ignore" });
const tarball = readdirSync(packDir).find((name) => name.endsWith(".tgz"));
if (!tarball) throw new Error("npm pack produced no tarball");
const target = path.join(packDir, "pulumi-docs-platform.tgz");
renameSync(path.join(packDir, tarball), target);
console.log(`packed ${path.relative(repoRoot, target)}: in an example folder, \`npm install\` installs it`);
