import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { toolchainVars, toolsDir } from "../../tools/toolchain.mjs";
import { type FakeEngine, startFakeEngine } from "../support/fakeEngine";

const repoRoot = path.resolve(__dirname, "../..");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Started {
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<{ code: number | null; at: number }>;
  /** Its first line of stdout: the port it serves on. */
  port: string;
}

/** A provider or host process as the engine starts it: `<command> <engine address>`, its port read from stdout. */
async function start(command: string, args: string[], env: Record<string, string> = {}): Promise<Started> {
  const child = spawn(command, args, {
    cwd: repoRoot,
    env: { ...process.env, ...toolchainVars(), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.once("exit", (code) => resolve({ code, at: Date.now() })),
  );
  const port = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk) => {
      out += chunk;
      if (out.includes("\n")) resolve(out.split("\n")[0] as string);
    });
    void exited.then(({ code }) => reject(new Error(`${command} exited (${code}) before serving:\n${stderr}`)));
  });
  return { child, stderr: () => stderr, exited, port };
}

const PROCESSES = [
  {
    name: "the docs provider plugin (pulumi-resource-docs)",
    command: path.join(repoRoot, "bin/pulumi-resource-docs"),
    args: [] as string[],
    env: {} as Record<string, string>,
    line: /^pulumi-resource-docs \(pid \d+\): the Pulumi engine at 127\.0\.0\.1:\d+ is gone \(its health check failed and the address refuses connections\); sent no further request \(no request was on the wire\); exiting\n$/,
  },
  {
    // The SDK's dynamic provider once it has loaded one of our kinds (here before any call, through --require).
    name: "the SDK's dynamic provider with the framework loaded",
    command: process.execPath,
    args: [path.join(repoRoot, "node_modules/@pulumi/pulumi/cmd/dynamic-provider")],
    env: { NODE_OPTIONS: `--require ${path.join(repoRoot, "dist/provider/framework/dynamic.js")}` },
    line: /^pulumi-docs-platform dynamic provider \(pid \d+\): the Pulumi engine at 127\.0\.0\.1:\d+ is gone .*; exiting\n$/,
  },
  {
    name: "our Node.js language host (pulumi-language-nodejs)",
    command: path.join(toolsDir, "bin/pulumi-language-nodejs"),
    args: [],
    env: {} as Record<string, string>,
    line: /^pulumi-language-nodejs \(pid \d+\): the Pulumi engine at 127\.0\.0\.1:\d+ is gone \(its health check failed and the address refuses connections\); exiting\n$/,
  },
];

/**
 * The processes the engine starts outlive it no more than a few seconds, and never mistake a paused engine for a dead
 * one: each is started against a stand-in engine (test/support/fakeEngine.ts) that is stopped with SIGSTOP for
 * several check intervals, resumed, then killed with SIGKILL.
 */
describe("a provider process whose engine dies leaves, one whose engine pauses stays", () => {
  let engine: FakeEngine | undefined;
  let started: Started | undefined;
  afterEach(async () => {
    engine?.resume();
    await engine?.kill();
    started?.child.kill("SIGKILL");
  });

  for (const subject of PROCESSES) {
    it(subject.name, { timeout: 30_000 }, async () => {
      engine = await startFakeEngine();
      started = await start(subject.command, [...subject.args, engine.address], subject.env);
      let exited = false;
      void started.exited.then(() => (exited = true));

      engine.pause();
      await sleep(3_500);
      engine.resume();
      await sleep(1_000);
      expect(exited, started.stderr()).toBe(false);

      const killedAt = Date.now();
      await engine.kill();
      const exit = await Promise.race([started.exited, sleep(5_000).then(() => undefined)]);
      expect(exit, `still running 5 s after its engine was killed; stderr:\n${started.stderr()}`).toBeDefined();
      const seconds = ((exit?.at ?? 0) - killedAt) / 1000;
      console.log(`${subject.name}: exited ${seconds.toFixed(2)} s after its engine was killed (code ${exit?.code})`);
      expect(seconds).toBeLessThan(3);
      expect(exit?.code).toBe(1);
      expect(started.stderr()).toMatch(subject.line);
    });
  }

  it("the plugin started by hand, with no engine, serves until it is stopped", { timeout: 20_000 }, async () => {
    started = await start(path.join(repoRoot, "bin/pulumi-resource-docs"), []);
    expect(Number(started.port)).toBeGreaterThan(0);
    let exited = false;
    void started.exited.then(() => (exited = true));
    await sleep(2_500);
    expect(exited, started.stderr()).toBe(false);
    expect(started.stderr()).toBe("");
  });
});
