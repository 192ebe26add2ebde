/** The records of the siteStructure family's tables (declared in index.ts); routes render them (render.ts). */

export interface SectionRec {
  id: string;
  siteId: string;
  title: string;
  description?: string;
  path: string;
  condition?: string;
  icon?: string;
  groupId?: string;
  isDefault: boolean;
  draft: boolean;
  position: number;
  createdAt: string;
  localizedTitle?: Record<string, string>;
  localizedDescription?: Record<string, string>;
}

export interface SectionGroupRec {
  id: string;
  siteId: string;
  title: string;
  icon?: string;
  parentGroupId?: string;
  draft: boolean;
  position: number;
  localizedTitle?: Record<string, string>;
}

/** A navigation item that points outside the site; it sits at the root or in a group, among sections and groups. */
export interface ExternalLinkRec {
  id: string;
  siteId: string;
  title: string;
  url: string;
  description?: string;
  icon?: string;
  condition?: string;
  groupId?: string;
  draft: boolean;
  position: number;
  localizedTitle?: Record<string, string>;
  localizedDescription?: Record<string, string>;
}

export interface SiteSpaceRec {
  id: string;
  siteId: string;
  sectionId?: string;
  spaceId: string;
  path: string;
  condition?: string;
  isDefault: boolean;
  draft: boolean;
  hidden?: boolean;
  pageId?: string | null;
  /** Site-specific title (defaults to the space title). */
  title?: string;
  position: number;
  /** The customization overrides (`…/site-spaces/{id}/customization`); gone with the site space. */
  customization?: { overrides: Record<string, unknown>; updatedAt: string };
}
