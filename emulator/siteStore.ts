/**
 * Sites and what belongs to one: sections, section groups, site spaces, share links, the adaptive schema, the
 * customization, the publishing auth, MCP servers and the agent settings, with their invariants (one default section
 * per site and one default site space per level, unique paths per level, what a section's or a site's creation and
 * deletion bring along). Composed over the tables like every store (store.ts); redirects have their own
 * (redirectStore.ts).
 */
import { BadRequestError, NotFoundError } from "./errors";
import { randomToken, slugify } from "./ids";
import type {
  AdaptiveSchemaRec,
  ExternalLinkRec,
  ItemRef,
  Placement,
  PublishingAuthRec,
  SectionGroupRec,
  SectionRec,
  ShareLinkRec,
  SiteAgentSettings,
  SiteAgentSettingsRec,
  SiteCustomizationRec,
  SiteMcpServerRec,
  SiteRec,
  SiteSpaceRec,
  SpaceRec,
} from "./records";
import type { Tables } from "./tables";
import type { DefaultLevel } from "./validate";

/** The settable fields of a site (the official PATCH body, with the API reference's `agentsContext`). */
export interface SitePatch {
  title?: string;
  visibility?: string;
  basename?: string;
  adaptiveContent?: { enabled: boolean };
  defaultLevel?: DefaultLevel;
  defaultSiteSpace?: string;
  defaultSiteSection?: string;
  proxy?: string | null;
  styleguide?: string | null;
  agentsContext?: SiteRec["agentsContext"];
}

/** The settable fields of a section (the official PATCH body; `null` clears). */
export interface SectionPatch {
  title?: string;
  localizedTitle?: Record<string, string>;
  path?: string;
  defaultSiteSpace?: string;
  condition?: string | null;
  icon?: string | null;
  draft?: boolean;
  description?: string | null;
  localizedDescription?: Record<string, string>;
  /** `null` takes the section out of its group. */
  siteSectionGroupId?: string | null;
}

/** The settable fields of a site space (the official PATCH body; `null` clears). */
export interface SiteSpacePatch {
  path?: string;
  condition?: string | null;
  pageId?: string | null;
  spaceId?: string;
  hidden?: boolean;
  draft?: boolean;
}

/** The settable fields of an external link (the official PATCH body; `null` clears, a `null` group is the root). */
export interface ExternalLinkPatch {
  title?: string;
  url?: string;
  description?: string | null;
  icon?: string | null;
  condition?: string | null;
  draft?: boolean;
  groupId?: string | null;
  localizedTitle?: Record<string, string> | null;
  localizedDescription?: Record<string, string> | null;
}

/** The settable fields of an MCP server (the official PATCH body; `null` removes the condition). */
export interface McpServerPatch {
  name?: string;
  url?: string;
  transport?: SiteMcpServerRec["transport"];
  /** Replaces the whole map (the official document does not say; see emulator/README.md). */
  headers?: Record<string, string>;
  condition?: string | null;
}

/**
 * What a new site's editor agent has: the official document gives no defaults, so these are the emulator's own
 * (emulator/README.md): topics scanned, change requests only for findings that can be fixed automatically, and
 * instructions that are one empty paragraph, as the editor writes an empty document.
 */
export function newSiteAgentSettings(): SiteAgentSettings {
  return {
    scans: { topics: "auto" },
    findings: { changeRequests: "auto-fixable" },
    editing: {
      customInstructions: {
        object: "document",
        data: {},
        nodes: [
          {
            object: "block",
            type: "paragraph",
            data: {},
            nodes: [{ object: "text", leaves: [{ object: "leaf", text: "", marks: [] }] }],
          },
        ],
      },
    },
  };
}

/** An item of a level of a section-based site's structure. */
export type StructureItem =
  | { kind: "site-section"; rec: SectionRec }
  | { kind: "site-section-group"; rec: SectionGroupRec }
  | { kind: "site-external-link"; rec: ExternalLinkRec };

