// Turns the bench's raw records into bench/results/<stamp>.{json,md,svg} and latest.* copies. The chart is a
// vega-lite spec rendered to SVG by vega's headless View (no canvas needed for SVG).
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as vega from "vega";
import * as vegaLite from "vega-lite";
import type { Invocation, Traffic } from "./measure.mts";

export const OPS = ["up", "preview", "refresh", "unchanged up", "rename up", "destroy"] as const;
export type Op = (typeof OPS)[number];
export type Variant = "project" | "floor";

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
  /** The floor only: first to last provider call, i.e. how fast the engine hands out work that costs nothing. */
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

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const min = (values: number[]) => Math.min(...values);
const s = (ms: number) => (ms / 1000).toFixed(2);
const mb = (kilobytes: number) => (kilobytes / 1024).toFixed(0);

export interface Summary {
  n: number;
  op: Op;
  wall: Record<Variant, { min: number; median: number }>;
  cpu: Record<Variant, { min: number; median: number }>;
  /** Median over the repeats of project ÷ floor of the same repeat. */
  wallRatio: number;
  cpuRatio: number;
  requests: number;
  writes: number;
  requestsPerResource: number;
  byFamily: Record<string, number>;
  stateBytesPerResource: Record<Variant, number>;
  peakRssKb: Record<Variant, { program: number; provider: number }>;
  cliWrittenBytes: Record<Variant, number>;
  steps: number;
}

export function summarize(records: OpRecord[]): Summary[] {
  const timed = records.filter((r) => r.latencyMs === 0);
  const summaries: Summary[] = [];
  for (const n of [...new Set(timed.map((r) => r.n))]) {
    for (const op of OPS) {
      const of = (variant: Variant) => timed.filter((r) => r.n === n && r.op === op && r.variant === variant);
      const project = of("project");
      const floor = of("floor");
      if (project.length === 0 || floor.length === 0) continue;
      const pairs = project.flatMap((p) => {
        const f = floor.find((r) => r.repeat === p.repeat);
        return f ? [{ p, f }] : [];
      });
      const stats = (rs: OpRecord[], pick: (r: OpRecord) => number) => ({
        min: min(rs.map(pick)),
        median: median(rs.map(pick)),
      });
      const families = [...new Set(project.flatMap((r) => Object.keys(r.api.byFamily)))];
      summaries.push({
        n,
        op,
        wall: { project: stats(project, (r) => r.wallMs), floor: stats(floor, (r) => r.wallMs) },
        cpu: { project: stats(project, (r) => r.cpuMs), floor: stats(floor, (r) => r.cpuMs) },
        wallRatio: median(pairs.map(({ p, f }) => p.wallMs / f.wallMs)),
        cpuRatio: median(pairs.map(({ p, f }) => p.cpuMs / f.cpuMs)),
        requests: median(project.map((r) => r.api.requests)),
        writes: median(project.map((r) => r.api.writes)),
        requestsPerResource: median(project.map((r) => r.api.requests)) / n,
        byFamily: Object.fromEntries(families.map((f) => [f, median(project.map((r) => r.api.byFamily[f] ?? 0))])),
        stateBytesPerResource: {
          project: median(project.map((r) => r.state.bytes)) / n,
          floor: median(floor.map((r) => r.state.bytes)) / n,
        },
        peakRssKb: {
          project: {
            program: median(project.map((r) => r.peakRssKb.program)),
            provider: median(project.map((r) => r.peakRssKb.provider)),
          },
          floor: {
            program: median(floor.map((r) => r.peakRssKb.program)),
            provider: median(floor.map((r) => r.peakRssKb.provider)),
          },
        },
        cliWrittenBytes: {
          project: median(project.map((r) => r.cliWrittenBytes)),
          floor: median(floor.map((r) => r.cliWrittenBytes)),
        },
        steps: median(project.map((r) => r.state.resources)),
      });
    }
  }
  return summaries;
}

