/**
 * The siteStructure family: a site's sections, section groups, external links and site spaces. Its tables, each with
 * the records it hangs on (the cascade of a delete is derived from them, tables.ts), and its routes; families/index.ts
 * lists the families.
 */
import { defineFamily } from "../family";
import { externalLinkRoutes } from "./externalLinks";
import { sectionGroupRoutes } from "./sectionGroups";
import { siteSectionRoutes } from "./siteSections";
import { siteSpaceRoutes } from "./siteSpaces";
import { siteStructureTables } from "./tables";

export const siteStructureFamily = defineFamily(siteStructureTables, [
  ...siteSectionRoutes,
  ...sectionGroupRoutes,
  ...externalLinkRoutes,
  ...siteSpaceRoutes,
]);
