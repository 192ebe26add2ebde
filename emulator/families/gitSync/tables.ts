/** The gitSync family's tables, each with the records it hangs on (the cascade of a delete is derived from them,
 * tables.ts). Apart from the routes, so that the tables import no route and no store. */
import { defineTables, parent, table } from "../../tableDecl";
import type { GitSyncInstallationRec } from "./records";

export const gitSyncTables = defineTables("gitSync", {
  gitSyncInstallations: table<GitSyncInstallationRec>([
    parent("orgs", (i) => i.orgId),
    parent("spaces", (i) => (i.target.type === "space" ? i.target.spaceId : undefined)),
    parent("sites", (i) => (i.target.type === "site" ? i.target.siteId : undefined)),
  ]),
});
