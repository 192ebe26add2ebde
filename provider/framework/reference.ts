/**
 * Turns the kinds' definitions into what users read: the reference (docs/resources.md), the Resource classes with
 * typed, documented properties (resources/generated.ts), and the generated blocks of the README and
 * docs/conventions.md: the table of kinds and the per-kind facts (conventionFacts.ts). The zod schemas are the only
 * source: a field's `.describe()` text, limits, default, update-or-replace and secrecy are read from them, so a field
 * added to a schema shows up everywhere after `npm run docs`, and `npm run docs:check` fails until it does.
 *
 * TypeScript cannot carry a runtime `.describe()` string into a type's JSDoc, hence a generated, checked-in file.
 * Its types come from the type model (typeModel.ts: every type used twice is named once); biome lays it out.
 */

import { POLICY_REFERENCE_FILE, renderPolicyReference } from "../policy/reference";
import { type DocumentWithBlocks, factBlocks, withBlocks } from "./conventionFacts";
import { providerDefaultOf } from "./defaults";
import { importIdFormat } from "./importIds";
import { API_ID_PATTERN } from "./kind";
import {
  PLUGIN_CLASSES_FILE,
  PLUGIN_FUNCTIONS_FILE,
  renderPluginClasses,
  renderPluginFunctions,
} from "./pluginClasses";
import { type FunctionSource, SCHEMA_FILE, schemaText } from "./schema";
import {
  type Definition,
  type KindTypes,
  type NamedType,
  type Node,
  refName,
  resolve,
  type TypeModel,
  typeModel,
} from "./typeModel";
import { pluginType } from "./typeTokens";

/** Where a kind's definition lives: `resources/<kind with a lowercase first letter>.ts`, exported as `<that>Kind`. */
export function moduleOf(kind: string): { file: string; exportName: string } {
  const file = kind.charAt(0).toLowerCase() + kind.slice(1);
  return { file, exportName: `${file}Kind` };
}

// ---------------------------------------------------------------------------------------------------------------
// TypeScript types

function literal(value: unknown): string {
  return JSON.stringify(value);
}

/** `A | B`, each once; `true | false` (a state's `false` added to an input's `true`) reads `boolean`. */
function union(types: string[]): string {
  const unique = [...new Set(types)];
  const merged = unique.includes("true") && unique.includes("false");
  const members = merged
    ? unique.map((type) => (type === "true" ? "boolean" : type)).filter((t) => t !== "false")
    : unique;
  return members.join(" | ");
}

/**
 * How to print a type: `multiline` spells objects one property a line with their documentation (the generated
 * file); otherwise on one line (a table cell of the reference), with named types spelled out (`expand`) because the
 * reference does not define them.
 */
interface Layout {
  multiline: boolean;
  indent: string;
  model: TypeModel;
  expand?: boolean;
}

/** The TypeScript type of a node, as a program reads it (an output) and as `DeepInput` takes it (an argument). */
function tsType(node: Node, layout: Layout): string {
  const name = refName(node);
  if (name !== undefined) return layout.expand ? tsType(resolve(layout.model, node), layout) : name;
  if (node.tsType) return node.tsType;
  const alternatives = node.anyOf ?? node.oneOf;
  if (alternatives) return union(alternatives.map((alternative) => tsType(alternative, layout)));
  if (node.const !== undefined) return literal(node.const);
  if (node.enum) return union(node.enum.map(literal));
  if (Array.isArray(node.type)) return union(node.type.map((type) => tsType({ ...node, type }, layout)));
  switch (node.type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array": {
      const item = node.items ? tsType(node.items, layout) : "unknown";
      return isUnion(item) ? `(${item})[]` : `${item}[]`;
    }
    case "object":
      return objectType(node, layout);
    default:
      return "unknown";
  }
}

/** Whether a printed type is a union at its top level (`A | B`, not `{ a: A | B }`), which `[]` must not split. */
function isUnion(type: string): boolean {
  let depth = 0;
  for (let i = 0; i < type.length; i++) {
    const char = type.charAt(i);
    if ("{<([".includes(char)) depth++;
    else if ("}>)]".includes(char)) depth--;
    else if (char === "|" && depth === 0) return true;
  }
  return false;
}

