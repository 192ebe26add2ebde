/**
 * The walk of an organization that `import` turns into a program. It never maps API objects to inputs itself: each
 * object's inputs are what the kind's own `read` reports (the provider runtime, as a refresh runs it), run through the
 * kind's own `check`, and confirmed by the kind's own `diff` to adopt with no change. Objects the API can only list
 * are enumerated through the runtime's shared listings, so the reads that follow cost no request.
 */
import {
  apiClient,
  lifecycle,
  listCollections,
  listOpenApiSpecs,
  listSamlProviders,
  listSiteRedirects,
  listSiteSectionGroups,
  listSiteSections,
  listSiteShareLinks,
  listSiteSpaces,
  listSites,
  listSpaces,
  listTeams,
  listUsers,
  sharedListing,
  siteRedirectsPath,
  siteSectionGroupsPath,
  siteSectionsPath,
  siteShareLinksPath,
  siteSpacesPath,
} from "./provider";

type Props = Record<string, unknown>;
/** What the walk knows of an object before reading it: id, title, what its read needs (parents' ids), its site. */
type Entry = [id: string, title: string, known: Props, siteId?: string];
type Adoptable = { inputs: Props } | { reason: string };

/** One object of the organization and the inputs that adopt it unchanged. */
export interface WalkedObject {
  kind: string;
  id: string;
  /** What names it in the app: a title, label, name or slug. */
  title: string;
  /** The site it lives under, for site-family kinds. */
  siteId?: string;
  /** Declared inputs, `importId` excluded. */
  inputs: Props;
}

/** An object the walk found but cannot declare so that adopting it changes nothing. */
export interface Problem {
  kind: string;
  id: string;
  title: string;
  reason: string;
}

export interface NamedId {
  id: string;
  title: string;
}

export interface Walk {
  organizationId: string;
  /** Parents before children: collections (as a tree), teams, SAML providers, OpenAPI specs, then site by site. */
  objects: WalkedObject[];
  problems: Problem[];
  /** Objects the package does not manage, for the program's constants: spaces and users. */
  spaces: NamedId[];
  users: NamedId[];
}

/** The kinds the walk covers, in program order. Team members are declared in `Team.members`. */
export const WALKED_KINDS = [
  "Collection",
  "Team",
  "SamlProvider",
  "OpenApiSpec",
  "Site",
  "SiteSection",
  "SiteSectionGroup",
  "SiteSpace",
  "SiteShareLink",
  "SiteAdaptiveSchema",
  "SiteStructure",
  "SiteRedirects",
] as const;

export interface WalkOptions {
  organizationId: string;
  /** Only these kinds (default: all of WALKED_KINDS). */
  kinds?: readonly string[];
  /** Only this site (and the organization-level kinds). */
  siteId?: string;
  /** Progress lines, for stderr. */
  progress?: (line: string) => void;
}

