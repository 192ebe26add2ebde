/**
 * The audit family: the audit trail. Its tables, each with the records it hangs on (the cascade of a delete is derived
 * from them, tables.ts), and its routes; families/index.ts lists the families.
 */
import { defineFamily } from "../family";
import { auditEventRoutes } from "./auditEvents";
import { auditTables } from "./tables";

export const auditFamily = defineFamily(auditTables, [...auditEventRoutes]);
