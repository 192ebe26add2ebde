import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { packPlugin } from "../../tools/pack-plugin.mjs";
import { toolsDir } from "../../tools/toolchain.mjs";
import { callApi, type Json, startTestEmulator } from "../support/emulator";
import { exportAsStored, makeStack, runPulumi, upConsistent } from "./harness";

const run = promisify(execFile);
const repoRoot = path.resolve(__dirname, "../..");
const workRoot = path.join(repoRoot, ".e2e");
const { version } = require(path.join(repoRoot, "package.json"));

interface LanguageCase {
  language: string;
  /** A program passing a number where the schema takes a string, and where that is caught, in its words. */
  wrongType: { file: string; program: string; caught: string };
  /** Makes the copied example runnable from its new place: the SDK from this checkout. */
  prepare: (dir: string) => Promise<void>;
}

const LANGUAGES: LanguageCase[] = [
  {
    language: "python",
    // Python checks no types at run time: the provider's check names the field.
    wrongType: {
      file: "__main__.py",
      program: 'import pulumi_docs as docs\n\ndocs.Collection("handbook", title=42)\n',
      caught: "Collection.title",
    },
    prepare: async (dir) => {
      const requirements = path.join(dir, "requirements.txt");
      const text = readFileSync(requirements, "utf8").replace("../../sdk/python", copyOfPythonSdk());
      writeFileSync(requirements, text);
    },
  },
  {
    language: "go",
    // Go's compiler refuses it, naming the field's type, before anything runs.
    wrongType: {
      file: "main.go",
      program: `package main

import (
\t"github.com/pulumi-docs-platform/pulumi-docs-platform/sdk/go/docs"
\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
\tpulumi.Run(func(ctx *pulumi.Context) error {
\t\t_, err := docs.NewCollection(ctx, "handbook", &docs.CollectionArgs{Title: 42})
\t\treturn err
\t})
}
`,
      caught: "as pulumi.StringInput value in struct literal",
    },
    prepare: async (dir) => {
      const goMod = path.join(dir, "go.mod");
      writeFileSync(
        goMod,
        readFileSync(goMod, "utf8").replace("=> ../../sdk/go", `=> ${path.join(repoRoot, "sdk/go")}`),
      );
    },
  },
];

/** pip builds in the source tree (build/, *.egg-info): a copy keeps sdk/python as generated. */
function copyOfPythonSdk(): string {
  const copy = path.join(workRoot, "sdk-python-for-example");
  rmSync(copy, { recursive: true, force: true });
  cpSync(path.join(repoRoot, "sdk/python"), copy, { recursive: true });
  return copy;
}

/** A CLI command that takes no `--stack` (`plugin install`), with the stack's environment. */
async function pulumiCommand(stack: Stack, args: string[]) {
  const options = { cwd: stack.workspace.workDir, env: { ...process.env, ...stack.workspace.envVars } };
  return run(path.join(toolsDir, "bin/pulumi"), args, options);
}

let pluginTarball: Promise<string> | undefined;

/**
 * examples/<language> through the real CLI, this project's stand-in language host and the SDK generated from the
 * schema, against the emulator, with the `docs` plugin installed from the tarball of `npm run pack:plugin`: no npm
 * project anywhere.
 */