function markdown(run: Run, summaries: Summary[], chartFile: string): string {
  const lines: string[] = [];
  lines.push(`# Benchmark: the package against a no-op dynamic-provider floor`, "");
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
    "Wall and CPU: seconds for the CLI's whole process tree (CLI, language host, program, provider), min / median over " +
      "the repeats. Ratio: median over the repeats of project ÷ floor in the same pair. Requests: API requests the " +
      "operation sent (writes in brackets), per resource in the last column.",
    "",
  );
  lines.push(
    "| N | op | wall project | wall floor | ratio | CPU project | CPU floor | CPU ratio | requests (writes) | req/resource |",
    "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  );
  for (const x of summaries) {
    lines.push(
      `| ${x.n} | ${x.op} | ${s(x.wall.project.min)} / ${s(x.wall.project.median)} | ${s(x.wall.floor.min)} / ${s(x.wall.floor.median)} ` +
        `| **${x.wallRatio.toFixed(2)}** | ${s(x.cpu.project.min)} / ${s(x.cpu.project.median)} | ${s(x.cpu.floor.min)} / ${s(x.cpu.floor.median)} ` +
        `| ${x.cpuRatio.toFixed(2)} | ${x.requests} (${x.writes}) | ${x.requestsPerResource.toFixed(2)} |`,
    );
  }
  lines.push("", `![Ratio to the floor by N](${chartFile})`, "");
  lines.push(
    "## State, memory and checkpoint writes (after `up`)",
    "",
    "State: `pulumi stack export` bytes ÷ N. Peak RSS: VmHWM of the program and provider processes (median, MB). " +
      "Checkpoint writes: after every step the file backend copies the checkpoint to `<stack>.json.bak` and writes " +
      "the whole new one, so an `up` of S steps, whose state grows to B bytes, writes about 2 × (B ÷ 2) × S = B × S " +
      "bytes; measured: bytes the CLI process wrote (wchar at its last /proc sample, so slightly low).",
    "",
    "| N | state B/resource project | floor | steps | state × steps (MB) | CLI wrote project (MB) | floor (MB) | program RSS project / floor | provider RSS project / floor |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  );
  for (const x of summaries.filter((y) => y.op === "up")) {
    const stateBytes = x.stateBytesPerResource.project * x.n;
    lines.push(
      `| ${x.n} | ${x.stateBytesPerResource.project.toFixed(0)} | ${x.stateBytesPerResource.floor.toFixed(0)} | ${x.steps} ` +
        `| ${((stateBytes * x.steps) / 2 ** 20).toFixed(1)} | ${(x.cliWrittenBytes.project / 2 ** 20).toFixed(1)} ` +
        `| ${(x.cliWrittenBytes.floor / 2 ** 20).toFixed(1)} | ${mb(x.peakRssKb.project.program)} / ${mb(x.peakRssKb.floor.program)} ` +
        `| ${mb(x.peakRssKb.project.provider)} / ${mb(x.peakRssKb.floor.provider)} |`,
    );
  }
  const largest = Math.max(...summaries.map((x) => x.n));
  const families = [...new Set(summaries.flatMap((x) => Object.keys(x.byFamily)))].sort();
  lines.push(
    "",
    `## Requests by API family at N = ${largest} (project, median)`,
    "",
    `| op | ${families.join(" | ")} |`,
    `|---|${families.map(() => "---:").join("|")}|`,
  );
  for (const x of summaries.filter((y) => y.n === largest)) {
    lines.push(`| ${x.op} | ${families.map((f) => x.byFamily[f] ?? 0).join(" | ")} |`);
  }
  const latency = run.records.filter((r) => r.latencyMs > 0);
  if (latency.length > 0) {
    lines.push(
      "",
      `## Latency mode: ${run.latencyMs} ms on every API request (project only, one cycle)`,
      "",
      "Span: first request's arrival to the last answer. Bound: the larger of requests × latency ÷ parallelism and " +
        "critical path × latency, where the critical path charges each resource its API family's average requests " +
        "for the operation and follows the dependency graph (a refresh reads all resources at once: one resource). " +
        "In flight: time-weighted mean and maximum of concurrent requests.",
      "",
      "Engine pace (refresh): in the floor's refreshes of the same N (median), the time from the engine's first read " +
        "to its last, with a provider that answers at once. A provider learns of a resource only when the engine reads " +
        "it, so no refresh's span can be shorter than that pace plus one request's latency: the paced bound. (Other " +
        "operations call the provider for check and diff too, and send requests for some calls only: no such bound.)",
      "",
      "| N | op | wall | requests | span | bound | span ÷ bound | critical path (requests) | in flight mean / max " +
        "| engine pace | span ÷ paced bound |",
      "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    );
    for (const r of latency) {
      const bound = Math.max((r.api.requests * r.latencyMs) / r.parallel, r.criticalPath * r.latencyMs);
      // Only a refresh calls the provider for reads alone (see the paragraph above).
      const floorRefreshes = r.op === "refresh" ? run.records.filter((x) => x.variant === "floor" && x.n === r.n) : [];
      const paces = floorRefreshes
        .filter((x) => x.op === "refresh" && x.callSpanMs !== undefined)
        .map((x) => x.callSpanMs!);
      const pace = paces.length > 0 ? median(paces) : undefined;
      const paced = pace === undefined ? undefined : Math.max(bound, pace + r.latencyMs);
      lines.push(
        `| ${r.n} | ${r.op} | ${s(r.wallMs)} | ${r.api.requests} | ${s(r.api.spanMs)} | ${s(bound)} ` +
          `| ${bound > 0 ? (r.api.spanMs / bound).toFixed(2) : "–"} | ${r.criticalPath.toFixed(1)} ` +
          `| ${r.api.meanInFlight.toFixed(1)} / ${r.api.maxInFlight} | ${pace === undefined ? "–" : s(pace)} ` +
          `| ${paced !== undefined && r.api.requests > 0 ? (r.api.spanMs / paced).toFixed(2) : "–"} |`,
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
    title: "Wall time: package ÷ no-op floor (median of pairs)",
    width: 480,
    height: 280,
    data: { values: summaries.map((x) => ({ n: x.n, op: x.op, ratio: Number(x.wallRatio.toFixed(3)) })) },
    layer: [
      {
        mark: { type: "line", point: true },
        encoding: {
          x: { field: "n", type: "quantitative", title: "resources (N)", scale: { type: "log" } },
          y: { field: "ratio", type: "quantitative", title: "ratio to the floor", scale: { zero: false } },
          color: { field: "op", type: "nominal", sort: [...OPS], title: "operation" },
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
