/**
 * The objects of an organization, kind by kind, as the kinds' listing facets (`KindDefinition.listing`) name them:
 * what `docs-platform import` declares and `unmanaged` compares with a stack's state. Lists only, through the
 * listings the kinds' reads share, so a read that follows costs no request. Names no kind: the order is the
 * registry's, organization-level kinds first, then site by site, each kind under every object of its parent kind.
 */
import type { KindDefinition, ListedObject, ListingParent, Props, ResourceContext } from "./kind";

type Definition = Pick<KindDefinition, "kind" | "scope" | "listing">;

/** The objects of one kind under the organization, or under one site. */
export interface Batch {
  kind: string;
  items: ListedObject[];
  /** The site, for the kinds listed under one. */
  site?: { id: string; title: string };
}

export interface EnumerateOptions {
  organizationId: string;
  /** The kinds to list (their parents are listed as needed, and not reported unless asked for). */
  kinds: ReadonlySet<string>;
  /** Only this site (and the organization-level kinds). */
  siteId?: string;
}

/** The kinds with a listing, in the order they are enumerated: organization-level kinds, then the site family. */
export function enumerationOrder<D extends Definition>(definitions: readonly D[]): D[] {
  const listed = definitions.filter((definition) => definition.listing !== undefined);
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
  const byKind = new Map(definitions.map((definition) => [definition.kind, definition]));
  const organization: ListingParent = {
    ids: { organizationId: options.organizationId },
    title: options.organizationId,
  };
  const underParent = new Map<string, Promise<ListedObject[]>>();

  /** A kind's objects under one parent object, listed once however many kinds need them. */
  const listUnder = (definition: Definition, parent: ListedObject | undefined): Promise<ListedObject[]> => {
    const key = `${definition.kind} ${parent ? `${parent.id} ${JSON.stringify(parent.known)}` : ""}`;
    let found = underParent.get(key);
    if (!found) {
      found = listed(ctx, definition, parent ? childParent(definition, parent) : organization);
      underParent.set(key, found);
    }
    return found;
  };
  /** Every object of a kind, under every object of its parent kind (those of one site, when `within` names it). */
  const objectsOf = async (definition: Definition, within?: SiteWithin): Promise<ListedObject[]> => {
    const parentKind = definition.listing?.parent?.kind;
    if (parentKind === undefined) return listUnder(definition, undefined);
    if (within && parentKind === within.root) return listUnder(definition, within.site);
    const parentDefinition = byKind.get(parentKind);
    if (!parentDefinition?.listing) {
      throw new Error(`${definition.kind} is listed under ${parentKind}, which has no listing`);
    }
    const items: ListedObject[] = [];
    for (const parent of await objectsOf(parentDefinition, within)) {
      if (within && parent.siteId !== within.site.siteId) continue;
      items.push(...(await listUnder(definition, parent)));
    }
    return items;
  };

  const order = enumerationOrder(definitions);
  for (const definition of order.filter((d) => d.scope === "organization")) {
    if (options.kinds.has(definition.kind)) yield { kind: definition.kind, items: await objectsOf(definition) };
  }
  const siteKinds = order.filter((d) => d.scope === "site");
  if (!siteKinds.some((definition) => options.kinds.has(definition.kind))) return;
  const root = siteKinds.find((definition) => definition.kind === siteRootKind(definitions));
  if (!root) return;
  const sites = (await objectsOf(root)).filter((site) => !options.siteId || site.id === options.siteId);
  if (options.siteId && sites.length === 0) {
    throw new Error(`no site "${options.siteId}" in organization "${options.organizationId}"`);
  }
  for (const site of sites) {
    const at = { id: site.id, title: site.title };
    for (const definition of siteKinds) {
      if (!options.kinds.has(definition.kind)) continue;
      const items = definition === root ? [site] : await objectsOf(definition, { root: root.kind, site });
      yield { kind: definition.kind, items, site: at };
    }
  }
}

/** One site of the organization, as the objects of the site family's root kind name it. */
interface SiteWithin {
  root: string;
  site: ListedObject;
}

/** The site family's root: the site-level kind listed under the organization (the site itself). */
export function siteRootKind(definitions: readonly Definition[]): string | undefined {
  return definitions.find((d) => d.scope === "site" && d.listing !== undefined && d.listing.parent === undefined)?.kind;
}

/** The parent a child kind's listing is made under: the parent object's own parents' ids plus its id. */
function childParent(child: Definition, parent: ListedObject): ListingParent {
  const input = child.listing?.parent?.input ?? "";
  return {
    ids: { ...parent.known, [input]: parent.id },
    title: parent.title,
    ...(parent.item !== undefined ? { item: parent.item } : {}),
    ...(parent.siteId !== undefined ? { siteId: parent.siteId } : {}),
  };
}

/** A kind's listing under one parent; objects listed under a site's object live under that site. */
async function listed(ctx: ResourceContext, definition: Definition, parent: ListingParent): Promise<ListedObject[]> {
  const items = (await definition.listing?.list(ctx, parent)) ?? [];
  return items.map((item) => (item.siteId === undefined && parent.siteId ? { ...item, siteId: parent.siteId } : item));
}

/**
 * The ids an input referring to `definition` may hold under the given parents' ids (`organizationId`, and the
 * parent's id input when the kind is listed under one): what preflight checks a reference against.
 */
export async function referableIds(
  ctx: ResourceContext,
  definition: Definition,
  parentIds: Props,
): Promise<Set<string>> {
  const listing = definition.listing;
  if (!listing) return new Set();
  const title = String(parentIds[listing.parent?.input ?? "organizationId"] ?? "");
  const items = await listing.list(ctx, { ids: parentIds, title });
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
