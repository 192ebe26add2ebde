/**
 * The objects of an organization, kind by kind, as the kinds' listing facets (`KindDefinition.listing`) name them:
 * what `docs-platform import` declares and `unmanaged` compares with a stack's state. Lists only, through the
 * listings the kinds' reads share, so a read that follows costs no request. Names no kind: the order is the
 * registry's, organization-level kinds first, then site by site, each kind under every object of its parent kind.
 */
import type { KindDefinition, KindListing, ListedObject, ListingParent, Props, ResourceContext } from "./kind";

type Definition = Pick<KindDefinition, "kind" | "scope" | "parent" | "listing">;
/** A kind with a listing: the kinds enumerate lists. */
type Listed = Definition & { listing: KindListing };

/** The objects of one kind under the organization, or under one site. */
export interface Batch {
  kind: string;
  items: ListedObject[];
  /** The site, for the kinds listed under one. */
  site?: { id: string; title: string };
  /** Why the kind's objects could not be listed, when `passOver` let enumeration go on without them. */
  refused?: unknown;
}

export interface EnumerateOptions {
  organizationId: string;
  /** The kinds to list (their parents are listed as needed, and not reported unless asked for). */
  kinds: ReadonlySet<string>;
  /** Only this site (and the organization-level kinds). */
  siteId?: string;
  /**
   * The failures that leave one kind out and go on with the next (reported in `Batch.refused`, and so are the kinds
   * listed under it), so that one pass finds every kind refused; any other failure ends enumeration.
   */
  passOver?: (error: unknown) => boolean;
}

/** The kinds with a listing, in the order they are enumerated: organization-level kinds, then the site family. */
export function enumerationOrder<D extends Definition>(definitions: readonly D[]): (D & Listed)[] {
  const listed = definitions.filter((definition): definition is D & Listed => definition.listing !== undefined);
  return [
    ...listed.filter((definition) => definition.scope === "organization"),
    ...listed.filter((definition) => definition.scope === "site"),
  ];
}

export async function* enumerate(
  ctx: ResourceContext,
  definitions: readonly Definition[],
  options: EnumerateOptions,
): AsyncGenerator<Batch> {
  const order = enumerationOrder(definitions);
  const byKind = new Map(order.map((definition) => [definition.kind, definition]));
  const organization: ListingParent = {
    ids: { organizationId: options.organizationId },
    title: options.organizationId,
  };
  const underParent = new Map<string, Promise<ListedObject[]>>();

  /** A kind's objects under one parent object (or the organization), listed once however many kinds need them. */
  const listUnder = (definition: Listed, parent?: ListedObject): Promise<ListedObject[]> => {
    const key = JSON.stringify([definition.kind, parent?.id, parent?.known]);
    let found = underParent.get(key);
    if (!found) {
      found = listed(ctx, definition, parent ? childParent(definition, parent) : organization);
      underParent.set(key, found);
    }
    return found;
  };
  /** Every object of a kind, under every object of its parent kind (those of one site, when `siteId` is given). */
  const objectsOf = async (definition: Listed, siteId?: string): Promise<ListedObject[]> => {
    const parentKind = definition.parent?.kind;
    let items: ListedObject[] = [];
    if (parentKind === undefined) items = await listUnder(definition);
    else {
      const parentDefinition = byKind.get(parentKind);
      if (!parentDefinition) throw new Error(`${definition.kind} is listed under ${parentKind}, which has no listing`);
      for (const parent of await objectsOf(parentDefinition, siteId))
        items.push(...(await listUnder(definition, parent)));
    }
    return siteId === undefined ? items : items.filter((item) => item.siteId === siteId);
  };

  /** A kind's objects, or why the API refused them when that failure is one to pass over. */
  const batchOf = async (definition: Listed, siteId?: string): Promise<Pick<Batch, "items" | "refused">> => {
    try {
      return { items: await objectsOf(definition, siteId) };
    } catch (error) {
      if (options.passOver?.(error)) return { items: [], refused: error };
      throw error instanceof KindFailure ? error : new KindFailure(definition.kind, error);
    }
  };

  for (const definition of order.filter((d) => d.scope === "organization")) {
    if (options.kinds.has(definition.kind)) yield { kind: definition.kind, ...(await batchOf(definition)) };
  }
  const siteKinds = order.filter((d) => d.scope === "site" && options.kinds.has(d.kind));
  if (siteKinds.length === 0) return;
  const root = byKind.get(siteRootKind(definitions) ?? "");
  if (!root) throw new Error("site-level kinds are listed under the site kind, and there is none");
  const listedSites = await batchOf(root);
  if (listedSites.refused !== undefined) {
    for (const definition of siteKinds) yield { kind: definition.kind, items: [], refused: listedSites.refused };
    return;
  }
  const sites = listedSites.items.filter((site) => !options.siteId || site.id === options.siteId);
  if (options.siteId && sites.length === 0) {
    throw new Error(`no site "${options.siteId}" in organization "${options.organizationId}"`);
  }
  for (const site of sites) {
    const at = { id: site.id, title: site.title };
    for (const definition of siteKinds)
      yield { kind: definition.kind, ...(await batchOf(definition, site.siteId)), site: at };
  }
}

