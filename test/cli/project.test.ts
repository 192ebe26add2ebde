import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { localTarget, PACKED_TARBALL, packageSource, projectFiles, runningPackageRoot } from "../../cli/project";
import { useTempDirs } from "../support/cli";

const repoRoot = path.resolve(__dirname, "../..");
const version: string = require("../../package.json").version;

const tempDir = useTempDirs("project-source-");

/** Writes `files` (path → content) under a fresh temporary folder and returns it. */
function tree(files: Record<string, string>): string {
  const root = tempDir();
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  }
  return root;
}

const installed = "node_modules/pulumi-docs-platform";
const packageJson = JSON.stringify({ name: "pulumi-docs-platform", version });
const dependingOn = (spec: string, field = "dependencies") =>
  JSON.stringify({ name: "app", [field]: { "pulumi-docs-platform": spec } });
const locked = (resolved: string) =>
  JSON.stringify({ lockfileVersion: 3, packages: { "node_modules/pulumi-docs-platform": { version, resolved } } });

describe("packageSource: the generated project installs the package the way the running CLI was installed", () => {
  it("from a clone with its packed tarball: file: of that tarball, relative to the output folder", () => {
    const root = tree({ "clone/package.json": packageJson, [`clone/${PACKED_TARBALL}`]: "tgz" });
    expect(packageSource(path.join(root, "adopted"), path.join(root, "clone"))).toEqual({
      spec: "file:../clone/.tools/pack/pulumi-docs-platform.tgz",
    });
    // Without an output folder the path is absolute.
    expect(packageSource(undefined, path.join(root, "clone"))).toEqual({
      spec: `file:${path.join(root, "clone", PACKED_TARBALL)}`,
    });
  });

  it("from a clone not packed yet: the same spec, and the todo names `npm run pack:local` in the clone", () => {
    const root = tree({ "clone/package.json": packageJson });
    const clone = path.join(root, "clone");
    expect(packageSource(path.join(root, "adopted"), clone)).toEqual({
      spec: "file:../clone/.tools/pack/pulumi-docs-platform.tgz",
      todo:
        `run \`npm run pack:local\` in ${clone}: package.json installs pulumi-docs-platform from ` +
        `${path.join(clone, PACKED_TARBALL)}, which that command writes`,
    });
  });

  it("installed from a tarball: the project's file: spec, re-resolved from the output folder", () => {
    const root = tree({
      "app/package.json": dependingOn("file:vendor/pulumi-docs-platform-0.1.0.tgz"),
      "app/vendor/pulumi-docs-platform-0.1.0.tgz": "tgz",
      [`app/${installed}/package.json`]: packageJson,
    });
    const running = path.join(root, "app", installed);
    expect(packageSource(path.join(root, "app/infra/docs"), running)).toEqual({
      spec: "file:../../vendor/pulumi-docs-platform-0.1.0.tgz",
    });
    expect(packageSource(path.join(root, "elsewhere"), running)).toEqual({
      spec: "file:../app/vendor/pulumi-docs-platform-0.1.0.tgz",
    });
  });

  it("installed as a devDependency from a bare path: the same, as file:", () => {
    const root = tree({
      "app/package.json": dependingOn("../pack/pulumi-docs-platform.tgz", "devDependencies"),
      "pack/pulumi-docs-platform.tgz": "tgz",
      [`app/${installed}/package.json`]: packageJson,
    });
    expect(packageSource(path.join(root, "app/adopted"), path.join(root, "app", installed))).toEqual({
      spec: "file:../../pack/pulumi-docs-platform.tgz",
    });
  });

  it.each([
    ["a registry range", "^0.1.0"],
    ["an exact version", "0.1.0"],
    ["a git URL", "git+https://git.example.com/acme/pulumi-docs-platform.git#v0.1.0"],
    ["a GitHub shorthand", "acme/pulumi-docs-platform#v0.1.0"],
    ["a remote tarball", "https://downloads.example.com/pulumi-docs-platform-0.1.0.tgz"],
    ["an alias", "npm:@acme/pulumi-docs-platform@^0.1.0"],
  ])("installed from %s: that spec as it stands", (_what, spec) => {
    const root = tree({ "app/package.json": dependingOn(spec), [`app/${installed}/package.json`]: packageJson });
    expect(packageSource(path.join(root, "adopted"), path.join(root, "app", installed))).toEqual({ spec });
  });

  it("installed without a package.json entry: the lockfile's resolved, then the hidden lockfile's (npx)", () => {
    const root = tree({
      "app/package.json": JSON.stringify({ name: "app" }),
      "app/package-lock.json": locked("file:../pack/pulumi-docs-platform.tgz"),
      "pack/pulumi-docs-platform.tgz": "tgz",
      [`app/${installed}/package.json`]: packageJson,
      [`npx/${installed}/package.json`]: packageJson,
      "npx/node_modules/.package-lock.json": locked("file:../pack/pulumi-docs-platform.tgz"),
    });
    for (const project of ["app", "npx"]) {
      expect(packageSource(path.join(root, project, "adopted"), path.join(root, project, installed))).toEqual({
        spec: "file:../../pack/pulumi-docs-platform.tgz",
      });
    }
  });

  it("installed where nothing names it (npm install -g): ^version, and the todo says what to put there", () => {
    const root = tree({ [`lib/${installed}/package.json`]: packageJson });
    expect(packageSource(path.join(root, "adopted"), path.join(root, "lib", installed))).toEqual({
      spec: `^${version}`,
      todo:
        `put the tarball or URL you install pulumi-docs-platform from in package.json: ${path.join(root, "lib")} ` +
        `has no package.json or lockfile that names it, so package.json asks the npm registry for ^${version}`,
    });
  });

  it("installed from a tarball that is gone since: the re-resolved spec, and the todo names the missing path", () => {
    const root = tree({
      "app/package.json": dependingOn("file:../gone.tgz"),
      [`app/${installed}/package.json`]: packageJson,
    });
    expect(packageSource(path.join(root, "adopted"), path.join(root, "app", installed))).toEqual({
      spec: "file:../gone.tgz",
      todo:
        `put where pulumi-docs-platform is now in package.json: it installs the package from ` +
        `${path.join(root, "gone.tgz")}, as ${path.join(root, "app")} does, but that path no longer exists`,
    });
  });

  it("run from this repository, the package is this clone", () => {
    expect(runningPackageRoot()).toBe(repoRoot);
  });
});

