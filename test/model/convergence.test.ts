/**
 * Model-based test of convergence (fast-check commands): random sequences of program changes, hand edits, faults and
 * engine runs against the in-process emulator, with the invariants of ./model.ts after every `up` that succeeds and at
 * the end. The seed is the UTC date (yyyymmdd) unless MODEL_SEED is set; MODEL_RUNS sets the number of sequences
 * per route (100 by default, so 200 in all; 5 000, so 10 000 in all, in the scheduled workflow). A failure prints the seed, the shrunk command list and its log.
 * The same sequences (same seed) run on both routes (../support/routes.ts): the dynamic providers and the plugin's
 * gRPC service, which share one core and must converge alike.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Census } from "../support/census";
import { useEmulator } from "../support/emulator";
import { captureLog, captureStderr } from "../support/log";
import { ROUTES, type RouteName } from "../support/routes";
import { type Command, commandArbitraries, finish, newModel, newReal } from "./model";

const fixture = useEmulator();
// The provider's notices (a space deleted with its content, a share link on a public site) are not under test here.
captureLog();
captureStderr();

const today = new Date().toISOString().slice(0, 10).replaceAll("-", "");
/** A setting of the environment; blank (as a workflow passes an input left empty) is unset. */
const setting = (name: string, fallback: string) => Number(process.env[name]?.trim() || fallback);
const seed = setting("MODEL_SEED", today);
const runs = setting("MODEL_RUNS", "100");
const MAX_COMMANDS = 30;
/** A sequence takes about a third of a second on two cores: the limit only stops a run that hangs. */
const TIMEOUT_MS = 60_000 + runs * 3_000;

/**
 * The shrunk case replayed with tracing on (./model.ts `replay`): its log, which then holds each run's engine steps and
 * exchanges with the API, up to where it fails.
 */
async function traced(route: RouteName, details: fc.RunDetails<[Iterable<Command>]>): Promise<string> {
  // fast-check wraps each command, and prints only those that ran (the rest came after the failure).
  const wrapped = [...(details.counterexample?.[0] ?? [])] as unknown as { hasRan: boolean; cmd: Command }[];
  const commands = wrapped.filter((command) => command.hasRan).map((command) => command.cmd);
  const real = await newReal(fixture.emulator, route, undefined, true);
  const model = newModel();
  try {
    for (const command of commands) if (command.check(model)) await command.run(model, real);
    await finish(model, real);
    return `${real.log.join("\n")}\n(the replay passed: the failure depends on what ran before it)`;
  } catch (error) {
    return `${real.log.join("\n")}\n${String(error).split("\n")[0]}`;
  }
}

describe.each(ROUTES)("on the %s route", (route) => {
  it(
    `converges over ${runs} sequences of up to ${MAX_COMMANDS} commands (seed ${seed})`,
    async () => {
      let sequences = 0;
      let commands = 0;
      let steps = 0;
      let checks = 0;
      let baseline: Census | undefined;
      const started = Date.now();
      const property = fc.asyncProperty(
        fc.commands(commandArbitraries(), { maxCommands: MAX_COMMANDS, size: "max" }),
        async (sequence) => {
          const real = await newReal(fixture.emulator, route, baseline);
          baseline = real.baseline;
          const model = newModel();
          await fc.asyncModelRun(() => ({ model, real }), sequence);
          await finish(model, real);
          sequences++;
          commands += real.log.length;
          steps += real.steps;
          checks += real.checks;
          if (process.env.MODEL_VERBOSE) console.log(real.log.join("\n"));
          if (sequences % 1000 === 0) console.log(`model: ${sequences} sequences, ${steps} engine steps so far`);
        },
      );
      const details = await fc.check(property, { seed, numRuns: runs });
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(
        `model (${route} route): seed ${seed}, ${details.numRuns} sequences of up to ${MAX_COMMANDS} commands; ${sequences} executions ` +
          `(shrinking included) ran ${commands} commands, ${steps} engine steps and ${checks} convergence checks in ` +
          `${seconds} s`,
      );
      if (details.failed) {
        console.log(`model: failed, seed ${seed}, path ${details.counterexamplePath}`);
        console.log(`model: shrunk case: ${details.counterexample?.[0]?.toString()}`);
        console.log(`model: error: ${String(details.errorInstance)}`);
        console.log(
          `model: the shrunk case replayed, with each run's steps and exchanges:\n${await traced(route, details)}`,
        );
      }
      expect(details.failed, fc.defaultReportMessage(details) ?? "").toBe(false);
    },
    TIMEOUT_MS,
  );
});
