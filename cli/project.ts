/** The files of a generated Pulumi TypeScript project around the program `emit.ts` writes. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** This package's own manifest: the generated project depends on this version and on the same @pulumi/pulumi. */
const manifest: {
  name: string;
  version: string;
  devDependencies: Record<string, string>;
} = require("pulumi-docs-platform/package.json");

/** What `pulumi new typescript` projects use to run the program (ts-node) and type-check it. */
const TYPESCRIPT_TOOLS = {
  "@types/node": manifest.devDependencies["@types/node"] ?? "^24.0.0",
  "ts-node": "10.9.2",
  typescript: manifest.devDependencies.typescript ?? "~5.9.3",
};

/** Where `npm run pack:local` writes the packed package in a clone (tools/pack-local.mjs). */
export const PACKED_TARBALL = ".tools/pack/pulumi-docs-platform.tgz";

/** How a generated project depends on this package: the way the running CLI was installed. */
export interface PackageSource {
  /** The dependency's spec in the generated package.json. */
  spec: string;
  /** Set when `npm install` cannot install that spec as it stands: what to do before it, as a sentence's end. */
  todo?: string;
}

/** This package's root as the running CLI loaded it: a clone, or a copy in some project's node_modules. */
export function runningPackageRoot(): string {
  return path.dirname(require.resolve("pulumi-docs-platform/package.json"));
}

/**
 * The spec a project written to `outDir` installs this package by. The package is not on the npm registry, so
 * `^<version>` would fail with E404: the spec follows where the running package came from instead.
 *
 * - Installed in `<project>/node_modules`: `<project>`'s own dependency spec (package.json, else the `resolved` of
 *   its lockfiles). A `file:` spec is made relative to `outDir`; a registry range, git or https URL stays as it is.
 * - A clone: `file:` of its packed tarball ({@link PACKED_TARBALL}), with a todo to run `npm run pack:local` when
 *   that file is not there yet.
 *
 * Without `outDir`, `file:` specs are absolute.
 */
export function packageSource(outDir?: string, packageRoot = runningPackageRoot()): PackageSource {
  const fileSpec = (target: string) =>
    `file:${outDir === undefined ? target : path.relative(outDir, target).split(path.sep).join("/")}`;
  if (path.basename(path.dirname(packageRoot)) !== "node_modules") {
    const tarball = path.join(packageRoot, PACKED_TARBALL);
    if (existsSync(tarball)) return { spec: fileSpec(tarball) };
    return {
      spec: fileSpec(tarball),
      todo:
        `run \`npm run pack:local\` in ${packageRoot}: package.json installs ${manifest.name} from ${tarball}, ` +
        "which that command writes",
    };
  }
  const project = path.dirname(path.dirname(packageRoot));
  const declared = declaredSpec(project);
  if (declared === undefined) {
    return {
      spec: `^${manifest.version}`,
      todo:
        `put the tarball or URL you install ${manifest.name} from in package.json: ${project} has no package.json ` +
        `or lockfile that names it, so package.json asks the npm registry for ^${manifest.version}`,
    };
  }
  const target = localTarget(declared, project);
  if (target === undefined) return { spec: declared };
  if (existsSync(target)) return { spec: fileSpec(target) };
  return {
    spec: fileSpec(target),
    todo:
      `put where ${manifest.name} is now in package.json: it installs the package from ${target}, as ${project} ` +
      "does, but that path no longer exists",
  };
}

/** `project`'s spec for this package: package.json first, else what its lockfiles say it was resolved from. */
function declaredSpec(project: string): string | undefined {
  const manifestOfProject = readJson(path.join(project, "package.json"));
  for (const field of ["dependencies", "devDependencies", "optionalDependencies"]) {
    const spec = manifestOfProject?.[field]?.[manifest.name];
    if (typeof spec === "string" && spec !== "") return spec;
  }
  for (const lockfile of ["package-lock.json", "npm-shrinkwrap.json", "node_modules/.package-lock.json"]) {
    const resolved = readJson(path.join(project, lockfile))?.packages?.[`node_modules/${manifest.name}`]?.resolved;
    if (typeof resolved === "string" && resolved !== "") return resolved;
  }
  return undefined;
}

