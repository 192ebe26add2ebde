/**
 * Sites and their structure: sections, section groups and site spaces, with their invariants (one default section
 * per site and one default site space per level, unique paths per level, what a section's or a site's creation
 * brings along; what its deletion takes, tables.ts derives). Composed over the tables like every store (store.ts);
 * the order of the structure and external links are siteStructureStore.ts's, what else a site has
 * siteSettingsStore.ts's, redirects redirectStore.ts's.
 */
import { BadRequestError } from "../../errors";
import { slugify } from "../../ids";
import type { Tables } from "../../tables";
import type { SpaceRec } from "../content/records";
import { checkPageOf } from "../content/spacePages";
import type { ExternalLinkRec, SectionGroupRec, SectionRec, SiteSpaceRec } from "../siteStructure/records";
import type { SiteRec } from "./records";
import type { SectionPatch, SitePatch, SiteSpacePatch } from "./sitePatches";

export class SiteStore {
  private readonly tables: Tables;

  constructor(tables: Tables) {
    this.tables = tables;
  }

  sectionsOf(siteId: string): SectionRec[] {
    return [...this.tables.sections.values()]
      .filter((s) => s.siteId === siteId)
      .sort((a, b) => a.position - b.position);
  }

  groupsOf(siteId: string): SectionGroupRec[] {
    return [...this.tables.sectionGroups.values()]
      .filter((g) => g.siteId === siteId)
      .sort((a, b) => a.position - b.position);
  }

  linksOf(siteId: string): ExternalLinkRec[] {
    return [...this.tables.externalLinks.values()]
      .filter((l) => l.siteId === siteId)
      .sort((a, b) => a.position - b.position);
  }

  siteSpacesOf(siteId: string): SiteSpaceRec[] {
    return [...this.tables.siteSpaces.values()]
      .filter((s) => s.siteId === siteId)
      .sort((a, b) => a.position - b.position);
  }

  /** Site spaces of one level: a section, or the root level (sectionId undefined). */
  siteSpacesIn(siteId: string, sectionId: string | undefined): SiteSpaceRec[] {
    return this.siteSpacesOf(siteId).filter((s) => s.sectionId === sectionId);
  }

  /** A section of `site` named in a body field (unknown, or of another site → 400 naming the field). */
  sectionRef(site: SiteRec, id: string, field: string): SectionRec {
    const s = this.tables.sections.get(id);
    if (!s || s.siteId !== site.id)
      throw new BadRequestError(`${field}: site section "${id}" not found in site "${site.id}"`);
    return s;
  }

  /** A section group of `site` named in a body field (400 naming the field otherwise). */
  groupRef(site: SiteRec, id: string, field: string): SectionGroupRec {
    const g = this.tables.sectionGroups.get(id);
    if (!g || g.siteId !== site.id) {
      throw new BadRequestError(`${field}: site section group "${id}" not found in site "${site.id}"`);
    }
    return g;
  }

  /** A live space of the organization named in a body field: a site shows its own organization's spaces only. */
  spaceRef(orgId: string, id: string, field: string): SpaceRec {
    const space = this.tables.spaces.get(id);
    if (!space || space.deletedAt || space.orgId !== orgId) {
      throw new BadRequestError(`${field}: space "${id}" not found in organization "${orgId}"`);
    }
    return space;
  }

  defaultSection(siteId: string): SectionRec | undefined {
    return this.sectionsOf(siteId).find((s) => s.isDefault);
  }

  /** Makes sure a level with site spaces has exactly one default (the first one when none is). */
  private ensureDefaultSiteSpace(siteId: string, sectionId: string | undefined): void {
    const level = this.siteSpacesIn(siteId, sectionId);
    const defaults = level.filter((s) => s.isDefault);
    if (defaults.length === 1) return;
    level.forEach((s, i) => {
      s.isDefault = defaults.length === 0 ? i === 0 : s === defaults[0];
    });
  }

  setDefaultSiteSpace(siteSpace: SiteSpaceRec): void {
    for (const s of this.siteSpacesIn(siteSpace.siteId, siteSpace.sectionId)) s.isDefault = s.id === siteSpace.id;
  }

