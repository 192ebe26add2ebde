#!/usr/bin/env node
// Usage: npm run release:dry [-- --out <dir>]
//
// What a version tag would publish (tools/release-artifacts.mjs), built into one folder (default .tools/release/), then
// each artifact installed into a clean temporary project outside the checkout and used by a program of its language
// that runs `pulumi preview` against the emulator: the emulator itself comes from the npm tarball, the plugin from
// `pulumi plugin install --file` into a fresh PULUMI_HOME, the Python SDK from its wheel in a fresh virtual environment,
// the Go SDK through a `replace` to the extracted module archive; the .NET package is packed where `dotnet` is on the
// PATH (not on this project's machines: it is then listed as not built). Nothing of the checkout is used but the artifacts
// and the toolchain of .tools/ (the Pulumi CLI and the language hosts, which a user has from Pulumi). The release
// workflow (.github/workflows/release.yml) runs this before it publishes anything.
//
// Prints each artifact with its size, then each install-and-preview. Exits non-zero on the first failure.
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { packPackage } from "./pack.mjs";
import { packPlugin } from "./pack-plugin.mjs";
import { goModulePath, packageVersion, releaseArtifacts } from "./release-artifacts.mjs";
import { binDir, repoRoot, toolchainEnv } from "./toolchain.mjs";

/** The release folder, which the dry run empties first: never the checkout, or a folder holding it. */
function releaseFolder() {
  const flag = process.argv.indexOf("--out");
  if (flag === -1) return path.join(repoRoot, ".tools/release");
  const given = process.argv[flag + 1];
  if (!given || given.startsWith("--")) usage("--out needs a folder");
  const folder = path.resolve(given);
  if (!path.relative(folder, repoRoot).startsWith("..")) {
    usage(
      `--out ${given} is the checkout or holds it, and the dry run empties its folder first: name a folder of its own`,
    );
  }
  return folder;
}

function usage(message) {
  console.error(`release:dry: ${message}\nusage: npm run release:dry [-- --out <folder>]`);
  process.exit(2);
}

const out = releaseFolder();
const version = packageVersion();
const artifacts = releaseArtifacts(version);
const fileOf = (name) => path.join(out, artifacts.find((artifact) => artifact.name === name).file);
const scratch = mkdtempSync(path.join(os.tmpdir(), "docs-release-dry-"));

/** Runs a command, its output kept for the error; resolves with stdout. */
function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, env: options.env ?? toolchainEnv() });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(stdout);
      else
        reject(
          new Error(`${command} ${args.join(" ")} (in ${options.cwd ?? "."}) exited ${code}:\n${stderr}${stdout}`),
        );
    });
  });
}

async function step(what, work) {
  const started = performance.now();
  await work();
  console.log(`release:dry: ${what} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

// ---- build

async function buildArtifacts() {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  await packPackage(path.join(scratch, "npm"), artifacts[0].file);
  cpSync(path.join(scratch, "npm", artifacts[0].file), fileOf("npm package"));
  await packPlugin(out);
  const builder = path.join(scratch, "build-venv");
  await run("python3", ["-m", "venv", builder]);
  await run(path.join(builder, "bin/pip"), ["install", "--quiet", "build"]);
  // The SDK is copied out first: `build` writes build/ and *.egg-info beside the sources.
  const pythonSources = path.join(scratch, "sdk-python");
  cpSync(path.join(repoRoot, "sdk/python"), pythonSources, { recursive: true });
  await run(path.join(builder, "bin/python"), ["-m", "build", "--outdir", out, pythonSources]);
  await zipGoModule(fileOf("Go module"));
  if (onPath("dotnet")) {
    const dotnetSources = path.join(scratch, "sdk-dotnet");
    cpSync(path.join(repoRoot, "sdk/dotnet"), dotnetSources, { recursive: true });
    await run("dotnet", ["pack", dotnetSources, "--configuration", "Release", "--output", out]);
  }
}

/** Whether `command` is on the PATH: what decides an artifact that `needs` a tool. */
function onPath(command) {
  return (process.env.PATH ?? "").split(path.delimiter).some((dir) => dir && existsSync(path.join(dir, command)));
}

/** The Go module zip format: every file under `<module>@v<version>/`, as the module proxy serves it. */
async function zipGoModule(target) {
  const script = [
    "import os, sys, zipfile",
    "src, prefix, target = sys.argv[1:4]",
    "with zipfile.ZipFile(target, 'w', zipfile.ZIP_DEFLATED) as z:",
    "    for base, _, files in os.walk(src):",
    "        for name in sorted(files):",
    "            full = os.path.join(base, name)",
    "            z.write(full, prefix + '/' + os.path.relpath(full, src).replace(os.sep, '/'))",
  ].join("\n");
  await run("python3", ["-c", script, path.join(repoRoot, "sdk/go"), `${goModulePath()}@v${version}`, target]);
}

// ---- install and preview

/** A fresh backend and PULUMI_HOME per project; the CLI and the language hosts from .tools/bin. */
function pulumiEnv(project, emulator, home) {
  return toolchainEnv({
    ...process.env,
    PATH: `${binDir}${path.delimiter}${process.env.PATH}`,
    PULUMI_HOME: home,
    PULUMI_BACKEND_URL: `file://${path.join(project, ".backend")}`,
    PULUMI_CONFIG_PASSPHRASE: "",
    DOCS_API_URL: emulator.url,
    DOCS_API_TOKEN: emulator.token,
  });
}