/** The site family's root: the site-level kind listed under the organization (the site itself). */
export function siteRootKind(definitions: readonly Definition[]): string | undefined {
  return definitions.find((d) => d.scope === "site" && d.listing !== undefined && d.parent === undefined)?.kind;
}

/** The parent a child kind's listing is made under: the parent object's own parents' ids plus its id. */
function childParent(child: Definition, parent: ListedObject): ListingParent {
  const { item, siteId } = parent;
  return { ids: { ...parent.known, [child.parent?.input ?? ""]: parent.id }, title: parent.title, item, siteId };
}

/**
 * A failure listing or reading the objects of one kind or more, with the kinds: a token may be refused some kinds only
 * (an integration's token, on the operations for users' tokens), and the fix is then to leave those kinds out. Its
 * message is the (first) failure's own, which already names the request.
 */
export class KindFailure extends Error {
  readonly kinds: readonly string[];
  constructor(kinds: string | readonly string[], cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = "KindFailure";
    this.kinds = typeof kinds === "string" ? [kinds] : kinds;
  }
}

/** A kind's listing under one parent; objects listed under a site's object live under that site. */
async function listed(ctx: ResourceContext, definition: Listed, parent: ListingParent): Promise<ListedObject[]> {
  const items = await definition.listing.list(ctx, parent);
  return items.map((item) => ({ ...item, siteId: item.siteId ?? parent.siteId }));
}

/**
 * The ids an input referring to a kind (its `listing`) may hold under the given parents' ids (`organizationId`, and the
 * parent's id input when the kind is listed under one): what preflight checks a reference against.
 */
export async function referableIds(ctx: ResourceContext, listing: KindListing, parentIds: Props): Promise<Set<string>> {
  // A reference needs ids only: no listing of a referred kind words anything with its parent's title.
  const items = await listing.list(ctx, { ids: parentIds, title: "" });
  const as = listing.referredToAs;
  return new Set(items.map((item) => (as === undefined ? item.id : String(item.known[as]))));
}

/** Collections parents first (depth first, siblings in the API's order), whatever order the listing has. */
export function treeOrder<T extends { id: string; parent?: string | null }>(items: T[]): T[] {
  const ids = new Set(items.map((item) => item.id));
  const children = new Map<string | null, T[]>();
  for (const item of items) {
    const parent = item.parent && ids.has(item.parent) ? item.parent : null;
    children.set(parent, [...(children.get(parent) ?? []), item]);
  }
  const ordered: T[] = [];
  const visit = (parent: string | null) => {
    for (const child of children.get(parent) ?? []) {
      ordered.push(child);
      visit(child.id);
    }
  };
  visit(null);
  return ordered;
}
