/**
 * Which objects of an organization a stack does not manage (made by hand, or orphaned by a killed run), as driftctl
 * reports unmanaged cloud resources. Lists only: one request per list of a parent, no per-object reads.
 */
import {
  apiClient,
  getSiteAdaptiveSchema,
  isNotFound,
  listCollections,
  listOpenApiSpecs,
  listSamlProviders,
  listSiteSectionGroups,
  listSiteSections,
  listSiteShareLinks,
  listSiteSpaces,
  listSites,
  listSpaces,
  listTeamMembers,
  listTeams,
} from "./provider";

/** The type token of every resource of this package: `pulumi-nodejs:dynamic/docs:<Kind>`. */
const TYPE_PREFIX = "pulumi-nodejs:dynamic/docs:";

export interface OrganizationObject {
  kind: string;
  id: string;
  title: string;
  /** Where it lives: the site or team title, for objects under one. */
  under?: string;
}

/** What a stack's state manages: ids per kind, and the teams whose whole membership it declares. */
export interface Managed {
  ids: Map<string, Set<string>>;
  teamsWithMembers: Set<string>;
  count: number;
}

interface StateResource {
  type?: string;
  id?: string;
  outputs?: Record<string, unknown>;
}

/** Reads `pulumi stack export` output (or a bare deployment). */
export function managedByState(exported: unknown): Managed {
  const root = exported as { deployment?: { resources?: StateResource[] }; resources?: StateResource[] };
  const resources = root?.deployment?.resources ?? root?.resources;
  if (!Array.isArray(resources))
    throw new Error("the state holds no `deployment.resources`: is it `pulumi stack export` output?");
  const managed: Managed = { ids: new Map(), teamsWithMembers: new Set(), count: 0 };
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
    const declared = outputs.__declared;
    if (kind === "Team" && (Array.isArray(declared) ? declared.includes("members") : "members" in outputs)) {
      managed.teamsWithMembers.add(resource.id);
    }
  }
  return managed;
}

/** Every object of the organization this package can manage (and its spaces, when asked), with titles. */
export async function inventory(organizationId: string, options: { includeSpaces?: boolean } = {}) {
  const client = apiClient();
  const found: OrganizationObject[] = [];
  const add = (kind: string, id: string, title: string, under?: string) =>
    found.push({ kind, id, title, ...(under ? { under } : {}) });
  const [collections, teams, providers, specs, sites] = await Promise.all([
    listCollections(client, organizationId),
    listTeams(client, organizationId),
    listSamlProviders(client, organizationId),
    listOpenApiSpecs(client, organizationId),
    listSites(client, organizationId),
  ]);
  for (const c of collections) add("Collection", c.id, c.title);
  for (const team of teams) {
    add("Team", team.id, team.title);
    for (const entry of await listTeamMembers(client, organizationId, team.id)) {
      const user = entry.organization.user;
      add("TeamMember", `${team.id}/${user.id}`, user.email ?? user.id, `team "${team.title}"`);
    }
  }
  for (const p of providers) add("SamlProvider", p.id, p.label);
  for (const s of specs) add("OpenApiSpec", s.id, s.slug);
  for (const site of sites) {
    const under = `site "${site.title}"`;
    add("Site", site.id, site.title);
    const [sections, groups, siteSpaces, links, schema] = await Promise.all([
      listSiteSections(client, organizationId, site.id),
      listSiteSectionGroups(client, organizationId, site.id),
      listSiteSpaces(client, organizationId, site.id),
      listSiteShareLinks(client, organizationId, site.id),
      // A site whose schema was never written answers 404: it has none.
      getSiteAdaptiveSchema(client, organizationId, site.id).catch((error: unknown) => {
        if (isNotFound(error)) return undefined;
        throw error;
      }),
    ]);
    for (const s of sections) add("SiteSection", s.id, s.title, under);
    for (const g of groups) add("SiteSectionGroup", g.id, g.title, under);
    for (const ss of siteSpaces) add("SiteSpace", ss.id, ss.title || ss.path, under);
    for (const l of links) add("SiteShareLink", l.id, l.name ?? "", under);
    const claims = schema?.jsonSchema.properties;
    if (claims && typeof claims === "object" && Object.keys(claims).length > 0) {
      add("SiteAdaptiveSchema", site.id, `${site.title} schema`, under);
    }
  }
  if (options.includeSpaces) for (const s of await listSpaces(client, organizationId)) add("Space", s.id, s.title);
  return found;
}

/** The objects no resource of the state manages, in inventory order. */
export function unmanagedObjects(objects: OrganizationObject[], managed: Managed): OrganizationObject[] {
  return objects.filter((object) => {
    if (managed.ids.get(object.kind)?.has(object.id)) return false;
    if (object.kind === "TeamMember") return !managed.teamsWithMembers.has(object.id.split("/")[0]!);
    return true;
  });
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