async function preview(project, emulator, home) {
  const env = pulumiEnv(project, emulator, home);
  mkdirSync(path.join(project, ".backend"), { recursive: true });
  await run("pulumi", ["stack", "init", "release-dry", "--non-interactive"], { cwd: project, env });
  await run("pulumi", ["config", "set", "docs:organizationId", emulator.organizationId], { cwd: project, env });
  const text = await run("pulumi", ["preview", "--non-interactive", "--diff"], { cwd: project, env });
  const creates = /\+ (\d+) to create/.exec(text);
  if (!creates || Number(creates[1]) < 3) {
    throw new Error(`${project}: the preview plans ${creates?.[1] ?? "no"} creates, not the program's 3:\n${text}`);
  }
  return Number(creates[1]);
}

/** The emulator of the npm tarball, in a process of its own; its first stdout line says where it listens. */
async function startEmulator(npmProject) {
  const child = spawn(
    path.join(binDir, "node"),
    [path.join(npmProject, "node_modules/pulumi-docs-platform/dist/emulator/cli.js")],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const first = await new Promise((resolve, reject) => {
    let buffered = "";
    child.stdout.on("data", (chunk) => {
      buffered += chunk;
      const line = buffered.split("\n")[0];
      if (buffered.includes("\n")) resolve(line);
    });
    child.on("exit", (code) => reject(new Error(`the packed emulator exited ${code} before listening`)));
  });
  return { ...JSON.parse(first), stop: () => child.kill("SIGTERM") };
}

const PROGRAM = {
  typescript: `import * as docs from "pulumi-docs-platform";
const handbook = new docs.Collection("handbook", { title: "Handbook" });
new docs.Space("guides", { title: "Guides", parentId: handbook.id });
new docs.Team("writers", { title: "Writers" });
`,
  yaml: `resources:
  handbook:
    type: docs:Collection
    properties: { title: Handbook }
  guides:
    type: docs:Space
    properties:
      title: Guides
      parentId: \${handbook.id}
  writers:
    type: docs:Team
    properties: { title: Writers }
`,
  python: `import pulumi_docs as docs
handbook = docs.Collection("handbook", title="Handbook")
docs.Space("guides", title="Guides", parent_id=handbook.id)
docs.Team("writers", title="Writers")
`,
  go: (module) => `package main

import (
	"${module}/docs"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		handbook, err := docs.NewCollection(ctx, "handbook", &docs.CollectionArgs{Title: pulumi.String("Handbook")})
		if err != nil {
			return err
		}
		if _, err := docs.NewSpace(ctx, "guides", &docs.SpaceArgs{Title: pulumi.String("Guides"), ParentId: handbook.ID()}); err != nil {
			return err
		}
		_, err = docs.NewTeam(ctx, "writers", &docs.TeamArgs{Title: pulumi.String("Writers")})
		return err
	})
}
`,
};

function project(name, runtime, files) {
  const dir = path.join(scratch, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "Pulumi.yaml"), `name: release-dry-${name}\nruntime: ${runtime}\n`);
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
  return dir;
}

