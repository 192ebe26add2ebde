/**
 * Turns the kinds' definitions into what users read: the reference (docs/resources.md), the README's table of kinds
 * and the Resource classes with typed, documented properties (resources/generated.ts). The zod schemas are the only
 * source: a field's `.describe()` text, limits, default, update-or-replace and secrecy are read from them, so a field
 * added to a schema shows up everywhere after `npm run docs`, and `npm run docs:check` fails until it does.
 *
 * TypeScript cannot carry a runtime `.describe()` string into a type's JSDoc, hence a generated, checked-in file.
 */
import { z } from "zod";
import { providerDefaultOf } from "./defaults";
import { API_ID_PATTERN, type KindDefinition } from "./kind";

type Definition = KindDefinition<Record<string, unknown>, Record<string, unknown>>;

/** A JSON Schema node as zod's `toJSONSchema` writes it, plus our `.meta()` keys. */
interface Node {
  type?: string | string[];
  description?: string;
  default?: unknown;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Node[];
  oneOf?: Node[];
  items?: Node;
  properties?: Record<string, Node>;
  required?: string[];
  additionalProperties?: Node | boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  pattern?: string;
  format?: string;
  /** `.meta({ tsType })`: the TypeScript type to name instead of spelling the schema out (recursive schemas). */
  tsType?: string;
  /** `.meta({ docType })`: the reference's wording of the type, when the schema's own would be unreadable. */
  docType?: string;
  /** `.meta(SENSITIVE)`: the value may be a secret. */
  sensitive?: boolean;
}

interface Property {
  name: string;
  node: Node;
  required: boolean;
}

function jsonSchema(schema: z.ZodType, io: "input" | "output"): Node {
  return z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Node;
}

function propertiesOf(schema: z.ZodType, io: "input" | "output"): Property[] {
  const root = jsonSchema(schema, io);
  const required = new Set(root.required ?? []);
  // An input with a provider default (organizationId) may be left out of the program: check fills it in.
  return Object.entries(root.properties ?? {}).map(([name, node]) => ({
    name,
    node,
    required: required.has(name) && (io === "output" || providerDefaultOf(name) === undefined),
  }));
}

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

function union(types: string[]): string {
  const unique = [...new Set(types)];
  return unique.length === 0 ? "never" : unique.join(" | ");
}

/** The TypeScript type of a node; `input` wraps every nested value in `pulumi.Input` (a program may pass Outputs). */
function tsType(node: Node, input: boolean): string {
  const wrap = (type: string) => (input ? `pulumi.Input<${type}>` : type);
  if (node.tsType) return input ? `DeepInput<${node.tsType}>` : node.tsType;
  const alternatives = node.anyOf ?? node.oneOf;
  if (alternatives) return union(alternatives.map((alternative) => tsType(alternative, input)));
  if (node.const !== undefined) return literal(node.const);
  if (node.enum) return union(node.enum.map(literal));
  if (Array.isArray(node.type)) return union(node.type.map((type) => tsType({ ...node, type }, input)));
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
      const item = node.items ? tsType(node.items, input) : "unknown";
      return `${wrap(item)}[]`;
    }
    case "object": {
      const entries = Object.entries(node.properties ?? {});
      if (entries.length === 0) {
        const values = node.additionalProperties;
        const value = typeof values === "object" ? tsType(values, input) : "unknown";
        return `Record<string, ${value === "" ? "unknown" : value}>`;
      }
      const required = new Set(node.required ?? []);
      const fields = entries.map(
        ([key, value]) => `${key}${required.has(key) ? "" : "?"}: ${wrap(tsType(value, input))}`,
      );
      return `{ ${fields.join("; ")} }`;
    }
    default:
      return "unknown";
  }
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

/** resources/generated.ts: per kind, its `<Kind>Args` interface and its `<Kind>` class, documented from the schemas. */
function renderClasses(definitions: readonly Definition[]): string {
  // Sorted as biome sorts them: by path, then names regardless of `type` and case.
  const byName = (a: string, b: string) => a.replace(/^type /, "").localeCompare(b.replace(/^type /, ""), "en");
  const imports = [...definitions]
    .sort((a, b) => moduleOf(a.kind).file.localeCompare(moduleOf(b.kind).file, "en"))
    .map((definition) => {
      const { file, exportName } = moduleOf(definition.kind);
      const names = [exportName, ...typeTypesUsed(definition).map((name) => `type ${name}`)].sort(byName);
      return `import { ${names.join(", ")} } from "./${file}";`;
    });
  const named = definitions.some((definition) => typeTypesUsed(definition).length > 0);
  const out = [
    "// Generated by `npm run docs` from each kind's schemas (provider/framework/reference.ts). Do not edit.",
    'import type * as pulumi from "@pulumi/pulumi";',
    'import type { ConnectionOption } from "../connection";',
    `import { type AdoptionArgs, ${named ? "type DeepInput, " : ""}DocsResource } from "../framework/resource";`,
    ...imports,
    "",
  ];
  for (const definition of definitions) out.push(renderClass(definition));
  return `${out.join("\n").trimEnd()}\n`;
}

