import type { KindDefinition, Props } from "./kind";
import { notice } from "./notices";

/**
 * Prints a kind's own words for a change its diff found (`KindDefinition.describeChange`). Once per operation (one
 * provider process; ./operation.ts owns the lines told): `preview --refresh` diffs a drifted resource twice (the
 * refresh's diff, then the program's), with the same result. A state the kind cannot read says nothing here: the
 * update reports it.
 */
export class ChangeNotes {
  /** The lines printed in this operation. */
  private readonly told = new Set<string>();

  noteChange<Inputs extends Props, State extends Props>(
    definition: Pick<KindDefinition<Inputs, State>, "describeChange" | "state">,
    id: string,
    olds: Props,
    news: Inputs,
    changed: readonly string[],
  ): void {
    if (!definition.describeChange || changed.length === 0) return;
    const state = definition.state.safeParse(olds);
    if (!state.success) return;
    const text = definition.describeChange(id, state.data, news, new Set(changed));
    if (text === undefined || this.told.has(text)) return;
    this.told.add(text);
    notice("info", text);
  }
}
