#!/usr/bin/env node
// Writes an upgrade fixture (test/e2e/fixtures/upgrades/<name>/) from the code of an earlier release: that release's
// package, built and packed from its commit, deploys the fixture's program (index.ts.txt) against this checkout's
// emulator with the real CLI, then refreshes it. Kept:
// - state.json: `pulumi stack export --show-secrets` of the result, exactly as that release wrote it (secrets as
//   plaintext, which `pulumi stack import` encrypts again; the secrets provider's salt left out, it belongs to the
//   throwaway stack). The API token is never in it: the script fails if it were.
// - api.json: every write the API received (the release's and the adoption's setup) and every read of the refresh,
//   with the API's answers. The emulator cannot be seeded with given ids, so test/e2e/upgrades.test.ts replays the
//   writes on a fresh emulator, learns the ids, tokens and timestamps the API gave this time from the answers, and
//   rewrites state.json with them: the API objects are then those the release made, under new ids.
//
// Usage (after `npm run build`, which provides the emulator):
//   node tools/with-toolchain.mjs node tools/upgrade-fixtures.mjs <commit> <name>
// e.g. `... 03e38ac 0.1.0`. The release is built in a temporary directory from `git archive <commit>` with this
// checkout's node_modules (its dependencies must still be satisfied by them: the build says if not).
import { execFile, execFileSync, execSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { binDir, repoRoot, toolchainEnv } from "./toolchain.mjs";

const require = createRequire(import.meta.url);
const [commit, name] = process.argv.slice(2);
if (!commit || !name) {
  console.error("usage: node tools/upgrade-fixtures.mjs <commit> <name>");
  process.exit(2);
}
const fixtureDir = path.join(repoRoot, "test/e2e/fixtures/upgrades", name);
const program = readFileSync(path.join(fixtureDir, "index.ts.txt"), "utf8");
const TOKEN = "upgrade-fixture-token";
/** Project and stack names are part of every URN: upgrades.test.ts uses the same. */
const PROJECT = "upgrade";
const STACK = "e2e";

const work = mkdtempSync(path.join(os.tmpdir(), `upgrade-fixture-${name}-`));
const source = path.join(work, "release");
const project = path.join(work, PROJECT);
mkdirSync(source);
mkdirSync(project);

const sh = (file, args, options = {}) =>
  execFileSync(file, args, { encoding: "utf8", maxBuffer: 256 << 20, env: toolchainEnv(), ...options });

console.log(`building ${commit} in ${source}`);
execSync(`git archive --format=tar ${commit} | tar -x -C ${source}`, { cwd: repoRoot });
symlinkSync(path.join(repoRoot, "node_modules"), path.join(source, "node_modules"));
const release = JSON.parse(readFileSync(path.join(source, "package.json"), "utf8"));
sh(path.join(repoRoot, "node_modules/.bin/tsc"), ["-p", "tsconfig.build.json"], { cwd: source });
sh("npm", ["pack", "--silent", "--pack-destination", work], { cwd: source });
const tarball = path.join(
  work,
  readdirSync(work).find((file) => file.endsWith(".tgz")),
);

const { startEmulator } = require(path.join(repoRoot, "dist/emulator"));
const exchanges = [];
const emulator = await startEmulator({ port: 0, token: TOKEN, onExchange: (exchange) => exchanges.push(exchange) });
try {
  // The object the program adopts with importId, made as a user would have made it: in the app, before `up`.
  const adopted = await fetch(`${emulator.url}/orgs/${emulator.organizationId}/collections`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ title: "Legacy" }),
  }).then((answer) => answer.json());

  const example = JSON.parse(readFileSync(path.join(repoRoot, "examples/docs-site/package.json"), "utf8"));
  writeFileSync(
    path.join(project, "Pulumi.yaml"),
    `name: ${PROJECT}\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n`,
  );
  writeFileSync(
    path.join(project, "package.json"),
    JSON.stringify({
      name: PROJECT,
      private: true,
      dependencies: {
        "@pulumi/pulumi": require("@pulumi/pulumi/package.json").version,
        [release.name]: `file:${tarball}`,
      },
      devDependencies: example.devDependencies,
    }),
  );
  writeFileSync(
    path.join(project, "tsconfig.json"),
    readFileSync(path.join(repoRoot, "examples/docs-site/tsconfig.json")),
  );
  writeFileSync(path.join(project, "index.ts"), program);
  sh("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: project });

  const env = {
    ...toolchainEnv(),
    PULUMI_BACKEND_URL: `file://${path.join(project, ".state")}`,
    PULUMI_CONFIG_PASSPHRASE: "upgrade-fixture",
    PULUMI_HOME: path.join(project, ".pulumi-home"),
    DOCS_API_URL: emulator.url,
    DOCS_API_TOKEN: TOKEN,
  };
  mkdirSync(path.join(project, ".state"));
  // Asynchronous: the emulator answers from this process's event loop.
  const pulumi = async (...args) => {
    const run = promisify(execFile)(path.join(binDir, "pulumi"), [...args, "--non-interactive"], {
      cwd: project,
      env,
      maxBuffer: 256 << 20,
    });
    return (await run).stdout;
  };
  await pulumi("stack", "init", STACK, "--secrets-provider", "passphrase");
  await pulumi("config", "set", "organizationId", emulator.organizationId);
  await pulumi("config", "set", "spaceIds", JSON.stringify(emulator.spaceIds));
  await pulumi("config", "set", "userIds", JSON.stringify(emulator.userIds));
  await pulumi("config", "set", "adoptedCollectionId", adopted.id);

  console.log(`pulumi up with ${release.name} ${release.version}`);
  console.log(await pulumi("up", "--yes", "--skip-preview"));
  const writes = exchanges.filter((exchange) => exchange.method !== "GET");
  exchanges.length = 0;
  console.log(await pulumi("refresh", "--yes", "--skip-preview", "--expect-no-changes"));
  const reads = exchanges.filter((exchange) => exchange.method === "GET");

  const exported = JSON.parse(await pulumi("stack", "export", "--show-secrets"));
  delete exported.deployment.secrets_providers;
  const state = `${JSON.stringify(exported, null, 2)}\n`;
  if (state.includes(TOKEN)) throw new Error("the exported state holds the API token: not writing it");
  writeFileSync(path.join(fixtureDir, "state.json"), state);

  const recorded = (exchange) => ({
    method: exchange.method,
    path: exchange.path,
    query: exchange.query,
    body: exchange.requestBody,
    status: exchange.status,
    answer: exchange.responseBody,
  });
  const api = {
    release: `${release.name} ${release.version}`,
    commit: sh("git", ["rev-parse", commit], { cwd: repoRoot }).trim(),
    origin: emulator.origin,
    organizationId: emulator.organizationId,
    adoptedCollectionId: adopted.id,
    writes: writes.map(recorded),
    reads: reads.map(recorded),
  };
  writeFileSync(path.join(fixtureDir, "api.json"), `${JSON.stringify(api, null, 2)}\n`);
  console.log(`wrote ${fixtureDir}: ${writes.length} writes, ${reads.length} reads`);
} finally {
  await emulator.close();
  rmSync(work, { recursive: true, force: true });
}
