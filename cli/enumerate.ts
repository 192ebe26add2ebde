/**
 * The objects of an organization, kind by kind, as their parents' listings name them: what `import` reads and
 * declares (walk.ts) and what `unmanaged` compares with a stack's state (unmanaged.ts). Lists only, one request per
 * listing of a parent; the site-level and grant listings go through the runtime's shared listings, so the kinds' own
 * reads that follow cost no further request.
 */
import {
  type ApiGrant,
  type Grantee,
  getOrganization,
  granteesPath,
  type HttpClient,
  listCollections,
  listGrants,
  listOpenApiSpecs,
  listOrganizationMembers,
  listSamlProviders,
  listSiteRedirects,
  listSiteSectionGroups,
  listSiteSections,
  listSiteShareLinks,
  listSiteSpaces,
  listSites,
  listSpaces,
  listTeamMembers,
  listTeams,
  type PermissionTarget,
  sharedListing,
  siteRedirectsPath,
  siteSectionGroupsPath,
  siteSectionsPath,
  siteShareLinksPath,
  siteSpacesPath,
} from "./provider";

type Props = Record<string, unknown>;

/** One object as a listing names it. */
export interface Listed {
  kind: string;
  id: string;
  /** What names it in the app: a title, label, name or slug. */
  title: string;
  /** What the kind's read needs besides the id: the parents' ids. */
  known: Props;
  /** The site it lives under, for site-family kinds. */
  siteId?: string;
  /** Where it lives, for reports: `site "Docs"`, `team "Writers"`. */
  under?: string;
}

/** The objects of one kind under one parent (the organization, or a site). */
export interface Batch {
  kind: string;
  items: Listed[];
  /** The site, for the site-family kinds. */
  site?: { id: string; title: string };
}

/**
 * Every kind enumerate knows, in the order it lists them: parents before what refers to them, the organization's
 * settings first. A site's adaptive schema and navigation order are one per site and listed unconditionally: only a
 * read tells whether a schema exists. A site's redirects are listed both as one SiteRedirects (what `import`
 * declares) and rule by rule as SiteRedirect (what `unmanaged` reports).
 */
export const ENUMERATED_KINDS = [
  "OrganizationSettings",
  "Collection",
  "Space",
  "Team",
  "TeamMember",
  "SamlProvider",
  "OpenApiSpec",
  "SpacePermission",
  "CollectionPermission",
  "Site",
  "SiteSection",
  "SiteSectionGroup",
  "SiteSpace",
  "SiteShareLink",
  "SiteAdaptiveSchema",
  "SiteStructure",
  "SiteVisitorAuth",
  "SitePermission",
  "SiteRedirects",
  "SiteRedirect",
] as const;

/** The visibility whose readers sign in: the sites that have visitor authentication to declare. */
const SIGNED_IN_VISIBILITY = "visitor-auth";

/** The organization's top-level listings, each made at most once however many kinds need it. */
export class OrganizationLists {
  private readonly cache = new Map<string, Promise<unknown>>();

  constructor(
    readonly client: HttpClient,
    readonly organizationId: string,
  ) {}

  private once<T>(key: string, load: (client: HttpClient, organizationId: string) => Promise<T>): Promise<T> {
    let found = this.cache.get(key) as Promise<T> | undefined;
    if (!found) {
      found = load(this.client, this.organizationId);
      this.cache.set(key, found);
    }
    return found;
  }

  organization = () => this.once("organization", getOrganization);
  collections = () => this.once("collections", listCollections);
  spaces = () => this.once("spaces", listSpaces);
  teams = () => this.once("teams", listTeams);
  members = () => this.once("members", listOrganizationMembers);
  samlProviders = () => this.once("saml", listSamlProviders);
  openApiSpecs = () => this.once("openapi", listOpenApiSpecs);
  sites = () => this.once("sites", listSites);
}

/** How a member is named in programs and reports: display name, else the e-mail's local part, else the id. */
export function userName(user: { id: string; displayName?: string; email?: string }): string {
  return user.displayName || user.email?.split("@")[0] || user.id;
}

export interface EnumerateOptions {
  lists: OrganizationLists;
  kinds: ReadonlySet<string>;
  /** Only this site (and the organization-level kinds). */
  siteId?: string;
}

