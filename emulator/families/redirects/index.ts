/**
 * The redirects family: a site's redirects. Its tables, each with the records it hangs on (the cascade of a delete is
 * derived from them, tables.ts), and its routes; families/index.ts lists the families.
 */

import { onSite, table } from "../../tableDecl";
import { defineFamily } from "../family";
import type { SiteRedirectRec } from "./records";
import { redirectRoutes } from "./redirects";

export const redirectsFamily = defineFamily("redirects", {
  tables: {
    redirects: table<SiteRedirectRec>([onSite()]),
  },
  routes: [...redirectRoutes],
});
