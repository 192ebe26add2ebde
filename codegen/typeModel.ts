/**
 * The types of the kinds' properties, read from their zod schemas once for every consumer: the generated classes
 * (resourceClasses.ts prints them as TypeScript) and the reference. The walk yields JSON Schema nodes, as zod's
 * `toJSONSchema` writes them, in which every type used more than once is a named type, referred to by
 * `{ $ref: "#/$defs/<name>" }`:
 * - a sub-schema registered with `.meta({ id })` keeps its id (zod extracts it);
 * - any other type that occurs twice (in two kinds, or in a kind's arguments and its outputs) is named after the
 *   property it types: `Space.editMode` and its output give `SpaceEditMode`; `defaultLevel` of two kinds gives
 *   `DefaultLevel`. Where that name would be ambiguous, the walk fails and asks for an id.
 *
 * Outputs that echo an input (a state property that is also an input and not output-only) are typed from the input
 * schema's output side, so they are as exact as the arguments; the tolerant state schema, which must read whatever
 * older versions stored, only adds the value it defaults to when the API reports none (`null`, `""`, `false`).
 */
import { z } from "zod";
import { providerDefaultOf } from "../provider/framework/defaults";
import type { KindDefinition } from "../provider/framework/kind";

export type Definition = KindDefinition<Record<string, unknown>, Record<string, unknown>>;

/** A JSON Schema node as zod's `toJSONSchema` writes it, plus our `.meta()` keys. */
export interface Node {
  $ref?: string;
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
  propertyNames?: Node;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  pattern?: string;
  format?: string;
  $defs?: Record<string, Node>;
  /** `.meta({ id })`: the name of a registered sub-schema (zod moves it to `$defs` and refers to it). */
  id?: string;
  /** `.meta({ tsType })`: the TypeScript type to name instead of spelling the schema out (recursive schemas). */
  tsType?: string;
  /** `.meta({ docType })`: the reference's wording of the type, when the schema's own would be unreadable. */
  docType?: string;
  /** `.meta(SENSITIVE)`: the value may be a secret. */
  sensitive?: boolean;
}

export interface Property {
  name: string;
  node: Node;
  required: boolean;
}

export interface KindTypes {
  definition: Definition;
  /** The arguments, typed from the input schema's input side (a defaulted property is optional). */
  inputs: Property[];
  /** The outputs: the state's properties, those that echo an input typed from the input schema's output side. */
  outputs: Property[];
}

export interface NamedType {
  name: string;
  node: Node;
  /** The kinds whose properties use it, in the order of the definitions. */
  usedBy: string[];
}

export interface TypeModel {
  kinds: KindTypes[];
  /** Every named type, in the order of first use (a kind's arguments, then its outputs, depth first). */
  types: NamedType[];
}

const DEFS = "#/$defs/";

/** The named type a node refers to, if it is a reference (a `.meta({ tsType })` names its type itself). */
export function refName(node: Node): string | undefined {
  return node.$ref?.startsWith(DEFS) && !node.tsType ? node.$ref.slice(DEFS.length) : undefined;
}

/** The node a reference names, for readers that need the structure (the reference's limits and sub-rows). */
export function resolve(model: TypeModel, node: Node): Node {
  const name = refName(node);
  if (name === undefined) return node;
  const named = model.types.find((type) => type.name === name);
  if (!named) throw new Error(`the type model has no type ${name}`);
  const { $ref: _ref, ...rest } = node;
  return { ...resolve(model, named.node), ...rest };
}

function jsonSchema(schema: z.ZodType, io: "input" | "output"): Node {
  return z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Node;
}

/** The keys that make a node's type: two nodes equal on them (descriptions included, the outer one aside) are one type. */
function shapeKey(node: Node): string {
  const { description: _text, default: _default, ...type } = node;
  return JSON.stringify(type);
}

