/**
 * The teams family: teams and permission grants. Its tables, each with the records it hangs on (the cascade of a
 * delete is derived from them, tables.ts), and its routes; families/index.ts lists the families.
 */

import { parent, table } from "../../tableDecl";
import { defineFamily } from "../family";
import { permissionRoutes } from "./permissions";
import type { PermissionRec, TeamRec } from "./records";
import { teamRoutes } from "./teams";

const grantOn = (target: PermissionRec["target"], t: string) =>
  parent<PermissionRec>(t, (g) => (g.target === target ? g.targetId : undefined));

export const teamsFamily = defineFamily("teams", {
  tables: {
    teams: table<TeamRec>([parent("orgs", (t) => t.orgId)]),
    /** key `${target}/${targetId}/${grantee}/${granteeId}` */
    permissions: table<PermissionRec>([
      grantOn("space", "spaces"),
      grantOn("collection", "collections"),
      grantOn("site", "sites"),
      parent("teams", (g) => (g.grantee === "team" ? g.granteeId : undefined)),
      parent("users", (g) => (g.grantee === "user" ? g.granteeId : undefined)),
    ]),
  },
  routes: [...teamRoutes, ...permissionRoutes],
});
