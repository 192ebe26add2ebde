// `npm run bench -- [--sizes 50,200,500] [--repeats 3] [--latency-ms 100 --latency-sizes 200] [--parallel 8]`
//
// Runs one program shape (bench/program/shape.js) through the real Pulumi CLI for each of the package's two routes
// (dynamic resources from `pulumi-docs-platform`; the `docs` provider plugin through `pulumi-docs-platform/plugin`) and
// for each route's no-op floor (bench/floor/: a dynamic provider, and a `docs` plugin), in turn per repeat (dynamic,
// floor, plugin, plugin-floor, dynamic, …), through a full cycle: up, preview, refresh, unchanged up, up with every 10th resource renamed, destroy. The CLI runs as a plain
// process (not the Automation API) because the bench needs its pid to account its process tree. The emulator runs
// inside this process, so its CPU never counts as the CLI's. Progress goes to stderr; the report (Markdown, JSON, SVG)
// to bench/results/. Needs `npm run setup` and `npm run build` first (the npm script runs both).
import { execFile } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { parseArgs, promisify } from "node:util";
import type * as EmulatorModule from "../emulator/index.ts";
import { packPackage } from "../tools/pack.mjs";
import { binDir, repoRoot, toolchainEnv } from "../tools/toolchain.mjs";
import { criticalPathRequests, type Invocation, invoke, type Traffic, traffic } from "./measure.mts";
import {
  OPS,
  type Op,
  type OpRecord,
  ROUTES,
  type Run,
  VARIANTS,
  type Variant,
  withRouteNames,
  writeReport,
} from "./report.mts";

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const benchDir = path.join(repoRoot, "bench");

