import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ProviderProcess, providerProcessesIn } from "../../cli/providerProcesses";
import type { RunningEmulator } from "../../emulator";
import { added, type Census, census } from "../support/census";
import { startTestEmulator } from "../support/emulator";
import { makeProject, makeStack } from "./harness";
import { type KillScope, killAfter, providerRequests, removeEmptyAttrs, runCli } from "./kill";

const COLLECTIONS = 10;
/** Three requests per 4-second window: after the first three writes every other create is held by the rate limit. */
const RATE_LIMIT = { limit: 3, windowMs: 4_000 };
/** How long after the kill writes are watched for: two windows, so held creates of an orphan would have gone out. */
const WATCH_MS = 2 * RATE_LIMIT.windowMs;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const TYPESCRIPT_PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as docs from "pulumi-docs-platform";

const organizationId = new pulumi.Config().require("organizationId");
for (let i = 1; i <= ${COLLECTIONS}; i++) new docs.Collection(\`c\${i}\`, { organizationId, title: \`TS collection \${i}\` });
`;

const YAML_PROGRAM = `name: killed-yaml
runtime: yaml
plugins:
  providers:
    - name: docs
      path: node_modules/.bin
resources:
${Array.from({ length: COLLECTIONS }, (_, i) => `  c${i + 1}:\n    type: docs:Collection\n    properties:\n      title: YAML collection ${i + 1}\n`).join("")}`;

interface Route {
  name: string;
  project: () => Promise<string>;
  stack: (dir: string, emulator: RunningEmulator) => Promise<Stack>;
  /** The language host the engine started for the program: ours for Node.js, upstream's for YAML. */
  host: RegExp;
}

const ROUTES: Route[] = [
  {
    name: "dynamic (TypeScript)",
    project: () => makeProject("killed-cli-ts", { "index.ts": TYPESCRIPT_PROGRAM }, { typescript: true }),
    stack: (dir, emulator) => makeStack(dir, emulator),
    host: /pulumi-language-nodejs/,
  },
  {
    name: "plugin (YAML)",
    project: () => makeProject("killed-cli-yaml", { "Pulumi.yaml": YAML_PROGRAM }),
    stack: async (dir, emulator) => {
      // The API's URL and token in the environment, where `docs-platform recover` reads them too.
      const stack = await makeStack(dir, emulator);
      await stack.setConfig("docs:organizationId", { value: emulator.organizationId });
      return stack;
    },
    host: /pulumi-language-yaml/,
  },
];

const CASES: { route: Route; scope: KillScope }[] = [
  { route: ROUTES[0] as Route, scope: "cli" },
  { route: ROUTES[1] as Route, scope: "cli" },
  { route: ROUTES[0] as Route, scope: "tree" },
];

/**
 * A `pulumi up` of ten collections under a rate limit, SIGKILLed after three writes: the CLI's process group alone (a
 * `kill -9` of the CLI, a cancelled CI step), on each route, and the whole process tree (a lost runner). The engine
 * starts its plugins in process groups of their own, so after a CLI-only kill they must notice on their own: every
 * provider process of the stack is gone within 5 s, no write reaches the API later than 1 s after the kill (the
 * creates held by the rate limit are never sent), and the README's recovery (`pulumi cancel`, `docs-platform recover`,
 * `pulumi up`) leaves exactly the declared collections, with `preview --refresh --expect-no-changes` passing.
 */
describe("a pulumi up killed under a rate limit: no provider outlives the CLI, no write follows the kill", () => {
  let emulator: RunningEmulator;
  const projects = new Map<Route, { dir: string; stack: Stack; baseline: Census }>();
  const report: string[] = [];

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0, token: "interrupted-cli-e2e-token" });
  });
  afterAll(async () => {
    emulator?.setRateLimit(undefined);
    if (report.length > 0) console.log(`interrupted-cli report:\n${report.join("\n")}`);
    for (const { stack } of projects.values()) await stack.destroy().catch(() => undefined);
    await emulator?.close();
  });

  async function projectOf(route: Route) {
    let project = projects.get(route);
    if (!project) {
      const dir = await route.project();
      const stack = await route.stack(dir, emulator);
      project = { dir, stack, baseline: await census(emulator) };
      projects.set(route, project);
    }
    return project;
  }

  for (const { route, scope } of CASES) {
    it(`${route.name}, ${scope === "cli" ? "the CLI's process group alone" : "the whole process tree"} killed`, async () => {
      const { dir, stack, baseline } = await projectOf(route);
      const cli = (command: string, args: string[]) => runCli(command, args, dir, stack);
      const providers = () => providerProcessesIn(dir) as ProviderProcess[];
      const hosts = () => providerProcessesIn(dir, undefined, route.host) as ProviderProcess[];

      emulator.clearRequests();
      emulator.setRateLimit(RATE_LIMIT);
      const killed = await killAfter(
        stack,
        ["up", "--yes", "--skip-preview"],
        { what: "writes", count: () => providerRequests(emulator, "write").length, target: 3 },
        scope,
      );
      const atKill = providers();
      const hostsAtKill = hosts();
      let providersGoneMs: number | undefined;
      let hostsGoneMs: number | undefined;
      while (Date.now() - killed.killedAt < WATCH_MS) {
        const elapsed = Date.now() - killed.killedAt;
        if (providersGoneMs === undefined && providers().length === 0) providersGoneMs = elapsed;
        if (hostsGoneMs === undefined && hosts().length === 0) hostsGoneMs = elapsed;
        await sleep(50);
      }
      const lingering = providers();
      const writes = providerRequests(emulator, "write");
      const at = (entry: { time: string }) => Date.parse(entry.time) - killed.killedAt;
      const late = writes.filter((w) => at(w) > 1_000).map((w) => `${w.method} ${w.path} at +${at(w)} ms`);
      const afterKill = writes.filter((w) => at(w) > 0).length;
      emulator.setRateLimit(undefined);
      for (const { pid } of lingering) process.kill(pid, "SIGKILL");

      const line =
        `${route.name}, ${scope} killed after ${killed.reached} writes (${killed.seconds.toFixed(1)} s into up): ` +
        `${atKill.length} provider process(es) alive at the kill (${atKill.map(shortCommand).join(", ") || "-"}), all gone after ` +
        `${providersGoneMs === undefined ? `more than ${WATCH_MS} ms` : `${providersGoneMs} ms`}; language host ` +
        `${hostsAtKill.length === 0 ? "already gone" : hostsGoneMs === undefined ? `still running after ${WATCH_MS} ms` : `gone after ${hostsGoneMs} ms`}; ` +
        `writes: ${writes.length} in all, ${afterKill} after the kill, ${late.length} later than 1 s`;
      report.push(line);
      console.log(line);

      if (scope === "cli") expect(atKill.length, "no provider process seen at the kill").toBeGreaterThan(0);
      expect(lingering, `providers still running ${WATCH_MS} ms after the kill`).toEqual([]);
      expect(providersGoneMs).toBeLessThan(5_000);
      expect(late).toEqual([]);
      // Our language host leaves with its engine too; upstream's YAML host (checked every 5 minutes) is not asserted.
      if (route.host.source.includes("nodejs")) expect(hostsGoneMs).toBeLessThan(5_000);

      removeEmptyAttrs(path.join(dir, ".state"));
      const cancel = await cli("pulumi", ["cancel", "--yes"]);
      expect(cancel.code, cancel.output).toBe(0);
      const recover = await cli("docs-platform", ["recover", "--stack", stack.name]);
      expect(recover.code, recover.output).toBe(0);
      const up = await cli("pulumi", ["up", "--yes", "--skip-preview"]);
      expect(up.code, up.output.slice(-3000)).toBe(0);

      const resources = (await stack.exportStack()).deployment.resources as { type: string; id: string }[];
      const declared = resources
        .filter((r) => r.type.endsWith(":Collection"))
        .map((r) => r.id)
        .sort();
      expect(declared).toHaveLength(COLLECTIONS);
      expect(added(baseline, await census(emulator))).toEqual({ Collection: declared });
      const preview = await cli("pulumi", ["preview", "--refresh", "--expect-no-changes"]);
      expect(preview.code, preview.output.slice(-3000)).toBe(0);

      const destroy = await cli("pulumi", ["destroy", "--yes", "--skip-preview"]);
      expect(destroy.code, destroy.output.slice(-3000)).toBe(0);
      expect(added(baseline, await census(emulator))).toEqual({});
    });
  }

  it("recover refuses while a provider process of the stack is alive, naming it", async () => {
    const { dir, stack } = await projectOf(ROUTES[1] as Route);
    // The provider plugin as the engine starts it, in the program's directory, but with no engine: it serves on.
    const { spawn } = await import("node:child_process");
    const plugin = spawn(path.join(dir, "node_modules/.bin/pulumi-resource-docs"), [], { cwd: dir, stdio: "ignore" });
    try {
      for (let waited = 0; providers(dir).length === 0 && waited < 5_000; waited += 50) await sleep(50);
      const refused = await runCli("docs-platform", ["recover", "--stack", stack.name], dir, stack);
      expect(refused.code).toBe(1);
      expect(refused.output).toContain(
        `docs-platform recover refused: 1 provider process(es) of the program in ${dir}`,
      );
      expect(refused.output).toContain(`  pid ${plugin.pid}: `);
      expect(refused.output).toContain(`kill ${plugin.pid}.`);
    } finally {
      plugin.kill("SIGKILL");
    }
    for (let waited = 0; providers(dir).length > 0 && waited < 5_000; waited += 50) await sleep(50);
    const recover = await runCli("docs-platform", ["recover", "--stack", stack.name], dir, stack);
    expect(recover.code, recover.output).toBe(0);
  });
});

function providers(dir: string): ProviderProcess[] {
  return providerProcessesIn(dir) ?? [];
}

/** A process's command line with each path cut to its last two parts, for the report. */
function shortCommand(process: ProviderProcess): string {
  return `${process.pid} ${process.command
    .split(" ")
    .map((arg) => arg.split("/").slice(-2).join("/"))
    .join(" ")}`;
}