export async function* enumerate(options: EnumerateOptions): AsyncGenerator<Batch> {
  const { lists, kinds } = options;
  const { client, organizationId } = lists;
  const org = { organizationId };
  const batch = (kind: string, items: Listed[], site?: Batch["site"]): Batch => ({
    kind,
    items,
    ...(site ? { site } : {}),
  });

  if (kinds.has("OrganizationSettings")) {
    const { title } = await lists.organization();
    yield batch("OrganizationSettings", [{ kind: "OrganizationSettings", id: organizationId, title, known: org }]);
  }
  if (kinds.has("Collection")) {
    const collections = treeOrder(await lists.collections());
    yield batch(
      "Collection",
      collections.map((c) => ({ kind: "Collection", id: c.id, title: c.title, known: org })),
    );
  }
  if (kinds.has("Space")) {
    yield batch(
      "Space",
      (await lists.spaces()).map((s) => ({ kind: "Space", id: s.id, title: s.title, known: org })),
    );
  }
  if (kinds.has("Team")) {
    yield batch(
      "Team",
      (await lists.teams()).map((t) => ({ kind: "Team", id: t.id, title: t.title, known: org })),
    );
  }
  if (kinds.has("TeamMember")) {
    const items: Listed[] = [];
    for (const team of await lists.teams()) {
      for (const entry of await listTeamMembers(client, organizationId, team.id)) {
        const user = entry.organization.user;
        items.push({
          kind: "TeamMember",
          id: `${team.id}/${user.id}`,
          title: user.email ?? user.id,
          known: { ...org, teamId: team.id, userId: user.id },
          under: `team "${team.title}"`,
        });
      }
    }
    yield batch("TeamMember", items);
  }
  if (kinds.has("SamlProvider")) {
    yield batch(
      "SamlProvider",
      (await lists.samlProviders()).map((p) => ({ kind: "SamlProvider", id: p.id, title: p.label, known: org })),
    );
  }
  if (kinds.has("OpenApiSpec")) {
    // The API does not echo a text source: a string `sourceText` asks the read for the latest version's text.
    yield batch(
      "OpenApiSpec",
      (await lists.openApiSpecs()).map((s) => ({
        kind: "OpenApiSpec",
        id: s.id,
        title: s.slug,
        known: { ...org, slug: s.slug, ...(s.sourceURL ? {} : { sourceText: "" }) },
      })),
    );
  }
  const grantees = granteeNames(lists);
  if (kinds.has("SpacePermission")) {
    const items: Listed[] = [];
    for (const space of await lists.spaces()) {
      const target: PermissionTarget = { kind: "space", spaceId: space.id };
      items.push(...(await grantsOn("SpacePermission", target, { spaceId: space.id }, space.title, grantees)));
    }
    yield batch("SpacePermission", items);
  }
  if (kinds.has("CollectionPermission")) {
    const items: Listed[] = [];
    for (const collection of treeOrder(await lists.collections())) {
      const target: PermissionTarget = { kind: "collection", collectionId: collection.id };
      const known = { collectionId: collection.id };
      items.push(...(await grantsOn("CollectionPermission", target, known, collection.title, grantees)));
    }
    yield batch("CollectionPermission", items);
  }

  if (!ENUMERATED_KINDS.some((kind) => kind.startsWith("Site") && kinds.has(kind))) return;
  const sites = (await lists.sites()).filter((s) => !options.siteId || s.id === options.siteId);
  if (options.siteId && sites.length === 0) throw new Error(`--site: no site "${options.siteId}" in the organization`);
  for (const site of sites) {
    const at = { id: site.id, title: site.title };
    const under = { organizationId, siteId: site.id };
    const where = `site "${site.title}"`;
    const item = (kind: string, id: string, title: string, known: Props): Listed => ({
      kind,
      id,
      title,
      known,
      siteId: site.id,
      under: where,
    });
    if (kinds.has("Site"))
      yield batch("Site", [{ kind: "Site", id: site.id, title: site.title, known: org, siteId: site.id }], at);
    if (kinds.has("SiteSection")) {
      const sections = await sharedListing(siteSectionsPath(organizationId, site.id), (c) =>
        listSiteSections(c, organizationId, site.id),
      );
      // A section is declared with the space it shows first: its default site space, else its first one.
      const items = sections.map((s) => {
        const own = s.siteSpaces.find((ss) => ss.default) ?? s.siteSpaces[0];
        return item("SiteSection", s.id, s.title, { ...under, ...(own ? { spaceId: own.space.id } : {}) });
      });
      yield batch("SiteSection", items, at);
    }
    if (kinds.has("SiteSectionGroup")) {
      const groups = await sharedListing(siteSectionGroupsPath(organizationId, site.id), (c) =>
        listSiteSectionGroups(c, organizationId, site.id),
      );
      yield batch(
        "SiteSectionGroup",
        groups.map((g) => item("SiteSectionGroup", g.id, g.title, under)),
        at,
      );
    }
    if (kinds.has("SiteSpace")) {
      const siteSpaces = await sharedListing(siteSpacesPath(organizationId, site.id), (c) =>
        listSiteSpaces(c, organizationId, site.id),
      );
      yield batch(
        "SiteSpace",
        siteSpaces.map((ss) => item("SiteSpace", ss.id, ss.title || ss.path, under)),
        at,
      );
    }
    if (kinds.has("SiteShareLink")) {
      const links = await sharedListing(siteShareLinksPath(organizationId, site.id), (c) =>
        listSiteShareLinks(c, organizationId, site.id),
      );
      yield batch(
        "SiteShareLink",
        links.map((l) => item("SiteShareLink", l.id, l.name ?? "share link", under)),
        at,
      );
    }
    if (kinds.has("SiteAdaptiveSchema")) {
      yield batch("SiteAdaptiveSchema", [item("SiteAdaptiveSchema", site.id, `${site.title} schema`, org)], at);
    }
    if (kinds.has("SiteStructure")) {
      yield batch("SiteStructure", [item("SiteStructure", site.id, `${site.title} navigation`, under)], at);
    }
    // Every site has visitor authentication; only a site whose readers sign in uses it.
    if (kinds.has("SiteVisitorAuth") && site.visibility === SIGNED_IN_VISIBILITY) {
      yield batch("SiteVisitorAuth", [item("SiteVisitorAuth", site.id, `${site.title} sign-in`, under)], at);
    }
    if (kinds.has("SiteRedirects") || kinds.has("SiteRedirect")) {
      const redirects = await sharedListing(siteRedirectsPath(organizationId, site.id), (c) =>
        listSiteRedirects(c, organizationId, site.id),
      );
      // A site's redirects as one authoritative SiteRedirects; a site without any has none to declare.
      if (kinds.has("SiteRedirects") && redirects.length > 0)
        yield batch("SiteRedirects", [item("SiteRedirects", site.id, `${site.title} redirects`, under)], at);
      if (kinds.has("SiteRedirect")) {
        yield batch(
          "SiteRedirect",
          redirects.map((r) => item("SiteRedirect", r.id, r.source, { ...under, source: r.source })),
          at,
        );
      }
    }
    if (kinds.has("SitePermission")) {
      const target: PermissionTarget = { kind: "site", organizationId, siteId: site.id };
      const grants = await grantsOn("SitePermission", target, under, site.title, grantees);
      yield batch(
        "SitePermission",
        grants.map((g) => ({ ...g, siteId: site.id })),
        at,
      );
    }
  }
}