const { values: flags } = parseArgs({
  options: {
    sizes: { type: "string", default: "50,200,500" },
    repeats: { type: "string", default: "3" },
    "latency-ms": { type: "string", default: "0" },
    "latency-sizes": { type: "string" },
    parallel: { type: "string" },
    out: { type: "string", default: path.join(benchDir, "results") },
    /** Writes a V8 CPU profile of every Node process of every CLI run (program and provider) under this folder. */
    "cpu-prof": { type: "string" },
    /** Re-renders the report of an earlier run's JSON without running anything. */
    render: { type: "string" },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (flags.help) {
  process.stdout.write(`Usage: npm run bench -- [options]

Runs bench/program/shape.js through the real Pulumi CLI with this package against the emulator, once through its
dynamic resources and once through its provider plugin, and with each route's no-op floor (bench/floor/: a dynamic
provider, and a \`docs\` plugin serving the plugin route's classes), in turn per repeat, through up, preview, refresh, an unchanged up, a rename up and destroy; writes the report (Markdown,
JSON, SVG) to --out.

Options:
  --sizes <list>          program sizes N, comma-separated (default 50,200,500)
  --repeats <n>           repeats per size, each running every variant (default 3)
  --latency-ms <ms>       also run each route with this latency on every API request (default 0: off)
  --latency-sizes <list>  the sizes of the latency runs, among --sizes (default: all of them)
  --parallel <n>          the CLI's --parallel (default 4 x CPUs, the CLI's own default)
  --out <dir>             where the report goes (default bench/results)
  --cpu-prof <dir>        also write a CPU profile of each CLI run's Node processes (program, provider) under
                          <dir>/<variant>-<N>-<op>/ (variant: dynamic, floor, plugin or plugin-floor); summarise them with
                          \`node bench/profile.mts <dir>\`
  --render <a.json,...>   one report from earlier runs' JSON, running nothing
  -h, --help              this help
`);
  process.exit(0);
}
const positiveIntegers = (text: string, flag: string) =>
  text.split(",").map((part) => {
    const value = Number(part.trim());
    if (!Number.isInteger(value) || value <= 0) throw new Error(`--${flag}: "${part}" is not a positive integer`);
    return value;
  });
const sizes = positiveIntegers(flags.sizes, "sizes");
const repeats = positiveIntegers(flags.repeats, "repeats")[0] ?? 3;
const latencyMs = Number(flags["latency-ms"]);
const latencySizes = latencyMs > 0 ? positiveIntegers(flags["latency-sizes"] ?? flags.sizes, "latency-sizes") : [];
for (const n of latencySizes) {
  if (!sizes.includes(n)) throw new Error(`--latency-sizes: ${n} is not one of --sizes (${sizes.join(",")})`);
}
// The CLI's default: 4 × the CPUs Go sees.
const parallel = flags.parallel ? positiveIntegers(flags.parallel, "parallel")[0]! : 4 * os.availableParallelism();

const { plan } = require("./program/shape.js") as {
  plan: (n: number) => { name: string; kind: string; deps: number[] }[];
};

// Removed after a successful run; kept (with the CLI logs) after a failure.
const workDir = flags.render ? "" : mkdtempSync(path.join(os.tmpdir(), "pulumi-docs-bench-"));
const logDir = path.join(workDir, "logs");
const progress = (line: string) => process.stderr.write(`${line}\n`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The module bench/program/index.js takes each variant's classes from (BENCH_KINDS). */
const KINDS_MODULE: Record<Variant, string> = {
  dynamic: "pulumi-docs-platform",
  plugin: "pulumi-docs-platform/plugin",
  floor: "docs-floor",
  "plugin-floor": "pulumi-docs-platform/plugin",
};
const isFloor = (variant: Variant) => variant === "floor" || variant === "plugin-floor";
/** Where each plugin-route variant's project finds its `pulumi-resource-docs`. */
const PLUGIN_PATH: Partial<Record<Variant, string>> = { plugin: "node_modules/.bin", "plugin-floor": "floor-plugin" };

/** A Pulumi project on disk running bench/program, with the package or the floor installed as users would. */
async function makeProject(variant: Variant, tarball: string): Promise<string> {
  const dir = path.join(workDir, variant);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // The same project name for all: URNs, and so state, differ only by what the provider stores.
  // The plugin route finds pulumi-resource-docs, the npm bin the package installs, as docs/plugin-migration.md says.
  // The plugin floor runs the same classes with bench/floor/plugin.js as the `docs` plugin.
  const pluginPath = PLUGIN_PATH[variant];
  const plugins = pluginPath ? `plugins:\n  providers:\n    - name: docs\n      path: ${pluginPath}\n` : "";
  writeFileSync(path.join(dir, "Pulumi.yaml"), `name: docs-bench\nruntime: nodejs\nmain: index.js\n${plugins}`);
  const dependencies: Record<string, string> = { "@pulumi/pulumi": require("@pulumi/pulumi/package.json").version };
  if (variant !== "floor") dependencies["pulumi-docs-platform"] = `file:${tarball}`;
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: `docs-bench-${variant}`, dependencies }));
  for (const file of ["index.js", "shape.js"]) copyFileSync(path.join(benchDir, "program", file), path.join(dir, file));
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: dir,
    env: toolchainEnv(),
  });
  if (variant === "floor") {
    // Copied, not linked: Pulumi writes a provider as a `require` of its package path only when the module's real
    // path lies under node_modules (npm links `file:` folders), as for the package's kinds.
    const floor = path.join(dir, "node_modules/docs-floor");
    mkdirSync(path.join(floor, "kinds"), { recursive: true });
    for (const file of ["package.json", "index.js", "noop.js"]) {
      copyFileSync(path.join(benchDir, "floor", file), path.join(floor, file));
    }
    const { KINDS } = require(path.join(benchDir, "floor/index.js")) as { KINDS: string[] };
    for (const kind of KINDS) {
      writeFileSync(path.join(floor, "kinds", `${kind}.js`), 'module.exports = require("../noop")();\n');
    }
  }
  if (variant === "plugin-floor") {
    const floorPlugin = path.join(dir, "floor-plugin");
    mkdirSync(floorPlugin, { recursive: true });
    for (const file of ["pulumi-resource-docs", "plugin.js"]) {
      copyFileSync(path.join(benchDir, "floor", file), path.join(floorPlugin, file));
    }
    chmodSync(path.join(floorPlugin, "pulumi-resource-docs"), 0o755);
  }
  if (variant === "plugin" && !existsSync(path.join(dir, "node_modules/.bin/pulumi-resource-docs"))) {
    throw new Error(`npm installed no node_modules/.bin/pulumi-resource-docs in ${dir}: the package's bin is missing`);
  }
  try {
    require.resolve(KINDS_MODULE[variant], { paths: [dir] });
  } catch (error) {
    throw new Error(
      `the ${variant} project cannot load ${KINDS_MODULE[variant]}: ${error instanceof Error ? error.message : error}`,
    );
  }
  return dir;
}

