/**
 * The organization family: organizations, their users and members. Its tables, each with the records it hangs on (the
 * cascade of a delete is derived from them, tables.ts), and its routes; families/index.ts lists the families.
 */

import { parent, table } from "../../tableDecl";
import { defineFamily } from "../family";
import { memberRoutes } from "./members";
import { orgRoutes } from "./orgs";
import type { MemberRec, OrgRec, UserRec } from "./records";

export const organizationFamily = defineFamily("organization", {
  tables: {
    orgs: table<OrgRec>(),
    users: table<UserRec>(),
    /** key `${orgId}/${userId}` */
    members: table<MemberRec>([parent("orgs", (m) => m.orgId), parent("users", (m) => m.userId)]),
  },
  routes: [...orgRoutes, ...memberRoutes],
});
