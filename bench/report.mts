// Turns the bench's raw records into bench/results/<stamp>.{json,md,svg} and latest.* copies. The chart is a
// vega-lite spec rendered to SVG by vega's headless View (no canvas needed for SVG).
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as vega from "vega";
import * as vegaLite from "vega-lite";
import type { Invocation, Traffic } from "./measure.mts";
import type { Role } from "./procs.mts";

export const OPS = ["up", "preview", "refresh", "unchanged up", "rename up", "destroy"] as const;
export type Op = (typeof OPS)[number];
/** The package's two routes to the engine: dynamic resources, and the `docs` provider plugin. */
export const ROUTES = ["dynamic", "plugin"] as const;
export type Route = (typeof ROUTES)[number];
/**
 * Each route, each followed by its own no-op floor: "floor", a no-op dynamic provider (bench/floor/noop.js), for the
 * dynamic route; "plugin-floor", a no-op `docs` provider plugin (bench/floor/plugin.js), for the plugin route.
 */
export const VARIANTS = ["dynamic", "floor", "plugin", "plugin-floor"] as const;
export type Variant = (typeof VARIANTS)[number];
export type Floor = "floor" | "plugin-floor";
/** The floor a route is measured against: the same engine path (dynamic provider or plugin) doing nothing. */
export const FLOOR_OF: Record<Route, Floor> = { dynamic: "floor", plugin: "plugin-floor" };
const FLOOR_TITLE: Record<Route, string> = { dynamic: "dynamic floor", plugin: "plugin floor" };

export interface OpRecord extends Invocation {
  n: number;
  variant: Variant;
  repeat: number;
  latencyMs: number;
  op: Op;
  api: Traffic;
  /** `pulumi stack export` after the operation. */
  state: { bytes: number; resources: number };
  /** Longest chain of dependent requests (see criticalPathRequests). */
  criticalPath: number;
  parallel: number;
  /** The floors only: first to last provider call, i.e. how fast the engine hands out work that costs nothing. */
  callSpanMs?: number;
}

export interface Run {
  date: string;
  command: string;
  machine: string;
  cli: string;
  sizes: number[];
  repeats: number;
  parallel: number;
  latencyMs: number;
  secondsPerSize: Record<string, number>;
  totalSeconds: number;
  records: OpRecord[];
}

/**
 * Records of runs before the plugin route called the dynamic route "project"; `--render` reads them as "dynamic".
 */