/** First to last provider call the floor logged (bench/floor/noop.js): how fast the engine hands out the work. */
function spanOfCalls(file: string): number | undefined {
  if (!existsSync(file)) return undefined;
  const times = readFileSync(file, "utf8").split("\n").filter(Boolean).map(Number);
  return times.length > 0 ? Math.max(...times) - Math.min(...times) : undefined;
}

const CLI_ARGS: Record<Op, string[]> = {
  up: ["up", "--yes", "--skip-preview"],
  preview: ["preview"],
  refresh: ["refresh", "--yes", "--skip-preview"],
  "unchanged up": ["up", "--yes", "--skip-preview"],
  "rename up": ["up", "--yes", "--skip-preview"],
  destroy: ["destroy", "--yes", "--skip-preview"],
};

async function main() {
  const began = Date.now();
  const distEmulator = path.join(repoRoot, "dist/emulator/index.js");
  if (!existsSync(distEmulator)) throw new Error("dist/ is missing: run `npm run build` (npm run bench does)");
  const { startEmulator } = require(distEmulator) as typeof EmulatorModule;
  mkdirSync(logDir, { recursive: true });
  progress(`bench: sizes ${sizes.join(", ")}, ${repeats} repeat(s), --parallel ${parallel}; work in ${workDir}`);
  const tarball = await packPackage(path.join(workDir, "pack"));
  const dirs = {} as Record<Variant, string>;
  for (const variant of VARIANTS) dirs[variant] = await makeProject(variant, tarball);
  const emulator = await startEmulator({ token: "bench-token" });
  const envOf = (variant: Variant, n: number, rename: boolean) =>
    toolchainEnv({
      ...process.env,
      PULUMI_BACKEND_URL: `file://${path.join(dirs[variant], ".state")}`,
      PULUMI_CONFIG_PASSPHRASE: "bench-passphrase",
      PULUMI_HOME: path.join(dirs[variant], ".pulumi-home"),
      DOCS_API_URL: emulator.url,
      DOCS_API_TOKEN: emulator.token,
      BENCH_KINDS: KINDS_MODULE[variant],
      BENCH_N: String(n),
      BENCH_RENAME: rename ? "1" : "0",
      BENCH_ORGANIZATION_ID: emulator.organizationId,
      BENCH_SPACE_IDS: JSON.stringify(emulator.spaceIds),
      BENCH_USER_IDS: JSON.stringify(emulator.userIds),
    });
  const pulumi = path.join(binDir, "pulumi");
  for (const variant of VARIANTS) {
    mkdirSync(path.join(dirs[variant], ".state"), { recursive: true });
    await run(pulumi, ["stack", "init", "bench", "--non-interactive"], {
      cwd: dirs[variant],
      env: envOf(variant, 0, false),
    });
  }

  async function stateBytes(variant: Variant, env: NodeJS.ProcessEnv) {
    const { stdout } = await run(pulumi, ["stack", "export", "--non-interactive"], {
      cwd: dirs[variant],
      env,
      maxBuffer: 1 << 30,
    });
    const resources = (JSON.parse(stdout).deployment?.resources ?? []) as unknown[];
    return { bytes: Buffer.byteLength(stdout), resources: resources.length };
  }

  const records: OpRecord[] = [];
  const secondsPerSize: Record<string, number> = {};
  /** One full cycle of one variant; the stack is empty before and after. */
  async function cycle(variant: Variant, n: number, repeat: number, latency: number) {
    const resources = plan(n);
    emulator.reset();
    if (latency > 0) emulator.injectFault({ path: "^/v1/", count: Number.MAX_SAFE_INTEGER, latencyMs: latency });
    const label = `N=${n} ${variant}${latency > 0 ? ` latency ${latency} ms` : ""} #${repeat}`;
    for (const op of OPS) {
      const env = envOf(variant, n, op === "rename up");
      if (flags["cpu-prof"]) {
        const dir = path.resolve(
          flags["cpu-prof"],
          `${variant}-${n}-${op.replace(" ", "-")}${latency ? "-latency" : ""}`,
        );
        const onInterrupt = path.join(benchDir, "exit-on-interrupt.cjs");
        env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ""} --cpu-prof --cpu-prof-dir=${dir} --require ${onInterrupt}`.trim();
      }
      const callLog = path.join(logDir, `calls-${variant}-${n}-${repeat}-${latency}-${op.replace(" ", "-")}.txt`);
      if (isFloor(variant)) env.BENCH_CALL_LOG = callLog;
      emulator.clearRequests();
      const measured: Invocation = await invoke(
        pulumi,
        [...CLI_ARGS[op], "--non-interactive", "--parallel", String(parallel)],
        {
          cwd: dirs[variant],
          env,
          logFile: path.join(logDir, `${variant}-${n}-${repeat}-${latency}.log`),
        },
      );
      const api: Traffic = traffic(emulator.requests());
      const state = await stateBytes(variant, env);
      const ordered = op !== "refresh";
      const criticalPath = criticalPathRequests(resources, api.byFamily, ordered);
      const callSpanMs = isFloor(variant) ? spanOfCalls(callLog) : undefined;
      records.push({
        n,
        variant,
        repeat,
        latencyMs: latency,
        op,
        ...measured,
        api,
        state,
        criticalPath,
        parallel,
        callSpanMs,
      });
      progress(
        `  ${label.padEnd(34)} ${op.padEnd(12)} wall ${seconds(measured.wallMs).padStart(7)}  cpu ${seconds(measured.cpuMs).padStart(7)}` +
          (isFloor(variant) ? "" : `  ${api.requests} requests (${api.writes} writes)`),
      );
    }
    emulator.clearFaults();
  }

  const cli = (await run(pulumi, ["version"])).stdout.trim();
  /** Written after each size too, so a run stopped early keeps what it measured. */
  const report = () =>
    writeReport(flags.out, {
      date: new Date(began).toISOString(),
      command: `npm run bench -- ${process.argv.slice(2).join(" ")}`.trim(),
      machine: `${os.availableParallelism()} CPUs (${os.cpus()[0]?.model ?? "unknown"}), load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
      cli,
      sizes,
      repeats,
      parallel,
      latencyMs,
      secondsPerSize,
      totalSeconds: (Date.now() - began) / 1000,
      records,
    });

  for (const n of sizes) {
    const start = Date.now();
    for (let repeat = 1; repeat <= repeats; repeat++) {
      for (const variant of VARIANTS) {
        await cycle(variant, n, repeat, 0);
        secondsPerSize[`N=${n}`] = (Date.now() - start) / 1000;
        await report();
      }
      // After the first repeat, so a run stopped early still has the latency figures of each size it reached.
      if (repeat === 1 && latencySizes.includes(n)) {
        const latencyStart = Date.now();
        for (const route of ROUTES) await cycle(route, n, 1, latencyMs);
        secondsPerSize[`N=${n} latency ${latencyMs} ms`] = (Date.now() - latencyStart) / 1000;
        await report();
      }
    }
    progress(`N=${n}: ${seconds(Date.now() - start)}`);
  }
  await emulator.close();
  const files = await report();
  progress(`bench: done in ${seconds(Date.now() - began)}; report: ${files.join(", ")}`);
  rmSync(workDir, { recursive: true, force: true });
}

