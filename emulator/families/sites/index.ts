/**
 * The sites family: sites. Its tables, each with the records it hangs on (the cascade of a delete is derived from
 * them, tables.ts), and its routes; families/index.ts lists the families.
 */

import { parent, table } from "../../tableDecl";
import { defineFamily } from "../family";
import type { SiteRec } from "./records";
import { siteRoutes } from "./sites";

export const sitesFamily = defineFamily("sites", {
  tables: {
    sites: table<SiteRec>([parent("orgs", (s) => s.orgId)]),
  },
  routes: [...siteRoutes],
});
