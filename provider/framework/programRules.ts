import type { KindDefinition, Props, ReferencedExpectation } from "./kind";
import type { CheckFailure } from "./lifecycleResults";
import { notice } from "./notices";
import { containsUnknown } from "./unknown";

/**
 * The kinds' `programRules` (kind.ts) at work: warnings about pairs of resources, found offline in check. The engine
 * checks every resource of a program one at a time in one provider process, so a registry of what check has seen in
 * this operation (owned by ./operation.ts) finds the second resource of a pair. Limits: only resources checked in
 * this operation are seen (one program per process), and only once the parent's id is known: under a site the same
 * preview creates, the pair is found by the preview after the first `up`.
 */
export class CrossResourceRules {
  /** The title of the resource that set each kind's exclusive flag, by `<kind> <parent property>=<parent id>`. */
  private readonly flagged = new Map<string, string>();
  /** The inputs of the resource that claimed each object of a `uniqueBy` kind, as canonical JSON. */
  private readonly claimed = new Map<string, string>();
  /** `<kind> <parent id>` of every resource with `conflictsUnder` seen, and the parents already warned about. */
  private readonly declaredUnder = new Set<string>();
  private readonly warnedUnder = new Set<string>();
  /** What diff, create and update have seen of each resource in this operation: `<kind> <id>` → its properties. */
  private readonly observed = new Map<string, Props>();
  /** Resources whose check expects something of a resource not seen yet, by that resource's `<kind> <id>`. */
  private readonly awaiting = new Map<string, { kind: string; rule: ReferencedExpectation; name: string }[]>();
  private readonly warned = new Set<string>();

  /**
   * Fails the check of a second resource naming the object a `uniqueBy` kind manages. Check gets no resource name, so
   * a resource is known by its inputs: the same inputs checked again are taken for the same resource (two identical
   * declarations cannot undo each other either). Each engine operation starts a new provider process, so a resource
   * changed between two runs is never compared with its own earlier inputs.
   */
  duplicateFailures(definition: Pick<KindDefinition, "kind" | "programRules">, inputs: Props): CheckFailure[] {
    const keys = definition.programRules?.uniqueBy;
    if (!keys || keys.some((key) => typeof inputs[key] !== "string" || containsUnknown(inputs[key]))) return [];
    const object = keys.map((key) => `${key} "${inputs[key]}"`).join(", ");
    const key = `${definition.kind} ${object}`;
    const self = JSON.stringify(Object.entries(inputs).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const first = this.claimed.get(key);
    if (first === undefined) this.claimed.set(key, self);
    if (first === undefined || first === self) return [];
    return [
      {
        property: keys[0]!,
        reason:
          `${definition.kind}.${keys[0]}: another ${definition.kind} of this program already declares ${object}; ` +
          "each would undo the other's changes on every run. Declare them in one resource.",
      },
    ];
  }

  /** Warns when a second resource sets the kind's exclusive flag under the same parent (two default sections). */
  warnOnConflicts(definition: Pick<KindDefinition, "kind" | "programRules">, inputs: Props): void {
    this.warnOnSharedParent(definition, inputs);
    const rule = definition.programRules?.exclusiveFlag;
    if (!rule || inputs[rule.property] !== true) return;
    const parent = inputs[rule.parent];
    if (typeof parent !== "string" || containsUnknown(parent)) return;
    const name = typeof inputs.title === "string" ? `"${inputs.title}"` : "(untitled)";
    const key = `${definition.kind} ${rule.parent}=${parent}`;
    const first = this.flagged.get(key);
    if (first === undefined) {
      this.flagged.set(key, name);
      return;
    }
    if (first === name) return;
    // Named in one order whichever the engine checks first: the preview of an unchanged program prints the same line.
    const [one, other] = [first, name].sort();
    notice(
      "warning",
      `${definition.kind} ${one} and ${definition.kind} ${other} both declare ${rule.property}: true under ` +
        `${rule.parent} "${parent}": the API keeps one, so every run would move it back and forth. ` +
        `Declare ${rule.property}: true on one of them only.`,
      "stack",
    );
  }

  /**
   * Records a resource's properties, as its diff, create or update sees them (the state under the declared inputs),
   * and warns for every resource checked before it whose expectation they break.
   */
  observeResource(kind: string, id: string, props: Props): void {
    if (!id) return;
    const key = `${kind} ${id}`;
    this.observed.set(key, props);
    for (const pending of this.awaiting.get(key) ?? [])
      this.warnUnlessExpected(pending.kind, pending.rule, pending.name, id, props);
    this.awaiting.delete(key);
  }

  /**
   * Warns when the resource this one refers to (a share link's site) has another value than the kind expects (its
   * visibility is not `share-link`). The referenced resource is known once its diff, create or update ran in this
   * operation: before this check when this resource depends on its output, or later (then the warning comes then).
   */
  warnOnExpectations(definition: Pick<KindDefinition, "kind" | "programRules">, inputs: Props): void {
    const rule = definition.programRules?.expectsOfReferenced;
    if (!rule) return;
    const id = inputs[rule.reference];
    if (typeof id !== "string" || containsUnknown(id)) return;
    const name = nameOf(inputs);
    const key = `${rule.kind} ${id}`;
    const props = this.observed.get(key);
    if (props) {
      this.warnUnlessExpected(definition.kind, rule, name, id, props);
      return;
    }
    this.awaiting.set(key, [...(this.awaiting.get(key) ?? []), { kind: definition.kind, rule, name }]);
  }

  private warnUnlessExpected(kind: string, rule: ReferencedExpectation, name: string, id: string, props: Props) {
    const actual = props[rule.property];
    if (actual === undefined || containsUnknown(actual) || actual === rule.value) return;
    const message =
      `${kind} ${name} targets ${rule.kind} "${id}"${typeof props.title === "string" ? ` ("${props.title}")` : ""}, ` +
      `whose ${rule.property} is ${JSON.stringify(actual)}, not ${JSON.stringify(rule.value)}: ${rule.why} ` +
      `Set ${rule.property}: ${JSON.stringify(rule.value)} on the ${rule.kind}.`;
    if (this.warned.has(message)) return;
    this.warned.add(message);
    notice("warning", message, "stack");
  }

  /** Warns, once per parent, when a program declares two kinds managing the objects under it (`conflictsUnder`). */
  private warnOnSharedParent(definition: Pick<KindDefinition, "kind" | "programRules">, inputs: Props): void {
    const rule = definition.programRules?.conflictsUnder;
    if (!rule) return;
    const parent = inputs[rule.parent];
    if (typeof parent !== "string" || containsUnknown(parent)) return;
    this.declaredUnder.add(`${definition.kind} ${parent}`);
    // Named in one order whichever the engine checks first.
    const [first, second] = [definition.kind, rule.kind].sort();
    const key = `${first} ${second} ${parent}`;
    if (!this.declaredUnder.has(`${rule.kind} ${parent}`) || this.warnedUnder.has(key)) return;
    this.warnedUnder.add(key);
    notice(
      "warning",
      `${first} and ${second} are both declared under ${rule.parent} "${parent}": ${rule.why}`,
      "stack",
    );
  }
}

function nameOf(inputs: Props): string {
  for (const key of ["title", "name", "label"]) {
    if (typeof inputs[key] === "string" && inputs[key] !== "") return `"${inputs[key]}"`;
  }
  return "(unnamed)";
}
