// `node bench/profile.mts <dir> [--top 12]`: attributes the self time of the CPU profiles that
// `npm run bench -- --cpu-prof <dir>` wrote (one folder per variant, N and op; one .cpuprofile per Node process) to
// who spends it: the package (pulumi-docs-platform), the no-op floor, the Pulumi SDK (@pulumi/*), gRPC and protobuf,
// other dependencies, Node itself (its internals, module compilation, GC) and idle time. Prints one Markdown table
// per folder, with the package's costliest functions.
import { readdirSync, readFileSync } from "node:fs";
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
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const CATEGORIES = ["package", "floor", "sdk", "grpc", "other deps", "node", "gc", "idle"] as const;
type Category = (typeof CATEGORIES)[number];

function categoryOf({ url, functionName }: CallFrame): Category {
  if (functionName === "(idle)") return "idle";
  if (functionName === "(garbage collector)") return "gc";
  if (url.includes("/node_modules/pulumi-docs-platform/")) return "package";
  if (url.includes("/node_modules/docs-floor/")) return "floor";
  if (url.includes("/node_modules/@pulumi/")) return "sdk";
  if (url.includes("/node_modules/@grpc/") || url.includes("/node_modules/google-protobuf/")) return "grpc";
  if (url.includes("/node_modules/")) return "other deps";
  // Node's own JavaScript (node:…), native frames, `(program)` and the bench program's two small files.
  return "node";
}

/** Which process wrote the profile: the provider runs @pulumi/pulumi's dynamic-provider command, the program `run`. */
function roleOf(profile: CpuProfile): "provider" | "program" | "other" {
  const urls = profile.nodes.map((node) => node.callFrame.url);
  if (urls.some((url) => url.includes("/cmd/dynamic-provider/"))) return "provider";
  if (urls.some((url) => url.includes("/cmd/run/"))) return "program";
  return "other";
}

interface Summary {
  role: string;
  processes: number;
  wallMs: number;
  selfMs: Record<Category, number>;
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
    packageFunctions: new Map<string, number>(),
  };
  into.set(role, summary);
  summary.processes++;
  summary.wallMs += (profile.endTime - profile.startTime) / 1000;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  profile.samples.forEach((id, index) => {
    const frame = byId.get(id)?.callFrame;
    if (!frame) return;
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    const category = categoryOf(frame);
    summary.selfMs[category] += ms;
    if (category === "package") {
      const where = `${frame.functionName || "(anonymous)"} ${frame.url.split("/node_modules/pulumi-docs-platform/")[1]}:${frame.lineNumber + 1}`;
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
  process.stdout.write(`\n### ${folder}\n\nSelf time in ms (wall of the process in the first column).\n\n`);
  process.stdout.write(
    `| process | wall | busy | ${CATEGORIES.join(" | ")} |\n|---|${"---:|".repeat(CATEGORIES.length + 2)}\n`,
  );
  for (const s of [...summaries.values()].sort((a, b) => a.role.localeCompare(b.role))) {
    const busy = CATEGORIES.filter((c) => c !== "idle").reduce((sum, c) => sum + s.selfMs[c], 0);
    const cells = CATEGORIES.map((c) => ms(s.selfMs[c]));
    process.stdout.write(`| ${s.role} (${s.processes}) | ${ms(s.wallMs)} | ${ms(busy)} | ${cells.join(" | ")} |\n`);
  }
  for (const s of summaries.values()) {
    const costliest = [...s.packageFunctions.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
    if (costliest.length === 0) continue;
    process.stdout.write(`\nPackage functions, ${s.role}: ${costliest.map(([f, t]) => `${f} ${ms(t)}`).join("; ")}\n`);
  }
}