function objectType(node: Node, layout: Layout): string {
  const entries = Object.entries(node.properties ?? {});
  if (entries.length === 0) {
    const values = node.additionalProperties;
    if (values === false) return "Record<string, never>";
    const value = typeof values === "object" ? tsType(values, layout) : "unknown";
    const keys = node.propertyNames ? tsType(node.propertyNames, layout) : "string";
    // A map of an enum's keys (a language → a title) has any of them, not all.
    return keys === "string" ? `Record<string, ${value}>` : `Partial<Record<${keys}, ${value}>>`;
  }
  const required = new Set(node.required);
  const inner = `${layout.indent}  `;
  const field = ([key, value]: [string, Node]) =>
    `${key}${required.has(key) ? "" : "?"}: ${tsType(value, { ...layout, indent: inner })}`;
  if (!layout.multiline) return `{ ${entries.map(field).join("; ")} }`;
  const lines = entries.map((entry) => `${jsdoc(entry[1].description, inner)}${inner}${field(entry)};\n`);
  return `{\n${lines.join("")}${layout.indent}}`;
}

/** Whether a program may pass Outputs inside the value (objects and lists), not only for the value as a whole. */
function isStructured(node: Node, model: TypeModel): boolean {
  const resolved = resolve(model, node);
  if (resolved.tsType || resolved.type === "object" || resolved.type === "array") return true;
  return (resolved.anyOf ?? resolved.oneOf ?? []).some((alternative) => isStructured(alternative, model));
}

function jsdoc(text: string | undefined, indent: string): string {
  if (!text) return "";
  const words = text.replace(/\*\//g, "*\\/").split(/\s+/);
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    if (line && line.length + word.length + 1 > 110 - indent.length) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l}`).join("\n")}\n${indent} */\n`;
}

/**
 * resources/generated.ts: per kind, the named types it is the first to use, its `<Kind>Args` interface and its
 * `<Kind>` class, documented from the schemas. Printed for biome to format (tools/format-generated.mjs).
 */
function renderClasses(definitions: readonly Definition[]): string {
  const model = typeModel(definitions);
  // Sorted as biome sorts them: by path, then names regardless of `type` and case.
  const byName = (a: string, b: string) => a.replace(/^type /, "").localeCompare(b.replace(/^type /, ""), "en");
  const imports = [...definitions]
    .sort((a, b) => moduleOf(a.kind).file.localeCompare(moduleOf(b.kind).file, "en"))
    .map((definition) => {
      const { file, exportName } = moduleOf(definition.kind);
      const names = [exportName, ...typeTypesUsed(model, definition.kind).map((name) => `type ${name}`)].sort(byName);
      return `import { ${names.join(", ")} } from "./${file}";`;
    });
  const out = [
    "// Generated by `npm run docs` from each kind's schemas (provider/framework/reference.ts). Do not edit.",
    'import type * as pulumi from "@pulumi/pulumi";',
    'import type { ConnectionOption } from "../connection";',
    'import { type AdoptionArgs, type DeepInput, DocsResource } from "../framework/resource";',
    ...imports,
    "",
  ];
  // A named type comes just before the first kind that uses it.
  for (const kind of model.kinds) {
    for (const type of model.types) if (type.usedBy[0] === kind.definition.kind) out.push(renderNamedType(type, model));
    out.push(renderClass(kind, model));
  }
  return out.join("\n");
}

function renderNamedType(type: NamedType, model: TypeModel): string {
  const layout: Layout = { multiline: true, indent: "", model };
  const users = type.usedBy.length > 1 ? `Used by ${enumeration(type.usedBy, String, "and")}.` : "";
  const doc = jsdoc([type.node.description, users].filter(Boolean).join(" "), "");
  if (Object.keys(type.node.properties ?? {}).length > 0)
    return `${doc}export interface ${type.name} ${objectType(type.node, layout)}\n`;
  return `${doc}export type ${type.name} = ${tsType(type.node, layout)};\n`;
}

/**
 * Types a kind's properties name with `.meta({ tsType })`, which the generated file imports from the kind's module
 * (a property's own type: a recursive schema, which the type model does not spell out).
 */
export function typeTypesUsed(model: TypeModel, kind: string): string[] {
  const properties = model.kinds.filter((k) => k.definition.kind === kind).flatMap((k) => [...k.inputs, ...k.outputs]);
  return [...new Set(properties.flatMap(({ node }) => (node.tsType ? [node.tsType] : [])))];
}

