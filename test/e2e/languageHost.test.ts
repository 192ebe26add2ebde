import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { toolchainVars, toolsDir } from "../../tools/toolchain.mjs";
import { startTestEmulator } from "../support/emulator";
import { makeProject, makeStack, runPulumi } from "./harness";

/**
 * Our Node.js language host (tools/pulumi-language-nodejs) driven by the real CLI: RunPlugin starts plugins written
 * in Node.js from their directories (a tool plugin through `pulumi plugin run`, policy packs in JavaScript and
 * TypeScript through `pulumi preview --policy-pack <dir>`), and GetRequiredPackages reports the plugins that a
 * program's npm packages declare (`pulumi about`).
 */

const run = promisify(execFile);
const repoRoot = path.resolve(__dirname, "../..");
const pulumiVersion: string = require("@pulumi/pulumi/package.json").version;
const policyVersion = "1.21.0";

/** Writes each `files` entry (path relative to dir, contents) under dir. */
function writeFiles(dir: string, files: Record<string, string>) {
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  }
}

interface SplitRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The real CLI from .tools/ in cwd, with its own PULUMI_HOME, whatever its exit code. */
async function pulumi(args: string[], cwd: string, env: Record<string, string> = {}): Promise<SplitRun> {
  const options = {
    cwd,
    env: { ...process.env, ...toolchainVars(), PULUMI_HOME: path.join(cwd, ".pulumi-home"), ...env },
  };
  try {
    const { stdout, stderr } = await run(path.join(toolsDir, "bin/pulumi"), args, options);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

// A tool plugin: shows what it was given, on which stream, and exits with its own code.
const toolPlugin = {
  "PulumiPlugin.yaml": "runtime: nodejs\n",
  "package.json": JSON.stringify({ name: "greeter", version: "0.1.0", main: "index.js" }),
  "index.js": `
console.log("args " + JSON.stringify(process.argv.slice(2)));
console.log("engine reachable through PULUMI_RPC_TARGET: " + Boolean(process.env.PULUMI_RPC_TARGET));
console.error("a line on stderr");
process.exitCode = 3;
`,
};

// Both packs read the stack's own config (under the project's namespace) and name the stack in their messages:
// that is what the language host hands a pack when the engine configures it for a stack.
const jsPack = {
  "PulumiPolicy.yaml": "runtime: nodejs\ndescription: Collection titles, in JavaScript\n",
  "package.json": JSON.stringify({ name: "titles-js", version: "0.0.1", main: "index.js" }),
  "index.js": `
const { PolicyPack } = require("@pulumi/policy");
const pulumi = require("@pulumi/pulumi");

new PolicyPack("titles-js", {
  policies: [{
    name: "collection-title-prefix",
    description: "Collection titles start with the stack's titlePrefix.",
    enforcementLevel: "mandatory",
    validateResource: (args, reportViolation) => {
      if (args.type !== "pulumi-nodejs:dynamic/docs:Collection") return;
      const prefix = new pulumi.Config().require("titlePrefix");
      if (!args.props.title.startsWith(prefix)) {
        reportViolation(\`Collection \${args.name}: title "\${args.props.title}" does not start with "\${prefix}" \` +
          \`(stack \${pulumi.getStack()}); rename it\`);
      }
    },
  }],
});
`,
};

const tsPack = {
  "PulumiPolicy.yaml": "runtime: nodejs\ndescription: Collection descriptions, in TypeScript\n",
  "package.json": JSON.stringify({ name: "descriptions-ts", version: "0.0.2" }),
  "index.ts": `
import { PolicyPack, type ReportViolation, type ResourceValidationArgs } from "@pulumi/policy";
import * as pulumi from "@pulumi/pulumi";

interface CollectionProps {
  title: string;
  description?: string;
}

function describedCollections(args: ResourceValidationArgs, reportViolation: ReportViolation): void {
  if (args.type !== "pulumi-nodejs:dynamic/docs:Collection") return;
  const props = args.props as CollectionProps;
  const minimum: number = new pulumi.Config().requireNumber("minDescriptionLength");
  if ((props.description ?? "").length < minimum) {
    reportViolation(\`Collection \${args.name}: description shorter than \${minimum} characters \` +
      \`(stack \${pulumi.getStack()}); describe what it holds\`);
  }
}

new PolicyPack("descriptions-ts", {
  policies: [{
    name: "collection-description",
    description: "Collections say what they hold.",
    enforcementLevel: "mandatory",
    validateResource: describedCollections,
  }],
});
`,
};

const program = `
const pulumi = require("@pulumi/pulumi");
const docs = require("pulumi-docs-platform");

new docs.Collection("handbook", {
  organizationId: new pulumi.Config().require("organizationId"),
  title: "Handbook",
  description: "How we work",
});
`;

describe("our Node.js language host's RunPlugin and GetRequiredPackages, through the CLI", () => {
  // Plugin and pack directories side by side, sharing one npm install in their parent, as in a monorepo.
  const fixtures = path.join(repoRoot, ".e2e", `languageHost-${process.pid}`);
  let emulator: RunningEmulator;
  let stack: Stack;

  beforeAll(async () => {
    const workRoot = path.dirname(fixtures);
    for (const old of existsSync(workRoot) ? readdirSync(workRoot) : []) {
      if (old.startsWith("languageHost-")) rmSync(path.join(workRoot, old), { recursive: true, force: true });
    }
    const example = require(path.join(repoRoot, "examples/docs-site/package.json"));
    writeFiles(fixtures, {
      "package.json": JSON.stringify({
        name: "language-host-fixtures",
        private: true,
        dependencies: {
          "@pulumi/pulumi": pulumiVersion,
          "@pulumi/policy": policyVersion,
          typescript: example.devDependencies.typescript,
          "@types/node": example.devDependencies["@types/node"],
        },
      }),
    });
    for (const [dir, files] of Object.entries({ tool: toolPlugin, "js-pack": jsPack, "ts-pack": tsPack })) {
      writeFiles(path.join(fixtures, dir), files);
    }
    await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: fixtures,
      env: { ...process.env, ...toolchainVars() },
    });

    emulator = await startTestEmulator({ port: 0, token: "language-host-e2e-token" });
    stack = await makeStack(await makeProject("language-host", { "index.js": program }), emulator);
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it("pulumi plugin run starts a tool plugin directory: its arguments, both streams and its exit code", async () => {
    const result = await pulumi(
      ["plugin", "run", path.join(fixtures, "tool"), "--", "--flag", "-v=3", "world"],
      fixtures,
    );

    expect(result.stdout).toContain('args ["--flag","-v=3","world"]');
    expect(result.stdout).toContain("engine reachable through PULUMI_RPC_TARGET: true");
    expect(result.stderr).toContain("a line on stderr");
    expect(result.stdout).not.toContain("a line on stderr");
    expect(result.code).toBe(3);
  });

  it("pulumi preview --policy-pack <dir> runs a JavaScript and a TypeScript pack; mandatory violations fail it", async () => {
    await stack.setConfig("titlePrefix", { value: "Team " });
    await stack.setConfig("minDescriptionLength", { value: "40" });

    const violating = await runPulumi(stack, [
      "preview",
      "--policy-pack",
      path.join(fixtures, "js-pack"),
      "--policy-pack",
      path.join(fixtures, "ts-pack"),
    ]);

    expect(violating.output).toContain("titles-js@v0.0.1");
    expect(violating.output).toContain("[mandatory]  collection-title-prefix");
    expect(violating.output).toContain(
      'Collection handbook: title "Handbook" does not start with "Team " (stack e2e); rename it',
    );
    expect(violating.output).toContain("descriptions-ts@v0.0.2");
    expect(violating.output).toContain("[mandatory]  collection-description");
    expect(violating.output).toContain(
      "Collection handbook: description shorter than 40 characters (stack e2e); describe what it holds",
    );
    expect(violating.code).not.toBe(0);
  });

  it("the same packs pass a compliant stack", async () => {
    await stack.setConfig("titlePrefix", { value: "Hand" });
    await stack.setConfig("minDescriptionLength", { value: "5" });

    const compliant = await runPulumi(stack, [
      "preview",
      "--policy-pack",
      path.join(fixtures, "js-pack"),
      "--policy-pack",
      path.join(fixtures, "ts-pack"),
    ]);

    expect(compliant.output).not.toContain("mandatory");
    expect(compliant.output).toContain("titles-js@v0.0.1");
    expect(compliant.output).toContain("descriptions-ts@v0.0.2");
    expect(compliant.code).toBe(0);
  });

  it("pulumi about lists the plugins that the program's npm packages declare, nested ones included", async () => {
    // node_modules written by hand: no plugin here exists, and pulumi about downloads none.
    const project = path.join(fixtures, "about");
    const manifest = (fields: object) => JSON.stringify(fields);
    writeFiles(project, {
      "Pulumi.yaml": "name: about\nruntime: nodejs\n",
      "package.json": manifest({ name: "about", private: true }),
      "node_modules/@acme/fakecloud/package.json": manifest({
        name: "@acme/fakecloud",
        version: "1.2.3",
        pulumi: { resource: true, name: "fakecloud", version: "1.2.3", server: "https://plugins.example" },
      }),
      // Only declared: the plugin takes the package's name (without its scope) and version.
      "node_modules/@acme/legacy/package.json": manifest({
        name: "@acme/legacy",
        version: "0.4.0",
        pulumi: { resource: true },
      }),
      "node_modules/component/package.json": manifest({ name: "component", version: "1.0.0" }),
      "node_modules/component/node_modules/@acme/fakecloud/package.json": manifest({
        name: "@acme/fakecloud",
        version: "0.9.0",
        pulumi: { resource: true, name: "fakecloud" },
      }),
      "node_modules/no-plugin/package.json": manifest({
        name: "no-plugin",
        version: "1.0.0",
        pulumi: { resource: false, name: "nope" },
      }),
    });

    mkdirSync(path.join(project, ".state"), { recursive: true });
    const about = await pulumi(["about", "--json"], project, {
      PULUMI_BACKEND_URL: `file://${path.join(project, ".state")}`,
    });

    const plugins = (JSON.parse(about.stdout).plugins as { name: string; version: string; kind: string }[])
      .filter((plugin) => plugin.kind !== "language")
      .map((plugin) => `${plugin.kind} ${plugin.name} ${plugin.version}`)
      .sort();
    expect(plugins).toEqual(["resource fakecloud 0.9.0", "resource fakecloud 1.2.3", "resource legacy 0.4.0"]);
  });
});
