// `node tools/with-toolchain.mjs node bench/scale.mts [--shape space-heavy|site-heavy] [--objects 2000] [--split]`
//
// Requests and engine cost of adopting an organization of a given shape and size with `docs-platform import`, through
// the real CLI against the in-process emulator: import's requests; the adoption `up`'s requests, engine CPU and bytes
// written, with checkpoints and with PULUMI_SKIP_CHECKPOINTS=true; a refresh's requests without and under a rate limit
// (a window the refresh spends about five times over); and with --split the same adoption over the split projects.
// Needs `npm run build` first. Prints a Markdown table and writes JSON to --out (default bench/results/scale-<shape>-<N>.json).
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { parseArgs, promisify } from "node:util";
import type * as EmulatorModule from "../emulator/index.ts";
import { packPackage } from "../tools/pack.mjs";
import { binDir, repoRoot, toolchainEnv } from "../tools/toolchain.mjs";
import { type Invocation, invoke } from "./measure.mts";

const run = promisify(execFile);
const require = createRequire(import.meta.url);

const { values: flags } = parseArgs({
  options: {
    shape: { type: "string", default: "space-heavy" },
    objects: { type: "string", default: "2000" },
    split: { type: "boolean", default: false },
    out: { type: "string" },
  },
});
const shape = flags.shape;
if (shape !== "space-heavy" && shape !== "site-heavy")
  throw new Error(`--shape: space-heavy or site-heavy, not ${shape}`);
const objects = Number(flags.objects);
if (!Number.isInteger(objects) || objects <= 0) throw new Error(`--objects: a positive integer, not ${flags.objects}`);

const workDir = mkdtempSync(path.join(os.tmpdir(), "pulumi-docs-scale-"));
const progress = (line: string) => process.stderr.write(`scale: ${line}\n`);
const { startEmulator } = require(path.join(repoRoot, "dist/emulator/index.js")) as typeof EmulatorModule;
const emulator = await startEmulator({ token: "scale-token" });
const org = `/orgs/${emulator.organizationId}`;

async function send(method: string, apiPath: string, body?: unknown): Promise<{ id: string }> {
  const answer = await fetch(`${emulator.url}${apiPath}`, {
    method,
    headers: { authorization: `Bearer ${emulator.token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await answer.text();
  if (answer.status >= 300) throw new Error(`${method} ${apiPath}: ${answer.status} ${text}`);
  return text ? (JSON.parse(text) as { id: string }) : { id: "" };
}

/**
 * Units of 12 objects until `objects`. space-heavy: a collection holding eight spaces, a team, and two grants of the
 * team on spaces (0.37 refresh requests per resource in issue 42). site-heavy: a site with four sections (each with
 * its site space), two share links and a team.
 */
async function seed(): Promise<number> {
  let made = 0;
  for (let unit = 0; made < objects; unit++) {
    if (shape === "space-heavy") {
      const collection = (await send("POST", `${org}/collections`, { title: `Shelf ${unit}` })).id;
      const spaces: string[] = [];
      for (let i = 0; i < 8; i++) {
        spaces.push((await send("POST", `${org}/spaces`, { title: `Book ${unit}.${i}`, parent: collection })).id);
      }
      const team = (await send("PUT", `${org}/teams`, { title: `Readers ${unit}` })).id;
      for (const space of spaces.slice(0, 2))
        await send("POST", `/spaces/${space}/permissions`, { role: "read", teams: [team] });
    } else {
      const site = (await send("POST", `${org}/sites`, { title: `Docs ${unit}`, visibility: "public" })).id;
      for (let i = 0; i < 4; i++) {
        await send("POST", `${org}/sites/${site}/sections`, {
          spaceId: emulator.spaceIds[i % emulator.spaceIds.length],
          title: `Part ${i}`,
        });
      }
      for (let i = 0; i < 2; i++) await send("POST", `${org}/sites/${site}/share-links`, { name: `Review ${i}` });
      await send("PUT", `${org}/teams`, { title: `Writers ${unit}` });
    }
    made += 12;
  }
  return made;
}

const requests = () => emulator.requests().filter((r) => r.path.startsWith("/v1/"));
const env = (extra: Record<string, string> = {}) =>
  toolchainEnv({
    ...process.env,
    PULUMI_BACKEND_URL: `file://${path.join(workDir, ".state")}`,
    PULUMI_CONFIG_PASSPHRASE: "scale-passphrase",
    PULUMI_HOME: path.join(workDir, ".pulumi-home"),
    DOCS_API_URL: emulator.url,
    DOCS_API_TOKEN: emulator.token,
    ...extra,
  });
const pulumi = path.join(binDir, "pulumi");
const cli = path.join(repoRoot, "dist/cli/main.js");

interface Measured {
  requests: number;
  throttled: number;
  wallS: number;
  cpuS: number;
  writtenMB: number;
}
async function measure(dir: string, args: string[], extra: Record<string, string> = {}): Promise<Measured> {
  emulator.clearRequests();
  const cost: Invocation = await invoke(pulumi, [...args, "--non-interactive"], {
    cwd: dir,
    env: env(extra),
    logFile: path.join(workDir, "cli.log"),
  });
  const sent = requests();
  return {
    requests: sent.length,
    throttled: sent.filter((r) => r.rateLimited).length,
    wallS: cost.wallMs / 1000,
    cpuS: cost.cpuMs / 1000,
    writtenMB: cost.cliWrittenBytes / 1e6,
  };
}

async function importInto(out: string, split: boolean): Promise<number> {
  emulator.clearRequests();
  const args = ["import", "--organization", emulator.organizationId, "--out", out, "--name", "scale", "--quiet"];
  await run(process.execPath, [cli, ...args, ...(split ? ["--split"] : [])], { env: env(), maxBuffer: 1 << 28 });
  return requests().length;
}

async function install(dir: string, tarball: string) {
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", tarball], {
    cwd: dir,
    env: env(),
  });
}

