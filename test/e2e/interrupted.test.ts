import { readFileSync } from "node:fs";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { added, CENSUS_KINDS, type Census, census } from "../support/census";
import { callApi, startTestEmulator } from "../support/emulator";
import { exportAsStored, makeProject, makeStack } from "./harness";
import { killAfter, providerRequests, removeEmptyAttrs, runCli } from "./kill";

const example = path.resolve(__dirname, "../../examples/docs-site");
const DOCS_TYPE = "pulumi-nodejs:dynamic/docs:";

/** Every create's answer is held this long after the API acted: the window in which a kill leaves it pending. */
const ANSWER_DELAY_MS = 4_000;

/**
 * Where to kill: once this many writes of the provider reached the API (a held request counts on arrival). The
 * example's first wave is 6 creates with no dependencies (the handbook collection, the two sites, the two teams, the
 * OpenAPI spec; its spaces are in a collection, so later); the later ones follow their parents, so each point leaves
 * a different set in flight.
 */
const KILL_POINTS: KillPoint[] = [
  // The whole first wave in flight, and the OpenAPI spec's create held before the API acts (then dropped): a
  // pending create that made nothing, next to five that did.
  { name: "early", writes: 6, holdOpenApiCreate: true },
  { name: "middle", writes: 9 },
  { name: "late", writes: 16 },
];

/**
 * Recovery from an interrupted update through the real CLI: `pulumi up` of the complete docs-site example is killed
 * with SIGKILL while creates are in flight (every write's answer held back, so that the API has acted and the engine
 * has not heard), then the README's "Recovering from an interrupted update" is followed to the letter: `pulumi cancel`,
 * `docs-platform recover`, `pulumi up`. The organization must then hold exactly the objects the state declares (0
 * duplicates, 0 orphans), a refresh must find nothing to change, and destroy must leave nothing behind.
 */