async function installAndPreview() {
  const pulumiVersion = JSON.parse(
    readFileSync(path.join(repoRoot, "node_modules/@pulumi/pulumi/package.json"), "utf8"),
  ).version;
  const npmProject = project("typescript", "nodejs", {
    "index.ts": PROGRAM.typescript,
    "package.json": JSON.stringify({ name: "release-dry-typescript", private: true, main: "index.ts" }),
    // The examples' settings, which the README gives users.
    "tsconfig.json": JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "commonjs",
        strict: true,
        esModuleInterop: true,
        skipLibCheck: true,
      },
      files: ["index.ts"],
    }),
  });
  await step("npm: installed the package tarball into an empty project", () =>
    run(
      "npm",
      [
        "install",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        fileOf("npm package"),
        `@pulumi/pulumi@${pulumiVersion}`,
        "typescript@~5.9.3",
        "ts-node@10.9.2",
        "@types/node@^24",
      ],
      { cwd: npmProject },
    ),
  );
  const emulator = await startEmulator(npmProject);
  try {
    // One PULUMI_HOME for every project, holding only the plugin installed from its tarball.
    const home = path.join(scratch, "pulumi-home");
    await step("npm: `tsc` and `pulumi preview` of a TypeScript program", async () => {
      await run(path.join(npmProject, "node_modules/.bin/tsc"), ["--noEmit", "-p", npmProject], { cwd: npmProject });
      console.log(`  ${await preview(npmProject, emulator, home)} creates planned`);
    });
    await step(`plugin: \`pulumi plugin install resource docs ${version} --file\` the tarball`, () =>
      run("pulumi", ["plugin", "install", "resource", "docs", version, "--file", fileOf("provider plugin")], {
        env: toolchainEnv({ ...process.env, PULUMI_HOME: home }),
      }),
    );
    const yamlProject = project("yaml", "yaml", {});
    writeFileSync(path.join(yamlProject, "Pulumi.yaml"), `name: release-dry-yaml\nruntime: yaml\n${PROGRAM.yaml}`);
    await step("plugin: `pulumi preview` of a YAML program with no npm project", async () => {
      console.log(`  ${await preview(yamlProject, emulator, home)} creates planned`);
    });

    const pythonProject = project("python", "python", { "__main__.py": PROGRAM.python });
    const venv = path.join(pythonProject, "venv");
    await step("PyPI: installed the wheel into a fresh virtual environment", async () => {
      await run("python3", ["-m", "venv", venv]);
      await run(path.join(venv, "bin/pip"), ["install", "--quiet", fileOf("Python wheel"), `pulumi==${pulumiVersion}`]);
    });
    writeFileSync(
      path.join(pythonProject, "Pulumi.yaml"),
      "name: release-dry-python\nruntime:\n  name: python\n  options:\n    virtualenv: venv\n",
    );
    await step("PyPI: `pulumi preview` of a Python program", async () => {
      console.log(`  ${await preview(pythonProject, emulator, home)} creates planned`);
    });

    const module = goModulePath();
    const goModule = path.join(scratch, "go-module");
    await run("python3", [
      "-c",
      "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])",
      fileOf("Go module"),
      goModule,
    ]);
    const goProject = project("go", "go", {
      "main.go": PROGRAM.go(module),
      "go.mod": `module release-dry-go\n\ngo 1.25\n\nrequire (\n\t${module} v${version}\n\tgithub.com/pulumi/pulumi/sdk/v3 v${pulumiVersion}\n)\n\nreplace ${module} => ${path.join(goModule, `${module}@v${version}`)}\n`,
    });
    await step("Go: `go mod tidy` and `go build` against the module archive", async () => {
      await run("go", ["mod", "tidy"], { cwd: goProject });
      await run("go", ["build", "-o", path.join(scratch, "go-program"), "."], { cwd: goProject });
    });
    await step("Go: `pulumi preview` of a Go program", async () => {
      console.log(`  ${await preview(goProject, emulator, home)} creates planned`);
    });
  } finally {
    emulator.stop();
  }
}

function printArtifacts() {
  console.log(`release:dry: the artifacts of ${version}, in ${path.relative(process.cwd(), out) || "."}`);
  for (const artifact of artifacts) {
    if (artifact.needs && !onPath(artifact.needs)) {
      console.log(`  ${artifact.name.padEnd(16)} not built: ${artifact.why}`);
      continue;
    }
    const file = path.join(out, artifact.file);
    if (!existsSync(file)) throw new Error(`release:dry: ${artifact.name}: ${artifact.file} was not built`);
    const kib = (statSync(file).size / 1024).toFixed(0).padStart(7);
    console.log(`  ${artifact.name.padEnd(16)} ${kib} KiB  ${artifact.file}  → ${artifact.publishedTo}`);
  }
}

try {
  await step("built every artifact", buildArtifacts);
  printArtifacts();
  await installAndPreview();
  console.log(`release:dry: every artifact of ${version} installed and previewed`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