export async function walkOrganization(options: WalkOptions): Promise<Walk> {
  const { organizationId } = options;
  const client = apiClient();
  const wanted = new Set(options.kinds ?? WALKED_KINDS);
  const progress = options.progress ?? (() => undefined);
  const objects: WalkedObject[] = [];
  const problems: Problem[] = [];
  const org = { organizationId };

  const record = (kind: string, [id, title, , siteId]: Entry, found: Adoptable) => {
    if ("reason" in found) problems.push({ kind, id, title, reason: found.reason });
    else objects.push({ kind, id, title, ...(siteId ? { siteId } : {}), inputs: found.inputs });
  };
  /** Reads run a few at a time; the results keep the listing's order. */
  const adoptAll = async <T>(kind: string, items: T[], entry: (item: T) => Entry) => {
    const entries = items.map(entry);
    const found = await mapLimited(entries, READS_IN_FLIGHT, ([id, , known]) => adoptable(kind, id, known));
    // An object deleted between the listing and its read is simply not there any more.
    entries.forEach((e, i) => {
      const result = found[i]!;
      if (!("gone" in result)) record(kind, e, result);
    });
  };

  if (wanted.has("Collection")) {
    await adoptAll("Collection", treeOrder(await listCollections(client, organizationId)), (c) => [c.id, c.title, org]);
  }
  if (wanted.has("Team")) await adoptAll("Team", await listTeams(client, organizationId), (t) => [t.id, t.title, org]);
  if (wanted.has("SamlProvider")) {
    const providers = await listSamlProviders(client, organizationId);
    await adoptAll("SamlProvider", providers, (p) => [p.id, p.label, org]);
  }
  if (wanted.has("OpenApiSpec")) {
    const specs = await listOpenApiSpecs(client, organizationId);
    // The API does not echo a text source: a string `sourceText` asks the read for the latest version's text.
    await adoptAll("OpenApiSpec", specs, (s) => [
      s.id,
      s.slug,
      { ...org, slug: s.slug, ...(s.sourceURL ? {} : { sourceText: "" }) },
    ]);
  }

  progress(`organization ${organizationId}: ${objects.length} objects (collections, teams, SAML, OpenAPI)`);
  const siteKinds = WALKED_KINDS.filter((kind) => kind.startsWith("Site"));
  if (siteKinds.some((kind) => wanted.has(kind))) {
    const sites = (await listSites(client, organizationId)).filter((s) => !options.siteId || s.id === options.siteId);
    if (options.siteId && sites.length === 0)
      throw new Error(`--site: no site "${options.siteId}" in the organization`);
    for (const site of sites) {
      const before = objects.length;
      const under = { organizationId, siteId: site.id };
      if (wanted.has("Site")) await adoptAll("Site", [site], (s) => [s.id, s.title, org, s.id]);
      if (wanted.has("SiteSection")) {
        const sections = await sharedListing(siteSectionsPath(organizationId, site.id), (c) =>
          listSiteSections(c, organizationId, site.id),
        );
        // A section is declared with the space it shows first: its default site space, else its first one.
        await adoptAll("SiteSection", sections, (s) => {
          const own = s.siteSpaces.find((ss) => ss.default) ?? s.siteSpaces[0];
          return [s.id, s.title, { ...under, ...(own ? { spaceId: own.space.id } : {}) }, site.id];
        });
      }
      if (wanted.has("SiteSectionGroup")) {
        const groups = await sharedListing(siteSectionGroupsPath(organizationId, site.id), (c) =>
          listSiteSectionGroups(c, organizationId, site.id),
        );
        await adoptAll("SiteSectionGroup", groups, (g) => [g.id, g.title, under, site.id]);
      }
      if (wanted.has("SiteSpace")) {
        const siteSpaces = await sharedListing(siteSpacesPath(organizationId, site.id), (c) =>
          listSiteSpaces(c, organizationId, site.id),
        );
        await adoptAll("SiteSpace", siteSpaces, (ss) => [ss.id, ss.title || ss.path, under, site.id]);
      }
      if (wanted.has("SiteShareLink")) {
        const links = await sharedListing(siteShareLinksPath(organizationId, site.id), (c) =>
          listSiteShareLinks(c, organizationId, site.id),
        );
        await adoptAll("SiteShareLink", links, (l) => [l.id, l.name ?? "share link", under, site.id]);
      }
      // A site has at most one adaptive schema; its read reports a schema without claims as none.
      if (wanted.has("SiteAdaptiveSchema")) {
        const found = await adoptable("SiteAdaptiveSchema", site.id, org);
        if (!("gone" in found)) record("SiteAdaptiveSchema", [site.id, `${site.title} schema`, org, site.id], found);
      }
      // Its navigation order as it is (adopting it sorts nothing); the sections' site spaces are left unmanaged.
      if (wanted.has("SiteStructure")) {
        const found = await adoptable("SiteStructure", site.id, under);
        if ("inputs" in found) delete found.inputs.siteSpaces;
        if (!("gone" in found)) record("SiteStructure", [site.id, `${site.title} navigation`, under, site.id], found);
      }
      // A site's redirects as one authoritative SiteRedirects (sites without any declare none); its read shares the listing.
      if (wanted.has("SiteRedirects")) {
        const path = siteRedirectsPath(organizationId, site.id);
        if ((await sharedListing(path, (c) => listSiteRedirects(c, organizationId, site.id))).length > 0) {
          const found = await adoptable("SiteRedirects", site.id, under);
          if (!("gone" in found)) record("SiteRedirects", [site.id, `${site.title} redirects`, under, site.id], found);
        }
      }
      progress(`site "${site.title}": ${objects.length - before} objects`);
    }
  }

  const referenced = new Set(objects.flatMap((o) => stringsOf(o.inputs)));
  const spaces = referenced.size > 0 ? await listSpaces(client, organizationId) : [];
  const members = objects.some((o) => o.kind === "Team") ? await listUsers(client, organizationId) : [];
  return {
    organizationId,
    objects,
    problems,
    spaces: spaces.filter((s) => referenced.has(s.id)).map((s) => ({ id: s.id, title: s.title })),
    users: members
      .filter((m) => referenced.has(m.user.id))
      .map((m) => ({ id: m.user.id, title: m.user.displayName || m.user.email?.split("@")[0] || m.user.id })),
  };
}

