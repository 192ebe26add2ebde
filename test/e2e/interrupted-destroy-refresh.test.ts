import { readFileSync } from "node:fs";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestLogEntry, RunningEmulator } from "../../emulator";
import { added, CENSUS_KINDS, type Census, census } from "../support/census";
import { startTestEmulator } from "../support/emulator";
import { makeProject, makeStack } from "./harness";
import { killAfter, providerRequests, removeEmptyAttrs, runCli } from "./kill";

const example = path.resolve(__dirname, "../../examples/docs-site");

/** Every answer is held this long after the API acted: the window in which a kill leaves the engine not knowing. */
const ANSWER_DELAY_MS = 4_000;

/**
 * Recovery from a killed `pulumi refresh` and a killed `pulumi destroy` of the complete docs-site example through the
 * real CLI, with the README's commands ("Recovering from an interrupted update": `pulumi cancel`, `docs-platform
 * recover`, then the killed command again). Answers are held back, so that the kill lands while the API has acted
 * and the engine has not heard. A refresh must lose nothing from the state; a destroy must leave nothing behind.
 */
describe("a killed pulumi refresh or destroy of the docs-site example recovers with the README's commands", () => {
  let emulator: RunningEmulator;
  let dir: string;
  let stack: Stack;
  let baseline: Census;

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0, token: "interrupted-teardown-e2e-token" });
    dir = await makeProject(
      "killed-teardown",
      {
        "index.ts": readFileSync(path.join(example, "index.ts"), "utf8"),
        "tsconfig.json": readFileSync(path.join(example, "tsconfig.json"), "utf8"),
      },
      { typescript: true },
    );
    stack = await makeStack(dir, emulator);
    await stack.setConfig("userIds", { value: JSON.stringify(emulator.userIds) });
    baseline = await census(emulator);
    const up = await cli("pulumi", ["up", "--yes", "--skip-preview"]);
    expect(up.code, up.output.slice(-3000)).toBe(0);
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await emulator?.close();
  });

  const cli = (command: string, args: string[]) => runCli(command, args, dir, stack);

  /** Steps 1 and 2 of the README: the killed run's lock, then recover (which has no pending create to resolve). */
  async function cancelAndRecover() {
    removeEmptyAttrs(path.join(dir, ".state"));
    const cancel = await cli("pulumi", ["cancel", "--yes"]);
    expect(cancel.code, cancel.output).toBe(0);
    const recover = await cli("docs-platform", ["recover", "--stack", stack.name]);
    expect(recover.code, recover.output).toBe(0);
    expect(recover.output).toContain("No pending creates: nothing to recover.");
  }

  it("killed mid-refresh: the state keeps every resource, and refresh again finds nothing to change", async () => {
    const before = await resourcesInState(stack);
    emulator.clearRequests();
    emulator.injectFault({ method: "GET", path: "^/v1/", delayResponseMs: ANSWER_DELAY_MS, count: 1000 });
    const killed = await killAfter(stack, ["refresh", "--yes", "--skip-preview"], {
      what: "reads",
      count: () => providerRequests(emulator, "read").length,
      target: 2,
    });
    emulator.clearFaults();
    expect(killed.output).toContain("refreshing");
    // The killed refresh itself dropped nothing: every resource is there with its id.
    expect(await resourcesInState(stack)).toEqual(before);

    await cancelAndRecover();
    const refresh = await cli("pulumi", ["refresh", "--yes", "--skip-preview"]);
    expect(refresh.code, refresh.output.slice(-3000)).toBe(0);
    expect(await resourcesInState(stack)).toEqual(before);
    await stack.refresh({ expectNoChanges: true });
    await stack.preview({ expectNoChanges: true });
  });

  for (const point of DESTROY_KILL_POINTS) {
    it(`killed mid-destroy (${point.name}): destroy again leaves nothing behind`, async () => {
      if ((await resourcesInState(stack)).length === 0) {
        const up = await cli("pulumi", ["up", "--yes", "--skip-preview"]);
        expect(up.code, up.output.slice(-3000)).toBe(0);
      }
      emulator.clearRequests();
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
        emulator.injectFault({ method, path: "^/v1/", delayResponseMs: ANSWER_DELAY_MS, count: 1000 });
      }
      await killAfter(stack, ["destroy", "--yes", "--skip-preview"], {
        what: point.what,
        count: () => providerRequests(emulator, "write").filter(point.counts).length,
        target: point.target,
      });
      emulator.clearFaults();
      const pending: PendingOperation[] = (await stack.exportStack()).deployment.pending_operations ?? [];
      expect(pending.length).toBeGreaterThan(0);
      expect(pending.every((op) => op.type === "deleting")).toBe(true);
      // The kill cut off the answers of deletes the API had carried out: their objects are gone, their resources
      // still in the state.
      const inState = await resourcesInState(stack);
      for (const op of pending) expect(inState).toContain(`${op.resource.urn} ${op.resource.id}`);
      const listed = new Set(Object.values(await census(emulator)).flat());
      const unheard = pending.filter((op) => CENSUS_KINDS.has(kindOf(op)) && !listed.has(op.resource.id ?? ""));
      expect(unheard.length).toBeGreaterThan(0);

      await cancelAndRecover();
      emulator.clearRequests();
      const destroy = await cli("pulumi", ["destroy", "--yes", "--skip-preview"]);
      expect(destroy.code, destroy.output.slice(-3000)).toBe(0);
      expect(destroy.output).toContain(`with ${pending.length} pending operations from previous deployment`);
      expect(await resourcesInState(stack)).toEqual([]);
      expect(added(baseline, await census(emulator))).toEqual({});
      // Each delete the kill cut off was sent again, for an object already gone: the API answers that as done (204,
      // or a 404 the provider reads as gone).
      const repeated = unheard.map((op) => {
        const answers = emulator
          .requests()
          .filter((r) => r.method === "DELETE" && r.path.endsWith(`/${op.resource.id}`))
          .map((r) => r.status);
        return `${kindOf(op)} ${answers.join(",") || "not sent"}`;
      });
      console.log(
        `${point.name}: pending deletes ${pending.length} (${kinds(pending)}); carried out unheard, then repeated: ` +
          `${repeated.join("; ")}; leftovers 0`,
      );
      for (const line of repeated) expect(line).toMatch(/ (204|404)$/);
    });
  }
});

