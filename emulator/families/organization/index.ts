/**
 * The organization family: organizations, their users and members. Its tables, each with the records it hangs on (the
 * cascade of a delete is derived from them, tables.ts), and its routes; families/index.ts lists the families.
 */

import { parent, table } from "../../tableDecl";
import { defineFamily } from "../family";
import { agentInstructionsRoutes } from "./agentInstructions";
import type { AgentInstructionsRec } from "./agentInstructionsStore";
import { memberRoutes } from "./members";
import { orgRoutes } from "./orgs";
import type { MemberRec, OrgRec, UserRec } from "./records";

export const organizationFamily = defineFamily("organization", {
  tables: {
    orgs: table<OrgRec>(),
    users: table<UserRec>(),
    /** key `${orgId}/${userId}` */
    members: table<MemberRec>([parent("orgs", (m) => m.orgId), parent("users", (m) => m.userId)]),
    /** key: organization id; made by the first PUT */
    agentInstructions: table<AgentInstructionsRec>([parent("orgs", (i) => i.orgId)]),
  },
  routes: [...orgRoutes, ...memberRoutes, ...agentInstructionsRoutes],
});
