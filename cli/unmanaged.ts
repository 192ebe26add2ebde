/**
 * Which objects of an organization a stack does not manage (made by hand, or orphaned by a killed run), as driftctl
 * reports unmanaged cloud resources. Lists only: one request per list of a parent; the one read per object is a site's
 * adaptive schema, which has no listing.
 */
import { ENUMERATED_KINDS, enumerate, UserTokenRefusals } from "./enumerate";
import { definitions, kindOfType, lifecycle } from "./provider";

export interface OrganizationObject {
  kind: string;
  id: string;
  title: string;
  /** Where it lives: the site or team title, for objects under one. */
  under?: string;
}

/** An object as the inventory finds it: with its site and parents' ids, which tell who may manage it. */
export interface InventoriedObject extends OrganizationObject {
  siteId?: string;
  /** The parents' ids and the key inputs the kind's listing names it with. */
  known: Record<string, unknown>;
}

/**
 * What a stack's state manages: ids per kind (with those other kinds' outputs name, `managedBy.byOutput`), and by
 * `<kind> <parent id>` the resources under a parent, with the inputs they declare and their keys (`managedBy`).
 */
export interface Managed {
  ids: Map<string, Set<string>>;
  /** `<kind> <id> <input>`: a resource declaring an input that holds every object of a child kind. */
  declaring: Set<string>;
  /** `<kind> <parent id>`: some resource of the kind lives under that parent. */
  underParent: Set<string>;
  /** `<kind> <parent id> <key>`: a resource of a kind told apart by a key input under its parent. */
  keys: Set<string>;
  count: number;
}

