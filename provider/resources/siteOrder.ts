/**
 * Declared navigation order, applied with the official sort operation (`PATCH …/structure/sort`), which moves one
 * item before or after a sibling of its level. Shared by SiteStructure (the top level and each section's site spaces)
 * and SiteSectionGroup (the sections of a group).
 */
import {
  type ApiStructureItem,
  type HttpClient,
  pointerType,
  type StructurePointer,
  sortSiteStructure,
} from "../client";

/** One sort operation: move `id` before or after `anchor`. */
export interface Move {
  id: string;
  before?: string;
  after?: string;
}

/**
 * The moves that make `desired` appear in that order within `current` (a level's ids, in navigation order), the
 * desired items first: none when they already do, so an `up` without changes writes nothing. Items of `current`
 * not in `desired` keep their order after them.
 */
export function movesToOrder(current: readonly string[], desired: readonly string[]): Move[] {
  const order = [...current];
  const moves: Move[] = [];
  desired.forEach((id, i) => {
    const previous = desired[i - 1];
    const expectedAt = previous === undefined ? 0 : order.indexOf(previous) + 1;
    if (order[expectedAt] === id) return;
    const anchor = order[expectedAt];
    order.splice(order.indexOf(id), 1);
    if (previous === undefined) {
      if (anchor === undefined) return;
      order.splice(order.indexOf(anchor), 0, id);
      moves.push({ id, before: anchor });
    } else {
      order.splice(order.indexOf(previous) + 1, 0, id);
      moves.push({ id, after: previous });
    }
  });
  return moves;
}

/** Sends the moves for one level; `typeOf` gives each id's pointer type. */
export async function applyMoves(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  moves: readonly Move[],
  typeOf: (id: string) => StructurePointer["type"],
): Promise<void> {
  const pointer = (id: string): StructurePointer => ({ type: typeOf(id), id });
  for (const move of moves) {
    const position = move.before ? { before: pointer(move.before) } : { after: pointer(move.after ?? "") };
    await sortSiteStructure(client, organizationId, siteId, pointer(move.id), position);
  }
}

/** Every section in a structure listing, at the top level or nested in groups. */
export function sectionsIn(items: readonly ApiStructureItem[]): ApiStructureItem[] {
  return items.flatMap((item) => (item.object === "site-section" ? [item] : sectionsIn(item.children ?? [])));
}

/** The pointer type of a listed item; an item the sort operation cannot name is a surprise worth an error. */
export function typeOfListed(items: readonly { id: string; object?: string }[]) {
  return (id: string): StructurePointer["type"] => {
    const type = pointerType(items.find((item) => item.id === id)?.object ?? "");
    if (!type) throw new Error(`the site's structure lists "${id}" as an item the sort operation cannot move`);
    return type;
  };
}
