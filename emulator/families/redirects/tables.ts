/** The redirects family's tables, each with the records it hangs on (the cascade of a delete is derived from them,
 * tables.ts). Apart from the routes, so that the tables import no route and no store. */
import { defineTables, onSite, table } from "../../tableDecl";
import type { SiteRedirectRec } from "./records";

export const redirectsTables = defineTables("redirects", {
  redirects: table<SiteRedirectRec>([onSite()]),
});
