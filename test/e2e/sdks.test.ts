import { execFile } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { FUNCTIONS } from "../../provider/functions";
import { definitions } from "../../provider/registry";

const run = promisify(execFile);
const repoRoot = path.resolve(__dirname, "../..");
const workRoot = path.join(repoRoot, ".e2e");
const schema = JSON.parse(readFileSync(path.join(repoRoot, "provider/plugin/schema.json"), "utf8"));
const pulumiVersion: string = require("@pulumi/pulumi/package.json").version;

/** `getSiteSection` → `get_site_section`, as Pulumi's Python generator names modules and functions. */
const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/**
 * The SDKs checked in under sdk/, generated from the plugin's schema (tools/pulumi-sdkgen): each installs or builds
 * with its language's own tools, and has a class per kind and a function per lookup.
 */
describe("the generated SDKs", () => {
  it("sdk/python installs with pip into a virtual environment, with pulumi at the CLI's version", async () => {
    const venv = path.join(workRoot, "sdk-python-venv");
    rmSync(venv, { recursive: true, force: true });
    mkdirSync(workRoot, { recursive: true });
    await run("python3", ["-m", "venv", venv]);
    const python = path.join(venv, "bin/python");
    // pip builds in the source tree (build/, *.egg-info): a copy keeps sdk/ as generated.
    const sdkCopy = path.join(workRoot, "sdk-python-source");
    rmSync(sdkCopy, { recursive: true, force: true });
    cpSync(path.join(repoRoot, "sdk/python"), sdkCopy, { recursive: true });
    await run(
      python,
      [
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        // The SDK admits any Pulumi 3 from the CLI's version on; a program's environment pins the CLI's own.
        `pulumi==${pulumiVersion}`,
        sdkCopy,
      ],
      {
        maxBuffer: 64 << 20,
      },
    );
    const probe = [
      "import json, pulumi_docs as docs",
      `kinds = ${JSON.stringify(definitions.map((d) => d.kind))}`,
      `functions = ${JSON.stringify(FUNCTIONS.map((fn) => snake(fn.name)))}`,
      "print(json.dumps({",
      "  'kinds': [k for k in kinds if not isinstance(getattr(docs, k, None), type)],",
      "  'functions': [f for f in functions if not callable(getattr(docs, f, None)) or not callable(getattr(docs, f + '_output', None))],",
      "  'provider': isinstance(docs.Provider, type)}))",
    ].join("\n");
    const { stdout } = await run(python, ["-c", probe]);
    expect(JSON.parse(stdout)).toEqual({ kinds: [], functions: [], provider: true });
    const { stdout: freeze } = await run(python, ["-m", "pip", "freeze"]);
    expect(freeze).toContain(`pulumi==${pulumiVersion}`);
    expect(freeze).toContain(`pulumi_docs @ file://${sdkCopy}`);
    const { stdout: shown } = await run(python, ["-m", "pip", "show", "pulumi_docs"]);
    expect(shown).toContain(`Version: ${schema.version}`);
    expect(shown).toContain("Requires: parver, pulumi, semver");
  });

  it("a Go program builds against sdk/go through a replace, calling a resource and a lookup", async () => {
    const dir = path.join(workRoot, "sdk-go-program");
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const module = schema.language.go.modulePath as string;
    writeFileSync(
      path.join(dir, "go.mod"),
      `module example.com/docs-program\n\ngo 1.25\n\nrequire (\n\t${module} v0.0.0\n\tgithub.com/pulumi/pulumi/sdk/v3 v${pulumiVersion}\n)\n\nreplace ${module} => ${path.join(repoRoot, "sdk/go")}\n`,
    );
    writeFileSync(
      path.join(dir, "main.go"),
      `package main

import (
	"${schema.language.go.importBasePath}"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		space, err := docs.LookupSpace(ctx, &docs.LookupSpaceArgs{Title: "API Reference"})
		if err != nil {
			return err
		}
		site, err := docs.NewSite(ctx, "site", &docs.SiteArgs{Title: pulumi.String("API docs")})
		if err != nil {
			return err
		}
		_, err = docs.NewSiteSpace(ctx, "api", &docs.SiteSpaceArgs{SiteId: site.ID(), SpaceId: pulumi.String(space.Id)})
		return err
	})
}
`,
    );
    const env = { ...process.env, GOFLAGS: "-mod=mod", CGO_ENABLED: "0" };
    await run("go", ["mod", "tidy"], { cwd: dir, env, maxBuffer: 64 << 20 });
    await run("go", ["build", "-o", "program", "."], { cwd: dir, env, maxBuffer: 64 << 20 });
  });
});