/**
 * A kind's `<Kind>Args` interface and its class up to the constructor, as both routes print them: `argsExtends` and
 * `base` are what differ (the plugin route has no `connection`, and another base class).
 */
export function renderArgsAndOutputs(
  { definition, inputs, outputs }: KindTypes,
  model: TypeModel,
  { argsExtends, base }: { argsExtends: string; base: string },
): string {
  const { kind } = definition;
  const layout: Layout = { multiline: true, indent: "  ", model };
  let text = jsdoc(`The arguments of ${kind}. ${definition.docs.description}`, "");
  text += `export interface ${kind}Args extends ${argsExtends} {\n`;
  for (const { name, node, required } of inputs) {
    text += jsdoc(argumentSummary(definition, name, resolve(model, node), required, model), "  ");
    const type = tsType(node, layout);
    text += `  ${name}${required ? "" : "?"}: ${isStructured(node, model) ? "DeepInput" : "pulumi.Input"}<${type}>;\n`;
  }
  text += "}\n\n";
  text += jsdoc(`${definition.docs.description} Id: ${definition.idFormat}.`, "");
  text += `export class ${kind} extends ${base} {\n`;
  for (const { name, node } of outputs) {
    text += jsdoc(node.description, "  ");
    text += `  declare readonly ${name}: pulumi.Output<${tsType(node, layout)}>;\n`;
  }
  return text;
}

function renderClass(types: KindTypes, model: TypeModel): string {
  const { kind } = types.definition;
  const { exportName } = moduleOf(kind);
  let text = renderArgsAndOutputs(types, model, {
    argsExtends: "AdoptionArgs, ConnectionOption",
    base: "DocsResource",
  });
  text += `\n  constructor(name: string, args: ${kind}Args, opts?: pulumi.CustomResourceOptions) {\n`;
  text += `    super(${exportName}, name, args, opts);\n  }\n}\n`;
  return text;
}

/** The JSDoc of an argument: its description, then what its reference row says in short. */
function argumentSummary(
  definition: Definition,
  name: string,
  node: Node,
  required: boolean,
  model: TypeModel,
): string {
  const facts = [typeAndLimits(node, model), change(definition, name), omitted(node, required, name)].join("; ");
  return [node.description, `(${facts}.)`].filter(Boolean).join(" ");
}

// ---------------------------------------------------------------------------------------------------------------
// The reference

const code = (text: string) => `\`${text}\``;

/** `a`, `b` or `c`. */
function enumeration(values: readonly unknown[], show = (value: unknown) => code(String(value)), last = "or"): string {
  const items = values.map(show);
  return items.length > 1 ? `${items.slice(0, -1).join(", ")} ${last} ${items.at(-1)}` : (items[0] ?? "");
}

function range(min: number | undefined, max: number | undefined, unit: string): string | undefined {
  const units = (n: number) => `${unit}${n === 1 ? "" : "s"}`;
  if (min !== undefined && min > 0 && max !== undefined) return `${min}–${max} ${units(max)}`;
  if (max !== undefined) return `at most ${max} ${units(max)}`;
  if (min !== undefined && min > 0) return `at least ${min} ${units(min)}`;
  return undefined;
}

/** A type and its limits in the reference's words, e.g. "string, 1–100 characters" or "id, or `null`". */
function typeAndLimits(named: Node, model: TypeModel): string {
  const node = resolve(model, named);
  if (node.docType) return node.docType;
  const alternatives = node.anyOf ?? node.oneOf;
  if (alternatives) return alternatives.map((alternative) => typeAndLimits(alternative, model)).join(", or ");
  if (Array.isArray(node.type)) {
    return node.type.map((type) => typeAndLimits({ ...node, type }, model)).join(", or ");
  }
  if (node.enum) return enumeration(node.enum);
  if (node.const !== undefined) return code(JSON.stringify(node.const));
  switch (node.type) {
    case "string": {
      if (node.pattern === API_ID_PATTERN.source) return "id";
      if (node.format === "uri")
        return ["URL", range(undefined, node.maxLength, "character")].filter(Boolean).join(", ");
      const limits = range(node.minLength, node.maxLength, "character");
      const pattern = node.pattern ? `pattern ${code(node.pattern)}` : undefined;
      return ["string", limits, pattern].filter(Boolean).join(", ");
    }
    case "number":
    case "integer": {
      const limits = [
        node.exclusiveMinimum !== undefined ? `greater than ${node.exclusiveMinimum}` : undefined,
        node.minimum !== undefined ? `at least ${node.minimum}` : undefined,
        node.exclusiveMaximum !== undefined ? `less than ${node.exclusiveMaximum}` : undefined,
        node.maximum !== undefined ? `at most ${node.maximum}` : undefined,
      ];
      return ["number", ...limits].filter(Boolean).join(", ");
    }
    case "boolean":
      return "boolean";
    case "null":
      return code("null");
    case "array":
      return `list of ${node.items ? plural(typeAndLimits(node.items, model)) : "values"}`;
    case "object": {
      const keys = Object.keys(node.properties ?? {});
      return keys.length > 0 ? `object ${code(`{ ${keys.join(", ")} }`)}` : "object";
    }
    default:
      return "any value";
  }
}