/** Types named with `.meta({ tsType })`, which the generated file imports from the kind's module. */
function typeTypesUsed(definition: Definition): string[] {
  const nodes = [...propertiesOf(definition.inputs, "input"), ...propertiesOf(definition.state, "output")];
  return [...new Set(nodes.flatMap(({ node }) => (node.tsType ? [node.tsType] : [])))];
}

function renderClass(definition: Definition): string {
  const { kind } = definition;
  const { exportName } = moduleOf(kind);
  const inputs = propertiesOf(definition.inputs, "input");
  const inputDocs = new Map(inputs.map((p) => [p.name, p.node.description]));
  let text = jsdoc(`The arguments of ${kind}. ${definition.description}`, "");
  text += `export interface ${kind}Args extends AdoptionArgs, ConnectionOption {\n`;
  for (const { name, node, required } of inputs) {
    text += jsdoc(argumentSummary(definition, name, node, required), "  ");
    text += `  ${name}${required ? "" : "?"}: ${inputType(node)};\n`;
  }
  text += "}\n\n";
  text += jsdoc(`${definition.description} Id: ${definition.idFormat}.`, "");
  text += `export class ${kind} extends DocsResource {\n`;
  for (const { name, node } of propertiesOf(definition.state, "output")) {
    text += jsdoc(node.description ?? inputDocs.get(name), "  ");
    text += `  declare readonly ${name}: pulumi.Output<${tsType(node, false)}>;\n`;
  }
  text += `\n  constructor(name: string, args: ${kind}Args, opts?: pulumi.CustomResourceOptions) {\n`;
  text += `    super(${exportName}, name, args, opts);\n  }\n}\n`;
  return text;
}

function inputType(node: Node): string {
  if (node.tsType) return `DeepInput<${node.tsType}>`;
  return `pulumi.Input<${tsType(node, true)}>`;
}

/** The JSDoc of an argument: its description, then what its reference row says in short. */
function argumentSummary(definition: Definition, name: string, node: Node, required: boolean): string {
  const facts = [typeAndLimits(node), change(definition, name), omitted(node, required, name)]
    .filter(Boolean)
    .join("; ");
  return [node.description, facts ? `(${facts}.)` : ""].filter(Boolean).join(" ");
}

// ---------------------------------------------------------------------------------------------------------------
// The reference

const code = (text: string) => `\`${text}\``;

function enumeration(values: readonly unknown[]): string {
  const items = values.map((value) => code(String(value)));
  return items.length > 1 ? `${items.slice(0, -1).join(", ")} or ${items.at(-1)}` : (items[0] ?? "");
}

function range(min: number | undefined, max: number | undefined, unit: string): string | undefined {
  const units = (n: number) => `${unit}${n === 1 ? "" : "s"}`;
  if (min !== undefined && min > 0 && max !== undefined) return `${min}–${max} ${units(max)}`;
  if (max !== undefined) return `at most ${max} ${units(max)}`;
  if (min !== undefined && min > 0) return `at least ${min} ${units(min)}`;
  return undefined;
}

