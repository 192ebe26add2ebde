import type { KindDefinition, Props } from "./kind";
import { type Notice, noticeAtExit } from "./notices";
import { containsUnknown } from "./unknown";

/**
 * "A resource of this kind, in this state, wants a resource of another kind for it in the same program" (a
 * `visitor-auth` site wants its SiteVisitorAuth): found offline, as the engine shows the program's resources to one
 * provider process one at a time. The verdict waits for the end of the operation (`warnAtExit`), since the order of
 * what the process sees varies: the companion is checked after its subject's id is known (it takes it as input), and
 * that id comes from the subject's diff (an object in the state), from its create (a new or adopted one, in the update
 * of `pulumi up`), or not at all (a preview of a new or replaced one: the companion's parent is then unknown too).
 * Only resources the program declares in this operation are judged: a refresh diffs the state without checking it.
 * Limits: a subject's check is told from its diff and create by its title, and only one program is seen.
 */
export interface CompanionRule {
  /** The subject's input property and the value that calls for a companion. */
  when: { property: string; equals: unknown };
  /** The companion's kind, and its input property holding the subject's id. */
  kind: string;
  parent: string;
  /** What goes wrong without it, and what to declare. */
  why: string;
}

type Definition = Pick<KindDefinition, "kind" | "companion">;

interface Subject {
  kind: string;
  name: string;
  rule: CompanionRule;
}

/** Checked resources whose rule applies, by `<kind> <title>`. */
const subjects = new Map<string, Subject>();
/** The id each resource has once this operation is done, by `<kind> <title>` (absent: not known in this process). */
const ids = new Map<string, string>();
/** Every resource checked, by kind: its inputs (a rule names the property holding its subject's id). */
const companions = new Map<string, Props[]>();

/** Forgets what check, diff and create have seen (tests). */
export function resetCompanions(): void {
  subjects.clear();
  ids.clear();
  companions.clear();
}

function nameOf(inputs: Props): string {
  return typeof inputs.title === "string" ? `"${inputs.title}"` : "(untitled)";
}

/** Records a checked resource: as a subject of its kind's rule, and as anyone's companion. */
export function noteChecked(definition: Definition, inputs: Props): void {
  companions.set(definition.kind, [...(companions.get(definition.kind) ?? []), inputs]);
  const rule = definition.companion;
  if (!rule) return;
  const name = nameOf(inputs);
  const key = `${definition.kind} ${name}`;
  if (inputs[rule.when.property] === rule.when.equals) subjects.set(key, { kind: definition.kind, name, rule });
  else subjects.delete(key);
}

/**
 * Records the id a resource has once this operation is done: its diff's (`undefined` when the diff replaces it, as
 * its next id is not known before its create), or its create's.
 */
export function noteId(definition: Definition, inputs: Props, id: string | undefined): void {
  if (!definition.companion) return;
  const key = `${definition.kind} ${nameOf(inputs)}`;
  if (id === undefined) ids.delete(key);
  else ids.set(key, id);
}

const companionWarnings = (): Notice[] => missingCompanions().map((message) => ({ severity: "warning", message }));

/** Writes the warnings when the provider process ends (`noticeAtExit`). Called from the provider's `configure`. */
export function warnAtExit(): void {
  noticeAtExit(companionWarnings);
}

/** The warnings for subjects without a companion, in words; written to stderr at the end of the operation. */
export function missingCompanions(): string[] {
  const unmatched = new Map<string, (string | undefined)[]>();
  const take = (rule: CompanionRule, id: string | undefined) => {
    if (!unmatched.has(rule.kind)) {
      const parents = (companions.get(rule.kind) ?? []).map((inputs) => inputs[rule.parent]);
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
  const judged = [...subjects.entries()].map(([key, subject]) => ({ ...subject, id: ids.get(key) }));
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
