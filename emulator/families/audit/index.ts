/**
 * The audit family: the audit trail. Its tables, each with the records it hangs on (the cascade of a delete is derived
 * from them, tables.ts), and its routes; families/index.ts lists the families.
 */

import { parent, table } from "../../tableDecl";
import { defineFamily } from "../family";
import { auditEventRoutes } from "./auditEvents";
import type { AuditEventRec } from "./records";

export const auditFamily = defineFamily("audit", {
  tables: {
    /** In the order they occurred (audit.ts appends). */
    auditEvents: table<AuditEventRec>([parent("orgs", (e) => e.orgId)]),
  },
  routes: [...auditEventRoutes],
});
