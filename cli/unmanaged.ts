/**
 * Which objects of an organization a stack does not manage (made by hand, or orphaned by a killed run), as driftctl
 * reports unmanaged cloud resources. Lists only: one request per list of a parent; the one read per object is a site's
 * adaptive schema, which has no listing.
 */
import { ENUMERATED_KINDS, enumerate, OrganizationLists } from "./enumerate";
import { apiClient, lifecycle } from "./provider";

/** The type token of every resource of this package: `pulumi-nodejs:dynamic/docs:<Kind>`. */
const TYPE_PREFIX = "pulumi-nodejs:dynamic/docs:";

export interface OrganizationObject {
  kind: string;
  id: string;
  title: string;
  /** Where it lives: the site or team title, for objects under one. */
  under?: string;
}

/** An object as the inventory finds it: with the site it lives under, which tells who may manage it. */
export interface InventoriedObject extends OrganizationObject {
  siteId?: string;
}

/**
 * What a stack's state manages: ids per kind, the teams whose whole membership it declares, and the redirects its
 * SiteRedirect resources declare by source (`<siteId> <source>`: the API keeps a source unique within a site).
 */
export interface Managed {
  ids: Map<string, Set<string>>;
  teamsWithMembers: Set<string>;
  redirectSources: Set<string>;
  count: number;
}

const redirectKey = (siteId: string, source: string) => `${siteId} ${source}`;

interface StateResource {
  type?: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** The resources of `pulumi stack export` output (or of a bare deployment). */
function stateResources(exported: unknown): StateResource[] {
  const root = exported as { deployment?: { resources?: StateResource[] }; resources?: StateResource[] };
  const resources = root?.deployment?.resources ?? root?.resources;
  if (!Array.isArray(resources))
    throw new Error("the state holds no `deployment.resources`: is it `pulumi stack export` output?");
  return resources;
}

/** Reads `pulumi stack export` output (or a bare deployment). */
export function managedByState(exported: unknown): Managed {
  const resources = stateResources(exported);
  const managed: Managed = { ids: new Map(), teamsWithMembers: new Set(), redirectSources: new Set(), count: 0 };
  const add = (kind: string, id: string) => {
    const ids = managed.ids.get(kind) ?? new Set<string>();
    ids.add(id);
    managed.ids.set(kind, ids);
  };
  for (const resource of resources) {
    if (!resource.type?.startsWith(TYPE_PREFIX) || !resource.id) continue;
    const kind = resource.type.slice(TYPE_PREFIX.length);
    const outputs = resource.outputs ?? {};
    managed.count++;
    add(kind, resource.id);
    // A section owns the site space it was created with: it goes with the section.
    if (kind === "SiteSection" && typeof outputs.siteSpaceId === "string") add("SiteSpace", outputs.siteSpaceId);
    // A redirect deleted and made again by hand has a new id and the same source: the SiteRedirect still owns it.
    const { siteId, source } = { ...resource.inputs, ...outputs };
    if (kind === "SiteRedirect" && typeof siteId === "string" && typeof source === "string") {
      managed.redirectSources.add(redirectKey(siteId, source));
    }
    const declared = outputs.__declared;
    if (kind === "Team" && (Array.isArray(declared) ? declared.includes("members") : "members" in outputs)) {
      managed.teamsWithMembers.add(resource.id);
    }
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
    if (!resource.type?.startsWith(TYPE_PREFIX)) continue;
    const organizationId = resource.outputs?.organizationId ?? resource.inputs?.organizationId;
    if (typeof organizationId === "string" && organizationId !== "") found.add(organizationId);
  }
  return [...found].sort();
}

/**
 * The kinds `unmanaged` lists (its `--kinds`): the objects of an organization. Not the parts of the organization and
 * of its sites a program declares settings of (OrganizationSettings, SiteVisitorAuth: every organization and site has
 * them), nor a site's navigation order; a site's redirects are listed rule by rule (SiteRedirect), since a program
 * owns them as one SiteRedirects or as one SiteRedirect per rule.
 */
export const UNMANAGED_KINDS = ENUMERATED_KINDS.filter(
  (kind) => !["OrganizationSettings", "SiteStructure", "SiteVisitorAuth", "SiteRedirects"].includes(kind),
);

export interface InventoryOptions {
  /** Also list spaces (most stacks leave them alone); a `kinds` that names Space lists them too. */
  includeSpaces?: boolean;
  /** Only these kinds (default: all of UNMANAGED_KINDS). */
  kinds?: readonly string[];
  /** Only this site (and the organization-level kinds). */
  siteId?: string;
}

/**
 * Every object of the organization this package can manage, with titles; a site's adaptive schema counts once it
 * declares a claim.
 */
export async function inventory(organizationId: string, options: InventoryOptions = {}) {
  const wanted: readonly string[] = options.kinds ?? UNMANAGED_KINDS;
  const kinds = new Set(
    wanted.filter((kind) => kind !== "Space" || options.includeSpaces || options.kinds?.includes("Space")),
  );
  const lists = new OrganizationLists(apiClient(), organizationId);
  const found: InventoriedObject[] = [];
  for await (const batch of enumerate({ lists, kinds, siteId: options.siteId })) {
    for (const { kind, id, title, under, siteId, known } of batch.items) {
      // Only a read tells a site's schema from none (never written: 404; written without claims).
      if (kind === "SiteAdaptiveSchema" && !(await lifecycle(kind).lookup(id, known)).id) continue;
      found.push({ kind, id, title, ...(under ? { under } : {}), ...(siteId ? { siteId } : {}) });
    }
  }
  return found;
}

/** The objects no resource of the state manages, in inventory order, as the report shows them. */
export function unmanagedObjects(objects: InventoriedObject[], managed: Managed): OrganizationObject[] {
  return objects
    .filter((object) => {
      if (managed.ids.get(object.kind)?.has(object.id)) return false;
      if (object.kind === "TeamMember") return !managed.teamsWithMembers.has(object.id.split("/")[0]!);
      if (object.kind === "SiteRedirect" && object.siteId) {
        // A redirect's title is its source.
        if (managed.ids.get("SiteRedirects")?.has(object.siteId)) return false;
        return !managed.redirectSources.has(redirectKey(object.siteId, object.title));
      }
      return true;
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
