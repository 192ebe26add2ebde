import { execFile } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { toolchainVars, toolsDir } from "../../tools/toolchain.mjs";
import { added, type Census, census } from "../support/census";
import { callApi, type Json, startTestEmulator } from "../support/emulator";
import { isDocsResource, makeProject, makeStack } from "./harness";

const run = promisify(execFile);
const FIXTURES = path.join(__dirname, "fixtures/upgrades");

/**
 * What a refresh with the current package rewrites in each release's state, and why: every entry is an output
 * whose shape changed since that release (none of them is a declared input, so none shows as a change). A new
 * shape change makes this test fail until it is listed here and in the CHANGELOG's "Upgrading" section.
 */
const REWRITTEN_BY_REFRESH: Record<string, Record<string, string>> = {
  "0.1.0": {
    "OpenApiSpec.visibility": "added (the API's `visibility`, `private` unless declared)",
    "Site.agentsContext": "dropped: the official API has no such property",
    "Site.defaultLevel": "added (the site's default access for members, `null` when the API reports none)",
    "Site.styleguide": "added (the site's style guide space, `null` for none)",
    "SiteSectionGroup.draft": "added, as SiteSection.draft",
    "SiteSectionGroup.localizedTitle": "added, as SiteSection.localizedTitle",
    "SiteSectionGroup.parentId": "added (the group a nested group is in, `null` at the top level)",
    "SiteSection.default": "stored only when declared: `false` became `null`",
    "SiteSection.draft": "added (`false` unless the section is a draft)",
    "SiteSection.localizedDescription": "added (`{}`: no description per language)",
    "SiteSection.localizedTitle": "added (`{}`: no title per language)",
    "SiteSection.pageId": "added (the section's custom home page, `null` for none)",
    "SiteSection.urls": "dropped: the published URL moved whenever the site's default section changed",
    "SiteSpace.default": "stored only when declared: `false` became `null`",
    "SiteSpace.draft": "added, as SiteSection.draft",
    "SiteSpace.hidden": "added (`false` unless hidden from the site's navigation)",
    "SiteSpace.pageId": "added, as SiteSection.pageId",
    "SiteSpace.urls": "dropped, as SiteSection.urls",
  },
};

/** One fixture as tools/upgrade-fixtures.mjs wrote it. */
interface Fixture {
  name: string;
  program: string;
  state: string;
  api: RecordedApi;
}

interface RecordedExchange {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  body: unknown;
  status: number;
  answer: unknown;
}

interface RecordedApi {
  release: string;
  origin: string;
  adoptedCollectionId: string;
  writes: RecordedExchange[];
  reads: RecordedExchange[];
}

const releases = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const fixtures: Fixture[] = releases.map((name) => {
  const file = (base: string) => readFileSync(path.join(FIXTURES, name, base), "utf8");
  return { name, program: file("index.ts.txt"), state: file("state.json"), api: JSON.parse(file("api.json")) };
});

it("every release the CHANGELOG lists has an upgrade fixture", () => {
  const changelog = readFileSync(path.resolve(__dirname, "../../CHANGELOG.md"), "utf8");
  const released = [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\]/gm)].map((match) => match[1]);
  expect(released.length).toBeGreaterThan(0);
  expect(releases.sort()).toEqual(released.sort());
});

/**
 * Upgrades through the real CLI: the state an earlier release wrote (test/e2e/fixtures/upgrades/<release>/, made by
 * tools/upgrade-fixtures.mjs from that release's code) is imported into a stack of the same program, installed with
 * the current package, with the API objects that release made (its writes replayed: the emulator gives new ids,
 * which the state is rewritten with). The program must still compile; preview and refresh must find nothing to
 * change; whatever a change of outputs makes the engine report is an update, never a replace; destroy leaves nothing.
 */
