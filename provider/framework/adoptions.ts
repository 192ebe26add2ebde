import { type Notice, notice } from "./notices";
import { settingName } from "./settings";

/** How a create came to take over an existing object instead of making one. */
export type AdoptedBy = "importId" | "adoptsOnCreate" | "recovery";

/**
 * What check expects of one importId adoption: `unread` (preflight off), `pending` (the object is found through a
 * parent the same update adopts or creates, which has no id yet), or what preflight read: the fields it will change,
 * and the line telling it when there are any.
 */
export type ExpectedAdoption = "unread" | "pending" | { changed: readonly string[]; notice: string };

/**
 * The importId adoptions of this operation (one provider process; ./operation.ts owns the tally): announced by check,
 * by `<kind> <importId>`, and made by create, by `<kind> <id>` with the line telling what it changed, if anything. A
 * preview only checks; the update of `pulumi up` runs in a process of its own, which checks again and then creates.
 */
export class Adoptions {
  private readonly expected = new Map<string, ExpectedAdoption>();
  private readonly made = new Map<string, string | undefined>();

  /** Records what check found an importId adoption will do, for the notices at the end of the operation. */
  announce(kind: string, importId: string, expected: ExpectedAdoption): void {
    this.expected.set(`${kind} ${importId}`, expected);
  }

  /**
   * Tells what a create that took over an existing object did. An importId adoption is told at the end of the
   * operation (`notices`): counted, and named only if it changed the object, as a hundred "no change" lines would
   * hide that one. A take-over the program did not ask for (a kind that always adopts, a lost create answer) is told
   * at once.
   */
  report(kind: string, id: string, changed: readonly string[], by: AdoptedBy): void {
    const message = adoptedMessage(kind, id, changed, by);
    if (by === "importId") this.made.set(`${kind} ${id}`, changed.length > 0 ? message : undefined);
    else notice("info", message);
  }

  /**
   * The importId adoptions of this operation, for a reviewer who sees them counted as creates in `Resources:` below:
   * one line per adoption that changes its object, then one line for all, `15 adopted, 0 changed: …` after `up` and
   * `15 to adopt, 0 to change: …` in a preview (the changes counted only when preflight read the objects). None when
   * nothing is adopted. Written at the end of the operation, once check and create have seen every resource.
   */
  notices(): Notice[] {
    const info = (message: string): Notice => ({ severity: "info", message });
    if (this.made.size > 0) {
      const changes = [...this.made.values()].filter((message) => message !== undefined);
      const count = this.made.size;
      const what =
        count === 1
          ? "took over an existing object instead of making a new one"
          : "took over existing objects instead of making new ones";
      const listed = changes.length > 0 ? " (listed above)" : "";
      const counted = `${count} adopted, ${changes.length} changed${listed}`;
      const summary = `${counted}: ${count} of the creates counted below ${what}.`;
      return [...changes, summary].map(info);
    }
    const expected = [...this.expected.values()];
    if (expected.length === 0) return [];
    const count = expected.length;
    const unread = expected.filter((adoption) => adoption === "unread").length;
    const pending = expected.filter((adoption) => adoption === "pending").length;
    const changes = expected.flatMap((adoption) =>
      typeof adoption === "object" && adoption.changed.length > 0 ? [adoption.notice] : [],
    );
    const counts = [`${count} to adopt`];
    if (unread < count) counts.push(`${changes.length} to change${changes.length > 0 ? " (listed above)" : ""}`);
    if (pending > 0) {
      counts.push(
        `${pending} read only at \`up\` ` +
          "(found through a parent the same update adopts or creates, which has no id yet)",
      );
    }
    const what =
      count === 1
        ? "takes over the existing object its importId names instead of making a new one"
        : "take over the existing objects their importId names instead of making new ones";
    const hint = unread > 0 ? `; turn on ${settingName("preflight")} to see what adoption changes` : "";
    return [...changes, `${counts.join(", ")}: ${count} of the creates counted below ${what}${hint}.`].map(info);
  }
}

/** What `up` says once an adoption is done: it adopted, not created, why, and what it changed. */
export function adoptedMessage(kind: string, id: string, changed: readonly string[], by: AdoptedBy): string {
  const what = changed.length === 0 ? "no change" : `changed ${changed.join(", ")}`;
  if (by === "recovery") {
    return (
      `${kind} "${id}" adopted: the create's answer was lost but the API had made it, so it was taken over, ` +
      `not made twice; ${what}.`
    );
  }
  const how = by === "importId" ? " (importId)" : "";
  return `${kind} "${id}" adopted${how}: the existing object was taken over, not created; ${what}.`;
}