describe("localTarget: the path a dependency spec names, resolved as npm resolves it", () => {
  it.each([
    ["file:../x.tgz", "/p/x.tgz"],
    ["file:x.tgz", "/p/app/x.tgz"],
    ["file:/abs/x.tgz", "/abs/x.tgz"],
    ["file:///abs/x.tgz", "/abs/x.tgz"],
    ["./vendor/x.tgz", "/p/app/vendor/x.tgz"],
    ["../clone", "/p/clone"],
    ["/abs/clone", "/abs/clone"],
    ["x.tar.gz", "/p/app/x.tar.gz"],
    ["~/x.tgz", path.join(homedir(), "x.tgz")],
  ])("%s in /p/app: %s", (spec, target) => {
    expect(localTarget(spec, "/p/app")).toBe(target);
  });

  it.each(["^0.1.0", "latest", "npm:other@1", "https://host/x.tgz", "git+ssh://git@host/x.git", "acme/x"])(
    "%s: not a path",
    (spec) => {
      expect(localTarget(spec, "/p/app")).toBeUndefined();
    },
  );
});

describe("projectFiles", () => {
  const options = { name: "acme-docs", program: "export {};\n", organizationId: "org1", command: "import", objects: 3 };

  it("package.json depends on the package by the source's spec; the README's Adopt section names it", () => {
    const warnings: string[] = [];
    const files = projectFiles({
      ...options,
      source: { spec: "file:../pack/pulumi-docs-platform.tgz" },
      warn: (line) => warnings.push(line),
    });
    expect(JSON.parse(files["package.json"]!).dependencies["pulumi-docs-platform"]).toBe(
      "file:../pack/pulumi-docs-platform.tgz",
    );
    expect(files["README.md"]).toContain(
      '`package.json` installs pulumi-docs-platform as `"file:../pack/pulumi-docs-platform.tgz"`, the way the ' +
        "`docs-platform` that wrote this project was installed. If the project moves to another machine, point it " +
        "at the package there.\n",
    );
    expect(warnings).toEqual([]);
  });

  it("a source with a todo: one warning line, and the README says what to do before npm install", () => {
    const warnings: string[] = [];
    const files = projectFiles({
      ...options,
      source: { spec: "file:/c/.tools/pack/pulumi-docs-platform.tgz", todo: "run `npm run pack:local` in /c" },
      warn: (line) => warnings.push(line),
    });
    expect(warnings).toEqual(["before `npm install` in the project, run `npm run pack:local` in /c"]);
    expect(files["README.md"]).toContain(
      '`package.json` installs pulumi-docs-platform as `"file:/c/.tools/pack/pulumi-docs-platform.tgz"`. ' +
        "Before `npm install`, run `npm run pack:local` in /c.\n",
    );
  });

  it("without a source, the spec is packageSource's of the output folder", () => {
    const out = path.join(repoRoot, ".e2e/adopted");
    const files = projectFiles({ ...options, out });
    expect(JSON.parse(files["package.json"]!).dependencies["pulumi-docs-platform"]).toBe(packageSource(out).spec);
    expect(packageSource(out).spec).toBe("file:../../.tools/pack/pulumi-docs-platform.tgz");
  });

  it(".gitignore keeps out the installed packages and a file backend's state", () => {
    expect(projectFiles({ ...options, source: { spec: "^0.1.0" } })[".gitignore"]!.split("\n")).toEqual([
      "node_modules/",
      ".pulumi/",
      "",
    ]);
  });

  it("pulumi runs the program transpiled only (tsconfig noCheck), and `npm run typecheck` still checks it", () => {
    const files = projectFiles({ ...options, program: 'const count: number = "three";\nexport { count };\n' });
    expect(JSON.parse(files["tsconfig.json"]!).compilerOptions.noCheck).toBe(true);
    const script: string = JSON.parse(files["package.json"]!).scripts.typecheck;
    expect(files["README.md"]).toContain("`npm run typecheck` checks it");
    const root = tree({ "tsconfig.json": files["tsconfig.json"]!, "index.ts": files["index.ts"]! });
    const tsc = (args: string[]) =>
      spawnSync(process.execPath, [require.resolve("typescript/bin/tsc"), ...args], { cwd: root, encoding: "utf8" });
    // What ts-node sees: the tsconfig alone lets the type error through.
    expect(tsc(["--noEmit"]).status).toBe(0);
    const checked = tsc(script.replace(/^tsc /, "").split(" "));
    expect(checked.status).not.toBe(0);
    expect(checked.stdout).toContain("Type 'string' is not assignable to type 'number'");
  });
});
