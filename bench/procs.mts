// Process-tree accounting from /proc (Linux). CPU time: the kernel adds a reaped child's CPU time — its own and that of
// every descendant it reaped — to the parent's cutime/cstime, and Pulumi waits for its plugins and the language host
// for the program, so the bench process's cutime+cstime grows by the CPU of the CLI's whole tree when the CLI exits.
// That is exact, unlike polling, which misses what a process spends after its last sample. Peak RSS: VmHWM, the
// kernel's high-water mark per process, read while polling (it only grows, so the last sample is the peak).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ, fixed at 100 on Linux for the /proc interface.

function fieldsAfterName(stat: string): string[] {
  // The second field, "(comm)", may contain spaces and parentheses: split after its last ")".
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** CPU milliseconds of this process's reaped children (cutime + cstime). */
export function reapedChildrenCpuMs(): number {
  const fields = fieldsAfterName(readFileSync("/proc/self/stat", "utf8"));
  // fields[0] is field 3 (state): cutime is field 16, cstime field 17.
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

export type Role = "cli" | "program" | "provider" | "other";

export interface ProcessRecord {
  pid: number;
  role: Role;
  command: string;
  peakRssKb: number;
  /** Own CPU (utime + stime) at the last sample. */
  cpuMs: number;
  /** Bytes the process passed to write-like calls (wchar) at the last sample. */
  writtenBytes: number;
}

function read(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined; // the process exited between listing and reading
  }
}

function roleOf(command: string, isRoot: boolean): Role {
  if (isRoot) return "cli";
  const [executable = "", script = ""] = command.split(" ");
  // The launchers look up the script they start: `node -e "…require.resolve('@pulumi/pulumi/cmd/run')…"` (the
  // language host), the same for cmd/dynamic-provider (the CLI's pulumi-resource-pulumi-nodejs), `readlink` and
  // `dirname` (bin/pulumi-resource-docs). They name the same paths and are neither program nor provider.
  if (script === "-e" || !/^(node|sh|dash|bash)$/.test(path.basename(executable))) return "other";
  // @pulumi/pulumi's dynamic-provider script (the dynamic route and the floor), or the `docs` plugin's launcher, which
  // execs node on the plugin's server in the same process (the package's, or the plugin floor's floor-plugin/plugin.js).
  if (
    /cmd[/\\]dynamic-provider|pulumi-resource-docs$|provider[/\\]plugin[/\\]main\.js$|floor-plugin[/\\]plugin\.js$/.test(
      script,
    )
  )
    return "provider";
  if (/cmd[/\\]run|run-plugin|pulumi-language-nodejs-exec|language-host/.test(command)) return "program";
  return "other";
}

/** Polls the descendants of `rootPid` until stopped; keeps each process's last figures. */
export class TreeSampler {
  private readonly records = new Map<number, ProcessRecord>();
  private timer: NodeJS.Timeout | undefined;
  private readonly rootPid: number;
  private readonly intervalMs: number;

  constructor(rootPid: number, intervalMs = 150) {
    this.rootPid = rootPid;
    this.intervalMs = intervalMs;
  }

  start(): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
  }

  stop(): ProcessRecord[] {
    clearInterval(this.timer);
    return [...this.records.values()];
  }

  private sample(): void {
    const parents = new Map<number, number>();
    const stats = new Map<number, string[]>();
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      const stat = read(`/proc/${entry}/stat`);
      if (stat === undefined) continue;
      const fields = fieldsAfterName(stat);
      parents.set(Number(entry), Number(fields[1]));
      stats.set(Number(entry), fields);
    }
    const tree = new Set([this.rootPid]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const [pid, ppid] of parents) {
        if (!tree.has(pid) && tree.has(ppid)) {
          tree.add(pid);
          grew = true;
        }
      }
    }
    for (const pid of tree) {
      const fields = stats.get(pid);
      if (!fields) continue;
      const status = read(`/proc/${pid}/status`);
      const io = read(`/proc/${pid}/io`);
      // Read every time: a process starts as a fork of its parent, with the parent's command line, until it execs (the
      // launchers' shells, the language host's children), so its first command may not be what it runs.
      const command = (read(`/proc/${pid}/cmdline`) ?? "").split("\0").join(" ").trim();
      let record = this.records.get(pid);
      if (!record || (command !== "" && command !== record.command)) {
        // A new image has a new peak (VmHWM starts over at exec).
        record = { pid, role: roleOf(command, pid === this.rootPid), command, peakRssKb: 0, cpuMs: 0, writtenBytes: 0 };
        this.records.set(pid, record);
      }
      const hwm = /VmHWM:\s+(\d+)/.exec(status ?? "");
      if (hwm) record.peakRssKb = Math.max(record.peakRssKb, Number(hwm[1]));
      record.cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
      const wchar = /wchar:\s+(\d+)/.exec(io ?? "");
      if (wchar) record.writtenBytes = Number(wchar[1]);
    }
  }
}