describe.each(fixtures)("a stack written by $api.release upgrades to this version", (fixture) => {
  let emulator: RunningEmulator;
  let baseline: Census;
  let dir: string;
  let stack: Stack;

  beforeAll(async () => {
    // The release's create waited for each OpenAPI spec's processing before its closing refresh read the spec; the
    // replay sends those reads right after the writes, so processing must be done by then (else a spec's version id
    // is never paired with the recorded one, and the refresh below finds it changed).
    emulator = await startTestEmulator({ port: 0, token: "upgrades-e2e-token", openApiStepMs: 0 });
    baseline = await census(emulator);
    const ids = await replay(emulator, fixture.api);
    dir = await makeProject(
      "upgrade",
      {
        "index.ts": fixture.program,
        "tsconfig.json": readFileSync(path.resolve(__dirname, "../../examples/docs-site/tsconfig.json"), "utf8"),
      },
      { typescript: true },
    );
    stack = await makeStack(dir, emulator);
    await stack.setConfig("spaceIds", { value: JSON.stringify(emulator.spaceIds) });
    await stack.setConfig("userIds", { value: JSON.stringify(emulator.userIds) });
    await stack.setConfig("adoptedCollectionId", { value: ids.rewrite(fixture.api.adoptedCollectionId) });
    const stateFile = path.join(dir, "upgraded-state.json");
    const state = ids.rewrite(fixture.state);
    for (const timestamp of ids.ambiguous)
      expect(state, "a timestamp of the state the replay cannot tell").not.toContain(timestamp);
    writeFileSync(stateFile, JSON.stringify(withStackSecrets(JSON.parse(state), dir)));
    const imported = await cli(stack, ["stack", "import", "--file", stateFile]);
    expect(imported.code, imported.output).toBe(0);
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("the program still compiles against the package", async () => {
    const compiled = await exec(stack, path.join(dir, "node_modules/.bin/tsc"), ["--noEmit", "-p", "."]);
    expect(compiled.code, compiled.output).toBe(0);
  });

  it("every __provider of the state is the release's require of its kind module", async () => {
    const resources = await docsResources(stack);
    expect(resources.length).toBeGreaterThan(0);
    for (const resource of resources) {
      const kind = resource.type.split(":").pop();
      expect(resource.outputs.__provider).toContain(`require("pulumi-docs-platform/kinds/${kind}")`);
    }
  });

  it("preview finds nothing to change, and nothing would be replaced", async () => {
    const preview = await cli(stack, ["preview", "--json", "--expect-no-changes"]);
    const steps: { op: string; urn: string }[] = JSON.parse(preview.stdout).steps ?? [];
    expect(steps.filter((step) => ["replace", "create-replacement", "delete-replaced"].includes(step.op))).toEqual([]);
    expect(steps.filter((step) => step.op !== "same").map((step) => `${step.op} ${step.urn}`)).toEqual([]);
    expect(preview.code, preview.output).toBe(0);
  });

  it("refresh finds nothing to change and rewrites only the outputs whose shape changed", async () => {
    const before = await docsResources(stack);
    const refresh = await cli(stack, ["refresh", "--yes", "--skip-preview", "--expect-no-changes"]);
    expect(refresh.code, refresh.output).toBe(0);
    expect(rewrittenOutputs(before, await docsResources(stack))).toEqual(
      Object.keys(REWRITTEN_BY_REFRESH[fixture.name] ?? {}).sort(),
    );
    const again = await cli(stack, ["preview", "--expect-no-changes"]);
    expect(again.code, again.output).toBe(0);
  });

  it("destroy leaves nothing the release made", async () => {
    const destroy = await cli(stack, ["destroy", "--yes", "--skip-preview"]);
    expect(destroy.code, destroy.output).toBe(0);
    expect(added(baseline, await census(emulator))).toEqual({});
  });
});

/**
 * Makes the release's objects again: every write it sent, in the order the API answered them, then every read of
 * its closing refresh. Each answer is compared with the recorded one to learn what the API generated differently
 * this time (ids, tokens, timestamps, the origin); later requests and the state are rewritten with it.
 */
async function replay(emulator: RunningEmulator, api: RecordedApi): Promise<Learned> {
  const learned = new Learned(api.origin, emulator.origin);
  const rewrite = (text: string) => learned.rewrite(text);
  const send = async (exchange: RecordedExchange) => {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(exchange.query)) {
      for (const item of [value].flat()) query.append(key, rewrite(item));
    }
    const apiPath = rewrite(exchange.path.replace(/^\/v1/, "")) + (query.size > 0 ? `?${query}` : "");
    const body = exchange.body === undefined ? undefined : JSON.parse(rewrite(JSON.stringify(exchange.body)));
    const answer = await callApi(emulator, exchange.method, apiPath, body);
    expect(answer.status, `${exchange.method} ${apiPath}: ${answer.text}`).toBe(exchange.status);
    learned.learn(exchange.answer, answer.body);
  };
  for (const write of api.writes) await send(write);
  for (const read of api.reads) await send(read);
  return learned;
}

const GENERATED_TOKEN = /^[A-Za-z0-9]{16,}$/;
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/**
 * What differs between recorded answers and this emulator's: generated tokens (ids, share-link tokens) pair up
 * one to one; a timestamp two objects had in the recording may pair with two, and is then `ambiguous`.
 */
class Learned {
  readonly pairs = new Map<string, string>();
  readonly ambiguous = new Set<string>();

  constructor(origin: string, now: string) {
    this.pairs.set(origin, now);
  }

  rewrite(text: string): string {
    let result = text;
    for (const [old, now] of this.pairs) result = result.split(old).join(now);
    return result;
  }

  learn(recorded: unknown, now: unknown) {
    if (typeof recorded === "string" && typeof now === "string" && recorded !== now) {
      if (TIMESTAMP.test(recorded) && TIMESTAMP.test(now)) this.pairTimestamp(recorded, now);
      const olds = recorded.split(/[^A-Za-z0-9]+/);
      const news = now.split(/[^A-Za-z0-9]+/);
      if (olds.length !== news.length) return;
      olds.forEach((old, i) => {
        const fresh = news[i] as string;
        if (old !== fresh && GENERATED_TOKEN.test(old) && GENERATED_TOKEN.test(fresh)) this.pairToken(old, fresh);
      });
    } else if (Array.isArray(recorded) && Array.isArray(now)) {
      for (const [i, item] of recorded.entries()) this.learn(item, now[i]);
    } else if (isObject(recorded) && isObject(now)) {
      for (const key of Object.keys(recorded)) this.learn(recorded[key], now[key]);
    }
  }

  private pairToken(old: string, now: string) {
    const known = this.pairs.get(old);
    if (known !== undefined && known !== now) throw new Error(`the replay gave ${old} two values: ${known} and ${now}`);
    this.pairs.set(old, now);
  }

  private pairTimestamp(old: string, now: string) {
    if (this.ambiguous.has(old)) return;
    const known = this.pairs.get(old);
    if (known === undefined) this.pairs.set(old, now);
    else if (known !== now) {
      this.pairs.delete(old);
      this.ambiguous.add(old);
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The state with this stack's secrets provider: the fixture leaves out the one of the stack that wrote it, whose
 * passphrase and salt only that stack had, and holds its secrets as plaintext for `stack import` to encrypt.
 */
function withStackSecrets(exported: Json, dir: string): Json {
  const config = readFileSync(path.join(dir, "Pulumi.e2e.yaml"), "utf8");
  const salt = /^encryptionsalt: (\S+)$/m.exec(config)?.[1];
  expect(salt, "the stack's passphrase salt in Pulumi.e2e.yaml").toBeDefined();
  return {
    ...exported,
    deployment: { ...exported.deployment, secrets_providers: { type: "passphrase", state: { salt } } },
  };
}

interface StoredResource {
  urn: string;
  type: string;
  outputs: Json;
}

async function docsResources(stack: Stack): Promise<StoredResource[]> {
  const resources: StoredResource[] = (await stack.exportStack()).deployment.resources ?? [];
  return resources.filter((resource) => isDocsResource(resource.type));
}

/** `<Kind>.<output>` for each top-level output a refresh changed, once per kind and output. */
function rewrittenOutputs(before: StoredResource[], after: StoredResource[]): string[] {
  const changed = new Set<string>();
  for (const old of before) {
    const now = after.find((resource) => resource.urn === old.urn);
    const kind = old.type.split(":").pop();
    if (!now) {
      changed.add(`${kind}: gone`);
      continue;
    }
    for (const key of new Set([...Object.keys(old.outputs), ...Object.keys(now.outputs)])) {
      if (JSON.stringify(old.outputs[key]) !== JSON.stringify(now.outputs[key])) changed.add(`${kind}.${key}`);
    }
  }
  return [...changed].sort();
}

interface Run {
  code: number;
  stdout: string;
  output: string;
}

/** The real CLI in the project, with the stack's environment, as a user runs it, whatever its exit code. */
function cli(stack: Stack, args: string[]): Promise<Run> {
  return exec(stack, path.join(toolsDir, "bin/pulumi"), [...args, "--stack", stack.name, "--non-interactive"]);
}

async function exec(stack: Stack, file: string, args: string[]): Promise<Run> {
  try {
    const { stdout, stderr } = await run(file, args, {
      cwd: stack.workspace.workDir,
      env: { ...process.env, ...toolchainVars(), ...stack.workspace.envVars },
      maxBuffer: 256 << 20,
    });
    return { code: 0, stdout, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: failed.code ?? 1,
      stdout: failed.stdout ?? "",
      output: `${failed.stdout ?? ""}${failed.stderr ?? ""}`,
    };
  }
}