function plural(type: string): string {
  if (type === "id") return "ids";
  if (type.startsWith("object ")) return `objects ${type.slice("object ".length)}`;
  return type;
}

function change(definition: Definition, name: string): string {
  if (definition.providerOptions?.includes(name)) return "provider option: never sent, never a reason for a change";
  if (definition.replaceOnChanges?.includes(name)) {
    return definition.deleteBeforeReplace ? "replace (delete before replace)" : "replace";
  }
  return definition.setProperties?.includes(name) ? "update in place, order-insensitive" : "update in place";
}

function omitted(node: Node, required: boolean, name?: string): string {
  if (required) return "required";
  const fallback = name === undefined ? undefined : providerDefaultOf(name);
  if (fallback) return `default: stack config ${code(fallback.config)} or ${code(fallback.env)}`;
  if (node.default !== undefined) return `default ${code(JSON.stringify(node.default))}`;
  return "unmanaged when omitted";
}

function anchor(kind: string): string {
  return `#${kind.toLowerCase()}`;
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

function renderKindSection({ definition, inputs, outputs }: KindTypes, model: TypeModel): string {
  const { kind } = definition;
  const lines: string[] = [`## ${kind}`, "", definition.docs.description, ""];
  lines.push("| Argument | Type and limits | Change | Omitted | Description |", "|---|---|---|---|---|");
  for (const { name, node: named, required } of inputs) {
    const node = resolve(model, named);
    const type = typeAndLimits(node, model);
    const typeText = node.sensitive ? `${type}; a secret, never shown in a failed check` : type;
    lines.push(
      `| ${code(name)} | ${cell(typeText)} | ${change(definition, name)} | ${omitted(node, required, name)} | ${cell(node.description ?? "")} |`,
    );
    // The fields of a list of objects (or of an object) get rows of their own: `members[].role`.
    const element = node.items ? resolve(model, node.items) : node;
    if (node.tsType || node.docType || !element.properties) continue;
    const prefix = node.items ? `${name}[]` : name;
    const inner = new Set(element.required ?? []);
    for (const [key, named] of Object.entries(element.properties)) {
      const field = resolve(model, named);
      const row = [code(`${prefix}.${key}`), cell(typeAndLimits(field, model)), "", omitted(field, inner.has(key))];
      lines.push(`| ${row.join(" | ")} | ${cell(field.description ?? "")} |`);
    }
  }
  lines.push(
    `| ${code("importId")} | ${cell(definition.idFormat)} | adoption only | not adopted | see Adoption |`,
    `| ${code("connection")} | a \`docs.Connection\` | update in place, no request | the stack-wide settings | ` +
      "The organization, API URL and token source this resource uses (README, “Several organizations in one program”). |",
    "",
  );
  const secrets = new Set<string>(definition.secretOutputs ?? []);
  const outputOnly = new Set<string>(definition.outputs);
  const layout: Layout = { multiline: false, indent: "", model, expand: true };
  lines.push("| Output | Type | Description |", "|---|---|---|");
  for (const { name, node } of outputs) {
    const what = outputOnly.has(name) ? "output only" : "the argument as the API reports it";
    const description = [node.description, secrets.has(name) ? "A Pulumi secret." : ""].filter(Boolean).join(" ");
    lines.push(`| ${code(name)} | ${cell(code(tsType(node, layout)))} | ${cell(description || what)} |`);
  }
  const importId = importIdFormat(
    definition,
    model.kinds.map((k) => k.definition),
  );
  lines.push("", `Id: ${definition.idFormat}.`, "", `Import: \`pulumi import ${pluginType(kind)} <name> ${importId}\``);
  lines.push("", `Adoption: ${definition.docs.adoption}`, "");
  // A paragraph stands alone; consecutive `- ` bullets make one list.
  for (const [i, note] of (definition.docs.notes ?? []).entries()) {
    const bulletAfterBullet = note.startsWith("- ") && definition.docs.notes?.[i - 1]?.startsWith("- ");
    if (bulletAfterBullet) lines.pop();
    lines.push(note, "");
  }
  lines.push("```ts", definition.docs.example, "```", "");
  return lines.join("\n");
}

/** docs/resources.md: one section per kind, from its definition. */
export function renderReference(definitions: readonly Definition[]): string {
  const out = [
    "<!-- Generated by `npm run docs` from the kinds' schemas (provider/framework/reference.ts). Do not edit. -->",
    "",
    "# Resource reference",
    "",
    "Every resource kind of `pulumi-docs-platform`: its arguments with their limits, what a change of each does and " +
      "what leaving it out means, its outputs, its id and how to adopt an existing object. What holds for every kind " +
      "(check-time validation, unmanaged arguments, drift, adoption, secrets, errors) and a complete example program " +
      "are in [conventions.md](conventions.md); installation and configuration in the [README](../README.md).",
    "",
    "An `id` is an API object's id: letters, digits, `-` and `_` only, checked during preview.",
    "",
    "Import gives the id `pulumi import` takes with the provider plugin (type `docs:index:<Kind>`): the parents' ids " +
      "from the organization down, then the object's; `[<organizationId>/]` may be left out when " +
      "`docs:organizationId` (or `DOCS_ORGANIZATION_ID`) is set.",
    "",
    "## Contents",
    "",
  ];
  for (const scope of ["organization", "site"] as const) {
    out.push(scope === "organization" ? "Organization-level kinds:" : "Site kinds:", "");
    for (const d of definitions.filter((d) => d.scope === scope)) out.push(`- [${d.kind}](${anchor(d.kind)})`);
    out.push("");
  }
  const model = typeModel(definitions);
  for (const kind of model.kinds) out.push(renderKindSection(kind, model));
  return `${out.join("\n").trimEnd()}\n`;
}

/** The README's table of kinds (its block `kinds table`). */
function renderKindsTable(definitions: readonly Definition[]): string {
  const rows = definitions.map((d) => {
    const replaced = d.replaceOnChanges?.length ? `${enumeration(d.replaceOnChanges)} changes` : "never";
    return `| [${code(d.kind)}](docs/resources.md${anchor(d.kind)}) | ${cell(d.docs.description)} | ${replaced} |`;
  });
  return ["| Kind | What it is | Replaced when |", "|---|---|---|", ...rows].join("\n");
}

/**
 * Every generated file, by path from the repository root, given the current text of the hand-written documents
 * (`DOCUMENTS_WITH_BLOCKS`), of which only the generated blocks are rewritten.
 */
export function generatedFiles(
  definitions: readonly Definition[],
  documents: Readonly<Record<DocumentWithBlocks, string>>,
  functions: readonly FunctionSource[],
): Record<string, string> {
  const blocks = factBlocks(definitions);
  return {
    "docs/resources.md": renderReference(definitions),
    "provider/resources/generated.ts": renderClasses(definitions),
    [PLUGIN_CLASSES_FILE]: renderPluginClasses(definitions),
    [SCHEMA_FILE]: schemaText(definitions, functions),
    [PLUGIN_FUNCTIONS_FILE]: renderPluginFunctions(functions),
    [POLICY_REFERENCE_FILE]: renderPolicyReference(definitions.map((definition) => definition.kind)),
    "README.md": withBlocks("README.md", documents["README.md"], {
      ...blocks["README.md"],
      "kinds table": renderKindsTable(definitions),
    }),
    "docs/conventions.md": withBlocks(
      "docs/conventions.md",
      documents["docs/conventions.md"],
      blocks["docs/conventions.md"],
    ),
  };
}
