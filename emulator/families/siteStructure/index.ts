/**
 * The siteStructure family: a site's sections, section groups, external links and site spaces. Its tables, each with
 * the records it hangs on (the cascade of a delete is derived from them, tables.ts), and its routes; families/index.ts
 * lists the families.
 */

import { onSite, parent, table } from "../../tableDecl";
import { defineFamily } from "../family";
import { externalLinkRoutes } from "./externalLinks";
import type { ExternalLinkRec, SectionGroupRec, SectionRec, SiteSpaceRec } from "./records";
import { sectionGroupRoutes } from "./sectionGroups";
import { siteSectionRoutes } from "./siteSections";
import { siteSpaceRoutes } from "./siteSpaces";

/** Sections, groups and links of a deleted group move up to the group's own parent level. */
const liftOutOf =
  <R>(field: keyof R) =>
  (rec: R, group: unknown) => {
    (rec as Record<keyof R, unknown>)[field] = (group as SectionGroupRec).parentGroupId;
  };

export const siteStructureFamily = defineFamily("siteStructure", {
  tables: {
    sections: table<SectionRec>([onSite(), parent("sectionGroups", (s) => s.groupId, liftOutOf("groupId"))]),
    sectionGroups: table<SectionGroupRec>([
      onSite(),
      parent("sectionGroups", (g) => g.parentGroupId, liftOutOf("parentGroupId")),
    ]),
    externalLinks: table<ExternalLinkRec>([onSite(), parent("sectionGroups", (l) => l.groupId, liftOutOf("groupId"))]),
    siteSpaces: table<SiteSpaceRec>([onSite(), parent("sections", (s) => s.sectionId)]),
  },
  routes: [...siteSectionRoutes, ...sectionGroupRoutes, ...externalLinkRoutes, ...siteSpaceRoutes],
});
