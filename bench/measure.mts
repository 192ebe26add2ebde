// What one CLI invocation cost: wall and CPU time of its process tree, peak RSS of the program and provider processes,
// bytes the CLI wrote, and the API traffic it caused (from the in-process emulator's request log).
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import type { RequestLogEntry } from "../emulator/index.ts";
import { type Role, reapedChildrenCpuMs, TreeSampler } from "./procs.mts";

export interface Invocation {
  wallMs: number;
  /** CPU of the CLI's whole process tree (reaped children's cutime + cstime). */
  cpuMs: number;
  /** Sum of the per-process CPU seen by polling; a lower bound, kept to check the figure above. */
  polledCpuMs: number;
  /**
   * The same by role: where the tree's CPU goes (the CLI is the engine). Each process's CPU at its last sample, so a
   * lower bound, low by up to one polling interval per process. Absent from runs before it was recorded.
   */
  polledCpuMsByRole?: Record<Role, number>;
  peakRssKb: { cli: number; program: number; provider: number };
  /** Processes seen per role (the provider runs once per operation). */
  processes: { program: number; provider: number; other: number };
  /** Bytes the CLI process wrote (wchar at its last sample: a lower bound). */
  cliWrittenBytes: number;
}

/** Runs `command args` to completion, measuring it; rejects with the log's tail when it fails. */
export async function invoke(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; logFile: string; exitCodes?: readonly number[] },
): Promise<Invocation> {
  const log = createWriteStream(options.logFile, { flags: "a" });
  log.write(`$ ${command} ${args.join(" ")}\n`);
  const cpuBefore = reapedChildrenCpuMs();
  const started = process.hrtime.bigint();
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
  let tail = "";
  const keep = (chunk: Buffer) => {
    log.write(chunk);
    tail = (tail + chunk.toString()).slice(-4000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  if (child.pid === undefined) throw new Error(`cannot start ${command}`);
  const sampler = new TreeSampler(child.pid);
  sampler.start();
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
  });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const cpuMs = reapedChildrenCpuMs() - cpuBefore;
  const records = sampler.stop();
  await new Promise((resolve) => log.end(resolve));
  if (!(options.exitCodes ?? [0]).includes(code ?? -1)) {
    throw new Error(`${command} ${args.join(" ")} exited with ${code}; log: ${options.logFile}\n${tail}`);
  }
  const peak = (role: string) => Math.max(0, ...records.filter((r) => r.role === role).map((r) => r.peakRssKb));
  const count = (role: string) => records.filter((r) => r.role === role).length;
  const polled = (role: Role) => records.filter((r) => r.role === role).reduce((sum, r) => sum + r.cpuMs, 0);
  return {
    wallMs,
    cpuMs,
    polledCpuMs: records.reduce((sum, r) => sum + r.cpuMs, 0),
    polledCpuMsByRole: {
      cli: polled("cli"),
      program: polled("program"),
      provider: polled("provider"),
      other: polled("other"),
    },
    peakRssKb: { cli: peak("cli"), program: peak("program"), provider: peak("provider") },
    processes: { program: count("program"), provider: count("provider"), other: count("other") },
    cliWrittenBytes: records.find((r) => r.role === "cli")?.writtenBytes ?? 0,
  };
}

/** API families: the kinds whose requests share a route prefix (a site's sections, groups and structure are one). */
export const FAMILY_OF_KIND: Record<string, string> = {
  Collection: "collections",
  Site: "sites",
  SiteSection: "site structure",
  SiteSectionGroup: "site structure",
  SiteShareLink: "share links",
  Team: "teams",
  TeamMember: "teams",
  SamlProvider: "saml",
  OpenApiSpec: "openapi",
};

export function familyOfRoute(route: string): string {
  if (/\/section-groups|\/sections|\/structure|\/site-spaces/.test(route)) return "site structure";
  if (route.includes("/share-links")) return "share links";
  if (route.includes("/sites")) return "sites";
  if (route.includes("/collections")) return "collections";
  if (route.includes("/teams")) return "teams";
  if (route.includes("/saml")) return "saml";
  if (route.includes("/openapi")) return "openapi";
  if (route.includes("/members")) return "org members";
  return "other";
}

export interface Traffic {
  requests: number;
  writes: number;
  byFamily: Record<string, number>;
  /** From the first request's arrival to the last answer. */
  spanMs: number;
  /** Time-weighted requests in flight over the span. */
  meanInFlight: number;
  maxInFlight: number;
}

export function traffic(log: RequestLogEntry[]): Traffic {
  const api = log.filter((entry) => entry.path.startsWith("/v1"));
  const byFamily: Record<string, number> = {};
  for (const entry of api) {
    const family = familyOfRoute(entry.route ?? entry.path);
    byFamily[family] = (byFamily[family] ?? 0) + 1;
  }
  const events: [number, number][] = [];
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  let busy = 0;
  for (const entry of api) {
    const start = Date.parse(entry.time);
    const end = start + entry.durationMs;
    first = Math.min(first, start);
    last = Math.max(last, end);
    busy += entry.durationMs;
    events.push([start, 1], [end, -1]);
  }
  // Ends before starts at the same millisecond: a request answered as the next arrives is not overlap.
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let inFlight = 0;
  let maxInFlight = 0;
  for (const [, delta] of events) {
    inFlight += delta;
    maxInFlight = Math.max(maxInFlight, inFlight);
  }
  const spanMs = api.length > 0 ? last - first : 0;
  return {
    requests: api.length,
    writes: api.filter((entry) => entry.method !== "GET").length,
    byFamily,
    spanMs,
    meanInFlight: spanMs > 0 ? busy / spanMs : 0,
    maxInFlight,
  };
}

/**
 * The longest chain of requests that must follow one another, in requests: each resource is charged its family's
 * average for the operation, and a resource waits for its dependencies (creates and updates) or its dependents
 * (deletes, the same length); a refresh reads every resource at once, so its chain is one resource long.
 */
export function criticalPathRequests(
  resources: { kind: string; deps: number[] }[],
  byFamily: Record<string, number>,
  ordered: boolean,
): number {
  const perFamily = new Map<string, number>();
  for (const r of resources) perFamily.set(FAMILY_OF_KIND[r.kind]!, (perFamily.get(FAMILY_OF_KIND[r.kind]!) ?? 0) + 1);
  const weight = (kind: string) => (byFamily[FAMILY_OF_KIND[kind]!] ?? 0) / perFamily.get(FAMILY_OF_KIND[kind]!)!;
  const longest: number[] = [];
  for (const [i, r] of resources.entries()) {
    const before = ordered ? Math.max(0, ...r.deps.map((d) => longest[d]!)) : 0;
    longest[i] = before + weight(r.kind);
  }
  return Math.max(0, ...longest);
}