/** A type and its limits in the reference's words, e.g. "string, 1–100 characters" or "id, or `null`". */
function typeAndLimits(node: Node): string {
  if (node.docType) return node.docType;
  const alternatives = node.anyOf ?? node.oneOf;
  if (alternatives) return alternatives.map(typeAndLimits).join(", or ");
  if (Array.isArray(node.type)) return node.type.map((type) => typeAndLimits({ ...node, type })).join(", or ");
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
      return `list of ${node.items ? plural(typeAndLimits(node.items)) : "values"}`;
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

function renderKindSection(definition: Definition): string {
  const { kind } = definition;
  const lines: string[] = [`## ${kind}`, "", definition.description, ""];
  lines.push("| Argument | Type and limits | Change | Omitted | Description |", "|---|---|---|---|---|");
  const inputs = propertiesOf(definition.inputs, "input");
  for (const { name, node, required } of inputs) {
    const type = node.sensitive ? `${typeAndLimits(node)}; never shown in a failed check` : typeAndLimits(node);
    lines.push(
      `| ${code(name)} | ${cell(type)} | ${change(definition, name)} | ${omitted(node, required, name)} | ${cell(node.description ?? "")} |`,
    );
    // The fields of a list of objects (or of an object) get rows of their own: `members[].role`.
    const element = node.items ?? node;
    if (node.tsType || node.docType || !element.properties) continue;
    const prefix = node.items ? `${name}[]` : name;
    const inner = new Set(element.required ?? []);
    for (const [key, field] of Object.entries(element.properties)) {
      const row = [code(`${prefix}.${key}`), cell(typeAndLimits(field)), "", omitted(field, inner.has(key))];
      lines.push(`| ${row.join(" | ")} | ${cell(field.description ?? "")} |`);
    }
  }
  lines.push(
    `| ${code("importId")} | ${cell(definition.idFormat)} | adoption only | not adopted | see Adoption |`,
    `| ${code("connection")} | a \`docs.Connection\` | update in place, no request | the stack-wide settings | ` +
      "The organization, API URL and token source this resource uses (README, “Several organizations in one program”). |",
    "",
  );
  const inputDocs = new Map(inputs.map((p) => [p.name, p.node.description]));
  const secrets = new Set<string>(definition.secretOutputs ?? []);
  const outputs = new Set<string>(definition.outputs);
  lines.push("| Output | Type | Description |", "|---|---|---|");
  for (const { name, node } of propertiesOf(definition.state, "output")) {
    const what = outputs.has(name) ? "output only" : "the argument as the API reports it";
    const description = [node.description ?? inputDocs.get(name), secrets.has(name) ? "A Pulumi secret." : ""]
      .filter(Boolean)
      .join(" ");
    lines.push(`| ${code(name)} | ${cell(code(tsType(node, false)))} | ${cell(description || what)} |`);
  }
  lines.push("", `Id: ${definition.idFormat}.`, "", `Adoption: ${definition.adoption}`, "");
  // A paragraph stands alone; consecutive `- ` bullets make one list.
  for (const [i, note] of (definition.notes ?? []).entries()) {
    const bulletAfterBullet = note.startsWith("- ") && definition.notes?.[i - 1]?.startsWith("- ");
    if (bulletAfterBullet) lines.pop();
    lines.push(note, "");
  }
  lines.push("```ts", definition.example, "```", "");
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
    "## Contents",
    "",
  ];
  for (const scope of ["organization", "site"] as const) {
    out.push(scope === "organization" ? "Organization-level kinds:" : "Site kinds:", "");
    for (const d of definitions.filter((d) => d.scope === scope)) out.push(`- [${d.kind}](${anchor(d.kind)})`);
    out.push("");
  }
  for (const definition of definitions) out.push(renderKindSection(definition));
  return `${out.join("\n").trimEnd()}\n`;
}

const KINDS_TABLE_START = "<!-- kinds table: generated by `npm run docs`, do not edit -->";
const KINDS_TABLE_END = "<!-- end of kinds table -->";

/** The README's table of kinds, between its markers. */
function renderKindsTable(definitions: readonly Definition[]): string {
  const rows = definitions.map((d) => {
    const replaced = d.replaceOnChanges?.length ? `${enumeration(d.replaceOnChanges)} changes` : "never";
    return `| [${code(d.kind)}](docs/resources.md${anchor(d.kind)}) | ${cell(d.description)} | ${replaced} |`;
  });
  return [KINDS_TABLE_START, "| Kind | What it is | Replaced when |", "|---|---|---|", ...rows, KINDS_TABLE_END].join(
    "\n",
  );
}

/** The README with its kinds table replaced; everything outside the markers is kept as it is. */
function withKindsTable(readme: string, definitions: readonly Definition[]): string {
  const start = readme.indexOf(KINDS_TABLE_START);
  const end = readme.indexOf(KINDS_TABLE_END);
  if (start < 0 || end < start)
    throw new Error(`README.md lacks the markers ${KINDS_TABLE_START} … ${KINDS_TABLE_END}`);
  return readme.slice(0, start) + renderKindsTable(definitions) + readme.slice(end + KINDS_TABLE_END.length);
}

/** Every generated file, by path from the repository root, given the current README. */
export function generatedFiles(definitions: readonly Definition[], readme: string): Record<string, string> {
  return {
    "docs/resources.md": renderReference(definitions),
    "provider/resources/generated.ts": renderClasses(definitions),
    "README.md": withKindsTable(readme, definitions),
  };
}
