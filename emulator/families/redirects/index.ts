/**
 * The redirects family: a site's redirects. Its tables, each with the records it hangs on (the cascade of a delete is
 * derived from them, tables.ts), and its routes; families/index.ts lists the families.
 */
import { defineFamily } from "../family";
import { redirectRoutes } from "./redirects";
import { redirectsTables } from "./tables";

export const redirectsFamily = defineFamily(redirectsTables, [...redirectRoutes]);