/** Whether a value is of a node's TypeScript type (limits aside): is the state's default already in the input's type? */
function admits(node: Node, value: unknown, defs: ReadonlyMap<string, Node>): boolean {
  const body = defs.get(refName(node) ?? "");
  if (body) return admits(body, value, defs);
  if (node.const !== undefined) return node.const === value;
  if (node.enum) return node.enum.includes(value);
  const alternatives = node.anyOf ?? node.oneOf ?? [];
  const types = typeof node.type === "string" ? [node.type] : (node.type ?? []);
  if (alternatives.some((alternative) => admits(alternative, value, defs))) return true;
  return types.some((type) => {
    switch (type) {
      case "null":
        return value === null;
      case "array":
        return Array.isArray(value);
      case "object":
        return typeof value === "object" && value !== null && !Array.isArray(value);
      case "integer":
        return Number.isInteger(value);
      default:
        return typeof value === type;
    }
  });
}

/**
 * The type of an output that echoes an input: the input's (output side), plus the state's default when the input's
 * type lacks it (an unmanaged `language` reads `null`). A default of another shape (a list or an object), or an
 * input JSON Schema cannot say (zod writes `{}` for a transform's output), leaves the state's type.
 */
function echoType(input: Node, state: Node, defs: ReadonlyMap<string, Node>): Node {
  const { description: _inputText, default: _inputDefault, ...type } = input;
  const description = state.description ?? input.description;
  const fallback = state.default;
  if (shapeKey(type) === "{}" || (typeof fallback === "object" && fallback !== null && !admits(type, fallback, defs))) {
    return { ...state, description };
  }
  if (fallback === undefined || admits(type, fallback, defs)) return { ...type, description };
  return { anyOf: [type, fallback === null ? { type: "null" } : { const: fallback }], description };
}

/** Types worth a name: objects with properties, enums and unions of two or more non-null alternatives. */
function isNameable(node: Node): boolean {
  const alternatives = node.anyOf ?? node.oneOf ?? [];
  return (
    Object.keys(node.properties ?? {}).length > 0 ||
    (node.enum ?? []).length > 1 ||
    alternatives.filter((alternative) => alternative.type !== "null").length > 1
  );
}

/** Where a child sits, for naming it: under a property's name, as the items of a list, a map's values or keys. */
type Hint = string | undefined;
const ITEMS = "[]";
const VALUES = "{}";
const KEYS = "{keys}";
const SUFFIXES = new Map([
  [ITEMS, "Item"],
  [VALUES, "Value"],
  [KEYS, "Key"],
]);

/** A node's children, each with where it sits and how to put a reference in its place. */
function children(node: Node): { node: Node; hint: Hint; replace(next: Node): void }[] {
  const out: { node: Node; hint: Hint; replace(next: Node): void }[] = [];
  const { properties, items, additionalProperties, propertyNames } = node;
  for (const [key, child] of Object.entries(properties ?? {})) {
    out.push({ node: child, hint: key, replace: (next) => (properties![key] = next) });
  }
  for (const alternatives of [node.anyOf, node.oneOf]) {
    for (const [i, child] of (alternatives ?? []).entries()) {
      out.push({ node: child, hint: undefined, replace: (next) => ((alternatives as Node[])[i] = next) });
    }
  }
  if (items) out.push({ node: items, hint: ITEMS, replace: (next) => (node.items = next) });
  if (typeof additionalProperties === "object") {
    out.push({ node: additionalProperties, hint: VALUES, replace: (next) => (node.additionalProperties = next) });
  }
  if (propertyNames) out.push({ node: propertyNames, hint: KEYS, replace: (next) => (node.propertyNames = next) });
  return out;
}

const pascal = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** `role` → `Role`, the items of `members` → `MembersItem`, the values of `claims` → `ClaimsValue`. */
function baseName(path: readonly string[]): string {
  const last = path.findLastIndex((part) => !SUFFIXES.has(part));
  return (
    pascal(path[last] ?? "") +
    path
      .slice(last + 1)
      .map((part) => SUFFIXES.get(part))
      .join("")
  );
}

interface Occurrence {
  kind: string;
  /** Property names from the kind's property (or a named type) down to the node, with the hints of `children`. */
  path: string[];
  node: Node;
  replace(next: Node): void;
}

/**
 * The kinds' property types with every type used more than once named once. Throws when a registered id names two
 * different schemas, or a repeated type has no unambiguous name.
 */
