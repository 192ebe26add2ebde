/**
 * The content tree of an organization: collections and spaces ordered under a parent collection (or the
 * organization root). Shared by collection and space moves.
 */
import { BadRequestError, NotFoundError } from "../errors";
import type { CollectionRec, SpaceRec } from "../records";
import type { Store } from "../store";
import { type Check, isPlainObject, nullable, obj, opt, parseBody, str } from "../validate";

export type ContentPointer = { type: "space"; space: string } | { type: "collection"; collection: string };

export const contentPointer: Check<ContentPointer> = (value, path) => {
  if (!isPlainObject(value)) throw new BadRequestError(`${path}: must be an object`);
  if (value.type === "space")
    return obj({ type: opt(str()), space: { check: str({ min: 1 }), required: true } })(value, path) as ContentPointer;
  if (value.type === "collection") {
    return obj({ type: opt(str()), collection: { check: str({ min: 1 }), required: true } })(
      value,
      path,
    ) as ContentPointer;
  }
  throw new BadRequestError(`${path}.type: must be one of space, collection`);
};

export const contentPosition = obj({ before: opt(contentPointer), after: opt(contentPointer) });
type ContentPosition = { before?: ContentPointer; after?: ContentPointer };

const moveBodyShape = {
  parent: opt(nullable(str({ min: 1 }))),
  position: opt(contentPosition),
};

type Item = { kind: "space"; rec: SpaceRec } | { kind: "collection"; rec: CollectionRec };

function childrenOf(store: Store, orgId: string, parentId: string | undefined): Item[] {
  const items: Item[] = [];
  for (const c of store.collections.values()) {
    if (c.orgId === orgId && c.parentId === parentId) items.push({ kind: "collection", rec: c });
  }
  for (const s of store.spaces.values()) {
    if (s.orgId === orgId && !s.deletedAt && s.parentId === parentId) items.push({ kind: "space", rec: s });
  }
  return items.sort((a, b) => a.rec.position - b.rec.position);
}

/**
 * Parses the body of a collection or space move: the new parent (see resolveParent) and the position among its
 * children.
 */
export function parseMove(
  store: Store,
  item: { orgId: string; parentId?: string },
  body: unknown,
): { parentId: string | undefined; position: ContentPosition | undefined } {
  const parsed = parseBody(body, moveBodyShape, { required: true, minProperties: 1 });
  return { parentId: resolveParent(store, item.orgId, parsed.parent, item.parentId), position: parsed.position };
}

/** Resolves the `parent` of a move: undefined keeps the current parent, null means the organization root. */
function resolveParent(
  store: Store,
  orgId: string,
  parent: string | null | undefined,
  current: string | undefined,
): string | undefined {
  if (parent === undefined) return current;
  if (parent === null) return undefined;
  const c = store.collections.get(parent);
  if (!c || c.orgId !== orgId)
    throw new NotFoundError(`parent: collection "${parent}" not found in organization "${orgId}"`);
  return c.id;
}

/** Puts `item` under `parentId`, at `position` among its new siblings (end when no position is given). */
export function placeItem(
  store: Store,
  item: Item,
  parentId: string | undefined,
  position: ContentPosition | undefined,
): void {
  const siblings = childrenOf(store, item.rec.orgId, parentId).filter((s) => s.rec.id !== item.rec.id);
  let index = siblings.length;
  const pointer = position?.before ?? position?.after;
  if (pointer) {
    const field = position?.before ? "position.before" : "position.after";
    const id = pointer.type === "space" ? pointer.space : pointer.collection;
    const at = siblings.findIndex((s) => s.kind === pointer.type && s.rec.id === id);
    if (at < 0) throw new BadRequestError(`${field}: ${pointer.type} "${id}" is not an item of the target parent`);
    index = position?.before ? at : at + 1;
  }
  item.rec.parentId = parentId;
  siblings.splice(index, 0, item);
  for (const s of siblings) s.rec.position = store.nextPosition();
}
