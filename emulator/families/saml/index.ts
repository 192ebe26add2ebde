/**
 * The saml family: SAML providers. Its tables, each with the records it hangs on (the cascade of a delete is derived
 * from them, tables.ts), and its routes; families/index.ts lists the families.
 */
import { defineFamily } from "../family";
import { samlRoutes } from "./saml";
import { samlTables } from "./tables";

export const samlFamily = defineFamily(samlTables, [...samlRoutes]);