export function typeModel(definitions: readonly Definition[]): TypeModel {
  // Registered sub-schemas by id, per side: a schema with a default is optional on the input side only.
  const registered = { input: new Map<string, Node>(), output: new Map<string, Node>() };
  const collect = (document: Node, io: "input" | "output", kind: string) => {
    for (const [id, node] of Object.entries(document.$defs ?? {})) {
      // zod's own names for the parts of a recursive schema, which a `.meta({ tsType })` names as a whole.
      if (id.startsWith("__schema")) continue;
      const seen = registered[io].get(id);
      if (seen && JSON.stringify(seen) !== JSON.stringify(node)) {
        throw new Error(`${kind}: two different schemas are registered with the id "${id}"; give one another id`);
      }
      registered[io].set(id, node);
    }
    return document;
  };

  const kinds: KindTypes[] = definitions.map((definition) => {
    const inputs = collect(jsonSchema(definition.inputs, "input"), "input", definition.kind);
    const echoed = collect(jsonSchema(definition.inputs, "output"), "output", definition.kind);
    const state = collect(jsonSchema(definition.state, "output"), "output", definition.kind);
    const required = new Set(inputs.required);
    const outputOnly = new Set<string>(definition.outputs);
    return {
      definition,
      // An input with a provider default (organizationId) may be left out of the program: check fills it in.
      inputs: Object.entries(inputs.properties ?? {}).map(([name, node]) => ({
        name,
        node,
        required: required.has(name) && providerDefaultOf(name) === undefined,
      })),
      outputs: Object.entries(state.properties ?? {}).map(([name, node]) => {
        const input = outputOnly.has(name) ? undefined : echoed.properties?.[name];
        return { name, node: input ? echoType(input, node, registered.output) : node, required: true };
      }),
    };
  });

  const bodies = sidesOfRegistered(kinds, registered);

  // Name the outermost repeated type, then look again: its parts now occur once, inside it.
  const names = new Set<string>([...definitions.flatMap((d) => [d.kind, `${d.kind}Args`]), ...bodies.keys()]);
  const named = new Map<string, string>([...bodies].map(([name, node]) => [shapeKey(node), name]));
  for (;;) {
    const occurrences = new Map<string, Occurrence[]>();
    const visited = new Set<string>();
    const visit = (occurrence: Omit<Occurrence, "node">, node: Node, isBody = false) => {
      const name = refName(node);
      if (name !== undefined) {
        const body = bodies.get(name);
        if (!body)
          throw new Error(`${occurrence.kind}: a recursive schema needs \`.meta({ tsType })\` naming its type`);
        if (!visited.has(name)) visit({ kind: occurrence.kind, path: [name], replace: () => {} }, body, true);
        visited.add(name);
        return;
      }
      if (node.tsType) return;
      if (isNameable(node) && !isBody) {
        const key = shapeKey(node);
        occurrences.set(key, [...(occurrences.get(key) ?? []), { ...occurrence, node }]);
      }
      for (const child of children(node)) {
        const path = child.hint === undefined ? occurrence.path : [...occurrence.path, child.hint];
        visit({ kind: occurrence.kind, path, replace: child.replace }, child.node);
      }
    };
    for (const { definition, inputs, outputs } of kinds) {
      for (const property of [...inputs, ...outputs]) {
        const replace = (next: Node) => (property.node = next);
        visit({ kind: definition.kind, path: [property.name], replace }, property.node);
      }
    }
    const repeated = [...occurrences].filter(([key, found]) => found.length > 1 || named.has(key));
    if (repeated.length === 0) break;
    // The largest first: naming it removes the repetitions of its parts.
    const [key, found] = repeated.reduce((a, b) => (b[0].length > a[0].length ? b : a));
    let name = named.get(key);
    if (name === undefined) {
      name = nameFor(found, names);
      const { description: _text, default: _default, ...body } = found[0]!.node;
      bodies.set(name, body);
      named.set(key, name);
      names.add(name);
    }
    for (const { node, replace } of found) {
      const reference: Node = { $ref: DEFS + name };
      // What the place says of itself stays with it: the property's description, the default when left out.
      if (node.description !== undefined) reference.description = node.description;
      if (node.default !== undefined) reference.default = node.default;
      replace(reference);
    }
  }

  return { kinds, types: inOrderOfUse(kinds, bodies) };
}

