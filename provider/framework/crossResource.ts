import { notice } from "./diagnostics";
import type { KindDefinition, Props } from "./kind";
import { containsUnknown } from "./unknown";

/**
 * Warnings about pairs of resources, found offline in check. The engine checks every resource of a program one at a
 * time in one provider process, so a registry of what check has seen there finds the second resource of a pair.
 * Limits: only resources checked in this operation are seen (one program per process), and only once the parent's id
 * is known: under a site the same preview creates, the pair is found by the preview after the first `up`.
 */
const flagged = new Map<string, string>();
/** `<kind> <parent id>` of every resource with `conflictsUnder` seen, and the parents already warned about. */
const declaredUnder = new Set<string>();
const warnedUnder = new Set<string>();

/** Forgets what check has seen (tests). */
export function resetCrossResource(): void {
  flagged.clear();
  declaredUnder.clear();
  warnedUnder.clear();
}

/** Warns when a second resource sets the kind's exclusive flag under the same parent (two default sections). */
export function warnOnConflicts(
  definition: Pick<KindDefinition, "kind" | "exclusiveFlag" | "conflictsUnder">,
  inputs: Props,
): void {
  warnOnSharedParent(definition, inputs);
  const rule = definition.exclusiveFlag;
  if (!rule || inputs[rule.property] !== true) return;
  const parent = inputs[rule.parent];
  if (typeof parent !== "string" || containsUnknown(parent)) return;
  const name = typeof inputs.title === "string" ? `"${inputs.title}"` : "(untitled)";
  const key = `${definition.kind} ${rule.parent}=${parent}`;
  const first = flagged.get(key);
  if (first === undefined) {
    flagged.set(key, name);
    return;
  }
  if (first === name) return;
  notice(
    "warning",
    `${definition.kind} ${first} and ${definition.kind} ${name} both declare ${rule.property}: true under ` +
      `${rule.parent} "${parent}": the API keeps one, so every run would move it back and forth. ` +
      `Declare ${rule.property}: true on one of them only.`,
  );
}

/** Warns, once per parent, when a program declares two kinds that manage the same objects under it (`conflictsUnder`). */
function warnOnSharedParent(definition: Pick<KindDefinition, "kind" | "conflictsUnder">, inputs: Props): void {
  const rule = definition.conflictsUnder;
  if (!rule) return;
  const parent = inputs[rule.parent];
  if (typeof parent !== "string" || containsUnknown(parent)) return;
  declaredUnder.add(`${definition.kind} ${parent}`);
  // Named in one order whichever the engine checks first.
  const [first, second] = [definition.kind, rule.kind].sort();
  const key = `${first} ${second} ${parent}`;
  if (!declaredUnder.has(`${rule.kind} ${parent}`) || warnedUnder.has(key)) return;
  warnedUnder.add(key);
  notice("warning", `${first} and ${second} are both declared under ${rule.parent} "${parent}": ${rule.why}`);
}
