// `node tools/with-toolchain.mjs node bench/scale.mts [--shape space-heavy|site-heavy] [--objects 2000] [--split]`
//
// Requests and engine cost of adopting an organization of a given shape and size with `docs-platform import`, through
// the real CLI against the in-process emulator. Each operation (import, the adoption `up`, refresh, preview with
// preflight, `docs-platform unmanaged`) without and under a rate limit (a window the operation spends about five times
// over), the state-writing ones with checkpoints and with PULUMI_SKIP_CHECKPOINTS=true; with --split the same over
// the split projects (their costs summed, `unmanaged --stacks` over all of them). Requests per resource, the engine's
// CPU (the pulumi process) and the whole tree's, and the bytes the engine wrote.
// Needs `npm run build` first. Prints a Markdown table, writes it to bench/results/scale-<shape>-<N>.md and the JSON to
// --out (default bench/results/scale-<shape>-<N>.json).
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
  /** The whole process tree's CPU (engine, program, provider). */
  cpuS: number;
  /** The engine's own CPU: the pulumi process, polled (a lower bound). */
  engineCpuS: number;
  writtenMB: number;
}
const none = (): Measured => ({ requests: 0, throttled: 0, wallS: 0, cpuS: 0, engineCpuS: 0, writtenMB: 0 });
function add(sum: Measured, cost: Measured): Measured {
  for (const key of Object.keys(sum) as (keyof Measured)[]) sum[key] += cost[key];
  return sum;
}

/** A window the operation measured without a limit (`base` requests) spends about five times over. */
const limitFor = (base: number) => ({ limit: Math.max(1, Math.ceil(base / 5)), windowMs: 3_000 });

async function measureCommand(
  command: string,
  args: string[],
  dir: string,
  options: { extra?: Record<string, string>; limitBase?: number; exitCodes?: number[] } = {},
): Promise<Measured> {
  emulator.clearRequests();
  if (options.limitBase !== undefined) emulator.setRateLimit(limitFor(options.limitBase));
  try {
    const cost: Invocation = await invoke(command, args, {
      cwd: dir,
      env: env(options.extra),
      logFile: path.join(workDir, "cli.log"),
      ...(options.exitCodes ? { exitCodes: options.exitCodes } : {}),
    });
    const sent = requests();
    return {
      requests: sent.length,
      throttled: sent.filter((r) => r.rateLimited).length,
      wallS: cost.wallMs / 1000,
      cpuS: cost.cpuMs / 1000,
      engineCpuS: (cost.polledCpuMsByRole?.cli ?? 0) / 1000,
      writtenMB: cost.cliWrittenBytes / 1e6,
    };
  } finally {
    emulator.setRateLimit(undefined);
  }
}
const measure = (dir: string, args: string[], options: Parameters<typeof measureCommand>[3] = {}) =>
  measureCommand(pulumi, [...args, "--non-interactive"], dir, options);

const skipCheckpoints = { PULUMI_SKIP_CHECKPOINTS: "true" };
const preflight = { DOCS_PREFLIGHT: "true" };

async function importInto(out: string, split: boolean, limitBase?: number): Promise<Measured> {
  rmSync(out, { recursive: true, force: true });
  const args = ["import", "--organization", emulator.organizationId, "--out", out, "--name", "scale", "--quiet"];
  return measureCommand(process.execPath, [cli, ...args, ...(split ? ["--split"] : [])], workDir, {
    ...(limitBase !== undefined ? { limitBase } : {}),
  });
}

/** `docs-platform unmanaged` over the stacks (exit 3 when it finds objects: a count, not a failure here). */
const unmanaged = (dir: string, stackArgs: string[], limitBase?: number) =>
  measureCommand(process.execPath, [cli, "unmanaged", ...stackArgs, "--json"], dir, {
    exitCodes: [0, 3],
    ...(limitBase !== undefined ? { limitBase } : {}),
  });

async function install(dir: string, tarball: string) {
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", tarball], {
    cwd: dir,
    env: env(),
  });
}

async function stack(dir: string, name: string) {
  await run(pulumi, ["stack", "init", name, "--non-interactive"], { cwd: dir, env: env() });
}

async function resourcesOf(dir: string, name: string): Promise<number> {
  const { stdout } = await run(pulumi, ["stack", "export", "--stack", name], {
    cwd: dir,
    env: env(),
    maxBuffer: 1 << 30,
  });
  return stdout.match(/"urn"/g)?.length ?? 0;
}

type Row = [operation: string, cost: Measured];
const rows: Row[] = [];
const record = (operation: string, cost: Measured) => {
  rows.push([operation, cost]);
  progress(`${operation}: ${cost.requests} requests (${cost.throttled} answered 429), ${cost.cpuS.toFixed(1)} s CPU`);
  writeReport(false);
  return cost;
};

