import type { CompanionRule, KindDefinition, Props } from "./kind";
import type { Notice } from "./notices";
import { containsUnknown } from "./unknown";

/**
 * "A resource of this kind, in this state, wants a resource of another kind for it in the same program" (a
 * `visitor-auth` site wants its SiteVisitorAuth): found offline, as the engine shows the program's resources to one
 * provider process one at a time. The verdict waits for the end of the operation (`Operation.tellAtExit`), since the
 * order of what the process sees varies: the companion is checked after its subject's id is known (it takes it as
 * input), and that id comes from the subject's diff (an object in the state), from its create (a new or adopted one,
 * in the update of `pulumi up`), or not at all (a preview of a new or replaced one: the companion's parent is then
 * unknown too).
 * Only resources the program declares in this operation are judged: a refresh diffs the state without checking it.
 * Limits: a subject's check is told from its diff and create by its title, and only one program is seen.
 */

/** What a companion rule needs of a kind's definition (`ProgramRules.companion`). */
type Definition = Pick<KindDefinition, "kind" | "programRules">;

interface Subject {
  kind: string;
  name: string;
  rule: CompanionRule;
}

function nameOf(inputs: Props): string {
  return typeof inputs.title === "string" ? `"${inputs.title}"` : "(untitled)";
}

/** What check, diff and create of one operation have seen of subjects and companions (owned by ./operation.ts). */
export class Companions {
  /** Checked resources whose rule applies, by `<kind> <title>`. */
  private readonly subjects = new Map<string, Subject>();
  /** The id each resource has once this operation is done, by `<kind> <title>` (absent: not known in this process). */
  private readonly ids = new Map<string, string>();
  /** Every resource checked, by kind: its inputs (a rule names the property holding its subject's id). */
  private readonly checked = new Map<string, Props[]>();

  /** Records a checked resource: as a subject of its kind's rule, and as anyone's companion. */
  noteChecked(definition: Definition, inputs: Props): void {
    this.checked.set(definition.kind, [...(this.checked.get(definition.kind) ?? []), inputs]);
    const rule = definition.programRules?.companion;
    if (!rule) return;
    const name = nameOf(inputs);
    const key = `${definition.kind} ${name}`;
    if (inputs[rule.when.property] === rule.when.equals) this.subjects.set(key, { kind: definition.kind, name, rule });
    else this.subjects.delete(key);
  }

  /**
   * Records the id a resource has once this operation is done: its diff's (`undefined` when the diff replaces it, as
   * its next id is not known before its create), or its create's.
   */
  noteId(definition: Definition, inputs: Props, id: string | undefined): void {
    if (!definition.programRules?.companion) return;
    const key = `${definition.kind} ${nameOf(inputs)}`;
    if (id === undefined) this.ids.delete(key);
    else this.ids.set(key, id);
  }

  /** The warnings for subjects without a companion, as notices written when the operation ends. */
  warnings(): Notice[] {
    return this.missing().map((message) => ({ severity: "warning", message }));
  }

  /** The warnings for subjects without a companion, in words; written to stderr at the end of the operation. */
  missing(): string[] {
    const unmatched = new Map<string, (string | undefined)[]>();
    const take = (rule: CompanionRule, id: string | undefined) => {
      if (!unmatched.has(rule.kind)) {
        const parents = (this.checked.get(rule.kind) ?? []).map((inputs) => inputs[rule.parent]);
        unmatched.set(
          rule.kind,
          parents.map((parent) => (typeof parent === "string" && !containsUnknown(parent) ? parent : undefined)),
        );
      }
      const parents = unmatched.get(rule.kind) ?? [];
      const at = parents.indexOf(id);
      if (at >= 0) parents.splice(at, 1);
      return at >= 0;
    };
    const warnings: string[] = [];
    const judged = [...this.subjects.entries()].map(([key, subject]) => ({ ...subject, id: this.ids.get(key) }));
    // Subjects with an id first, so a companion of a known site is never spent on a new one.
    const ordered = judged.sort((a, b) => Number(b.id !== undefined) - Number(a.id !== undefined));
    for (const subject of ordered) {
      const { rule } = subject;
      if (take(rule, subject.id)) continue;
      const property = `${rule.when.property}: ${JSON.stringify(rule.when.equals)}`;
      warnings.push(
        `${subject.kind} ${subject.name}${subject.id ? ` ("${subject.id}")` : ""} has ${property} but the program ` +
          `declares no ${rule.kind} for it: ${rule.why}`,
      );
    }
    return warnings;
  }
}