  private ensureDefaultSection(siteId: string): void {
    const sections = this.sectionsOf(siteId);
    const defaults = sections.filter((s) => s.isDefault);
    if (defaults.length === 1) return;
    sections.forEach((s, i) => {
      s.isDefault = defaults.length === 0 ? i === 0 : s === defaults[0];
    });
  }

  setDefaultSection(section: SectionRec): void {
    for (const s of this.sectionsOf(section.siteId)) s.isDefault = s.id === section.id;
  }

  /** A path derived from `base`, unique among `taken`. */
  private uniquePath(base: string, taken: Iterable<string>): string {
    const used = new Set(taken);
    if (!used.has(base)) return base;
    for (let i = 2; ; i++) {
      const suffix = `-${i}`;
      const candidate = `${base.slice(0, 100 - suffix.length)}${suffix}`;
      if (!used.has(candidate)) return candidate;
    }
  }

  deleteSiteSpace(id: string): boolean {
    const ss = this.tables.siteSpaces.get(id);
    if (!ss) return false;
    this.tables.remove("siteSpaces", id);
    this.ensureDefaultSiteSpace(ss.siteId, ss.sectionId);
    return true;
  }

  /** Deletes a section with its site spaces (and thereby its group membership): tables.ts derives the cascade. */
  deleteSection(id: string): boolean {
    const section = this.tables.sections.get(id);
    if (!section) return false;
    this.tables.remove("sections", id);
    this.ensureDefaultSection(section.siteId);
    return true;
  }

  /** Deletes a section group: its sections and child groups move up to the group's parent level. */
  deleteSectionGroup(id: string): boolean {
    return this.tables.remove("sectionGroups", id);
  }

  /**
   * Adds a site space for `space` to a level (a section, or the root when sectionId is undefined): its path is a slug
   * of the space title unique in the level, and the first site space of a level is its default. The same space twice
   * in one level → 400.
   */
  addSiteSpace(
    site: SiteRec,
    space: SpaceRec,
    sectionId: string | undefined,
    extra: { draft?: boolean; pageId?: string | null; title?: string } = {},
  ): SiteSpaceRec {
    const level = this.siteSpacesIn(site.id, sectionId);
    if (level.some((s) => s.spaceId === space.id)) {
      throw new BadRequestError(
        `spaceId: space "${space.id}" is already in ${sectionId ? `site section "${sectionId}"` : "the root level of the site"}`,
      );
    }
    checkPageOf(space, extra.pageId, "pageId");
    const ss: SiteSpaceRec = {
      id: this.tables.newId(),
      siteId: site.id,
      sectionId,
      spaceId: space.id,
      path: this.uniquePath(
        slugify(space.title, "space"),
        level.map((s) => s.path),
      ),
      isDefault: level.length === 0,
      draft: extra.draft ?? false,
      position: this.tables.nextPosition(),
    };
    if (extra.pageId !== undefined) ss.pageId = extra.pageId;
    if (extra.title !== undefined) ss.title = extra.title;
    this.tables.siteSpaces.set(ss.id, ss);
    return ss;
  }

  /**
   * Adds a section whose default site space shows `space`. The first section of a site becomes its default section,
   * and the site's root-level site spaces move into it (as non-default variants, unless one already shows `space`).
   */
  addSection(
    site: SiteRec,
    space: SpaceRec,
    fields: { title: string; groupId?: string; icon?: string; draft?: boolean; pageId?: string },
  ): SectionRec {
    const existing = this.sectionsOf(site.id);
    const section: SectionRec = {
      id: this.tables.newId(),
      siteId: site.id,
      title: fields.title,
      path: this.uniquePath(
        slugify(fields.title, "section"),
        existing.map((s) => s.path),
      ),
      groupId: fields.groupId,
      isDefault: existing.length === 0,
      draft: fields.draft ?? false,
      position: this.tables.nextPosition(),
      createdAt: this.tables.now(),
    };
    if (fields.icon !== undefined) section.icon = fields.icon;
    this.tables.sections.set(section.id, section);
    let spaceShown = false;
    if (existing.length === 0) {
      for (const ss of this.siteSpacesIn(site.id, undefined)) {
        ss.sectionId = section.id;
        if (ss.spaceId === space.id) {
          spaceShown = true;
          this.setDefaultSiteSpace(ss);
        }
      }
    }
    if (!spaceShown) {
      const ss = this.addSiteSpace(site, space, section.id, { draft: fields.draft, pageId: fields.pageId });
      this.setDefaultSiteSpace(ss);
    }
    return section;
  }

