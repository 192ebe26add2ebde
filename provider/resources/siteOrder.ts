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
import { containsUnknown } from "../framework/unknown";

/** One sort operation: move `id` before or after `anchor`. */
export interface Move {
  id: string;
  before?: string;
  after?: string;
}

/**
 * The fewest moves that make `desired` appear in that order within `current` (a level's ids, in navigation order),
 * the desired items first: the largest set of items already in the desired relative order stays, every other item
 * moves once, so an `up` without changes writes nothing and moving one item is one move. Items of `current` not in
 * `desired` keep their order after them; ids of `desired` not in `current` cannot be moved and are left out.
 */
export function movesToOrder(current: readonly string[], desired: readonly string[]): Move[] {
  const wanted = desired.filter((id) => current.includes(id));
  const target = [...wanted, ...current.filter((id) => !wanted.includes(id))];
  const staying = longestInOrder(current, target);
  // In target order, the items before an item out of place are in place already: it goes right after the one before
  // it, or to the front (where current[0] is, since an item already first is never out of place).
  return target.flatMap((id, i): Move[] => {
    if (staying.has(id)) return [];
    const previous = target[i - 1];
    return [previous === undefined ? { id, before: current[0]! } : { id, after: previous }];
  });
}

/** The largest set of `current`'s items already in `target`'s relative order (a longest increasing subsequence). */
function longestInOrder(current: readonly string[], target: readonly string[]): Set<string> {
  const ranks = current.map((id) => target.indexOf(id));
  const length = ranks.map(() => 1);
  const before = ranks.map(() => -1);
  let end = -1;
  ranks.forEach((rank, i) => {
    for (let j = 0; j < i; j++) {
      if (ranks[j]! < rank && length[j]! + 1 > length[i]!) {
        length[i] = length[j]! + 1;
        before[i] = j;
      }
    }
    if (end < 0 || length[i]! > length[end]!) end = i;
  });
  const staying = new Set<string>();
  for (let i = end; i >= 0; i = before[i]!) staying.add(current[i]!);
  return staying;
}

/**
 * The moves that turn `current` into `desired`, in a reviewer's words: `"Guides" moves from 2 to 1` (positions
 * count from 1, in the whole old and new lists), `a new item comes in at 3`, `"Old" leaves`. The items that move
 * are the ones the apply moves (`movesToOrder` of the items both lists hold); `nameOf` gives an item's title.
 * Unknown ids (not created yet at preview) are new items. Empty when nothing moves.
 */
export function describeMoves(
  current: readonly string[],
  desired: readonly string[],
  nameOf: (id: string) => string,
): string[] {
  const known = new Set(current);
  const kept = new Set(desired);
  const moved = movesToOrder(
    current.filter((id) => kept.has(id)),
    desired,
  ).map(({ id }) => `${nameOf(id)} moves from ${current.indexOf(id) + 1} to ${desired.indexOf(id) + 1}`);
  const added = desired.flatMap((id, i) =>
    known.has(id) ? [] : [`${containsUnknown(id) ? "a new item" : nameOf(id)} comes in at ${i + 1}`],
  );
  const left = current.filter((id) => !kept.has(id)).map((id) => `${nameOf(id)} leaves`);
  return [...moved, ...added, ...left];
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
