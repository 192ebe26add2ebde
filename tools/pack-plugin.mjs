#!/usr/bin/env node
// `npm run pack:plugin`: the `docs` provider plugin as a Pulumi plugin tarball, for programs without an npm project
// (Python, Go, YAML):
//
//   pulumi plugin install resource docs <version> --file .tools/pack/pulumi-resource-docs-v<version>.tar.gz
//
// It holds the launcher (bin/pulumi-resource-docs) at its root and, in node_modules, the package as npm packs it with
// its production dependencies and @pulumi/pulumi (the plugin's gRPC classes): it needs only Node.js (>= 22) on the
// machine. The JavaScript runs on every OS and architecture, so a release uploads this one file under each name the
// CLI asks the schema's pluginDownloadURL for (`pulumi-resource-docs-v<version>-<os>-<arch>.tar.gz`).
import { execFile } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { packPackage } from "./pack.mjs";
import { repoRoot, toolsDir } from "./toolchain.mjs";

const run = promisify(execFile);

/** Builds the plugin tarball into `destination` and returns its path. */
export async function packPlugin(destination = path.join(toolsDir, "pack")) {
  const { version } = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8"));
  const pulumiVersion = JSON.parse(
    readFileSync(path.join(repoRoot, "node_modules/@pulumi/pulumi/package.json"), "utf8"),
  ).version;
  const work = path.join(toolsDir, "cache", "plugin-tarball");
  const packageTarball = await packPackage(path.join(work, "package"), "pulumi-docs-platform.tgz");
  const root = path.join(work, "root");
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  writeFileSync(
    path.join(root, "package.json"),
    `${JSON.stringify(
      {
        name: "pulumi-resource-docs",
        version,
        private: true,
        description: "The docs provider plugin of pulumi-docs-platform: run by ./pulumi-resource-docs.",
        dependencies: { "@pulumi/pulumi": pulumiVersion, "pulumi-docs-platform": `file:${packageTarball}` },
      },
      null,
      2,
    )}\n`,
  );
  await run(
    "npm",
    ["install", "--omit=dev", "--omit=optional", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"],
    { cwd: root, maxBuffer: 64 << 20 },
  );
  // What npm wrote beside node_modules is of no use to the plugin.
  rmSync(path.join(root, "package-lock.json"), { force: true });
  const launcher = path.join(root, "pulumi-resource-docs");
  copyFileSync(path.join(repoRoot, "bin/pulumi-resource-docs"), launcher);
  chmodSync(launcher, 0o755);
  mkdirSync(destination, { recursive: true });
  const tarball = path.join(destination, `pulumi-resource-docs-v${version}.tar.gz`);
  await run("tar", ["-czf", tarball, "-C", root, "."]);
  return tarball;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const tarball = await packPlugin();
  const { version } = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8"));
  console.log(
    `packed ${path.relative(repoRoot, tarball)}: install it with ` +
      `\`pulumi plugin install resource docs ${version} --file ${path.relative(repoRoot, tarball)}\``,
  );
}