export interface StateResource {
  urn?: string;
  type?: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/**
 * The resources of `pulumi stack export` output (or of a bare deployment). A destroyed stack's deployment has no
 * `resources` at all: it manages nothing.
 */
export function stateResources(exported: unknown): StateResource[] {
  const root = exported as { deployment?: { resources?: StateResource[] }; resources?: StateResource[] };
  const resources = root?.deployment?.resources ?? root?.resources;
  if (Array.isArray(resources)) return resources;
  const deployment = root?.deployment;
  if (resources === undefined && deployment !== null && typeof deployment === "object") return [];
  throw new Error("the state holds no `deployment.resources`: is it `pulumi stack export` output?");
}

const listings = new Map(definitions.map((definition) => [definition.kind, definition.listing]));
const parents = new Map(definitions.map((definition) => [definition.kind, definition.parent]));

/** Whether a resource's program declares an input (states older than `__declared` hold declared inputs only). */
function declares(outputs: Record<string, unknown>, input: string): boolean {
  const declared = outputs.__declared;
  return Array.isArray(declared) ? declared.includes(input) : input in outputs;
}

/** Reads `pulumi stack export` output (or a bare deployment). */
export function managedByState(exported: unknown): Managed {
  const managed: Managed = { ids: new Map(), declaring: new Set(), underParent: new Set(), keys: new Set(), count: 0 };
  const add = (kind: string, id: string) => {
    const ids = managed.ids.get(kind) ?? new Set<string>();
    ids.add(id);
    managed.ids.set(kind, ids);
  };
  for (const resource of stateResources(exported)) {
    const kind = kindOfType(resource.type ?? "");
    if (kind === undefined || !resource.id) continue;
    const outputs = resource.outputs ?? {};
    const props = { ...resource.inputs, ...outputs };
    managed.count++;
    add(kind, resource.id);
    for (const [other, listing] of listings) {
      const by = listing?.managedBy;
      const owned = by?.byOutput?.kind === kind ? outputs[by.byOutput.property] : undefined;
      if (typeof owned === "string") add(other, owned);
      if (by?.byParentInput && parents.get(other)?.kind === kind && declares(outputs, by.byParentInput)) {
        managed.declaring.add(`${kind} ${resource.id} ${by.byParentInput}`);
      }
    }
    const own = listings.get(kind);
    const parent = parents.get(kind);
    const parentId = parent && props[parent.input];
    if (typeof parentId !== "string") continue;
    managed.underParent.add(`${kind} ${parentId}`);
    const key = own?.managedBy?.byKey && props[own.managedBy.byKey];
    if (typeof key === "string") managed.keys.add(`${kind} ${parentId} ${key}`);
  }
  return managed;
}

/**
 * The organizations this package's resources in the state belong to, sorted: what a program that names its
 * organization in the code rather than in `docs:organizationId` (as `docs-platform import` writes it) manages.
 */
export function organizationsInState(exported: unknown): string[] {
  const found = new Set<string>();
  for (const resource of stateResources(exported)) {
    if (kindOfType(resource.type ?? "") === undefined) continue;
    const organizationId = resource.outputs?.organizationId ?? resource.inputs?.organizationId;
    if (typeof organizationId === "string" && organizationId !== "") found.add(organizationId);
  }
  return [...found].sort();
}

/**
 * The kinds `unmanaged` lists (its `--kinds`): the objects of an organization, as each kind's listing says
 * (`KindListing.unmanaged`). Not the parts of the organization and of its sites every one has (settings, sign-in,
 * navigation order); a site's redirects are listed rule by rule (SiteRedirect), since a program owns them as one
 * SiteRedirects or as one SiteRedirect per rule.
 */
export const UNMANAGED_KINDS: readonly string[] = ENUMERATED_KINDS.filter((kind) => listings.get(kind)?.unmanaged);

export interface InventoryOptions {
  /** Also list spaces (most stacks leave them alone); a `kinds` that names Space lists them too. */
  includeSpaces?: boolean;
  /** Only these kinds (default: all of UNMANAGED_KINDS). */
  kinds?: readonly string[];
  /** Only this site (and the organization-level kinds). */
  siteId?: string;
}

/** The kinds an inventory lists: spaces only when asked for. */
export function inventoriedKinds(options: InventoryOptions): string[] {
  const wanted: readonly string[] = options.kinds ?? UNMANAGED_KINDS;
  return wanted.filter((kind) => kind !== "Space" || options.includeSpaces || options.kinds?.includes("Space"));
}

/**
 * Every object of the organization this package can manage, with titles; a site's adaptive schema counts once it
 * declares a claim.
 */
export async function inventory(organizationId: string, options: InventoryOptions = {}) {
  const kinds = new Set(inventoriedKinds(options));
  const found: InventoriedObject[] = [];
  const refusals = new UserTokenRefusals();
  for await (const batch of enumerate({ organizationId, kinds, siteId: options.siteId, passOver: refusals.passOver })) {
    const kind = batch.kind;
    if (batch.refused !== undefined) refusals.note(kind, batch.refused);
    for (const { id, title, under, siteId, known } of batch.items) {
      // Only a read tells a site's schema from none (never written: 404; written without claims).
      if (listings.get(kind)?.existsOnlyIfRead && !(await lifecycle(kind).lookup(id, known)).id) continue;
      found.push({ kind, id, title, known, ...(under ? { under } : {}), ...(siteId ? { siteId } : {}) });
    }
  }
  refusals.throwIfAny();
  return found;
}

/** The objects no resource of the state manages, in inventory order, as the report shows them. */
export function unmanagedObjects(objects: InventoriedObject[], managed: Managed): OrganizationObject[] {
  return objects
    .filter(({ kind, id, known }) => {
      if (managed.ids.get(kind)?.has(id)) return false;
      const listing = listings.get(kind);
      const by = listing?.managedBy;
      const parent = parents.get(kind);
      if (!by || !parent) return true;
      const parentId = String(known[parent.input]);
      if (by.byParentInput && managed.declaring.has(`${parent.kind} ${parentId} ${by.byParentInput}`)) return false;
      if (by.byKindUnder && managed.underParent.has(`${by.byKindUnder} ${parentId}`)) return false;
      return !(by.byKey && managed.keys.has(`${kind} ${parentId} ${String(known[by.byKey])}`));
    })
    .map(({ kind, id, title, under }) => ({ kind, id, title, ...(under ? { under } : {}) }));
}

/** The human report: by kind, one object a line. */
export function describeUnmanaged(organizationId: string, unmanaged: OrganizationObject[], managed: Managed): string {
  if (unmanaged.length === 0) {
    return `Organization ${organizationId}: every object is managed by the stack (${managed.count} resources).\n`;
  }
  const lines = [
    `Organization ${organizationId}: ${unmanaged.length} object(s) not managed by the stack (${managed.count} resources):`,
  ];
  const kinds = [...new Set(unmanaged.map((o) => o.kind))];
  for (const kind of kinds) {
    lines.push(`  ${kind}`);
    for (const o of unmanaged.filter((u) => u.kind === kind)) {
      lines.push(`    ${o.id}  ${JSON.stringify(o.title)}${o.under ? ` in ${o.under}` : ""}`);
    }
  }
  return `${lines.join("\n")}\n`;
}
