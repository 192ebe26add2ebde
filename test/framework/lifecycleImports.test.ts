import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The Lifecycle is the core both routes share (provider/framework/lifecycle.ts): it answers in its own result types,
 * and each route translates them. So neither it nor anything it imports may speak a route's protocol: the dynamic
 * provider contract (`pulumi.dynamic`, `@pulumi/pulumi/dynamic`), or the plugin's gRPC protocol (the generated
 * `@pulumi/pulumi/proto` classes, grpc-js, protobuf, provider/plugin/). A comment may name them; code may not.
 */
const repo = path.resolve(__dirname, "../..");
const CORE = "provider/framework/lifecycle.ts";
const PULUMI = "@pulumi/pulumi";
const PROTOCOL_MODULES = [
  /^@pulumi\/pulumi\/(dynamic|proto|cmd\/dynamic-provider)(\/|$)/,
  /^@grpc\//,
  /^google-protobuf/,
];

interface Use {
  specifier: string;
  /** What is wrong with it; undefined when nothing is. */
  problem?: string;
}

/** Every module a source text loads (import, export from, require, import type, `typeof import(…)`). */
function modulesOf(text: string, fileName = "source.ts"): { uses: Use[]; dynamicUses: number } {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const uses: Use[] = [];
  /** The names the root `@pulumi/pulumi` module is bound to here: `pulumi` in `import * as pulumi`. */
  const pulumiNames = new Set<string>();
  let dynamicUses = 0;
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      const specifier = (node.moduleSpecifier as ts.StringLiteral).text;
      uses.push({ specifier });
      const clause = ts.isImportDeclaration(node) ? node.importClause : undefined;
      if (specifier === PULUMI && clause) {
        if (clause.name) pulumiNames.add(clause.name.text);
        const bindings = clause.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) pulumiNames.add(bindings.name.text);
        if (bindings && ts.isNamedImports(bindings)) {
          for (const element of bindings.elements) {
            if ((element.propertyName ?? element.name).text === "dynamic") dynamicUses++;
          }
        }
      }
    }
    if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0] as ts.Node)) {
      const callee = node.expression;
      if ((ts.isIdentifier(callee) && callee.text === "require") || callee.kind === ts.SyntaxKind.ImportKeyword) {
        const specifier = (node.arguments[0] as ts.StringLiteral).text;
        uses.push({ specifier });
        // `const pulumi = require("@pulumi/pulumi")`, possibly `as typeof import(…)`.
        let parent = node.parent;
        while (parent && (ts.isAsExpression(parent) || ts.isParenthesizedExpression(parent))) parent = parent.parent;
        if (specifier === PULUMI && parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) {
          pulumiNames.add(parent.name.text);
        }
      }
    }
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      const specifier = node.argument.literal.text;
      uses.push({ specifier });
      const first = node.qualifier && leftmost(node.qualifier);
      if (specifier === PULUMI && first === "dynamic") dynamicUses++;
    }
    node.forEachChild(visit);
  };
  visit(source);
  // `pulumi.dynamic` as a value (PropertyAccess) or in a type (QualifiedName: `pulumi.dynamic.CheckResult`).
  const countDynamic = (node: ts.Node): void => {
    if (
      (ts.isPropertyAccessExpression(node) &&
        ts.isIdentifier(node.expression) &&
        pulumiNames.has(node.expression.text) &&
        node.name.text === "dynamic") ||
      (ts.isQualifiedName(node) &&
        ts.isIdentifier(node.left) &&
        pulumiNames.has(node.left.text) &&
        node.right.text === "dynamic")
    ) {
      dynamicUses++;
    }
    node.forEachChild(countDynamic);
  };
  countDynamic(source);
  for (const use of uses) {
    if (PROTOCOL_MODULES.some((pattern) => pattern.test(use.specifier))) use.problem = "a route's protocol module";
  }
  return { uses, dynamicUses };
}

function leftmost(name: ts.EntityName): string {
  return ts.isIdentifier(name) ? name.text : leftmost(name.left);
}

/** The repository file a relative specifier of `from` names, if it is one of ours. */
function resolveLocal(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const base = path.resolve(path.dirname(path.join(repo, from)), specifier);
  const found = [`${base}.ts`, path.join(base, "index.ts")].find((candidate) => existsSync(candidate));
  return found === undefined ? undefined : path.relative(repo, found).split(path.sep).join("/");
}

