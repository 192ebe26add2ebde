/**
 * The settable fields of a site and of its structure (the official PATCH bodies), and the items of a level of a
 * section-based site's structure: what siteStore.ts takes and routes build.
 */

import type { DefaultLevel } from "../../validate";
import type { ExternalLinkRec, SectionGroupRec, SectionRec } from "../siteStructure/records";
import type { SiteRec } from "./records";

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

/** An item of a level of a section-based site's structure. */
export type StructureItem =
  | { kind: "site-section"; rec: SectionRec }
  | { kind: "site-section-group"; rec: SectionGroupRec }
  | { kind: "site-external-link"; rec: ExternalLinkRec };

/** The group an item sits in (undefined: the site root). */
export function structureParent(item: StructureItem): string | undefined {
  return item.kind === "site-section-group" ? item.rec.parentGroupId : item.rec.groupId;
}
