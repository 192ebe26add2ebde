#!/usr/bin/env node
// `npm run demo`: starts the embedded emulator, deploys the demo program (Pulumi.yaml → examples/docs-site/) with the
// real Pulumi CLI on a local backend, prints what was created, then changes a title behind Pulumi's back and shows
// `pulumi preview --refresh` detecting the drift and `pulumi up --refresh` putting it back. Runs under
// tools/with-toolchain.mjs after setup and build, so the CLI, its plugins and Node 22+ come first on PATH.
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { repoRoot } from "./toolchain.mjs";

const require = createRequire(import.meta.url);
const { startEmulator } = require(path.join(repoRoot, "dist/emulator/index.js"));

const demoDir = path.join(repoRoot, ".demo");
const exampleDir = path.join(repoRoot, "examples/docs-site");
const packDir = path.join(repoRoot, ".tools/pack");

function step(title) {
  console.log(`\n\x1b[1m== ${title}\x1b[0m`);
}

/** Runs the CLI without blocking: the emulator answering it lives in this same process. */
async function pulumi(args, env, { check = true, capture = false } = {}) {
  console.log(`$ pulumi ${args.join(" ")}`);
  const child = spawn("pulumi", args, {
    cwd: repoRoot,
    env,
    stdio: capture ? ["ignore", "pipe", "inherit"] : "inherit",
  });
  let stdout = "";
  child.stdout?.on("data", (chunk) => {
    stdout += chunk;
  });
  const status = await new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
  });
  if (check && status !== 0) throw new Error(`pulumi ${args[0]} failed (exit ${status})`);
  return { status, stdout };
}

/** The program uses the package exactly as users get it: the packed tarball, installed in the example's folder. */
function installPackedPackage() {
  rmSync(packDir, { recursive: true, force: true });
  mkdirSync(packDir, { recursive: true });
  execFileSync("npm", ["pack", "--silent", "--pack-destination", packDir], { cwd: repoRoot, stdio: "ignore" });
  const tarball = readdirSync(packDir).find((name) => name.endsWith(".tgz"));
  copyFileSync(path.join(packDir, tarball), path.join(packDir, "pulumi-docs-platform.tgz"));
  // npm keeps an installed package of the same version: remove it so this checkout's build is what runs.
  rmSync(path.join(exampleDir, "node_modules/pulumi-docs-platform"), { recursive: true, force: true });
  execFileSync(
    "npm",
    ["install", "--prefer-offline", "--no-package-lock", "--no-audit", "--no-fund", "--loglevel=error"],
    { cwd: exampleDir, stdio: "inherit" },
  );
}

async function main() {
  step("Installing the package built from this checkout into examples/docs-site");
  installPackedPackage();

  step("Starting the embedded API emulator");
  const emulator = await startEmulator({ port: 0, token: "demo-token" });
  console.log(`API: ${emulator.url}  organization: ${emulator.organizationId}`);

  rmSync(demoDir, { recursive: true, force: true });
  rmSync(path.join(repoRoot, "Pulumi.demo.yaml"), { force: true });
  mkdirSync(path.join(demoDir, "state"), { recursive: true });
  const env = {
    ...process.env,
    PULUMI_BACKEND_URL: `file://${path.join(demoDir, "state")}`,
    PULUMI_CONFIG_PASSPHRASE: "demo",
    PULUMI_HOME: path.join(demoDir, "pulumi-home"),
    DOCS_API_URL: emulator.url,
    DOCS_API_TOKEN: emulator.token,
  };
  const api = async (method, apiPath, body) => {
    const response = await fetch(`${emulator.url}${apiPath}`, {
      method,
      headers: { authorization: `Bearer ${emulator.token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return response.status === 204 || response.status === 205 ? undefined : response.json();
  };

  try {
    await pulumi(["stack", "init", "demo"], env);
    await pulumi(["config", "set", "organizationId", emulator.organizationId], env);
    await pulumi(["config", "set", "userIds", JSON.stringify(emulator.userIds)], env);

    step("pulumi up: creating the documentation platform");
    await pulumi(["up", "--yes", "--skip-preview"], env);

    step("What was created");
    const stack = JSON.parse((await pulumi(["stack", "export"], env, { capture: true })).stdout);
    const managed = (stack.deployment.resources ?? [])
      .filter((resource) => resource.type.startsWith("pulumi-nodejs:dynamic/docs:"))
      .sort((a, b) => a.type.localeCompare(b.type));
    for (const resource of managed) {
      const kind = resource.type.split(":").pop();
      const name = resource.urn.split("::").pop();
      const label = resource.outputs.title ?? resource.outputs.name ?? resource.outputs.label ?? resource.outputs.slug;
      console.log(`  ${kind.padEnd(20)} ${name.padEnd(22)} id=${resource.id}${label ? `  "${label}"` : ""}`);
    }
    await pulumi(["stack", "output"], env);

    step("A second preview: nothing to do");
    await pulumi(["preview", "--expect-no-changes"], env);

    step("Drift: renaming the 'handbook' collection through the API, behind Pulumi's back");
    const handbook = stack.deployment.resources.find((r) => r.urn.endsWith("::handbook"));
    await api("PATCH", `/collections/${handbook.id}`, { title: "Renamed by hand" });
    console.log(`PATCH /collections/${handbook.id} {"title": "Renamed by hand"}`);

    step("pulumi preview --refresh --expect-no-changes: the drift is detected (this preview fails on purpose)");
    const drift = await pulumi(["preview", "--refresh", "--expect-no-changes", "--diff"], env, { check: false });
    if (drift.status === 0) throw new Error("the drift was not detected");
    console.log("\n=> drift detected: the preview exited non-zero, as a nightly drift check would.");

    step("pulumi up --refresh: putting it back");
    await pulumi(["up", "--refresh", "--yes", "--skip-preview"], env);
    const after = await api("GET", `/collections/${handbook.id}`);
    console.log(`=> the collection is titled "${after.title}" again.`);

    step("pulumi destroy: cleaning up");
    await pulumi(["destroy", "--yes", "--skip-preview"], env);
  } finally {
    await emulator.close();
  }
  console.log("\nDemo complete.");
}

main().catch((error) => {
  console.error(`\ndemo failed: ${error.message}`);
  process.exit(1);
});
