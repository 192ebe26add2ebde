/**
 * How the generators print a kind's properties: TypeScript types (one line for a table cell, or one property a line
 * with its documentation for a generated file), JSDoc, and a property's type, limits, change and default in the
 * reference's words. Shared by the reference (resourceDocs.ts) and the generated classes' types (resourceTypes.ts).
 */
import { providerDefaultOf } from "../provider/framework/defaults";
import { API_ID_PATTERN } from "../provider/framework/kind";
import { type Definition, type Node, refName, resolve, type TypeModel } from "./typeModel";

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
export interface Layout {
  multiline: boolean;
  indent: string;
  model: TypeModel;
  expand?: boolean;
}

/** The TypeScript type of a node, as a program reads it (an output) and as `DeepInput` takes it (an argument). */
export function tsType(node: Node, layout: Layout): string {
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

export function objectType(node: Node, layout: Layout): string {
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
export function isStructured(node: Node, model: TypeModel): boolean {
  const resolved = resolve(model, node);
  if (resolved.tsType || resolved.type === "object" || resolved.type === "array") return true;
  return (resolved.anyOf ?? resolved.oneOf ?? []).some((alternative) => isStructured(alternative, model));
}

export function jsdoc(text: string | undefined, indent: string): string {
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

/** The JSDoc of an argument: its description, then what its reference row says in short. */
export function argumentSummary(
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

export const code = (text: string) => `\`${text}\``;

/** `a`, `b` or `c`. */
export function enumeration(
  values: readonly unknown[],
  show = (value: unknown) => code(String(value)),
  last = "or",
): string {
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
export function typeAndLimits(named: Node, model: TypeModel): string {
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

export function change(definition: Definition, name: string): string {
  if (definition.providerOptions?.includes(name)) return "provider option: never sent, never a reason for a change";
  if (definition.replaceOnChanges?.includes(name)) {
    return definition.deleteBeforeReplace ? "replace (delete before replace)" : "replace";
  }
  return definition.setProperties?.includes(name) ? "update in place, order-insensitive" : "update in place";
}

export function omitted(node: Node, required: boolean, name?: string): string {
  if (required) return "required";
  const fallback = name === undefined ? undefined : providerDefaultOf(name);
  if (fallback) return `default: stack config ${code(fallback.config)} or ${code(fallback.env)}`;
  if (node.default !== undefined) return `default ${code(JSON.stringify(node.default))}`;
  return "unmanaged when omitted";
}
