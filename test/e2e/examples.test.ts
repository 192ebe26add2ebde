import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { toolchainVars } from "../../tools/toolchain.mjs";
import { callApi, startTestEmulator } from "../support/emulator";
import { changes, makeStack, packedPackage, upConsistent } from "./harness";

const run = promisify(execFile);
const repoRoot = path.resolve(__dirname, "../..");
const examplesDir = path.join(repoRoot, "examples");
const pulumiVersion: string = require("@pulumi/pulumi/package.json").version;

interface Fixtures {
  spaceIds: string[];
  userIds: string[];
}

interface ExampleCase {
  name: string;
  /** The docs resources `up` creates (or adopts), by kind. */
  resources: Record<string, number>;
  /** Stack config beyond `docs:organizationId` and the API URL, from the emulator's fixtures (GET /__admin/info). */
  config: (fixtures: Fixtures, api: Api) => Promise<Record<string, string>>;
  /** What the example promises after its first `up`, checked before the destroy. */
  afterUp?: (dir: string, stack: Stack, fixtures: Fixtures) => Promise<void>;
}

type Api = (method: string, apiPath: string, body?: unknown) => Promise<{ status: number; body: unknown }>;

/**
 * Examples whose whole lifecycle (and drift) a test of their own drives (docs-site.test.ts, access.test.ts): checked
 * and compiled here with the others, but not run a second time.
 */
const OWN_TESTS = ["docs-site", "access"];

/** Examples in Pulumi YAML, through the provider plugin: yaml.test.ts and yaml-lookups.test.ts drive them; they have no TypeScript to compile. */
const YAML_EXAMPLES = ["yaml", "yaml-lookups"];

/**
 * Examples in Python and Go, through the provider plugin installed from its tarball and the SDKs under sdk/:
 * languages.test.ts drives them; they have no npm project.
 */
const OTHER_LANGUAGE_EXAMPLES: Record<string, string> = { go: "main.go", python: "__main__.py" };

/** Examples made of several projects, each a folder with its own package.json: policy.test.ts drives them. */
const MULTI_PROJECT_EXAMPLES: Record<string, string[]> = { policy: ["pack", "compliant", "violating"] };

/** Every example under examples/ except those of OWN_TESTS. */
const EXAMPLES: ExampleCase[] = [
  {
    name: "quickstart",
    resources: { Collection: 1, Site: 1, SiteSection: 1, Team: 1 },
    config: async ({ spaceIds }) => ({ spaceId: spaceIds[0]! }),
  },
  {
    name: "multi-site",
    resources: {
      Site: 3,
      SiteSection: 4,
      SiteShareLink: 1,
      SiteExternalLink: 1,
      SiteMcpServer: 1,
      SiteAgentSettings: 1,
      IntegrationInstallation: 1,
      IntegrationSiteInstallation: 1,
      GitSyncInstallation: 1,
      Translation: 1,
      TranslationGlossary: 1,
    },
    // 1002 is one of the emulator's GitHub repositories.
    config: async () => ({ ticketsToken: "tickets-example-token", handbookRepositoryId: "1002" }),
    // The sections show the spaces the program's lookups found by title: the fixture spaces, each once.
    afterUp: async (_dir, stack, { spaceIds }) => {
      const resources = (await stack.exportStack()).deployment.resources ?? [];
      const shown = resources
        .filter((resource: { type: string }) => resource.type.endsWith(":SiteSection"))
        .map((resource: { outputs: { spaceId: string } }) => resource.outputs.spaceId);
      expect(shown.sort()).toEqual([...spaceIds].sort());
    },
  },
  {
    name: "openapi-from-repo",
    resources: { OpenApiSpec: 2 },
    config: async () => ({}),
    // A pull request that edits a document shows it in the preview as an in-place update of that spec.
    afterUp: async (dir, stack) => {
      const file = path.join(dir, "openapi/petstore.yaml");
      writeFileSync(file, readFileSync(file, "utf8").replace("version: 1.2.0", "version: 1.3.0"));
      expect(changes((await stack.preview()).changeSummary)).toEqual({ update: 1 });
    },
  },
  {
    name: "adopt-existing",
    resources: { Collection: 1, Space: 1, Team: 1, Site: 1 },
    // The objects to adopt exist before the first `up`, made by hand as a user's would have been.
    config: async (_fixtures, api) => {
      const id = async (method: string, apiPath: string, body: unknown) => {
        const answer = await api(method, apiPath, body);
        expect(answer.status, `${method} ${apiPath}`).toBe(201);
        return (answer.body as { id: string }).id;
      };
      const existing = {
        collectionId: await id("POST", "/collections", { title: "Old handbook" }),
        spaceId: await id("POST", "/spaces", { title: "Old guides" }),
        teamId: await id("PUT", "/teams", { title: "Writers" }),
        siteId: await id("POST", "/sites", { title: "Old docs" }),
      };
      return { existing: JSON.stringify(existing) };
    },
  },
];

