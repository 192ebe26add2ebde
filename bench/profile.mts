// `node bench/profile.mts <dir> [--top 12]`: attributes the self time of the CPU profiles that
// `npm run bench -- --cpu-prof <dir>` wrote (one folder per variant, N and op; one .cpuprofile per Node process) to
// who spends it: the package (pulumi-docs-platform), the no-op floor, the Pulumi SDK (@pulumi/*), gRPC and protobuf,
// other dependencies, Node itself (its internals, module compilation, GC) and idle time. Prints one Markdown table
// per folder, with the package's costliest functions.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const CATEGORIES = [
  "package",
  "package deps",
  "floor",
  "sdk",
  "grpc",
  "other deps",
  "node",
  "native",
  "gc",
  "idle",
] as const;
type Category = (typeof CATEGORIES)[number];

function categoryOf({ url, functionName }: CallFrame): Category {
  if (functionName === "(idle)") return "idle";
  if (functionName === "(garbage collector)") return "gc";
  if (url.includes("/node_modules/pulumi-docs-platform/dist/")) return "package";
  // What the package depends on and the floor does not: zod and undici (nested under the package or hoisted).
  if (/\/node_modules\/(pulumi-docs-platform\/node_modules\/|zod\/|undici\/)/.test(url)) return "package deps";
  if (url.includes("/node_modules/docs-floor/")) return "floor";
  if (url.includes("/node_modules/@pulumi/")) return "sdk";
  if (url.includes("/node_modules/@grpc/") || url.includes("/node_modules/google-protobuf/")) return "grpc";
  if (url.includes("/node_modules/")) return "other deps";
  // V8 and native code outside any JavaScript function: compilation, gRPC's native half, the engine's (program).
  if (url === "") return "native";
  // Node's own JavaScript (node:…) and the bench program's two small files.
  return "node";
}

/**
 * Which process wrote the profile: the provider runs @pulumi/pulumi's dynamic-provider command (dynamic route, floor)
 * or the package's plugin server (plugin route), the program its `run` command; the language host also runs npm (to
 * list the program's plugins).
 */
function roleOf(profile: CpuProfile): "provider" | "program" | "npm" | "other" {
  const urls = profile.nodes.map((node) => node.callFrame.url);
  if (urls.some((url) => url.includes("/cmd/dynamic-provider/") || url.includes("/dist/provider/plugin/main.js")))
    return "provider";
  if (urls.some((url) => url.includes("/cmd/run/"))) return "program";
  if (urls.some((url) => url.includes("/npm/bin/npm-cli.js"))) return "npm";
  return "other";
}

interface Summary {
  role: string;
  processes: number;
  wallMs: number;
  selfMs: Record<Category, number>;
  /** Samples with a package (or floor) frame anywhere on the stack: what its code costs including what it calls. */
  underPackageMs: number;
  packageFunctions: Map<string, number>;
}

function summarise(file: string, into: Map<string, Summary>) {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const role = roleOf(profile);
  const summary = into.get(role) ?? {
    role,
    processes: 0,
    wallMs: 0,
    selfMs: Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<Category, number>,
    underPackageMs: 0,
    packageFunctions: new Map<string, number>(),
  };
  into.set(role, summary);
  summary.processes++;
  summary.wallMs += (profile.endTime - profile.startTime) / 1000;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const under = new Map<number, boolean>();
  const underPackage = (id: number): boolean => {
    const known = under.get(id);
    if (known !== undefined) return known;
    const category = categoryOf(byId.get(id)!.callFrame);
    const parent = parentOf.get(id);
    const result = category === "package" || category === "floor" || (parent !== undefined && underPackage(parent));
    under.set(id, result);
    return result;
  };
  profile.samples.forEach((id, index) => {
    const frame = byId.get(id)?.callFrame;
    if (!frame) return;
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    const category = categoryOf(frame);
    summary.selfMs[category] += ms;
    if (underPackage(id)) summary.underPackageMs += ms;
    if (category === "package") {
      const where = `${frame.functionName || "(module)"} ${frame.url.split("/pulumi-docs-platform/dist/")[1]}:${frame.lineNumber + 1}`;
      summary.packageFunctions.set(where, (summary.packageFunctions.get(where) ?? 0) + ms);
    }
  });
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: "string", default: "8" } },
});
const root = positionals[0];
if (!root) throw new Error("usage: node bench/profile.mts <dir written by npm run bench -- --cpu-prof <dir>>");
const top = Number(values.top);
const ms = (value: number) => value.toFixed(0);

for (const folder of readdirSync(root).sort()) {
  const files = readdirSync(path.join(root, folder)).filter((file) => file.endsWith(".cpuprofile"));
  if (files.length === 0) continue;
  const summaries = new Map<string, Summary>();
  for (const file of files) summarise(path.join(root, folder, file), summaries);
  process.stdout.write(
    `\n### ${folder}\n\nSelf time in ms; wall and busy (all but idle) per process kind; the last column counts every sample with a package or floor frame on its stack.\n\n`,
  );
  const head = `| process | wall | busy | ${CATEGORIES.join(" | ")} | under package/floor |`;
  process.stdout.write(`${head}\n|---|${"---:|".repeat(CATEGORIES.length + 3)}\n`);
  for (const s of [...summaries.values()].sort((a, b) => a.role.localeCompare(b.role))) {
    const busy = CATEGORIES.filter((c) => c !== "idle").reduce((sum, c) => sum + s.selfMs[c], 0);
    const cells = CATEGORIES.map((c) => ms(s.selfMs[c]));
    const row = `| ${s.role} (${s.processes}) | ${ms(s.wallMs)} | ${ms(busy)} | ${cells.join(" | ")} | ${ms(s.underPackageMs)} |`;
    process.stdout.write(`${row}\n`);
  }
  const cpuLog = path.join(root, folder, "cpu.jsonl");
  if (existsSync(cpuLog)) {
    // Exact CPU per process (bench/exit-on-interrupt.cjs), unlike the profiles' wall-clock samples.
    const cpu = new Map<string, number>();
    for (const line of readFileSync(cpuLog, "utf8").split("\n").filter(Boolean)) {
      const { role, cpuMs } = JSON.parse(line) as { role: string; cpuMs: number };
      const name = role === "provider" || role === "program" ? role : "other";
      cpu.set(name, (cpu.get(name) ?? 0) + cpuMs);
    }
    process.stdout.write(`\nCPU (ms): ${[...cpu].map(([role, value]) => `${role} ${ms(value)}`).join(", ")}\n`);
  }
  for (const s of summaries.values()) {
    const costliest = [...s.packageFunctions.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
    if (costliest.length === 0) continue;
    process.stdout.write(`\nPackage functions, ${s.role}: ${costliest.map(([f, t]) => `${f} ${ms(t)}`).join("; ")}\n`);
  }
}
