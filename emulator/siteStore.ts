/**
 * The site-structure half of the store: sites, sections, section groups, site spaces and share links, with their
 * invariants (one default section per site and one default site space per level, unique paths per level, what a
 * section's or a site's creation and deletion bring along). Store (store.ts) adds the other kinds.
 */
import { BadRequestError, NotFoundError } from "./errors";
import { slugify } from "./ids";
import type { ItemRef, Placement, SectionGroupRec, SectionRec, SiteRec, SiteSpaceRec, SpaceRec } from "./records";
import { Tables } from "./tables";

export class SiteStore extends Tables {
  sectionsOf(siteId: string): SectionRec[] {
    return [...this.sections.values()].filter((s) => s.siteId === siteId).sort((a, b) => a.position - b.position);
  }

  groupsOf(siteId: string): SectionGroupRec[] {
    return [...this.sectionGroups.values()].filter((g) => g.siteId === siteId).sort((a, b) => a.position - b.position);
  }

  siteSpacesOf(siteId: string): SiteSpaceRec[] {
    return [...this.siteSpaces.values()].filter((s) => s.siteId === siteId).sort((a, b) => a.position - b.position);
  }

  /** Site spaces of one level: a section, or the root level (sectionId undefined). */
  siteSpacesIn(siteId: string, sectionId: string | undefined): SiteSpaceRec[] {
    return this.siteSpacesOf(siteId).filter((s) => s.sectionId === sectionId);
  }

  defaultSection(siteId: string): SectionRec | undefined {
    return this.sectionsOf(siteId).find((s) => s.isDefault);
  }

  /** Makes sure a level with site spaces has exactly one default (the first one when none is). */
  ensureDefaultSiteSpace(siteId: string, sectionId: string | undefined): void {
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

  ensureDefaultSection(siteId: string): void {
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
  uniquePath(base: string, taken: Iterable<string>): string {
    const used = new Set(taken);
    if (!used.has(base)) return base;
    for (let i = 2; ; i++) {
      const suffix = `-${i}`;
      const candidate = `${base.slice(0, 100 - suffix.length)}${suffix}`;
      if (!used.has(candidate)) return candidate;
    }
  }

  deleteSiteSpace(id: string): boolean {
    const ss = this.siteSpaces.get(id);
    if (!ss) return false;
    this.siteSpaces.delete(id);
    this.ensureDefaultSiteSpace(ss.siteId, ss.sectionId);
    return true;
  }

  /** Deletes a section with its site spaces (and thereby its group membership). */
  deleteSection(id: string): boolean {
    const section = this.sections.get(id);
    if (!section) return false;
    for (const ss of this.siteSpacesIn(section.siteId, section.id)) this.siteSpaces.delete(ss.id);
    this.sections.delete(id);
    this.ensureDefaultSection(section.siteId);
    return true;
  }

  /** Deletes a section group: its sections and child groups move up to the group's parent level. */
  deleteSectionGroup(id: string): boolean {
    const group = this.sectionGroups.get(id);
    if (!group) return false;
    for (const s of this.sections.values()) if (s.groupId === id) s.groupId = group.parentGroupId;
    for (const g of this.sectionGroups.values()) if (g.parentGroupId === id) g.parentGroupId = group.parentGroupId;
    this.sectionGroups.delete(id);
    return true;
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
    const ss: SiteSpaceRec = {
      id: this.newId(),
      siteId: site.id,
      sectionId,
      spaceId: space.id,
      path: this.uniquePath(
        slugify(space.title, "space"),
        level.map((s) => s.path),
      ),
      isDefault: level.length === 0,
      draft: extra.draft ?? false,
      position: this.nextPosition(),
    };
    if (extra.pageId !== undefined) ss.pageId = extra.pageId;
    if (extra.title !== undefined) ss.title = extra.title;
    this.siteSpaces.set(ss.id, ss);
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
      id: this.newId(),
      siteId: site.id,
      title: fields.title,
      path: this.uniquePath(
        slugify(fields.title, "section"),
        existing.map((s) => s.path),
      ),
      groupId: fields.groupId,
      isDefault: existing.length === 0,
      draft: fields.draft ?? false,
      position: this.nextPosition(),
      createdAt: this.now(),
    };
    if (fields.icon !== undefined) section.icon = fields.icon;
    this.sections.set(section.id, section);
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
      id: this.newId(),
      siteId: site.id,
      title: fields.title,
      parentGroupId: fields.parentGroupId,
      draft: fields.draft ?? false,
      position: this.nextPosition(),
    };
    if (fields.icon !== undefined) group.icon = fields.icon;
    this.sectionGroups.set(group.id, group);
    for (const s of sections) this.setSectionGroup(s, group.id);
    return group;
  }

