#!/usr/bin/env node
// `npm run pack:local`: packs the build of this checkout as .tools/pack/pulumi-docs-platform.tgz, the file the
// examples' package.json files install and users copy into their projects (README: "Use it in your program"), so an
// example runs the package exactly as users install it.
import path from "node:path";
import { packPackage } from "./pack.mjs";
import { repoRoot } from "./toolchain.mjs";

const target = await packPackage(path.join(repoRoot, ".tools/pack"), "pulumi-docs-platform.tgz");
console.log(
  `packed ${path.relative(repoRoot, target)}: in an example folder, \`npm install\` installs it; in a project of ` +
    "your own, copy it to vendor/ and run `npm install ./vendor/pulumi-docs-platform.tgz`",
);
