/** The organization family's tables, each with the records it hangs on (the cascade of a delete is derived from them,
 * tables.ts). Apart from the routes, so that the tables import no route and no store. */
import { defineTables, parent, table } from "../../tableDecl";
import type { AgentInstructionsRec, MemberRec, OrgRec, UserRec } from "./records";

export const organizationTables = defineTables("organization", {
  orgs: table<OrgRec>(),
  users: table<UserRec>(),
  /** key `${orgId}/${userId}` */
  members: table<MemberRec>([parent("orgs", (m) => m.orgId), parent("users", (m) => m.userId)]),
  /** key: organization id; made by the first PUT */
  agentInstructions: table<AgentInstructionsRec>([parent("orgs", (i) => i.orgId)]),
});