// biome-ignore lint/suspicious/noExplicitAny: a manifest or lockfile of unknown shape, each field checked on use.
function readJson(file: string): any {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * The file or folder a spec names, resolved against `base` the way npm resolves it (`file:` specs, and bare paths,
 * which npm saves as `file:`); undefined for a registry range, a tag, an alias or a URL.
 */
export function localTarget(spec: string, base: string): string | undefined {
  if (spec.startsWith("file://")) return fileURLToPath(spec);
  const local = spec.startsWith("file:") ? spec.slice("file:".length) : spec;
  if (
    local !== spec ||
    /^(\.{1,2}\/|\/|~\/)/.test(local) ||
    (!local.includes(":") && /\.(tgz|tar\.gz|tar)$/.test(local))
  ) {
    return local.startsWith("~/") ? path.join(homedir(), local.slice(2)) : path.resolve(base, local);
  }
  return undefined;
}

export interface ProjectFiles {
  [file: string]: string;
}

export function projectFiles(options: {
  name: string;
  program: string;
  organizationId: string;
  command: string;
  objects: number;
  /** Where the project goes: `file:` dependency specs are written relative to it (absolute without it). */
  out?: string;
  /** Told, in one line, what to change before the project installs, when the dependency spec needs it. */
  warn?: (line: string) => void;
  /** How the project depends on this package; by default {@link packageSource} of `out`. */
  source?: PackageSource;
  /** The kinds the program does not declare, with why: the README lists them. */
  notImported?: Readonly<Record<string, string>>;
}): ProjectFiles {
  const { name, organizationId } = options;
  const source = options.source ?? packageSource(options.out);
  if (source.todo) options.warn?.(`before \`npm install\` in the project, ${source.todo}`);
  const pulumiVersion = manifest.devDependencies["@pulumi/pulumi"];
  if (!pulumiVersion) throw new Error("pulumi-docs-platform's package.json names no @pulumi/pulumi version");
  return {
    "Pulumi.yaml": [
      `name: ${name}`,
      `description: The documentation platform of organization ${organizationId}, adopted by docs-platform import`,
      "runtime:",
      "  name: nodejs",
      "  options:",
      "    typescript: true",
      "",
    ].join("\n"),
    "package.json": `${JSON.stringify(
      {
        name,
        private: true,
        // tsconfig's noCheck is for `pulumi` runs only: the check is this script's, in CI or by hand.
        scripts: { typecheck: "tsc --noEmit --noCheck false" },
        dependencies: { "@pulumi/pulumi": pulumiVersion, [manifest.name]: source.spec },
        devDependencies: TYPESCRIPT_TOOLS,
      },
      null,
      2,
    )}\n`,
    "tsconfig.json": `${JSON.stringify(
      {
        compilerOptions: {
          target: "ES2022",
          module: "commonjs",
          moduleResolution: "node10",
          strict: true,
          esModuleInterop: true,
          skipLibCheck: true,
          // Pulumi runs the program through ts-node transpiling only when noCheck is set: type-checking a program of
          // thousands of resources on every preview and up costs seconds and hundreds of MB. `npm run typecheck`
          // checks it (`--noCheck false`).
          noCheck: true,
        },
        files: ["index.ts"],
      },
      null,
      2,
    )}\n`,
    // `.pulumi/` is where a `file://` backend (`pulumi login file://<dir>`) keeps the state, at any depth.
    ".gitignore": "node_modules/\n.pulumi/\n",
    "index.ts": options.program,
    "README.md": readme({ ...options, source }),
  };
}

function readme(options: {
  name: string;
  organizationId: string;
  command: string;
  objects: number;
  source: PackageSource;
  notImported?: Readonly<Record<string, string>>;
}): string {
  const { spec, todo } = options.source;
  const installedFrom =
    `\`package.json\` installs ${manifest.name} as \`"${spec}"\`` +
    (todo
      ? `. Before \`npm install\`, ${todo}.`
      : `, the way the \`docs-platform\` that wrote this project was installed.${
          spec.startsWith("file:") ? " If the project moves to another machine, point it at the package there." : ""
        }`);
  return `# ${options.name}

The documentation platform of organization \`${options.organizationId}\` as code: ${options.objects} resources, each
adopting the existing object named by its \`importId\`. Generated by:

    ${options.command}

## Adopt

${installedFrom}

    npm install
    pulumi stack init production
    export DOCS_API_TOKEN=...            # or: pulumi config set --secret docs:apiToken ...
    pulumi preview                       # every resource shows as a create: an adoption, not a new object
    pulumi up                            # adopts them all; sends no change to the API
    pulumi preview --expect-no-changes   # nothing left to do

\`DOCS_API_URL\` (or \`pulumi config set docs:apiUrl ...\`) points at another API than https://api.gitbook.com/v1.

## Then

- Edit \`index.ts\` and run \`pulumi up\` as for any program; \`importId\` is only read on the first \`up\`.
- \`pulumi\` runs the program without type-checking it (\`noCheck\` in \`tsconfig.json\`: ts-node only transpiles,
  which keeps a large program's runs light); \`npm run typecheck\` checks it. Run it in CI, or before \`pulumi up\`.
- \`pulumi destroy\` deletes the adopted objects from the organization. To keep an object when it leaves the program,
  give it \`{ retainOnDelete: true }\` as resource option first.
- \`npx docs-platform unmanaged --organization ${options.organizationId}\` lists objects made outside this program.
${notDeclared(options.notImported ?? {})}`;
}

function notDeclared(reasons: Readonly<Record<string, string>>): string {
  const entries = Object.entries(reasons);
  if (entries.length === 0) return "";
  return `\n## Not in the program\n\n${entries.map(([kind, why]) => `- \`${kind}\`: ${why}.\n`).join("")}`;
}

export function writeProject(dir: string, files: ProjectFiles): void {
  mkdirSync(dir, { recursive: true });
  for (const [file, content] of Object.entries(files)) writeFileSync(path.join(dir, file), content);
}