  /** Puts a section into a group (undefined: the site root), at the end of its new level. */
  setSectionGroup(section: SectionRec, groupId: string | undefined): void {
    if (section.groupId === groupId) return;
    section.groupId = groupId;
    section.position = this.nextPosition();
  }

  deleteShareLink(id: string): boolean {
    return this.shareLinks.delete(id);
  }

  /** Deletes a site and everything that belongs to it. */
  deleteSite(id: string): boolean {
    if (!this.sites.has(id)) return false;
    for (const [k, v] of this.siteSpaces) if (v.siteId === id) this.siteSpaces.delete(k);
    for (const [k, v] of this.sections) if (v.siteId === id) this.sections.delete(k);
    for (const [k, v] of this.sectionGroups) if (v.siteId === id) this.sectionGroups.delete(k);
    for (const [k, v] of this.shareLinks) if (v.siteId === id) this.shareLinks.delete(k);
    for (const [k, v] of this.redirects) if (v.siteId === id) this.redirects.delete(k);
    this.adaptiveSchemas.delete(id);
    this.siteCustomizations.delete(id);
    this.publishingAuths.delete(id);
    this.sites.delete(id);
    return true;
  }

  // ---- order within a level

  /** Structural siblings (sections and groups) under a group, or the site root when parent is undefined. */
  structureSiblings(siteId: string, parentGroupId: string | undefined) {
    const items: { kind: "site-section" | "site-section-group"; rec: SectionRec | SectionGroupRec }[] = [];
    for (const s of this.sectionsOf(siteId))
      if (s.groupId === parentGroupId) items.push({ kind: "site-section", rec: s });
    for (const g of this.groupsOf(siteId)) {
      if (g.parentGroupId === parentGroupId) items.push({ kind: "site-section-group", rec: g });
    }
    return items.sort((a, b) => a.rec.position - b.rec.position);
  }

  /**
   * Whether a pointer names a site space, section or section group of `site`: what tells an unknown pointer (404)
   * from one that is not a sibling (400) in every move of the site's structure.
   */
  siteItemExists(site: SiteRec, p: ItemRef): boolean {
    const items: Map<string, { siteId: string }> =
      p.kind === "site-space" ? this.siteSpaces : p.kind === "site-section" ? this.sections : this.sectionGroups;
    return items.get(p.id)?.siteId === site.id;
  }

  /** Moves a site space among the site spaces of its level (its section, or the site root). */
  moveSiteSpace(site: SiteRec, ss: SiteSpaceRec, placement: Placement | undefined): void {
    const siblings = this.siteSpacesIn(site.id, ss.sectionId).map((rec) => ({ kind: "site-space", rec }));
    this.reorder(site, siblings, { kind: "site-space", rec: ss }, placement);
  }

  /** Moves a section or section group among the sections and groups of its parent group (or the site root). */
  moveInStructure(
    site: SiteRec,
    id: string,
    parentGroupId: string | undefined,
    placement: Placement | undefined,
  ): void {
    const siblings = this.structureSiblings(site.id, parentGroupId);
    const self = siblings.find((s) => s.rec.id === id);
    if (!self) throw new NotFoundError(`"${id}" is not an item of its level in site "${site.id}"`);
    this.reorder(site, siblings, self, placement);
  }

  /**
   * Moves `item` among `siblings` (which contain it) before/after a sibling. Unknown pointer ids → 404, pointers to
   * items that are not siblings → 400.
   */
  private reorder<T extends { rec: { id: string; position: number }; kind: string }>(
    site: SiteRec,
    siblings: T[],
    item: T,
    placement: Placement | undefined,
  ): void {
    const others = siblings.filter((s) => s.rec.id !== item.rec.id);
    let index = others.length;
    const pointer = placement?.before ?? placement?.after;
    if (pointer) {
      const field = placement?.before ? "position.before" : "position.after";
      if (pointer.id === item.rec.id) throw new BadRequestError(`${field}: cannot position an item relative to itself`);
      const at = others.findIndex((s) => s.kind === pointer.kind && s.rec.id === pointer.id);
      if (at < 0) {
        if (!this.siteItemExists(site, pointer)) {
          throw new NotFoundError(`${field}: ${pointer.kind} "${pointer.id}" not found`);
        }
        throw new BadRequestError(`${field}: ${pointer.kind} "${pointer.id}" is not at the same level`);
      }
      index = placement?.before ? at : at + 1;
    }
    others.splice(index, 0, item);
    for (const s of others) s.rec.position = this.nextPosition();
  }
}
