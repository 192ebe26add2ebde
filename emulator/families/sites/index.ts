/**
 * The sites family: sites. Its tables, each with the records it hangs on (the cascade of a delete is derived from
 * them, tables.ts), and its routes; families/index.ts lists the families.
 */
import { defineFamily } from "../family";
import { siteRoutes } from "./sites";
import { sitesTables } from "./tables";

export const sitesFamily = defineFamily(sitesTables, [...siteRoutes]);