  /** Adds a section group; `sections` (of the same site) move into it. */
  addSectionGroup(
    site: SiteRec,
    fields: { title: string; parentGroupId?: string; icon?: string; draft?: boolean },
    sections: SectionRec[],
  ): SectionGroupRec {
    const group: SectionGroupRec = {
      id: this.tables.newId(),
      siteId: site.id,
      title: fields.title,
      parentGroupId: fields.parentGroupId,
      draft: fields.draft ?? false,
      position: this.tables.nextPosition(),
    };
    if (fields.icon !== undefined) group.icon = fields.icon;
    this.tables.sectionGroups.set(group.id, group);
    for (const s of sections) this.setSectionGroup(s, group.id);
    return group;
  }

  /**
   * Applies a section's PATCH once every field is checked, in this order: the default site space must be one of the
   * section's, the path stays unique among the site's sections, and a group must be one of the site's (400 each).
   */
  updateSection(site: SiteRec, section: SectionRec, patch: SectionPatch): void {
    let defaultSiteSpace: SiteSpaceRec | undefined;
    if (patch.defaultSiteSpace !== undefined) {
      defaultSiteSpace = this.tables.siteSpaces.get(patch.defaultSiteSpace);
      if (!defaultSiteSpace || defaultSiteSpace.siteId !== site.id || defaultSiteSpace.sectionId !== section.id) {
        throw new BadRequestError(
          `defaultSiteSpace: site space "${patch.defaultSiteSpace}" is not a site space of section "${section.id}"`,
        );
      }
    }
    if (patch.path !== undefined && patch.path !== section.path) {
      const clash = this.sectionsOf(site.id).find((s) => s.id !== section.id && s.path === patch.path);
      if (clash) throw new BadRequestError(`path: "${patch.path}" is already used by site section "${clash.id}"`);
    }
    const group = patch.siteSectionGroupId
      ? this.groupRef(site, patch.siteSectionGroupId, "siteSectionGroupId")
      : undefined;

    if (patch.title !== undefined) section.title = patch.title;
    if (patch.localizedTitle !== undefined) section.localizedTitle = patch.localizedTitle;
    if (patch.path !== undefined) section.path = patch.path;
    if (patch.condition !== undefined) section.condition = patch.condition ?? undefined;
    if (patch.icon !== undefined) section.icon = patch.icon ?? undefined;
    if (patch.draft !== undefined) section.draft = patch.draft;
    if (patch.description !== undefined) section.description = patch.description ?? undefined;
    if (patch.localizedDescription !== undefined) section.localizedDescription = patch.localizedDescription;
    if (patch.siteSectionGroupId !== undefined) this.setSectionGroup(section, group?.id);
    if (defaultSiteSpace) this.setDefaultSiteSpace(defaultSiteSpace);
  }

  /**
   * Applies a site space's PATCH once every field is checked: within its level (section or root) the path stays
   * unique and a space is shown once; a new space must be a live space of the site's organization (400 each).
   */
  updateSiteSpace(site: SiteRec, ss: SiteSpaceRec, patch: SiteSpacePatch): void {
    const level = this.siteSpacesIn(site.id, ss.sectionId).filter((s) => s.id !== ss.id);
    if (patch.path !== undefined && patch.path !== ss.path) {
      const clash = level.find((s) => s.path === patch.path);
      if (clash) throw new BadRequestError(`path: "${patch.path}" is already used by site space "${clash.id}"`);
    }
    let spaceId = ss.spaceId;
    if (patch.spaceId !== undefined && patch.spaceId !== ss.spaceId) {
      spaceId = this.spaceRef(site.orgId, patch.spaceId, "spaceId").id;
      if (level.some((s) => s.spaceId === spaceId)) {
        throw new BadRequestError(`spaceId: space "${spaceId}" is already at this level of the site`);
      }
    }
    const space = this.tables.spaces.get(spaceId);
    if (space) checkPageOf(space, patch.pageId, "pageId");
    // Official: "If not set, the page will remain unchanged unless spaceId is changed, in which case the custom home
    // page will be removed."
    if (spaceId !== ss.spaceId && patch.pageId === undefined) delete ss.pageId;
    ss.spaceId = spaceId;
    if (patch.path !== undefined) ss.path = patch.path;
    if (patch.condition !== undefined) ss.condition = patch.condition ?? undefined;
    if (patch.pageId !== undefined) ss.pageId = patch.pageId;
    if (patch.hidden !== undefined) ss.hidden = patch.hidden;
    if (patch.draft !== undefined) ss.draft = patch.draft;
  }

