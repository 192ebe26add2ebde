/**
 * Plain text and the API's rich-text `JSONDocument`, for fields a program declares as text (an agent's instructions).
 * Written: one paragraph per line. Read: the text of each top-level block, one per line, so a document formatted in
 * the app reads as its words, and a program declaring those words finds no difference.
 */
import { z } from "zod";

/** The official `JSONDocument`, read loosely: only its blocks' text matters here. */
export const JsonDocumentSchema = z.looseObject({ object: z.literal("document"), nodes: z.array(z.unknown()) });
export type JsonDocument = z.infer<typeof JsonDocumentSchema>;

export function documentOf(text: string): JsonDocument {
  const lines = text === "" ? [] : text.split("\n");
  return {
    object: "document",
    data: {},
    nodes: lines.map((line) => ({
      object: "block",
      type: "paragraph",
      data: {},
      nodes: [{ object: "text", leaves: [{ object: "leaf", text: line, marks: [] }] }],
    })),
  };
}

export function textOf(document: JsonDocument): string {
  return document.nodes.map(leavesText).join("\n");
}

/** The text of a node: its leaves' text, at any depth (a heading, a list's items, a paragraph's links). */
function leavesText(node: unknown): string {
  if (node === null || typeof node !== "object") return "";
  const { leaves, nodes } = node as { leaves?: unknown; nodes?: unknown };
  if (Array.isArray(leaves)) return leaves.map((leaf) => String((leaf as { text?: unknown }).text ?? "")).join("");
  return Array.isArray(nodes) ? nodes.map(leavesText).join("") : "";
}
