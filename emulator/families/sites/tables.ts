/** The sites family's tables, each with the records it hangs on (the cascade of a delete is derived from them,
 * tables.ts). Apart from the routes, so that the tables import no route and no store. */
import { defineTables, parent, table } from "../../tableDecl";
import type { SiteRec } from "./records";

export const sitesTables = defineTables("sites", {
  sites: table<SiteRec>([parent("orgs", (s) => s.orgId)]),
});
