/**
 * Which inputs of a kind name objects of other kinds: the id inputs declared `idRef("<Kind>")`
 * (`apiId.meta({ refersTo })`), found in the inputs schema as JSON Schema, so nested optional, nullable and list
 * forms all count. Preflight checks their ids against the referred kind's listing.
 */
import { z } from "zod";
import type { KindDefinition } from "./kind";

export interface Reference {
  /** The input property. */
  input: string;
  /** The kind whose objects it names. */
  kind: string;
  /** Whether it holds a list of ids. */
  many: boolean;
}

interface JsonNode {
  refersTo?: string;
  items?: JsonNode;
  anyOf?: JsonNode[];
}

/** The referred kind of a property's schema, and whether it is a list of such ids. */
function referenceIn(node: JsonNode): { kind: string; many: boolean } | undefined {
  if (typeof node.refersTo === "string") return { kind: node.refersTo, many: false };
  const item = node.items && referenceIn(node.items);
  if (item) return { kind: item.kind, many: true };
  for (const alternative of node.anyOf ?? []) {
    const found = referenceIn(alternative);
    if (found) return found;
  }
  return undefined;
}

export function referencesOf(definition: Pick<KindDefinition, "inputs">): Reference[] {
  const root = z.toJSONSchema(definition.inputs, { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, JsonNode>;
  };
  return Object.entries(root.properties ?? {}).flatMap(([input, node]) => {
    const found = referenceIn(node);
    return found ? [{ input, ...found }] : [];
  });
}
