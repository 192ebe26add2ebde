/**
 * `docs-platform import --split`: one walk of the organization written as several projects, one for the
 * organization-level objects and one per site with what lives under it, so that no stack holds the whole
 * organization. The file backend writes a stack's whole state after every step, so one stack's cost grows with the
 * square of its resources; split, each stack stays small and its cost linear in the organization.
 *
 * A site's project refers to the organization's objects it needs (the spaces it publishes, the teams granted on it,
 * installations) by their ids, as constants at the top of its program, not through stack references: an adopted
 * object keeps its id for life (a change that would replace it is refused unless allowed), so the ids are as stable
 * as an output would be, and a site's stack runs without reading another stack's state (no backend access across
 * projects, no order to `pulumi up` them in).
 */
import { slugify } from "./names";
import { definitions, siteRootKind } from "./provider";
import type { NamedId, Walk, WalkedObject } from "./walk";

const SITE_KIND = siteRootKind(definitions);

/** Above this many resources, `import` without `--split` advises it (README, "Large organizations"). */
export const SPLIT_ADVISED_ABOVE = 1_000;

/** One project of a split import. */
export interface SplitPart {
  /** The folder under `--out` and the Pulumi project name. */
  name: string;
  walk: Walk;
  /** The site the project holds, when it holds one. */
  site?: NamedId;
  /** Set when the site's title makes no project name of its own (nothing but symbols, or taken): what was used. */
  renamed?: string;
}

/** The site an object belongs to: its own site, or the site its `siteId` input names (a site's Git Sync, a grant). */
function siteOf(object: WalkedObject, sites: ReadonlySet<string>): string | undefined {
  if (object.kind === SITE_KIND) return object.id;
  if (object.siteId) return object.siteId;
  const input = object.inputs.siteId;
  return typeof input === "string" && sites.has(input) ? input : undefined;
}

/**
 * The organization's project (named `<name>-organization`) and one per site (`<name>-<slug of its title>`), each a
 * walk of its own objects. A site project's walk lists the organization's spaces among those it does not declare, so
 * its program names them by title.
 */
export function splitWalk(walk: Walk, name: string): SplitPart[] {
  const sites = walk.objects.filter((object) => object.kind === SITE_KIND);
  const siteIds = new Set(sites.map((site) => site.id));
  const bySite = new Map<string, WalkedObject[]>(sites.map((site) => [site.id, []]));
  const organization: WalkedObject[] = [];
  for (const object of walk.objects) {
    const site = siteOf(object, siteIds);
    (site === undefined ? organization : bySite.get(site)!).push(object);
  }
  const declaredSpaces: NamedId[] = organization
    .filter((object) => object.kind === "Space")
    .map(({ id, title }) => ({ id, title }));
  const taken = new Set([`${name}-organization`]);
  const parts: SplitPart[] = [
    { name: `${name}-organization`, walk: { ...walk, objects: organization, problems: walk.problems } },
  ];
  for (const site of sites) {
    const slug = slugify(site.title);
    let projectName = `${name}-${slug || `site-${slugify(site.id) || "untitled"}`}`;
    for (let n = 2; taken.has(projectName); n++) projectName = `${name}-${slug || "site"}-${n}`;
    taken.add(projectName);
    const own = slug !== "" && projectName === `${name}-${slug}`;
    parts.push({
      name: projectName,
      site: { id: site.id, title: site.title },
      ...(own ? {} : { renamed: projectName }),
      walk: {
        ...walk,
        objects: bySite.get(site.id)!,
        problems: [],
        spaces: [...walk.spaces, ...declaredSpaces],
      },
    });
  }
  return parts;
}
