/**
 * The content tree of an organization: collections and spaces ordered under a parent collection (or the
 * organization root). Shared by collection and space moves.
 */
import { BadRequestError, NotFoundError } from "../../errors";
import type { Store } from "../../store";
import { type Check, isPlainObject, nullable, obj, opt, parseBody, str } from "../../validate";
import type { ItemRef, Placement } from "./records";

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

const moveBodyShape = {
  parent: opt(nullable(str({ min: 1 }))),
  position: opt(contentPosition),
};

/**
 * Parses the body of a collection or space move: the new parent (see resolveParent) and the position among its
 * children.
 */
export function parseMove(
  store: Store,
  item: { orgId: string; parentId?: string },
  body: unknown,
): { parentId: string | undefined; position: Placement | undefined } {
  const parsed = parseBody(body, moveBodyShape, { required: true, minProperties: 1 });
  const ref = (p: ContentPointer | undefined): ItemRef | undefined =>
    p && { kind: p.type, id: p.type === "space" ? p.space : p.collection };
  const position = parsed.position && { before: ref(parsed.position.before), after: ref(parsed.position.after) };
  return { parentId: resolveParent(store, item.orgId, parsed.parent, item.parentId), position };
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
