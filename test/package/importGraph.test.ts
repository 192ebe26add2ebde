import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The import graph of the package's TypeScript (provider/, cli/, emulator/) and of the build-time generators
 * (codegen/), read with the TypeScript compiler's parser: static imports, re-exports, `import x = require(...)`,
 * `import(...)` and `require(...)` calls alike, type-only ones included (a type-only circle still ties two modules
 * that should be read apart).
 *
 * The layers, lowest first (provider/README.md): the client; the framework, which turns definitions into both routes
 * and names no kind; the kinds and the package's entry points over them; the plugin route, the policy pack and the
 * CLI. A module imports from its own layer or below. The generators (codegen/) stand above them all and nothing else
 * imports them: `npm run docs` runs them, the package's runtime never loads them and the tarball does not ship them.
 * The emulator is a server of its own and imports nothing of the provider, the CLI or the generators.
 */
const repoRoot = path.resolve(__dirname, "../..");
const ROOTS = ["provider", "cli", "emulator", "codegen"];

/** A module's layer, lowest first. */
const LAYERS: readonly { name: string; holds: (file: string) => boolean }[] = [
  { name: "client", holds: (file) => file.startsWith("provider/client/") },
  { name: "framework", holds: (file) => file.startsWith("provider/framework/") },
  {
    name: "resources",
    holds: (file) =>
      file.startsWith("provider/resources/") ||
      file.startsWith("provider/kinds/") ||
      /^provider\/[^/]+\.ts$/.test(file),
  },
  {
    name: "plugin, policy and cli",
    holds: (file) => /^provider\/(plugin|policy)\//.test(file) || file.startsWith("cli/"),
  },
  { name: "codegen", holds: (file) => file.startsWith("codegen/") },
];

/**
 * The one way down the layers is back up: the dynamic route's lazy `require` of its provider. A dynamic resource
 * (framework/resource.ts) is registered with `require("../kinds/<Kind>")`, whose module Pulumi stores in the state as
 * `__provider`; that provider (framework/dynamic.ts) loads the runtime (registry, kinds) only when the engine calls
 * it. Loaded at call time rather than imported: the runtime loads every kind, and every kind the framework.
 */
const LAZY_REQUIRES: readonly { from: string; to: string }[] = [
  { from: "provider/framework/resource.ts", to: "provider/kinds/<Kind>" },
  { from: "provider/framework/dynamic.ts", to: "provider/runtime.ts" },
];

interface Edge {
  from: string;
  to: string;
  /** A `require(...)` call (loaded when it runs) rather than an import. */
  lazy: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(repoRoot, dir)).flatMap((name) => {
    const file = `${dir}/${name}`;
    if (statSync(path.join(repoRoot, file)).isDirectory()) return name === "node_modules" ? [] : sourceFiles(file);
    return file.endsWith(".ts") && !file.endsWith(".d.ts") ? [file] : [];
  });
}

/** A relative specifier's module, as `moduleResolution: node10` finds it; undefined for a package or a JSON file. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const base = path.posix.join(path.posix.dirname(from), specifier);
  for (const candidate of [`${base}.ts`, `${base}/index.ts`]) {
    if (existsSync(path.join(repoRoot, candidate))) return candidate;
  }
  if (/\.json$/.test(base)) return undefined;
  throw new Error(`${from}: cannot resolve "${specifier}"`);
}

/** Every module `file` imports from the repository's own sources. */
export function importsOf(file: string, text: string): Edge[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const edges: Edge[] = [];
  const add = (specifier: ts.Expression | undefined, lazy: boolean) => {
    if (specifier === undefined) return;
    if (ts.isStringLiteralLike(specifier)) {
      const to = resolveSpecifier(file, specifier.text);
      if (to !== undefined) edges.push({ from: file, to, lazy });
      return;
    }
    // A computed path: only the dynamic route's `../kinds/${kind}` is allowed, and named as its pattern.
    if (ts.isTemplateExpression(specifier) && specifier.head.text === "../kinds/") {
      edges.push({ from: file, to: "provider/kinds/<Kind>", lazy });
      return;
    }
    throw new Error(`${file}: an import whose path is computed (${specifier.getText(source)}) cannot be checked`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier, false);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      add(node.moduleReference.expression, false);
    else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const isRequire = ts.isIdentifier(callee) && callee.text === "require";
      if (isRequire || callee.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0], isRequire);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal, false);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

function graphOf(files: Readonly<Record<string, string>>): Edge[] {
  return Object.entries(files).flatMap(([file, text]) => importsOf(file, text));
}

/** The graph with some modules' text changed, the others' imports as read. */
function graphWith(graph: readonly Edge[], changed: Readonly<Record<string, string>>): Edge[] {
  return [...graph.filter((edge) => !(edge.from in changed)), ...graphOf(changed)];
}

