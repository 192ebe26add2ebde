/** The audit family's tables, each with the records it hangs on (the cascade of a delete is derived from them,
 * tables.ts). Apart from the routes, so that the tables import no route and no store. */
import { defineTables, parent, table } from "../../tableDecl";
import type { AuditEventRec } from "./records";

export const auditTables = defineTables("audit", {
  /** In the order they occurred (audit.ts appends). */
  auditEvents: table<AuditEventRec>([parent("orgs", (e) => e.orgId)]),
});
