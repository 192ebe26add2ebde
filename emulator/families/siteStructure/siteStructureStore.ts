/**
 * The order of a section-based site's structure: sections, section groups and external links within a level (the
 * site root or a group), site spaces within theirs, groups nested in groups, and the external links themselves.
 * Composed over the tables like every store (store.ts), reading a site's levels through `SiteStore`.
 */
import { BadRequestError, NotFoundError } from "../../errors";
import type { Tables } from "../../tables";
import type { ItemRef, Placement } from "../content/records";
import type { SiteRec } from "../sites/records";
import type { ExternalLinkPatch, StructureItem } from "../sites/sitePatches";
import type { SiteStore } from "../sites/siteStore";
import type { ExternalLinkRec, SectionGroupRec, SiteSpaceRec } from "./records";

export class SiteStructureStore {
  private readonly tables: Tables;
  private readonly sites: SiteStore;

  constructor(tables: Tables, sites: SiteStore) {
    this.tables = tables;
    this.sites = sites;
  }

  /**
   * Moves a group under another group of its site (undefined: the site root), at the end of its new level. Groups
   * form a tree: a group cannot go under itself or one of its descendants (400).
   */
  setGroupParent(group: SectionGroupRec, parentGroupId: string | undefined): void {
    if (parentGroupId !== undefined && this.isSelfOrDescendant(group, parentGroupId)) {
      throw new BadRequestError(
        `parentSectionGroupId: cannot nest section group "${group.id}" inside itself or one of its descendants`,
      );
    }
    if (parentGroupId === group.parentGroupId) return;
    group.parentGroupId = parentGroupId;
    group.position = this.tables.nextPosition();
  }

  /** True when the group `candidateId` is `group` or one of its descendants. */
  private isSelfOrDescendant(group: SectionGroupRec, candidateId: string): boolean {
    let cur = this.tables.sectionGroups.get(candidateId);
    for (let i = 0; cur && i < 1000; i++) {
      if (cur.id === group.id) return true;
      cur = cur.parentGroupId ? this.tables.sectionGroups.get(cur.parentGroupId) : undefined;
    }
    return false;
  }

  /**
   * Adds an external link at the end of its level (the official document: "links go last; sort after"). Links need a
   * section-based site, and a group of the same site (400 each).
   */
  addExternalLink(
    site: SiteRec,
    fields: Omit<ExternalLinkRec, "id" | "siteId" | "position" | "draft"> & { draft?: boolean },
  ) {
    this.requireSectionBased(site);
    const link: ExternalLinkRec = {
      ...fields,
      id: this.tables.newId(),
      siteId: site.id,
      draft: fields.draft ?? false,
      position: this.tables.nextPosition(),
    };
    this.tables.externalLinks.set(link.id, link);
    return link;
  }

  /** Applies a PATCH; a link moved to another level goes to its end, as a group moved by `setGroupParent` does. */
  updateExternalLink(site: SiteRec, link: ExternalLinkRec, patch: ExternalLinkPatch): void {
    if (patch.groupId !== undefined) {
      const groupId = patch.groupId === null ? undefined : this.sites.groupRef(site, patch.groupId, "parent").id;
      if (groupId !== link.groupId) {
        link.groupId = groupId;
        link.position = this.tables.nextPosition();
      }
    }
    if (patch.title !== undefined) link.title = patch.title;
    if (patch.url !== undefined) link.url = patch.url;
    if (patch.draft !== undefined) link.draft = patch.draft;
    if (patch.description !== undefined) link.description = patch.description ?? undefined;
    if (patch.icon !== undefined) link.icon = patch.icon ?? undefined;
    if (patch.condition !== undefined) link.condition = patch.condition ?? undefined;
    if (patch.localizedTitle !== undefined) link.localizedTitle = patch.localizedTitle ?? undefined;
    if (patch.localizedDescription !== undefined) link.localizedDescription = patch.localizedDescription ?? undefined;
  }

  deleteExternalLink(id: string): boolean {
    return this.tables.remove("externalLinks", id);
  }

  /** "External links require a section-based site structure" (official `addExternalLinkToSite`). */
  private requireSectionBased(site: SiteRec): void {
    if (this.sites.sectionsOf(site.id).length === 0)
      throw new BadRequestError(
        `site "${site.id}" has no sections: external links require a section-based site structure`,
      );
  }

  // ---- order within a level

  /** Structural siblings (sections, groups and links) under a group, or the site root when parent is undefined. */
  structureSiblings(siteId: string, parentGroupId: string | undefined): StructureItem[] {
    const items: StructureItem[] = [];
    for (const s of this.sites.sectionsOf(siteId))
      if (s.groupId === parentGroupId) items.push({ kind: "site-section", rec: s });
    for (const g of this.sites.groupsOf(siteId)) {
      if (g.parentGroupId === parentGroupId) items.push({ kind: "site-section-group", rec: g });
    }
    for (const l of this.sites.linksOf(siteId))
      if (l.groupId === parentGroupId) items.push({ kind: "site-external-link", rec: l });
    return items.sort((a, b) => a.rec.position - b.rec.position);
  }

  /**
   * Whether a pointer names a site space, section or section group of `site`: what tells an unknown pointer (404)
   * from one that is not a sibling (400) in every move of the site's structure.
   */
  siteItemExists(site: SiteRec, p: ItemRef): boolean {
    const tables: Record<string, Map<string, { siteId: string }>> = {
      "site-space": this.tables.siteSpaces,
      "site-section": this.tables.sections,
      "site-section-group": this.tables.sectionGroups,
      "site-external-link": this.tables.externalLinks,
    };
    return tables[p.kind]?.get(p.id)?.siteId === site.id;
  }

  /** The section, group or link `id` as an item of the structure, when it is one of that kind. */
  structureItem(kind: string, id: string): StructureItem | undefined {
    if (kind === "site-section") {
      const rec = this.tables.sections.get(id);
      return rec && { kind, rec };
    }
    if (kind === "site-section-group") {
      const rec = this.tables.sectionGroups.get(id);
      return rec && { kind, rec };
    }
    if (kind === "site-external-link") {
      const rec = this.tables.externalLinks.get(id);
      return rec && { kind, rec };
    }
    return undefined;
  }

  /** Moves a site space among the site spaces of its level (its section, or the site root). */
  moveSiteSpace(site: SiteRec, ss: SiteSpaceRec, placement: Placement | undefined): void {
    const siblings = this.sites.siteSpacesIn(site.id, ss.sectionId).map((rec) => ({ kind: "site-space", rec }));
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
    for (const s of others) s.rec.position = this.tables.nextPosition();
  }
}
