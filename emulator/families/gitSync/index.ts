/**
 * The gitSync family: Git Sync installations. Its tables, each with the records it hangs on (the cascade of a delete
 * is derived from them, tables.ts), and its routes; families/index.ts lists the families.
 */

import { parent, table } from "../../tableDecl";
import { defineFamily } from "../family";
import { gitSyncRoutes } from "./gitSync";
import { gitSyncRepositoryRoutes } from "./gitSyncRepositories";
import type { GitSyncInstallationRec } from "./records";

export const gitSyncFamily = defineFamily("gitSync", {
  tables: {
    gitSyncInstallations: table<GitSyncInstallationRec>([
      parent("orgs", (i) => i.orgId),
      parent("spaces", (i) => (i.target.type === "space" ? i.target.spaceId : undefined)),
      parent("sites", (i) => (i.target.type === "site" ? i.target.siteId : undefined)),
    ]),
  },
  routes: [...gitSyncRoutes, ...gitSyncRepositoryRoutes],
});