interface PendingOperation {
  type: string;
  resource: { urn: string; id?: string };
}

interface DestroyKillPoint {
  name: string;
  what: string;
  counts: (request: RequestLogEntry) => boolean;
  target: number;
}

/** A site, collection or space: the parents, deleted once what is under them is gone. */
const PARENT_DELETE = /^\/v1\/(orgs\/[^/]+\/sites|collections|spaces)\/[^/]+$/;

const DESTROY_KILL_POINTS: DestroyKillPoint[] = [
  // The first wave: resources nothing depends on (site spaces, the share link, memberships, settings…).
  { name: "leaves in flight", what: "writes", counts: () => true, target: 4 },
  // Later: the first delete of a parent in flight, what was under it gone.
  {
    name: "a parent's delete in flight",
    what: "parent deletes",
    counts: (r) => r.method === "DELETE" && PARENT_DELETE.test(r.path),
    target: 1,
  },
];

function kindOf(op: PendingOperation): string {
  return op.resource.urn.split("::")[2]?.split(":").pop() ?? "";
}

function kinds(operations: PendingOperation[]): string {
  return operations.map((op) => `${kindOf(op)} ${op.resource.urn.split("::")[3]}`).join(", ");
}

/** `<urn> <id>` of every docs resource the state holds, sorted. */
async function resourcesInState(stack: Stack): Promise<string[]> {
  const resources: { urn: string; id?: string; type: string }[] =
    (await stack.exportStack()).deployment.resources ?? [];
  return resources
    .filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/docs:"))
    .map((r) => `${r.urn} ${r.id}`)
    .sort();
}
