/** The siteStructure family's tables, each with the records it hangs on (the cascade of a delete is derived from them,
 * tables.ts). Apart from the routes, so that the tables import no route and no store. */
import { defineTables, onSite, parent, table } from "../../tableDecl";
import type { ExternalLinkRec, SectionGroupRec, SectionRec, SiteSpaceRec } from "./records";

/** Sections, groups and links of a deleted group move up to the group's own parent level. */
const liftOutOf =
  <R>(field: keyof R) =>
  (rec: R, group: unknown) => {
    (rec as Record<keyof R, unknown>)[field] = (group as SectionGroupRec).parentGroupId;
  };

export const siteStructureTables = defineTables("siteStructure", {
  sections: table<SectionRec>([onSite(), parent("sectionGroups", (s) => s.groupId, liftOutOf("groupId"))]),
  sectionGroups: table<SectionGroupRec>([
    onSite(),
    parent("sectionGroups", (g) => g.parentGroupId, liftOutOf("parentGroupId")),
  ]),
  externalLinks: table<ExternalLinkRec>([onSite(), parent("sectionGroups", (l) => l.groupId, liftOutOf("groupId"))]),
  siteSpaces: table<SiteSpaceRec>([onSite(), parent("sections", (s) => s.sectionId)]),
});
