import { notice } from "./diagnostics";
import type { KindDefinition, Props } from "./kind";
import { containsUnknown } from "./unknown";

/**
 * "A resource of this kind, in this state, wants a resource of another kind for it in the same program" (a
 * `visitor-auth` site wants its SiteVisitorAuth): found offline, as check and diff see the program's resources one
 * at a time in one provider process. The companion is checked after its subject (it takes the subject's id), so the
 * verdict waits for the end of the operation (`warnAtExit`). A subject is matched by id once it has one (diff of an
 * existing object); a new subject (no id yet in this preview) by a companion whose parent id is not known yet either.
 * Limits: subjects are told apart by title, and only resources of this operation's program are seen.
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

interface Subject {
  kind: string;
  name: string;
  id?: string;
  rule: CompanionRule;
}

const subjects = new Map<string, Subject>();
/** Every resource checked, by kind: its inputs (a rule names the property holding its subject's id). */
const companions = new Map<string, Props[]>();
let listening = false;

/** Forgets what check has seen (tests). */
export function resetCompanions(): void {
  subjects.clear();
  companions.clear();
}

/** Records a checked (or diffed, with its id) resource: as a subject of its kind's rule, and as anyone's companion. */
export function noteResource(definition: Pick<KindDefinition, "kind" | "companion">, inputs: Props, id?: string): void {
  // Check sees each resource once; diff only tells a subject's id.
  if (id === undefined) companions.set(definition.kind, [...(companions.get(definition.kind) ?? []), inputs]);
  const rule = definition.companion;
  if (!rule) return;
  const name = typeof inputs.title === "string" ? `"${inputs.title}"` : "(untitled)";
  const key = `${definition.kind} ${name}`;
  if (inputs[rule.when.property] !== rule.when.equals) {
    subjects.delete(key);
    return;
  }
  subjects.set(key, { kind: definition.kind, name, id: id ?? subjects.get(key)?.id, rule });
}

/**
 * Writes the warnings when the provider process ends. The engine interrupts it (SIGINT, then SIGKILL after 5 s) once
 * the operation is done and still shows its stderr then; Node would die of the signal without an `exit` event, so
 * the signals exit instead. Called once, from the provider process's `configure` (never in tests or tools).
 */
export function warnAtExit(): void {
  if (listening) return;
  listening = true;
  process.once("exit", () => {
    for (const warning of missingCompanions()) notice("warning", warning);
  });
  process.once("SIGINT", () => process.exit(130));
  process.once("SIGTERM", () => process.exit(143));
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
  // Subjects with an id first, so a companion of a known site is never spent on a new one.
  const ordered = [...subjects.values()].sort((a, b) => Number(b.id !== undefined) - Number(a.id !== undefined));
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
