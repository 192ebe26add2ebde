/** The teams family's tables, each with the records it hangs on (the cascade of a delete is derived from them,
 * tables.ts). Apart from the routes, so that the tables import no route and no store. */
import { defineTables, parent, table } from "../../tableDecl";
import type { PermissionRec, TeamRec } from "./records";

const grantOn = (target: PermissionRec["target"], t: string) =>
  parent<PermissionRec>(t, (g) => (g.target === target ? g.targetId : undefined));

export const teamsTables = defineTables("teams", {
  teams: table<TeamRec>([parent("orgs", (t) => t.orgId)]),
  /** key `${target}/${targetId}/${grantee}/${granteeId}` */
  permissions: table<PermissionRec>([
    grantOn("space", "spaces"),
    grantOn("collection", "collections"),
    grantOn("site", "sites"),
    parent("teams", (g) => (g.grantee === "team" ? g.granteeId : undefined)),
    parent("users", (g) => (g.grantee === "user" ? g.granteeId : undefined)),
  ]),
});