/** Each file the core loads, directly or not, with the chain of imports that reaches it. */
function closureOf(start: string): Map<string, string[]> {
  const chains = new Map<string, string[]>([[start, [start]]]);
  const pending = [start];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    for (const { specifier } of modulesOf(readFileSync(path.join(repo, file), "utf8"), file).uses) {
      const target = resolveLocal(file, specifier);
      if (target === undefined || chains.has(target)) continue;
      chains.set(target, [...(chains.get(file) ?? []), target]);
      pending.push(target);
    }
  }
  return chains;
}

describe("the shared core speaks neither route's protocol", () => {
  const closure = closureOf(CORE);

  it("reaches the framework files the core needs (the walk follows imports)", () => {
    expect(closure.has("provider/framework/inputRules.ts")).toBe(true);
    expect(closure.has("provider/framework/preflight.ts")).toBe(true);
    expect(closure.has("provider/framework/lifecycleResults.ts")).toBe(true);
  });

  it("lifecycle.ts and every file it imports use nothing of pulumi.dynamic nor of the plugin's gRPC protocol", () => {
    const problems: string[] = [];
    for (const [file, chain] of closure) {
      const { uses, dynamicUses } = modulesOf(readFileSync(path.join(repo, file), "utf8"), file);
      const via = chain.join(" → ");
      if (dynamicUses > 0) problems.push(`${via}: uses pulumi.dynamic ${dynamicUses} time(s)`);
      for (const use of uses) {
        if (use.problem) problems.push(`${via}: imports "${use.specifier}" (${use.problem})`);
        const target = resolveLocal(file, use.specifier);
        if (target?.startsWith("provider/plugin/")) problems.push(`${via}: imports ${target} (the plugin route)`);
        if (target === "provider/framework/dynamic.ts") problems.push(`${via}: imports ${target} (the dynamic route)`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe("the check itself", () => {
  const dynamicUsesOf = (text: string) => modulesOf(text).dynamicUses;
  const problemsOf = (text: string) =>
    modulesOf(text)
      .uses.filter((use) => use.problem)
      .map((use) => use.specifier);

  it("finds pulumi.dynamic in a type, a value, a named import, a require and an import type", () => {
    expect(dynamicUsesOf('import type * as pulumi from "@pulumi/pulumi";\nlet r: pulumi.dynamic.CheckResult;')).toBe(1);
    expect(dynamicUsesOf('import * as p from "@pulumi/pulumi";\nconst R = p.dynamic.Resource;')).toBe(1);
    expect(dynamicUsesOf('import { dynamic } from "@pulumi/pulumi";')).toBe(1);
    expect(dynamicUsesOf('import { dynamic as d } from "@pulumi/pulumi";')).toBe(1);
    expect(
      dynamicUsesOf('const pulumi = require("@pulumi/pulumi") as typeof import("@pulumi/pulumi");\npulumi.dynamic;'),
    ).toBe(1);
    expect(dynamicUsesOf('let r: import("@pulumi/pulumi").dynamic.DiffResult;')).toBe(1);
  });

  it("finds the protocols' modules, however loaded", () => {
    expect(problemsOf('import type * as p from "@pulumi/pulumi/proto/provider_pb";')).toEqual([
      "@pulumi/pulumi/proto/provider_pb",
    ]);
    expect(problemsOf('import { Resource } from "@pulumi/pulumi/dynamic";')).toEqual(["@pulumi/pulumi/dynamic"]);
    expect(problemsOf('const grpc = require("@grpc/grpc-js");')).toEqual(["@grpc/grpc-js"]);
    expect(problemsOf('export { Struct } from "google-protobuf/google/protobuf/struct_pb";')).toEqual([
      "google-protobuf/google/protobuf/struct_pb",
    ]);
  });

  it("lets a comment name them, and other uses of @pulumi/pulumi pass", () => {
    expect(dynamicUsesOf("// returns pulumi.dynamic.CheckResult\n/** `@pulumi/pulumi/proto` */")).toBe(0);
    expect(problemsOf("// returns pulumi.dynamic.CheckResult\n/** `@pulumi/pulumi/proto` */")).toEqual([]);
    expect(dynamicUsesOf('const pulumi = require("@pulumi/pulumi");\npulumi.log.info("x");')).toBe(0);
    expect(dynamicUsesOf('import * as other from "./dynamic";\nother.dynamic;')).toBe(0);
  });

  it("follows relative imports to the files that exist", () => {
    expect(resolveLocal(CORE, "./lifecycleResults")).toBe("provider/framework/lifecycleResults.ts");
    expect(resolveLocal(CORE, "../client")).toBe("provider/client/index.ts");
    expect(resolveLocal(CORE, "./noSuchFile")).toBeUndefined();
    expect(resolveLocal(CORE, "zod")).toBeUndefined();
  });
});