const out = flags.out ?? path.join(repoRoot, "bench/results", `scale-${shape}-${objects}.json`);
let resources = 0;
let projects = 0;
let imported: Measured | undefined;
let adoption: Measured | undefined;
let skipping: Measured | undefined;
/** Written after each operation, so that a run stopped early still leaves its figures. */
function writeReport(done: boolean) {
  const perResource = (n: number) => (resources > 0 ? (n / resources).toFixed(3) : "-");
  const ratio = (cost: Measured | undefined) =>
    cost && imported ? `${(cost.requests / imported.requests).toFixed(2)}×` : "-";
  const table = [
    `${shape}, ${objects} objects asked, ${resources} resources${projects ? `, ${projects} split projects` : ""} (${new Date().toISOString().slice(0, 16)}Z, ${os.cpus().length} CPUs shared, load average ${os.loadavg()[0]!.toFixed(1)}${done ? " at the end" : "; still running"})`,
    "",
    `Adoption's requests against import's: ${ratio(adoption)} with checkpoints, ${ratio(skipping)} with PULUMI_SKIP_CHECKPOINTS=true.`,
    "Requests count every one sent, those answered 429 (and sent again) included; answered is the rest.",
    "",
    "| operation | requests | per resource | answered 429 | answered | wall s | CPU s (tree) | engine CPU s | engine wrote MB |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      ([op, c]) =>
        `| ${op} | ${c.requests} | ${perResource(c.requests)} | ${c.throttled} | ${c.requests - c.throttled} | ${c.wallS.toFixed(1)} | ${c.cpuS.toFixed(1)} | ${c.engineCpuS.toFixed(1)} | ${c.writtenMB.toFixed(0)} |`,
    ),
  ].join("\n");
  if (done) process.stdout.write(`${table}\n`);
  writeFileSync(
    out,
    `${JSON.stringify({ date: new Date().toISOString(), done, shape, objects, resources, projects, rows: rows.map(([operation, cost]) => ({ operation, ...cost })) }, null, 2)}\n`,
  );
  writeFileSync(out.replace(/\.json$/, ".md"), `${table}\n`);
}

const seeded = await seed();
progress(`${shape}: seeded ${seeded} objects`);
mkdirSync(path.join(workDir, ".state"), { recursive: true });
const tarball = await packPackage(path.join(workDir, "pack"));
const one = path.join(workDir, "one");
imported = record("import", await importInto(one, false));
record("import, rate limit", await importInto(one, false, imported.requests));
await install(one, tarball);
await stack(one, "checkpoints");
adoption = record("adoption up", await measure(one, ["up", "--yes", "--skip-preview", "--stack", "checkpoints"]));
// Each resource's URN, less the stack and the provider.
resources = (await resourcesOf(one, "checkpoints")) - 2;
await stack(one, "skipping");
skipping = record(
  "adoption up, PULUMI_SKIP_CHECKPOINTS",
  await measure(one, ["up", "--yes", "--skip-preview", "--stack", "skipping"], { extra: skipCheckpoints }),
);
await stack(one, "limited");
record(
  "adoption up, PULUMI_SKIP_CHECKPOINTS, rate limit",
  await measure(one, ["up", "--yes", "--skip-preview", "--stack", "limited"], {
    extra: skipCheckpoints,
    limitBase: skipping.requests,
  }),
);
const refreshArgs = ["refresh", "--yes", "--skip-preview", "--stack", "checkpoints"];
const refresh = record("refresh", await measure(one, refreshArgs));
record("refresh, rate limit", await measure(one, refreshArgs, { limitBase: refresh.requests }));
record("refresh, PULUMI_SKIP_CHECKPOINTS", await measure(one, refreshArgs, { extra: skipCheckpoints }));
const previewArgs = ["preview", "--stack", "checkpoints"];
const preview = record("preview, preflight", await measure(one, previewArgs, { extra: preflight }));
record(
  "preview, preflight, rate limit",
  await measure(one, previewArgs, { extra: preflight, limitBase: preview.requests }),
);
const listed = record("unmanaged", await unmanaged(one, ["--stack", "checkpoints"]));
record("unmanaged, rate limit", await unmanaged(one, ["--stack", "checkpoints"], listed.requests));

if (flags.split) {
  const out = path.join(workDir, "split");
  record("import --split", await importInto(out, true));
  const dirs = readdirSync(out).map((name) => path.join(out, name));
  projects = dirs.length;
  await install(dirs[0]!, tarball);
  const adopted = none();
  const refreshed = none();
  for (const dir of dirs) {
    if (dir !== dirs[0]) symlinkSync(path.join(dirs[0]!, "node_modules"), path.join(dir, "node_modules"), "dir");
    await stack(dir, "split");
    add(adopted, await measure(dir, ["up", "--yes", "--skip-preview", "--stack", "split"]));
  }
  record(`adoption up, --split (${projects} projects, summed)`, adopted);
  for (const dir of dirs)
    add(refreshed, await measure(dir, ["refresh", "--yes", "--skip-preview", "--stack", "split"]));
  record(`refresh, --split (${projects} projects, summed)`, refreshed);
  const stacks = dirs.map((dir) => `organization/${path.basename(dir)}/split`).join(",");
  record(`unmanaged --stacks (${projects} stacks)`, await unmanaged(dirs[0]!, ["--stacks", stacks]));
}
await emulator.close();

writeReport(true);
rmSync(workDir, { recursive: true, force: true });
