#!/usr/bin/env node
// `npm run pack:local`: packs the build of this checkout as .tools/pack/pulumi-docs-platform.tgz, the file the
// examples' package.json files install, so an example runs the package exactly as users get it from npm.
import path from "node:path";
import { packPackage } from "./pack.mjs";
import { repoRoot } from "./toolchain.mjs";

const target = await packPackage(path.join(repoRoot, ".tools/pack"), "pulumi-docs-platform.tgz");
console.log(`packed ${path.relative(repoRoot, target)}: in an example folder, \`npm install\` installs it`);