/** Names of teams and members, listed once and only when a grant needs one. */
function granteeNames(lists: OrganizationLists) {
  let names: Promise<Map<string, string>> | undefined;
  return (grantee: Grantee, id: string): Promise<string> => {
    names ??= Promise.all([lists.teams(), lists.members()]).then(
      ([teams, members]) =>
        new Map([
          ...teams.map((t) => [`team/${t.id}`, t.title] as const),
          ...members.map((m) => [`user/${m.user.id}`, userName(m.user)] as const),
        ]),
    );
    return names.then((found) => found.get(`${grantee}/${id}`) ?? id);
  };
}

/** The team and user grants on one target, each with what its kind's read needs (the target's ids, the grantee). */
async function grantsOn(
  kind: string,
  target: PermissionTarget,
  targetIds: Props,
  targetTitle: string,
  name: (grantee: Grantee, id: string) => Promise<string>,
): Promise<Listed[]> {
  const targetId = Object.values(targetIds).at(-1) as string;
  const items: Listed[] = [];
  for (const grantee of ["team", "user"] as const) {
    const grants: ApiGrant[] = await sharedListing(granteesPath(target, grantee), (c) =>
      listGrants(c, target, grantee),
    );
    for (const grant of grants) {
      items.push({
        kind,
        id: `${targetId}/${grant.granteeId}`,
        title: `${await name(grantee, grant.granteeId)} on ${targetTitle}`,
        known: { ...targetIds, [`${grantee}Id`]: grant.granteeId },
      });
    }
  }
  return items;
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