/** The group an item sits in (undefined: the site root). */
export function structureParent(item: StructureItem): string | undefined {
  return item.kind === "site-section-group" ? item.rec.parentGroupId : item.rec.groupId;
}

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
    this.tables.siteSpaces.delete(id);
    this.ensureDefaultSiteSpace(ss.siteId, ss.sectionId);
    return true;
  }

  /** Deletes a section with its site spaces (and thereby its group membership). */
  deleteSection(id: string): boolean {
    const section = this.tables.sections.get(id);
    if (!section) return false;
    for (const ss of this.siteSpacesIn(section.siteId, section.id)) this.tables.siteSpaces.delete(ss.id);
    this.tables.sections.delete(id);
    this.ensureDefaultSection(section.siteId);
    return true;
  }

  /** Deletes a section group: its sections and child groups move up to the group's parent level. */
  deleteSectionGroup(id: string): boolean {
    const group = this.tables.sectionGroups.get(id);
    if (!group) return false;
    for (const s of this.tables.sections.values()) if (s.groupId === id) s.groupId = group.parentGroupId;
    for (const g of this.tables.sectionGroups.values())
      if (g.parentGroupId === id) g.parentGroupId = group.parentGroupId;
    for (const l of this.tables.externalLinks.values()) if (l.groupId === id) l.groupId = group.parentGroupId;
    this.tables.sectionGroups.delete(id);
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
   * when both change) or, without sections, the root; the style guide must be a live space of the organization.
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
    if (patch.styleguide) this.spaceRef(site.orgId, patch.styleguide, "styleguide");

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
      const groupId = patch.groupId === null ? undefined : this.groupRef(site, patch.groupId, "parent").id;
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
    return this.tables.externalLinks.delete(id);
  }

  /** "External links require a section-based site structure" (official `addExternalLinkToSite`). */
  private requireSectionBased(site: SiteRec): void {
    if (this.sectionsOf(site.id).length === 0)
      throw new BadRequestError(
        `site "${site.id}" has no sections: external links require a section-based site structure`,
      );
  }

  /** A new active share link; its secret token is what `urls.published` carries. */
  createShareLink(site: SiteRec, name: string): ShareLinkRec {
    const link: ShareLinkRec = {
      id: this.tables.newId(),
      siteId: site.id,
      name,
      active: true,
      token: randomToken(32),
      createdAt: this.tables.now(),
    };
    this.tables.shareLinks.set(link.id, link);
    return link;
  }

  deleteShareLink(id: string): boolean {
    return this.tables.shareLinks.delete(id);
  }

  /** A site has at most one adaptive schema; a PUT replaces it whole. */
  setAdaptiveSchema(site: SiteRec, jsonSchema: unknown): AdaptiveSchemaRec {
    const rec: AdaptiveSchemaRec = {
      siteId: site.id,
      jsonSchema: structuredClone(jsonSchema),
      updatedAt: this.tables.now(),
    };
    this.tables.adaptiveSchemas.set(site.id, rec);
    return rec;
  }

  /** A site's customization is replaced whole (the PUT checks every required field). */
  setCustomization(site: SiteRec, settings: Record<string, unknown>): SiteCustomizationRec {
    const rec: SiteCustomizationRec = { siteId: site.id, settings, updatedAt: this.tables.now() };
    this.tables.siteCustomizations.set(site.id, rec);
    return rec;
  }

  /** A site's MCP servers, in the order they were added. */
  mcpServersOf(siteId: string): SiteMcpServerRec[] {
    return [...this.tables.mcpServers.values()].filter((m) => m.siteId === siteId);
  }

  /** A new MCP server; the official transport default is `sse`. Names need not be unique (the document says none). */
  addMcpServer(
    site: SiteRec,
    fields: Pick<SiteMcpServerRec, "name" | "url" | "headers" | "condition"> & {
      transport?: SiteMcpServerRec["transport"];
    },
  ): SiteMcpServerRec {
    const server: SiteMcpServerRec = {
      id: this.tables.newId(),
      siteId: site.id,
      name: fields.name,
      url: fields.url,
      transport: fields.transport ?? "sse",
      headers: { ...fields.headers },
    };
    if (fields.condition !== undefined) server.condition = fields.condition;
    this.tables.mcpServers.set(server.id, server);
    return server;
  }

  /** Only the given fields change ("Only provided fields are updated"); given headers replace the whole map. */
  updateMcpServer(server: SiteMcpServerRec, patch: McpServerPatch): void {
    if (patch.name !== undefined) server.name = patch.name;
    if (patch.url !== undefined) server.url = patch.url;
    if (patch.transport !== undefined) server.transport = patch.transport;
    if (patch.headers !== undefined) server.headers = { ...patch.headers };
    if (patch.condition !== undefined) server.condition = patch.condition ?? undefined;
  }

  deleteMcpServer(id: string): boolean {
    return this.tables.mcpServers.delete(id);
  }

  /** Every site has agent settings: the last PUT's, or the new-site values (not stored until a PUT). */
  agentSettings(site: SiteRec): SiteAgentSettingsRec {
    return this.tables.siteAgentSettings.get(site.id) ?? { siteId: site.id, settings: newSiteAgentSettings() };
  }

  /** The PUT replaces the settings whole (every part is required). */
  setAgentSettings(site: SiteRec, settings: SiteAgentSettings): SiteAgentSettingsRec {
    const rec: SiteAgentSettingsRec = {
      siteId: site.id,
      settings: structuredClone(settings),
      updatedAt: this.tables.now(),
    };
    this.tables.siteAgentSettings.set(site.id, rec);
    return rec;
  }

  /** A site's publishing auth, made on first use with a new signing key (the API always has one to show). */
  publishingAuth(site: SiteRec): PublishingAuthRec {
    let rec = this.tables.publishingAuths.get(site.id);
    if (!rec) {
      rec = { siteId: site.id, backend: "custom", privateKey: randomToken(48) };
      this.tables.publishingAuths.set(site.id, rec);
    }
    return rec;
  }

  /** A new signing key: what the old one signed no longer verifies. */
  regeneratePublishingKey(site: SiteRec): PublishingAuthRec {
    const rec = this.publishingAuth(site);
    rec.privateKey = randomToken(48);
    return rec;
  }

  /** Deletes a site and everything that belongs to it. */
  deleteSite(id: string): boolean {
    if (!this.tables.sites.has(id)) return false;
    for (const [k, v] of this.tables.siteSpaces) if (v.siteId === id) this.tables.siteSpaces.delete(k);
    for (const [k, v] of this.tables.sections) if (v.siteId === id) this.tables.sections.delete(k);
    for (const [k, v] of this.tables.sectionGroups) if (v.siteId === id) this.tables.sectionGroups.delete(k);
    for (const [k, v] of this.tables.externalLinks) if (v.siteId === id) this.tables.externalLinks.delete(k);
    for (const [k, v] of this.tables.shareLinks) if (v.siteId === id) this.tables.shareLinks.delete(k);
    for (const [k, v] of this.tables.redirects) if (v.siteId === id) this.tables.redirects.delete(k);
    for (const [k, v] of this.tables.mcpServers) if (v.siteId === id) this.tables.mcpServers.delete(k);
    for (const [k, v] of this.tables.integrationSiteInstallations)
      if (v.siteId === id) this.tables.integrationSiteInstallations.delete(k);
    this.tables.adaptiveSchemas.delete(id);
    this.tables.siteCustomizations.delete(id);
    this.tables.siteAgentSettings.delete(id);
    this.tables.publishingAuths.delete(id);
    this.tables.sites.delete(id);
    return true;
  }

  // ---- order within a level

  /** Structural siblings (sections, groups and links) under a group, or the site root when parent is undefined. */
  structureSiblings(siteId: string, parentGroupId: string | undefined): StructureItem[] {
    const items: StructureItem[] = [];
    for (const s of this.sectionsOf(siteId))
      if (s.groupId === parentGroupId) items.push({ kind: "site-section", rec: s });
    for (const g of this.groupsOf(siteId)) {
      if (g.parentGroupId === parentGroupId) items.push({ kind: "site-section-group", rec: g });
    }
    for (const l of this.linksOf(siteId))
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
    for (const s of others) s.rec.position = this.tables.nextPosition();
  }
}