/** Each circle of the graph once, as `a → b → a`, found by a depth-first walk over the modules in order. */
export function circlesOf(edges: readonly Edge[]): string[] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const state = new Map<string, "open" | "done">();
  const trail: string[] = [];
  const circles: string[] = [];
  const walk = (file: string) => {
    state.set(file, "open");
    trail.push(file);
    for (const to of [...new Set(next.get(file) ?? [])].sort()) {
      if (state.get(to) === "open") circles.push([...trail.slice(trail.indexOf(to)), to].join(" → "));
      else if (state.get(to) === undefined) walk(to);
    }
    trail.pop();
    state.set(file, "done");
  };
  for (const file of [...next.keys()].sort()) if (state.get(file) === undefined) walk(file);
  return circles;
}

function layerOf(file: string): number | undefined {
  if (file.startsWith("emulator/")) return undefined;
  const layer = LAYERS.findIndex((l) => l.holds(file));
  if (layer < 0) throw new Error(`${file} is in no layer of the import-graph test: give it one`);
  return layer;
}

/** Imports that climb a layer, enter the generators from outside, or leave the emulator, as readable lines. */
export function misplacedImports(edges: readonly Edge[]): string[] {
  const allowed = (edge: Edge) => edge.lazy && LAZY_REQUIRES.some((l) => l.from === edge.from && l.to === edge.to);
  return edges.flatMap((edge) => {
    if (allowed(edge)) return [];
    const target = edge.to === "provider/kinds/<Kind>" ? "provider/kinds/Kind.ts" : edge.to;
    if (edge.from.startsWith("emulator/") !== target.startsWith("emulator/")) {
      return edge.from.startsWith("emulator/")
        ? [`${edge.from} → ${edge.to}: the emulator imports nothing outside`]
        : [];
    }
    const [from, to] = [layerOf(edge.from), layerOf(target)];
    if (from === undefined || to === undefined || to <= from) return [];
    const names = `${LAYERS[from]!.name} imports ${LAYERS[to]!.name}`;
    return [`${edge.from} → ${edge.to}: ${names}${edge.lazy ? " (a lazy require not in LAZY_REQUIRES)" : ""}`];
  });
}

const files = Object.fromEntries(
  ROOTS.flatMap(sourceFiles).map((file) => [file, readFileSync(path.join(repoRoot, file), "utf8")]),
);
const edges = graphOf(files);

describe("the import graph of provider/, cli/, emulator/ and codegen/", () => {
  it("reads the imports of every module", () => {
    // The parse finds what is there: the layers and the generators it is about are all present.
    expect(Object.keys(files).length).toBeGreaterThan(100);
    expect(edges).toContainEqual({
      from: "provider/framework/lifecycle.ts",
      to: "provider/client/index.ts",
      lazy: false,
    });
    expect(edges).toContainEqual({ from: "codegen/generatedFiles.ts", to: "codegen/schema.ts", lazy: false });
    for (const exception of LAZY_REQUIRES) expect(edges).toContainEqual({ ...exception, lazy: true });
  });

  it("has no circle", () => {
    expect(circlesOf(edges)).toEqual([]);
  });

  it("has no import from a lower layer into a higher one, apart from the dynamic route's lazy require", () => {
    expect(misplacedImports(edges)).toEqual([]);
  });

  it("never loads the generators (codegen/) from the package's runtime", () => {
    const intoCodegen = edges.filter((e) => e.to.startsWith("codegen/") && !e.from.startsWith("codegen/"));
    expect(intoCodegen.map((e) => `${e.from} → ${e.to}`)).toEqual([]);
  });

  it("fails on a circle, a climb and a runtime import of the generators", () => {
    const introduced = graphWith(edges, {
      "provider/framework/kind.ts": `${files["provider/framework/kind.ts"]}\nimport "./operation";\nimport "../registry";\n`,
      "provider/plugin/server.ts": `${files["provider/plugin/server.ts"]}\nimport "../../codegen/schema";\n`,
      "provider/framework/dynamic.ts": `${files["provider/framework/dynamic.ts"]}\nconst r = () => require("../lookups");\n`,
    });
    expect(circlesOf(introduced).some((circle) => circle.includes("provider/framework/kind.ts"))).toBe(true);
    expect(misplacedImports(introduced)).toEqual(
      expect.arrayContaining([
        "provider/framework/kind.ts → provider/registry.ts: framework imports resources",
        "provider/plugin/server.ts → codegen/schema.ts: plugin, policy and cli imports codegen",
        "provider/framework/dynamic.ts → provider/lookups.ts: framework imports resources (a lazy require not in LAZY_REQUIRES)",
      ]),
    );
  });
});