if (flags.render) {
  // Several runs' JSON (comma-separated) make one report, e.g. sizes measured by separate invocations.
  const runs = flags.render.split(",").map((file) => {
    const earlier = JSON.parse(readFileSync(file, "utf8")) as Run;
    return { ...earlier, records: withRouteNames(earlier.records) };
  });
  const merged: Run = {
    ...runs[0]!,
    command: runs.map((r) => `${r.command} [measured N = ${[...new Set(r.records.map((x) => x.n))]}]`).join(" ; "),
    sizes: [...new Set(runs.flatMap((r) => r.sizes))],
    latencyMs: Math.max(...runs.map((r) => r.latencyMs)),
    machine: runs.map((r) => r.machine).join("; "),
    secondsPerSize: runs.reduce<Record<string, number>>((sum, r) => {
      for (const [size, value] of Object.entries(r.secondsPerSize)) sum[size] = (sum[size] ?? 0) + value;
      return sum;
    }, {}),
    totalSeconds: runs.reduce((sum, r) => sum + r.totalSeconds, 0),
    records: [],
  };
  // Repeats are numbered per run; renumber them so pairs stay within their run and each size counts them all.
  for (const r of runs) {
    const offsets = new Map<number, number>();
    for (const x of merged.records) offsets.set(x.n, Math.max(offsets.get(x.n) ?? 0, x.repeat));
    for (const x of r.records) merged.records.push({ ...x, repeat: x.repeat + (offsets.get(x.n) ?? 0) });
  }
  const files = await writeReport(flags.out, merged);
  progress(`bench: report rendered: ${files.join(", ")}`);
} else {
  await main().catch((error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.stderr.write(`bench: projects and CLI logs kept in ${workDir}\n`);
    process.exit(1);
  });
}