async function stack(dir: string, name: string) {
  await run(pulumi, ["stack", "init", name, "--non-interactive"], { cwd: dir, env: env() });
}

const seeded = await seed();
progress(`${shape}: seeded ${seeded} objects`);
mkdirSync(path.join(workDir, ".state"), { recursive: true });
const tarball = await packPackage(path.join(workDir, "pack"));
const one = path.join(workDir, "one");
const importRequests = await importInto(one, false);
await install(one, tarball);
await stack(one, "checkpoints");
const adoption = await measure(one, ["up", "--yes", "--skip-preview", "--stack", "checkpoints"]);
const resources =
  adoption.requests >= 0
    ? Number(
        (
          await run(pulumi, ["stack", "export", "--stack", "checkpoints"], { cwd: one, env: env(), maxBuffer: 1 << 30 })
        ).stdout.match(/"urn"/g)?.length ?? 0,
      ) - 2
    : 0;
progress(`import ${importRequests} requests; adoption with checkpoints ${adoption.requests}`);
await stack(one, "skipping");
const skipping = await measure(one, ["up", "--yes", "--skip-preview", "--stack", "skipping"], {
  PULUMI_SKIP_CHECKPOINTS: "true",
});
progress(`adoption skipping checkpoints ${skipping.requests}`);
const refresh = await measure(one, ["refresh", "--yes", "--skip-preview", "--stack", "checkpoints"]);
emulator.setRateLimit({ limit: Math.max(1, Math.ceil(refresh.requests / 5)), windowMs: 3_000 });
const throttled = await measure(one, ["refresh", "--yes", "--skip-preview", "--stack", "checkpoints"]);
emulator.setRateLimit(undefined);
progress(`refresh ${refresh.requests}; under a rate limit ${throttled.requests} (${throttled.throttled} answered 429)`);

let split: (Measured & { projects: number }) | undefined;
if (flags.split) {
  const out = path.join(workDir, "split");
  await importInto(out, true);
  const projects = readdirSync(out).map((name) => path.join(out, name));
  await install(projects[0]!, tarball);
  split = { requests: 0, throttled: 0, wallS: 0, cpuS: 0, writtenMB: 0, projects: projects.length };
  for (const dir of projects) {
    if (dir !== projects[0])
      symlinkSync(path.join(projects[0]!, "node_modules"), path.join(dir, "node_modules"), "dir");
    await stack(dir, "split");
    const cost = await measure(dir, ["up", "--yes", "--skip-preview", "--stack", "split"]);
    for (const key of ["requests", "throttled", "wallS", "cpuS", "writtenMB"] as const) split[key] += cost[key];
  }
  progress(`split: ${projects.length} projects, ${split.requests} requests, ${split.cpuS.toFixed(1)} s CPU`);
}
await emulator.close();

const perResource = (n: number) => (resources > 0 ? (n / resources).toFixed(3) : "-");
const rows = [
  ["import", importRequests, "", "", ""],
  [
    "adoption up, checkpoints",
    adoption.requests,
    adoption.wallS.toFixed(1),
    adoption.cpuS.toFixed(1),
    adoption.writtenMB.toFixed(0),
  ],
  [
    "adoption up, PULUMI_SKIP_CHECKPOINTS",
    skipping.requests,
    skipping.wallS.toFixed(1),
    skipping.cpuS.toFixed(1),
    skipping.writtenMB.toFixed(0),
  ],
  ["refresh", refresh.requests, refresh.wallS.toFixed(1), refresh.cpuS.toFixed(1), refresh.writtenMB.toFixed(0)],
  [
    `refresh under a rate limit (${throttled.throttled} answered 429)`,
    throttled.requests,
    throttled.wallS.toFixed(1),
    throttled.cpuS.toFixed(1),
    throttled.writtenMB.toFixed(0),
  ],
  ...(split
    ? [
        [
          `adoption up, --split (${split.projects} projects, summed)`,
          split.requests,
          split.wallS.toFixed(1),
          split.cpuS.toFixed(1),
          split.writtenMB.toFixed(0),
        ],
      ]
    : []),
];
const table = [
  `${shape}, ${seeded} objects, ${resources} resources (adoption/import requests: ${(adoption.requests / importRequests).toFixed(2)} with checkpoints, ${(skipping.requests / importRequests).toFixed(2)} without)`,
  "",
  "| operation | requests | per resource | wall s | CPU s | CLI wrote MB |",
  "|---|---:|---:|---:|---:|---:|",
  ...rows.map(([op, n, wall, cpu, mb]) => `| ${op} | ${n} | ${perResource(Number(n))} | ${wall} | ${cpu} | ${mb} |`),
].join("\n");
process.stdout.write(`${table}\n`);
const out = flags.out ?? path.join(repoRoot, "bench/results", `scale-${shape}-${objects}.json`);
writeFileSync(
  out,
  `${JSON.stringify({ date: new Date().toISOString(), shape, objects: seeded, resources, importRequests, adoption, skipping, refresh, throttled, split }, null, 2)}\n`,
);
rmSync(workDir, { recursive: true, force: true });