/**
 * The inputs that adopt one object with no change: the kind's read reports every input property's current value;
 * nulls the kind's check rejects mean "absent" to the API (the diff treats null and absent alike) and are left out,
 * as are values that leaving the property out gives anyway (defaults) or that mean nothing when declared.
 */
export async function adoptable(kind: string, id: string, known: Props): Promise<Adoptable | { gone: true }> {
  const kindLifecycle = lifecycle(kind);
  const read = await kindLifecycle.lookup(id, known);
  if (read.id === "") return { gone: true };
  const { importId: _importId, ...reported } = read.inputs ?? {};
  let candidate: Props = reported;
  let checked = await kindLifecycle.check({}, candidate);
  while (checked.failures?.length) {
    // A failure names its property in `property`, or only in its reason when the value is sensitive or huge.
    const failures = checked.failures;
    const nulls = Object.keys(candidate).filter(
      (key) =>
        candidate[key] === null && failures.some((f) => f.property === key || f.reason.startsWith(`${kind}.${key}:`)),
    );
    if (nulls.length === 0) {
      return {
        reason: `its current values fail the kind's check (${checked.failures.map((f) => f.reason).join("; ")})`,
      };
    }
    candidate = Object.fromEntries(Object.entries(candidate).filter(([key]) => !nulls.includes(key)));
    checked = await kindLifecycle.check({}, candidate);
  }
  const full = checked.inputs ?? {};
  const inputs: Props = {};
  for (const [key, value] of Object.entries(candidate)) {
    if (full[key] === undefined) continue;
    const { [key]: _dropped, ...without } = candidate;
    const omitted = (await kindLifecycle.check({}, without)).inputs?.[key];
    if (omitted !== undefined && JSON.stringify(omitted) === JSON.stringify(full[key])) continue;
    inputs[key] = value;
  }
  const final = await kindLifecycle.check({}, inputs);
  const diff = await kindLifecycle.diff(id, read.props ?? {}, final.inputs ?? {});
  if (final.failures?.length || diff.changes) {
    return { reason: "no declaration of its current values adopts it without a change (please report this)" };
  }
  return { inputs };
}

/** Reads of one kind in flight at once: fast on a big organization, gentle on a rate-limited token. */
const READS_IN_FLIGHT = 8;

async function mapLimited<T, R>(items: T[], limit: number, each: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await each(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
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

/** Every string an input holds at the depths where ids appear: properties, list items and their fields. */
export function stringsOf(inputs: Props): string[] {
  const found: string[] = [];
  for (const value of Object.values(inputs)) {
    if (typeof value === "string") found.push(value);
    if (!Array.isArray(value)) continue;
    for (const item of value) {
      if (typeof item === "string") found.push(item);
      else if (item && typeof item === "object") {
        for (const field of Object.values(item)) if (typeof field === "string") found.push(field);
      }
    }
  }
  return found;
}