describe.each(LANGUAGES)("examples/$language, a program in its language", ({ language, prepare, wrongType }) => {
  let emulator: RunningEmulator;
  let stack: Stack;
  const api = (method: string, apiPath: string, body?: unknown) =>
    callApi(emulator, method, `/orgs/${emulator.organizationId}${apiPath}`, body);
  const organizationContents = async () => {
    const contents: Record<string, string[]> = {};
    for (const list of ["sites", "collections", "teams", "spaces"]) {
      const answer = await api("GET", `/${list}?limit=1000`);
      contents[list] = (answer.body.items as { id: string }[]).map((item) => item.id).sort();
    }
    return contents;
  };
  let before: Record<string, string[]>;

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0 });
    const dir = path.join(workRoot, `${language}-example-${process.pid}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(workRoot, { recursive: true });
    cpSync(path.join(repoRoot, "examples", language), dir, { recursive: true });
    await prepare(dir);
    expect(existsSync(path.join(dir, "package.json"))).toBe(false);
    stack = await makeStack(dir, emulator, { credentialsInConfig: true });
    pluginTarball ??= packPlugin(path.join(workRoot, "plugin-tarball"));
    await pulumiCommand(stack, ["plugin", "install", "resource", "docs", version, "--file", await pluginTarball]);
    // The language host's InstallDependencies: a virtual environment with requirements.txt, or `go mod download`.
    await pulumiCommand(stack, ["install"]);
    await stack.setConfig("docs:organizationId", { value: emulator.organizationId });
    await stack.setConfig("leadEmail", { value: "linus@example.com" });
    await stack.setConfig("referenceTitle", { value: "API Reference" });
    before = await organizationContents();
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("up creates every resource, with the lookups' objects, and a preview right after needs no change", async () => {
    const up = await upConsistent(stack);
    expect(up.summary.resourceChanges?.create).toBe(10); // 9 resources and the stack
    const outputs = await stack.outputs();
    expect(outputs.leadId?.value).toBe(emulator.userIds[2]);
    expect(outputs.referenceSpaceId?.value).toBe(emulator.spaceIds[1]);
    expect(outputs.reviewUrl?.secret).toBe(true);
    expect(String(outputs.reviewUrl?.value)).toMatch(/token=/);
    const sections = await api("GET", `/sites/${outputs.siteId?.value}/sections?limit=100`);
    const spaces = (sections.body.items as { siteSpaces?: { space: { id: string } }[] }[]).flatMap((section) =>
      (section.siteSpaces ?? []).map((siteSpace) => siteSpace.space.id),
    );
    expect(spaces).toContain(emulator.spaceIds[1]);
    const members = await api("GET", `/teams/${outputs.teamId?.value}/members?limit=100`);
    const roles = (members.body.items as { team: { role: string }; organization: { user: { id: string } } }[]).map(
      (member) => [member.organization.user.id, member.team.role],
    );
    expect(roles).toEqual([[emulator.userIds[2], "owner"]]);
    const clean = await runPulumi(stack, ["preview", "--expect-no-changes"]);
    expect(clean.code, clean.output).toBe(0);
  });

  it("keeps the share link's URL secret in the state", async () => {
    const exported = await exportAsStored(stack);
    const link = (JSON.parse(exported).deployment.resources as Json[]).find(
      (resource) => resource.type === "docs:index:SiteShareLink",
    );
    expect(link.outputs.url).toHaveProperty("ciphertext");
    expect(exported).not.toContain(String((await stack.outputs()).reviewUrl?.value));
  });

  it("a hand edit is reverted by up --refresh", async () => {
    const collectionId = String((await stack.outputs()).collectionId?.value);
    expect((await callApi(emulator, "PATCH", `/collections/${collectionId}`, { title: "Hand edited" })).status).toBe(
      200,
    );
    const up = await runPulumi(stack, ["up", "--refresh", "--yes"]);
    expect(up.code, up.output).toBe(0);
    expect((await callApi(emulator, "GET", `/collections/${collectionId}`)).body.title).toBe("Handbook");
    expect((await runPulumi(stack, ["preview", "--refresh", "--expect-no-changes"])).code).toBe(0);
  });

  it("a lookup that matches nothing fails the preview naming the title", async () => {
    await stack.setConfig("referenceTitle", { value: "API Referense" });
    try {
      const preview = await runPulumi(stack, ["preview"]);
      expect(preview.code).not.toBe(0);
      expect(preview.output).toContain('getSpace: no space titled "API Referense"');
    } finally {
      await stack.setConfig("referenceTitle", { value: "API Reference" });
    }
  });

  it("a property of the wrong type fails the preview, naming the field", async () => {
    const file = path.join(stack.workspace.workDir, wrongType.file);
    const original = readFileSync(file, "utf8");
    writeFileSync(file, wrongType.program);
    try {
      const preview = await runPulumi(stack, ["preview"]);
      expect(preview.code).not.toBe(0);
      expect(preview.output).toContain(wrongType.caught);
    } finally {
      writeFileSync(file, original);
    }
  });

  it("pulumi import takes over an existing object", async () => {
    const teamId = (await api("PUT", "/teams", { title: "Support" })).body.id;
    const imported = await runPulumi(stack, [
      "import",
      "docs:index:Team",
      "support",
      teamId,
      "--yes",
      "--protect=false",
      "--generate-code=false",
    ]);
    expect(imported.code, imported.output).toBe(0);
    const state = (await stack.exportStack()).deployment.resources as Json[];
    expect(state.find((resource) => resource.urn.endsWith("::support"))?.id).toBe(teamId);
  });

  it("destroy deletes everything, the imported object too, and leaves the organization as it found it", async () => {
    const destroy = await runPulumi(stack, ["destroy", "--yes"]);
    expect(destroy.code, destroy.output).toBe(0);
    expect(await organizationContents()).toEqual(before);
  });
});