/**
 * The registered types the kinds use, by name. A registered schema whose two sides differ (a default inside it,
 * or in a type it refers to) and that outputs use too is two types: the input side's is `<id>Input`, and the
 * arguments' references are renamed to it.
 */
function sidesOfRegistered(
  kinds: readonly KindTypes[],
  registered: Record<"input" | "output", ReadonlyMap<string, Node>>,
): Map<string, Node> {
  const used = (io: "input" | "output") => {
    const ids = new Set<string>();
    const visit = (node: Node) => {
      const id = refName(node) ?? "";
      const body = registered[io].get(id);
      if (body && !ids.has(id)) {
        ids.add(id);
        visit(body);
      }
      for (const child of children(node)) visit(child.node);
    };
    for (const kind of kinds) for (const { node } of io === "input" ? kind.inputs : kind.outputs) visit(node);
    return ids;
  };
  const usedOutputs = used("output");
  const usedInputs = used("input");
  const differs = new Map<string, boolean>();
  const sidesDiffer = (id: string): boolean => {
    const known = differs.get(id);
    if (known !== undefined) return known;
    differs.set(id, false);
    const input = registered.input.get(id);
    const output = registered.output.get(id);
    const refersToDiffering = (node: Node): boolean =>
      sidesDiffer(refName(node) ?? "") || children(node).some((child) => refersToDiffering(child.node));
    const result =
      input !== undefined && output !== undefined && (shapeKey(input) !== shapeKey(output) || refersToDiffering(input));
    differs.set(id, result);
    return result;
  };
  const inputName = (id: string) => (usedOutputs.has(id) && sidesDiffer(id) ? `${id}Input` : id);
  const renameRefs = (node: Node) => {
    const id = refName(node);
    if (id !== undefined) node.$ref = DEFS + inputName(id);
    for (const child of children(node)) renameRefs(child.node);
  };
  const bodies = new Map<string, Node>();
  for (const id of usedOutputs) bodies.set(id, registered.output.get(id)!);
  for (const id of usedInputs) {
    const body = registered.input.get(id)!;
    renameRefs(body);
    bodies.set(inputName(id), body);
  }
  for (const kind of kinds) for (const { node } of kind.inputs) renameRefs(node);
  return bodies;
}

function nameFor(found: readonly Occurrence[], taken: ReadonlySet<string>): string {
  const kinds = [...new Set(found.map((o) => o.kind))];
  const bases = [...new Set(found.map((o) => baseName(o.path)))];
  const places = [...new Set(found.map((o) => `${o.kind}.${o.path.join(".").replaceAll(`.${ITEMS}`, ITEMS)}`))];
  const advice = "register the schema once with `.meta({ id })` and use it at each place.";
  const [base] = bases;
  if (bases.length > 1 || !base) {
    throw new Error(`The same type is printed at ${places.join(", ")} under different names: ${advice}`);
  }
  // One kind's type carries the kind's name (`SpaceEditMode`); a type several kinds share, the property's alone,
  // unless that is taken (the team roles' `role`, where the organization's roles are `Role`).
  const [first] = kinds as [string];
  const prefixed = base.startsWith(first) ? base : first + base;
  const candidates = kinds.length === 1 ? [prefixed] : [base, prefixed];
  const name = candidates.find((candidate) => !taken.has(candidate));
  if (!name) {
    throw new Error(
      `The same type is printed at ${places.join(", ")}, and its names (${candidates.join(", ")}) are taken: ${advice}`,
    );
  }
  return name;
}

function inOrderOfUse(kinds: readonly KindTypes[], bodies: ReadonlyMap<string, Node>): NamedType[] {
  const types = new Map<string, NamedType>();
  for (const { definition, inputs, outputs } of kinds) {
    const seen = new Set<string>();
    const visit = (node: Node) => {
      const name = refName(node) ?? "";
      const body = bodies.get(name);
      if (body && !seen.has(name)) {
        seen.add(name);
        const type = types.get(name) ?? { name, node: body, usedBy: [] };
        type.usedBy.push(definition.kind);
        types.set(name, type);
        visit(body);
      }
      if (!node.tsType) for (const child of children(node)) visit(child.node);
    };
    for (const { node } of [...inputs, ...outputs]) visit(node);
  }
  return [...types.values()];
}