/**
 * Every example as a user runs it: installed from the packed tarball, type-checked with tsc, then `preview`, `up`,
 * `preview --expect-no-changes` and `destroy` with the real CLI against the emulator, after which the organization
 * holds exactly what it held before. The examples share one install (a workspace whose node_modules each example's
 * folder resolves from), so CI pays for one `npm install`, not five.
 */
describe("the examples through the Pulumi CLI", () => {
  let emulator: RunningEmulator;
  let workspace: string;
  const api: Api = (method, apiPath, body) =>
    callApi(
      emulator,
      method,
      apiPath.startsWith("/orgs") ? apiPath : `/orgs/${emulator.organizationId}${apiPath}`,
      body,
    );
  /** Every list a destroy must leave as it found it. */
  const organizationContents = async () => {
    const contents: Record<string, string[]> = {};
    for (const list of ["sites", "collections", "teams", "saml", "openapi"]) {
      const items = (await api("GET", `/${list}?limit=1000`)).body as { items: { id: string }[] };
      contents[list] = items.items.map((item) => item.id).sort();
    }
    return contents;
  };
  const timings: string[] = [];

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0, token: "examples-e2e-token" });
    workspace = path.join(repoRoot, ".e2e", `examples-${process.pid}`);
    for (const old of existsSync(path.dirname(workspace)) ? readdirSync(path.dirname(workspace)) : []) {
      if (old.startsWith("examples-"))
        rmSync(path.join(path.dirname(workspace), old), { recursive: true, force: true });
    }
    mkdirSync(workspace, { recursive: true });
    const devDependencies = require(path.join(examplesDir, "quickstart/package.json")).devDependencies;
    const started = Date.now();
    writeFileSync(path.join(workspace, "package.json"), JSON.stringify({ name: "examples", private: true }));
    await run(
      "npm",
      [
        "install",
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        await packedPackage(),
        `@pulumi/pulumi@${pulumiVersion}`,
        ...Object.entries(devDependencies).map(([name, range]) => `${name}@${range}`),
      ],
      { cwd: workspace, env: { ...process.env, ...toolchainVars() } },
    );
    timings.push(`install (pack + one npm install for all examples): ${seconds(started)}`);
    for (const example of [...EXAMPLES.map((e) => e.name), ...OWN_TESTS]) {
      cpSync(path.join(examplesDir, example), path.join(workspace, example), {
        recursive: true,
        filter: (source) => !/(node_modules|package-lock\.json|Pulumi\.[^/]+\.yaml)$/.test(source),
      });
    }
  });
  afterAll(async () => {
    console.log(`examples e2e timings:\n  ${timings.join("\n  ")}`);
    await emulator?.close();
  });

  it("every example folder is a complete project with a README, and is tested here or in a test of its own", () => {
    const folders = readdirSync(examplesDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== "ci")
      .map((entry) => entry.name)
      .sort();
    expect(folders).toEqual(
      [
        ...EXAMPLES.map((e) => e.name),
        ...OWN_TESTS,
        ...YAML_EXAMPLES,
        ...Object.keys(OTHER_LANGUAGE_EXAMPLES),
        ...Object.keys(MULTI_PROJECT_EXAMPLES),
      ].sort(),
    );
    const readme = readFileSync(path.join(repoRoot, "README.md"), "utf8");
    expect(readme).toContain("\n## Use it in your program\n");
    for (const folder of folders) {
      expect(existsSync(path.join(examplesDir, folder, "README.md")), `${folder}/README.md`).toBe(true);
      const program = OTHER_LANGUAGE_EXAMPLES[folder];
      if (program !== undefined) {
        for (const file of ["Pulumi.yaml", program]) {
          expect(existsSync(path.join(examplesDir, folder, file)), `${folder}/${file}`).toBe(true);
        }
        continue;
      }
      for (const project of MULTI_PROJECT_EXAMPLES[folder]?.map((p) => path.join(folder, p)) ?? [folder]) {
        const program = YAML_EXAMPLES.includes(folder) ? [] : ["tsconfig.json", "index.ts"];
        // A policy pack's project file is PulumiPolicy.yaml.
        const projectFile = existsSync(path.join(examplesDir, project, "PulumiPolicy.yaml"))
          ? "PulumiPolicy.yaml"
          : "Pulumi.yaml";
        for (const file of [projectFile, "package.json", ...program]) {
          expect(existsSync(path.join(examplesDir, project, file)), `${project}/${file}`).toBe(true);
        }
        // Installed from the packed tarball, as a user's project is: the package is not on the npm registry.
        const manifest = JSON.parse(readFileSync(path.join(examplesDir, project, "package.json"), "utf8"));
        expect(manifest.dependencies["pulumi-docs-platform"], project).toBe(
          `file:${path.relative(path.join(examplesDir, project), repoRoot)}/.tools/pack/pulumi-docs-platform.tgz`,
        );
        expect(manifest.description, project).toContain(
          'install that tarball as the root README\'s "Use it in your program"',
        );
      }
    }
  });

  it("every example, and the README's program, compiles with tsc against the packed package's types", async () => {
    const started = Date.now();
    const tsc = path.join(workspace, "node_modules/typescript/bin/tsc");
    const folders = [...EXAMPLES.map((e) => e.name), ...OWN_TESTS];
    // One tsc run for all: their compiler options are the same, and each index.ts is a module of its own.
    const options = folders.map((f) => JSON.parse(readFileSync(path.join(examplesDir, f, "tsconfig.json"), "utf8")));
    for (const option of options) expect(option.compilerOptions).toEqual(options[0].compilerOptions);
    // The program on the README's first screen is compiled with them.
    const readme = readFileSync(path.join(repoRoot, "README.md"), "utf8");
    const program = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(program, "the README's first TypeScript block").toContain('from "pulumi-docs-platform"');
    mkdirSync(path.join(workspace, "readme"), { recursive: true });
    writeFileSync(path.join(workspace, "readme/index.ts"), program!);
    writeFileSync(
      path.join(workspace, "tsconfig.json"),
      JSON.stringify({ ...options[0], files: [...folders, "readme"].map((f) => `${f}/index.ts`) }),
    );
    await run(process.execPath, [tsc, "--noEmit", "-p", workspace], { cwd: workspace }).catch((error) => {
      throw new Error(`tsc failed:\n${error.stdout}${error.stderr}`);
    });
    timings.push(`tsc, all examples: ${seconds(started)}`);
  });

  for (const example of EXAMPLES) {
    it(`${example.name}: preview, up, preview --expect-no-changes, destroy`, async () => {
      const started = Date.now();
      const before = await organizationContents();
      const fixtures = (await callApi(emulator, "GET", new URL("/__admin/info", emulator.url).href)).body as Fixtures;
      const stack: Stack = await makeStack(path.join(workspace, example.name), emulator);
      try {
        // The program was type-checked above; ts-node need not check it again on every run.
        stack.workspace.envVars.PULUMI_NODEJS_TRANSPILE_ONLY = "true";
        // The organization comes from the provider-level default only: no resource in the examples names it.
        await stack.setConfig("docs:organizationId", { value: emulator.organizationId });
        const config = await example.config(fixtures, api);
        for (const [key, value] of Object.entries(config)) {
          await stack.setConfig(key, { value });
        }
        const total = Object.values(example.resources).reduce((sum, n) => sum + n, 0);

        const preview = await stack.preview();
        expect(changes(preview.changeSummary).create).toBeGreaterThanOrEqual(total);

        await upConsistent(stack);
        const state = (await stack.exportStack()).deployment.resources ?? [];
        const docsResources = state.filter((r: { type: string }) => r.type.startsWith("pulumi-nodejs:dynamic/docs:"));
        const byKind: Record<string, number> = {};
        for (const r of docsResources) byKind[r.type.split(":").pop()] = (byKind[r.type.split(":").pop()] ?? 0) + 1;
        expect(byKind).toEqual(example.resources);
        for (const r of docsResources) expect(r.inputs.organizationId, r.urn).toBe(emulator.organizationId);
        if (config.existing) {
          // Adopted, not created: the resources' ids are the existing objects' ids.
          const ids = docsResources.map((r: { id: string }) => r.id);
          expect(ids).toEqual(expect.arrayContaining(Object.values(JSON.parse(config.existing))));
        }

        expect(changes((await stack.preview({ expectNoChanges: true })).changeSummary)).toEqual({});
        await example.afterUp?.(path.join(workspace, example.name), stack, fixtures);

        await stack.destroy();
        // Adopted objects are managed, so destroy deletes them too: the organization is back to its fixtures.
        expect(await organizationContents()).toEqual(before);
      } finally {
        await stack.workspace.removeStack(stack.name, { force: true }).catch(() => undefined);
        timings.push(`${example.name}: ${seconds(started)}`);
      }
    });
  }
});

function seconds(since: number) {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}