  /** Puts a section into a group (undefined: the site root), at the end of its new level. */
  setSectionGroup(section: SectionRec, groupId: string | undefined): void {
    if (section.groupId === groupId) return;
    section.groupId = groupId;
    section.position = this.tables.nextPosition();
  }

  /** A new site of an organization showing `spaces` at its root level (a space listed twice → 400, nothing made). */
  createSite(
    orgId: string,
    fields: { title: string; type: string; visibility: string },
    spaces: readonly SpaceRec[],
  ): SiteRec {
    const seen = new Set<string>();
    spaces.forEach((s, i) => {
      if (seen.has(s.id)) throw new BadRequestError(`spaces[${i}]: space "${s.id}" is listed twice`);
      seen.add(s.id);
    });
    const site: SiteRec = {
      id: this.tables.newId(),
      orgId,
      ...fields,
      published: false,
      createdAt: this.tables.now(),
      agentsContext: "excluded",
      defaultLevel: "inherit",
    };
    this.tables.sites.set(site.id, site);
    for (const space of spaces) this.addSiteSpace(site, space, undefined);
    return site;
  }

  /**
   * Applies a site's PATCH once every reference is checked (400 naming the field): the default section must be one
   * of the site's; the default site space must be in the level that shows first — the default section (the new one
   * when both change) or, without sections, the root; the style guide must be a live style guide space of the
   * organization (official: "The space must be a style guide owned by the same organization").
   */
  updateSite(site: SiteRec, patch: SitePatch): void {
    const section =
      patch.defaultSiteSection !== undefined
        ? this.sectionRef(site, patch.defaultSiteSection, "defaultSiteSection")
        : undefined;
    let siteSpace: SiteSpaceRec | undefined;
    if (patch.defaultSiteSpace !== undefined) {
      const ss = this.tables.siteSpaces.get(patch.defaultSiteSpace);
      if (!ss || ss.siteId !== site.id) {
        throw new BadRequestError(
          `defaultSiteSpace: site space "${patch.defaultSiteSpace}" not found in site "${site.id}"`,
        );
      }
      const defaultSectionId = (section ?? this.defaultSection(site.id))?.id;
      if (ss.sectionId !== defaultSectionId) {
        throw new BadRequestError(
          `defaultSiteSpace: site space "${ss.id}" must be in the ${defaultSectionId ? "default section" : "root level"} of the site`,
        );
      }
      siteSpace = ss;
    }
    if (patch.styleguide && this.spaceRef(site.orgId, patch.styleguide, "styleguide").type !== "styleguide") {
      throw new BadRequestError(
        `styleguide: space "${patch.styleguide}" is not a style guide (make one with POST /orgs/{organizationId}/sites/{siteId}/styleguide)`,
      );
    }

    if (patch.title !== undefined) site.title = patch.title;
    if (patch.visibility !== undefined) site.visibility = patch.visibility;
    if (patch.basename !== undefined) site.basename = patch.basename;
    if (patch.adaptiveContent !== undefined) site.adaptiveContent = patch.adaptiveContent.enabled;
    if (patch.defaultLevel !== undefined) site.defaultLevel = patch.defaultLevel;
    if (patch.proxy !== undefined) site.proxy = patch.proxy ?? undefined;
    if (patch.styleguide !== undefined) site.styleguideSpaceId = patch.styleguide ?? undefined;
    if (patch.agentsContext !== undefined) site.agentsContext = patch.agentsContext;
    if (section) this.setDefaultSection(section);
    if (siteSpace) this.setDefaultSiteSpace(siteSpace);
  }

  /** Deletes a site and everything that belongs to it (the cascade tables.ts derives from each table's parents). */
  deleteSite(id: string): boolean {
    return this.tables.remove("sites", id);
  }
}