describe("a killed pulumi up of the docs-site example recovers with the README's commands", () => {
  let emulator: RunningEmulator;
  let dir: string;
  let stack: Stack;
  let baseline: Census;
  const report: string[] = [];

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0, token: "interrupted-e2e-token" });
    dir = await makeProject(
      "interrupted",
      {
        "index.ts": readFileSync(path.join(example, "index.ts"), "utf8"),
        "tsconfig.json": readFileSync(path.join(example, "tsconfig.json"), "utf8"),
      },
      { typescript: true },
    );
    stack = await makeStack(dir, emulator);
    await stack.setConfig("userIds", { value: JSON.stringify(emulator.userIds) });
    baseline = await census(emulator);
  });
  afterAll(async () => {
    if (report.length > 0) console.log(`interrupted report:\n${report.join("\n")}`);
    await stack?.destroy().catch(() => undefined);
    await emulator?.close();
  });

  const cli = (command: string, args: string[]) => runCli(command, args, dir, stack);

  for (const point of KILL_POINTS) {
    it(`killed ${point.name} (after ${point.writes} writes): recover and up leave exactly the declared objects`, async () => {
      emulator.clearRequests();
      if (point.holdOpenApiCreate) {
        emulator.injectFault({ method: "POST", path: "/openapi$", latencyMs: 30_000, drop: true });
      }
      for (const method of ["POST", "PUT", "PATCH"]) {
        emulator.injectFault({ method, path: "^/v1/", delayResponseMs: ANSWER_DELAY_MS, count: 1000 });
      }
      const killed = await killUpAfter(point.writes);
      emulator.clearFaults();
      const emptied = removeEmptyAttrs(path.join(dir, ".state"));

      const pending = ((await stack.exportStack()).deployment.pending_operations ?? []) as PendingOperation[];
      expect(pending.length, killed.output.slice(-3000)).toBeGreaterThan(0);
      expect(pending.every((op) => op.type === "creating")).toBe(true);

      // The README's sequence. The killed CLI left its lock on the backend: step 1.
      const cancel = await cli("pulumi", ["cancel", "--yes"]);
      expect(cancel.code, cancel.output).toBe(0);
      const recover = await cli("docs-platform", ["recover", "--stack", stack.name]);
      expect(recover.code, recover.output).toBe(0);
      const imported = actions(recover.output, "import");
      const cleared = actions(recover.output, "clear");
      expect([...imported, ...cleared].sort()).toEqual(pending.map((op) => op.resource.urn).sort());
      const recovered = (await stack.exportStack()).deployment;
      expect(recovered.pending_operations ?? []).toEqual([]);
      const inState = new Set((recovered.resources ?? []).map((r: { urn: string }) => r.urn));
      for (const urn of imported) expect(inState.has(urn), urn).toBe(true);
      for (const urn of cleared) expect(inState.has(urn), urn).toBe(false);
      if (point.holdOpenApiCreate) expect(cleared).toEqual([urnOf(stack, "OpenApiSpec", "petstore")]);

      const up = await cli("pulumi", ["up", "--yes", "--skip-preview"]);
      expect(up.code, up.output.slice(-3000)).toBe(0);
      await stack.refresh({ expectNoChanges: true });
      await stack.preview({ expectNoChanges: true });

      const state = await stateObjects(stack);
      const store = added(baseline, await census(emulator));
      // What the store must hold: one object per resource of a kind the census lists (CENSUS_KINDS), plus the first
      // site space every section brings with it.
      const sections = state.SiteSection?.length ?? 0;
      const declared =
        Object.entries(state)
          .filter(([kind]) => CENSUS_KINDS.has(kind))
          .reduce((sum, [, ids]) => sum + ids.length, 0) + sections;
      const held = Object.values(store).reduce((sum, ids) => sum + ids.length, 0);
      expect(held).toBe(declared);
      const { duplicates, orphans } = compare(store, state);
      expect({ duplicates, orphans }).toEqual({ duplicates: [], orphans: [] });
      // The package's own orphan report agrees: every object of the organization is managed by the stack.
      const unmanaged = await cli("docs-platform", [
        "unmanaged",
        "--organization",
        emulator.organizationId,
        "--stack",
        stack.name,
      ]);
      expect(unmanaged.code, unmanaged.output).toBe(0);
      // The share link's url stays a secret wherever the recovery wrote it.
      const url = (await stack.outputs()).reviewUrl;
      expect(url?.secret).toBe(true);
      const shareToken = new URL(url?.value as string).searchParams.get("token") as string;
      expect(await exportAsStored(stack)).not.toContain(shareToken);

      await stack.destroy();
      const leftovers = added(baseline, await census(emulator));
      const kinds = (urns: string[]) => urns.map((urn) => urn.split("::").pop()).join(",") || "-";
      const line =
        `${point.name}: killed after ${killed.writes} writes at ${killed.seconds.toFixed(1)} s; ` +
        `pending ${pending.length} (${kinds(pending.map((op) => op.resource.urn))}); ` +
        `recover imported ${imported.length} (${kinds(imported)}), cleared ${cleared.length} (${kinds(cleared)}); ` +
        `after up: store ${held} objects / declared ${declared} (incl. ${sections} first site spaces), ` +
        `duplicates ${duplicates.length}, orphans ${orphans.length}; after destroy: leftovers ` +
        `${Object.values(leftovers).flat().length}` +
        (emptied.length > 0 ? `; empty state metadata removed: ${emptied.join(", ")}` : "");
      report.push(line);
      console.log(line);
      expect(leftovers).toEqual({});
    });
  }

  it("Pulumi's own refresh --import-pending-creates drops the create instead of importing it: why recover edits the state", async () => {
    const handbook = urnOf(stack, "Collection", "handbook");
    const up = await cli("pulumi", ["up", "--yes", "--skip-preview", "--target", handbook]);
    expect(up.code, up.output.slice(-3000)).toBe(0);
    // The state a kill leaves: the create recorded as pending, the object made.
    const deployment = (await stack.exportStack()).deployment;
    const resource = deployment.resources.find((r: { urn: string }) => r.urn === handbook);
    const id: string = resource.id;
    deployment.resources = deployment.resources.filter((r: { urn: string }) => r.urn !== handbook);
    const { id: _id, outputs: _outputs, ...recorded } = resource;
    deployment.pending_operations = [{ type: "creating", resource: recorded }];
    await stack.importStack({ version: 3, deployment });

    const refresh = await cli("pulumi", [
      "refresh",
      "--yes",
      "--skip-preview",
      "--import-pending-creates",
      handbook,
      "--import-pending-creates",
      id,
    ]);
    expect(refresh.code, refresh.output).toBe(0);
    const after = (await stack.exportStack()).deployment;
    // Neither pending nor a resource: the engine forgot the object, which still exists.
    expect(after.pending_operations ?? []).toEqual([]);
    expect(after.resources.map((r: { urn: string }) => r.urn)).not.toContain(handbook);
    expect(added(baseline, await census(emulator))).toEqual({ Collection: [id] });
    report.push(`refresh --import-pending-creates: Collection ${id} in the API, in no state afterwards`);

    expect([204, 205]).toContain((await callApi(emulator, "DELETE", `/collections/${id}`)).status);
    await stack.destroy();
    expect(added(baseline, await census(emulator))).toEqual({});
  });

  /** `pulumi up` as a CI job runs it, SIGKILLed with every process it started once `writes` writes reached the API. */
  async function killUpAfter(writes: number): Promise<{ writes: number; seconds: number; output: string }> {
    const killed = await killAfter(stack, ["up", "--yes", "--skip-preview"], {
      what: "writes",
      count: () => providerRequests(emulator, "write").length,
      target: writes,
    });
    return { writes: killed.reached, seconds: killed.seconds, output: killed.output };
  }
});