export function withRouteNames(records: OpRecord[]): OpRecord[] {
  return records.map((r) => ((r.variant as string) === "project" ? { ...r, variant: "dynamic" } : r));
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const min = (values: number[]) => Math.min(...values);
const s = (ms: number) => (ms / 1000).toFixed(2);
const mb = (kilobytes: number) => (kilobytes / 1024).toFixed(0);
const mbOfBytes = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const DASH = "–";

interface Stats {
  min: number;
  median: number;
}

/** One variant's figures for one N and operation (medians over the repeats unless named otherwise). */
export interface VariantSummary {
  wall: Stats;
  cpu: Stats;
  stateBytesPerResource: number;
  /** Resources in the state after the operation (the stack and its default provider included). */
  stateResources: number;
  peakRssKb: { program: number; provider: number };
  cliWrittenBytes: number;
  /** Provider processes (dynamic-provider or pulumi-resource-docs) the operation started. */
  providerProcesses: number;
  /** Polled CPU by process role, when the run recorded it. */
  cpuByRole?: Record<Role, number>;
}

/** A route's figures, with its ratio to its own floor and the API traffic it caused. */
export interface RouteSummary extends VariantSummary {
  /** Its floor's figures (FLOOR_OF). */
  floor: VariantSummary;
  /** Median over the repeats of route ÷ its floor of the same repeat. */
  wallRatio: number;
  cpuRatio: number;
  requests: number;
  writes: number;
  requestsPerResource: number;
  byFamily: Record<string, number>;
}

export interface Summary {
  n: number;
  op: Op;
  /** The routes this run measured with their floors (a run from before the plugin route has the dynamic one only). */
  routes: Partial<Record<Route, RouteSummary>>;
}

/** Median polled CPU by role over the records that have it (runs before it was recorded have none). */
function cpuByRole(rs: OpRecord[]): Record<Role, number> | undefined {
  const recorded = rs.flatMap((r) => (r.polledCpuMsByRole ? [r.polledCpuMsByRole] : []));
  if (recorded.length === 0) return undefined;
  const of = (role: Role) => median(recorded.map((byRole) => byRole[role]));
  return { cli: of("cli"), program: of("program"), provider: of("provider"), other: of("other") };
}

function summarizeVariant(rs: OpRecord[], n: number): VariantSummary {
  const stats = (pick: (r: OpRecord) => number) => ({ min: min(rs.map(pick)), median: median(rs.map(pick)) });
  const med = (pick: (r: OpRecord) => number) => median(rs.map(pick));
  return {
    wall: stats((r) => r.wallMs),
    cpu: stats((r) => r.cpuMs),
    stateBytesPerResource: med((r) => r.state.bytes) / n,
    stateResources: med((r) => r.state.resources),
    peakRssKb: { program: med((r) => r.peakRssKb.program), provider: med((r) => r.peakRssKb.provider) },
    cliWrittenBytes: med((r) => r.cliWrittenBytes),
    providerProcesses: med((r) => r.processes.provider),
    cpuByRole: cpuByRole(rs),
  };
}

export function summarize(records: OpRecord[]): Summary[] {
  const timed = records.filter((r) => r.latencyMs === 0);
  const summaries: Summary[] = [];
  for (const n of [...new Set(timed.map((r) => r.n))]) {
    for (const op of OPS) {
      const of = (variant: Variant) => timed.filter((r) => r.n === n && r.op === op && r.variant === variant);
      const routes: Partial<Record<Route, RouteSummary>> = {};
      for (const route of ROUTES) {
        const measured = of(route);
        const floor = of(FLOOR_OF[route]);
        if (measured.length === 0 || floor.length === 0) continue;
        const pairs = measured.flatMap((m) => {
          const f = floor.find((r) => r.repeat === m.repeat);
          return f ? [{ m, f }] : [];
        });
        const families = [...new Set(measured.flatMap((r) => Object.keys(r.api.byFamily)))];
        routes[route] = {
          ...summarizeVariant(measured, n),
          floor: summarizeVariant(floor, n),
          wallRatio: median(pairs.map(({ m, f }) => m.wallMs / f.wallMs)),
          cpuRatio: median(pairs.map(({ m, f }) => m.cpuMs / f.cpuMs)),
          requests: median(measured.map((r) => r.api.requests)),
          writes: median(measured.map((r) => r.api.writes)),
          requestsPerResource: median(measured.map((r) => r.api.requests)) / n,
          byFamily: Object.fromEntries(families.map((f) => [f, median(measured.map((r) => r.api.byFamily[f] ?? 0))])),
        };
      }
      if (Object.keys(routes).length === 0) continue;
      summaries.push({ n, op, routes });
    }
  }
  return summaries;
}

/** One cell per route, "–" for a route the run did not measure. */
const perRoute = (x: Summary, cell: (r: RouteSummary) => string) =>
  ROUTES.map((route) => {
    const summary = x.routes[route];
    return summary ? cell(summary) : DASH;
  });
/** Two cells per route, the route's then its floor's: dynamic, dynamic floor, plugin, plugin floor. */
const withFloors = (x: Summary, cell: (v: VariantSummary) => string) =>
  ROUTES.flatMap((route) => {
    const summary = x.routes[route];
    return summary ? [cell(summary), cell(summary.floor)] : [DASH, DASH];
  });
const WITH_FLOORS = ROUTES.flatMap((route) => [route, FLOOR_TITLE[route]]).join(" / ");

function markdown(run: Run, summaries: Summary[], chartFile: string): string {
  const lines: string[] = [];
  lines.push(`# Benchmark: the package's dynamic and plugin routes, each against its own no-op floor`, "");
  lines.push(
    `\`${run.command}\` on ${run.date}: ${run.machine}; ${run.cli}; \`--parallel ${run.parallel}\`; ` +
      `paired repeats: ${[...new Set(run.records.filter((r) => r.latencyMs === 0).map((r) => r.n))]
        .map(
          (n) =>
            `N = ${n}: ${new Set(run.records.filter((r) => r.n === n && r.latencyMs === 0).map((r) => r.repeat)).size}`,
        )
        .join(", ")}; total ${(run.totalSeconds / 60).toFixed(1)} min ` +
      `(${Object.entries(run.secondsPerSize)
        .map(([k, v]) => `${k}: ${(v / 60).toFixed(1)} min`)
        .join(", ")}).`,
    "",
    "Routes: **dynamic**, the package's classes (`pulumi-docs-platform`: dynamic resources, whose provider runs in " +
      "@pulumi/pulumi's dynamic-provider process); **plugin**, the same classes from `pulumi-docs-platform/plugin` " +
      "(`docs:index:<Kind>` resources served by the `docs` provider plugin, `pulumi-resource-docs`). Each against its " +
      "own floor: **dynamic floor**, a no-op dynamic provider with the same classes and graph (bench/floor/noop.js); " +
      "**plugin floor**, the plugin route's program and classes served by a no-op `docs` plugin (bench/floor/plugin.js, " +
      "launched as pulumi-resource-docs is). All four run bench/program/shape.js.",
    "",
    "Wall and CPU: seconds for the CLI's whole process tree (CLI, language host, program, provider), min / median over " +
      "the repeats. Ratio: median over the repeats of route ÷ its own floor in the same repeat. Requests: API requests the " +
      "operation sent (writes in brackets), per resource in the last column (dynamic / plugin).",
    "",
  );
  lines.push(
    "| N | op | wall dynamic | wall dynamic floor | wall plugin | wall plugin floor | ratio dynamic | ratio plugin " +
      "| CPU dynamic | CPU dynamic floor | CPU plugin | CPU plugin floor | CPU ratio dynamic | CPU ratio plugin " +
      "| requests dynamic | requests plugin | req/resource |",
    `|---:|---|${"---:|".repeat(15)}`,
  );
  const minMedian = (stats: Stats) => `${s(stats.min)} / ${s(stats.median)}`;
  for (const x of summaries) {
    const cells = [
      ...withFloors(x, (v) => minMedian(v.wall)),
      ...perRoute(x, (r) => `**${r.wallRatio.toFixed(2)}**`),
      ...withFloors(x, (v) => minMedian(v.cpu)),
      ...perRoute(x, (r) => r.cpuRatio.toFixed(2)),
      ...perRoute(x, (r) => `${r.requests} (${r.writes})`),
      perRoute(x, (r) => r.requestsPerResource.toFixed(2)).join(" / "),
    ];
    lines.push(`| ${x.n} | ${x.op} | ${cells.join(" | ")} |`);
  }
  lines.push("", `![Ratio of each route to its floor by N](${chartFile})`, "");
  lines.push(
    "## State, memory and checkpoint writes (after `up`)",
    "",
    "State: `pulumi stack export` bytes ÷ N. Peak RSS: VmHWM of the program and provider processes (median, MB; the " +
      "plugin route's provider is pulumi-resource-docs). Checkpoint writes: after every step the file backend copies " +
      "the checkpoint to `<stack>.json.bak` and writes the whole new one, so an `up` of S steps, whose state grows to " +
      "B bytes, writes about 2 × (B ÷ 2) × S = B × S bytes; measured: bytes the CLI process wrote (wchar at its last " +
      "/proc sample, so slightly low). Steps: resources in the state (the stack and its default provider included).",
    "",
    `| N | state B/resource ${WITH_FLOORS} | steps | state × steps (MB) dynamic / plugin | CLI wrote (MB) ${WITH_FLOORS} | program RSS ${WITH_FLOORS} | provider RSS ${WITH_FLOORS} |`,
    "|---:|---:|---:|---:|---:|---:|---:|",
  );
  for (const x of summaries.filter((y) => y.op === "up")) {
    lines.push(
      `| ${x.n} | ${withFloors(x, (v) => v.stateBytesPerResource.toFixed(0)).join(" / ")} ` +
        `| ${Object.values(x.routes)[0]?.floor.stateResources ?? DASH} ` +
        `| ${perRoute(x, (r) => ((r.stateBytesPerResource * x.n * r.stateResources) / 2 ** 20).toFixed(1)).join(" / ")} ` +
        `| ${withFloors(x, (v) => mbOfBytes(v.cliWrittenBytes)).join(" / ")} ` +
        `| ${withFloors(x, (v) => mb(v.peakRssKb.program)).join(" / ")} ` +
        `| ${withFloors(x, (v) => mb(v.peakRssKb.provider)).join(" / ")} |`,
    );
  }
  lines.push(
    "",
    `Provider processes each operation started (median over the repeats; ${WITH_FLOORS}): ` +
      [...new Set(summaries.map((x) => x.n))]
        .map((n) => {
          const ofN = summaries.filter((x) => x.n === n);
          return `N = ${n}: ${ofN
            .map((x) => `${x.op} ${withFloors(x, (v) => String(v.providerProcesses)).join(" / ")}`)
            .join(", ")}`;
        })
        .join("; ") +
      ".",
  );
  const largest = Math.max(...summaries.map((x) => x.n));
  const byRole = summaries.filter((x) => x.n === largest && Object.values(x.routes).some((r) => r.floor.cpuByRole));
  if (byRole.length > 0) {
    const roles: [Role, string][] = [
      ["cli", "CLI (engine)"],
      ["program", "program"],
      ["provider", "provider"],
      ["other", "other"],
    ];
    lines.push(
      "",
      `## CPU by process at N = ${largest} (${WITH_FLOORS}, median, s)`,
      "",
      "Each process's own CPU at its last /proc sample, by role: the CLI (the engine), the program, the provider " +
        "(dynamic-provider, or the plugin's pulumi-resource-docs) and the rest (language host, npm, the launchers' " +
        "helpers), median over the repeats that recorded it. A lower bound: up to one polling interval per process " +
        "short of the exact totals above. CLI wrote: bytes the CLI wrote, mostly checkpoints (see above): an " +
        "operation that saves the state per step writes about its size per step.",
      "",
      `| op | ${roles.map(([, title]) => title).join(" | ")} | CLI wrote (MB) |`,
      `|---|${roles.map(() => "---:|").join("")}---:|`,
    );
    for (const x of byRole) {
      const cell = (role: Role) => withFloors(x, (v) => (v.cpuByRole ? s(v.cpuByRole[role]) : DASH)).join(" / ");
      const written = withFloors(x, (v) => mbOfBytes(v.cliWrittenBytes));
      lines.push(`| ${x.op} | ${roles.map(([role]) => cell(role)).join(" | ")} | ${written.join(" / ")} |`);
    }
  }
  const families = [
    ...new Set(summaries.flatMap((x) => Object.values(x.routes).flatMap((r) => Object.keys(r.byFamily)))),
  ].sort();
  lines.push(
    "",
    `## Requests by API family at N = ${largest} (dynamic / plugin, median)`,
    "",
    `| op | ${families.join(" | ")} |`,
    `|---|${families.map(() => "---:").join("|")}|`,
  );
  for (const x of summaries.filter((y) => y.n === largest)) {
    lines.push(
      `| ${x.op} | ${families.map((f) => perRoute(x, (r) => String(r.byFamily[f] ?? 0)).join(" / ")).join(" | ")} |`,
    );
  }
  const latency = run.records.filter((r) => r.latencyMs > 0);
  if (latency.length > 0) {
    lines.push(
      "",
      `## Latency mode: ${run.latencyMs} ms on every API request (each route, one cycle)`,
      "",
      "Span: first request's arrival to the last answer. Bound: the larger of requests × latency ÷ parallelism and " +
        "critical path × latency, where the critical path charges each resource its API family's average requests " +
        "for the operation and follows the dependency graph (a refresh reads all resources at once: one resource). " +
        "In flight: time-weighted mean and maximum of concurrent requests.",
      "",
      "Engine pace (refresh): in the route's floor's refreshes of the same N (median), the time from the engine's first read " +
        "to its last, with a provider that answers at once. A provider learns of a resource only when the engine reads " +
        "it, so no refresh's span can be shorter than that pace plus one request's latency: the paced bound. (Other " +
        "operations call the provider for check and diff too, and send requests for some calls only: no such bound.)",
      "",
      "| N | route | op | wall | requests | span | bound | span ÷ bound | critical path (requests) | in flight mean / max " +
        "| engine pace | span ÷ paced bound |",
      "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    );
    for (const r of latency) {
      const bound = Math.max((r.api.requests * r.latencyMs) / r.parallel, r.criticalPath * r.latencyMs);
      // Only a refresh calls the provider for reads alone (see the paragraph above).
      const floorOf = FLOOR_OF[r.variant as Route] ?? "floor";
      const floorRefreshes = r.op === "refresh" ? run.records.filter((x) => x.variant === floorOf && x.n === r.n) : [];
      const paces = floorRefreshes
        .filter((x) => x.op === "refresh" && x.callSpanMs !== undefined)
        .map((x) => x.callSpanMs!);
      const pace = paces.length > 0 ? median(paces) : undefined;
      const paced = pace === undefined ? undefined : Math.max(bound, pace + r.latencyMs);
      lines.push(
        `| ${r.n} | ${r.variant} | ${r.op} | ${s(r.wallMs)} | ${r.api.requests} | ${s(r.api.spanMs)} | ${s(bound)} ` +
          `| ${bound > 0 ? (r.api.spanMs / bound).toFixed(2) : DASH} | ${r.criticalPath.toFixed(1)} ` +
          `| ${r.api.meanInFlight.toFixed(1)} / ${r.api.maxInFlight} | ${pace === undefined ? DASH : s(pace)} ` +
          `| ${paced !== undefined && r.api.requests > 0 ? (r.api.spanMs / paced).toFixed(2) : DASH} |`,
      );
    }
  }
  lines.push(
    "",
    "Timing figures come from a shared machine (its load average is above); ratios of paired runs are steadier than " +
      "absolute times, request counts are exact. CPU is the bench process's reaped-children time (cutime + cstime), " +
      "which covers every process of the CLI's tree that was waited for.",
    "",
  );
  return lines.join("\n");
}

async function chart(summaries: Summary[]): Promise<string> {
  const spec: vegaLite.TopLevelSpec = {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: "Wall time: each route ÷ its own no-op floor (median of pairs)",
    width: 480,
    height: 280,
    data: {
      values: summaries.flatMap((x) =>
        ROUTES.flatMap((route) => {
          const r = x.routes[route];
          return r ? [{ n: x.n, op: x.op, route, ratio: Number(r.wallRatio.toFixed(3)) }] : [];
        }),
      ),
    },
    layer: [
      {
        mark: { type: "line", point: true },
        encoding: {
          x: { field: "n", type: "quantitative", title: "resources (N)", scale: { type: "log" } },
          y: { field: "ratio", type: "quantitative", title: "ratio to its floor", scale: { zero: false } },
          color: { field: "op", type: "nominal", sort: [...OPS], title: "operation" },
          strokeDash: { field: "route", type: "nominal", sort: [...ROUTES], title: "route" },
          shape: { field: "route", type: "nominal", sort: [...ROUTES], title: "route" },
        },
      },
      { mark: { type: "rule", strokeDash: [4, 4], color: "gray" }, encoding: { y: { datum: 1 } } },
    ],
    config: { background: "white", font: "sans-serif" },
  };
  const view = new vega.View(vega.parse(vegaLite.compile(spec).spec), { renderer: "none" });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}

/** Writes the report under `outDir` as <stamp>.* and latest.*; returns the files written. */
export async function writeReport(outDir: string, run: Run): Promise<string[]> {
  mkdirSync(outDir, { recursive: true });
  const stamp = run.date.replace(/[:.]/g, "-");
  const summaries = summarize(run.records);
  const written: string[] = [];
  const files: [string, string][] = [
    ["json", JSON.stringify({ ...run, summaries }, null, 2)],
    ["svg", await chart(summaries)],
    ["md", markdown(run, summaries, `${stamp}.svg`)],
  ];
  for (const [ext, content] of files) {
    const file = path.join(outDir, `${stamp}.${ext}`);
    writeFileSync(file, content);
    written.push(file);
  }
  for (const ext of ["json", "svg"])
    copyFileSync(path.join(outDir, `${stamp}.${ext}`), path.join(outDir, `latest.${ext}`));
  writeFileSync(path.join(outDir, "latest.md"), markdown(run, summaries, "latest.svg"));
  written.push(...["md", "json", "svg"].map((ext) => path.join(outDir, `latest.${ext}`)));
  return written;
}