interface KillPoint {
  name: string;
  writes: number;
  /** Hold the OpenAPI spec's create before the API handles it, and drop it: a create that makes nothing. */
  holdOpenApiCreate?: boolean;
}

interface PendingOperation {
  type: string;
  resource: { urn: string };
}

function urnOf(stack: Stack, kind: string, name: string): string {
  return `urn:pulumi:${stack.name}::interrupted::${DOCS_TYPE}${kind}::${name}`;
}

/** The URNs of recover's lines of one action (`  import  <urn>  ->  …`, `  clear   <urn>  (…)`). */
function actions(output: string, action: "import" | "clear"): string[] {
  return output
    .split("\n")
    .filter((line) => line.startsWith(`  ${action} `))
    .map((line) => line.trim().split(/\s+/)[1] as string);
}

/**
 * Objects of the store that no state resource is (orphans) and kinds with more objects than the state declares
 * (duplicates). Every section brings its first site space with it, which no resource declares.
 */
function compare(store: Census, state: Census): { duplicates: string[]; orphans: string[] } {
  const duplicates: string[] = [];
  const orphans: string[] = [];
  const sections = state.SiteSection?.length ?? 0;
  for (const kind of new Set([...Object.keys(store), ...Object.keys(state)])) {
    if (!CENSUS_KINDS.has(kind)) continue;
    const ids = store[kind] ?? [];
    const declared = new Set(state[kind] ?? []);
    const extra = kind === "SiteSpace" ? sections : 0;
    if (ids.length > declared.size + extra) duplicates.push(`${kind}: ${ids.length} for ${declared.size + extra}`);
    const undeclared = ids.filter((id) => !declared.has(id));
    if (undeclared.length > extra) orphans.push(`${kind}: ${undeclared.join(", ")}`);
    for (const id of declared) if (!ids.includes(id)) orphans.push(`${kind} ${id}: in the state, not in the store`);
  }
  return { duplicates, orphans };
}

async function stateObjects(stack: Stack): Promise<Census> {
  const result: Census = {};
  for (const r of (await stack.exportStack()).deployment.resources ?? []) {
    if (!r.type.startsWith(DOCS_TYPE)) continue;
    const kind = r.type.slice(DOCS_TYPE.length);
    result[kind] = [...(result[kind] ?? []), r.id];
  }
  for (const ids of Object.values(result)) ids.sort();
  return result;
}
