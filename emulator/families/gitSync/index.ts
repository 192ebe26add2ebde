/**
 * The gitSync family: Git Sync installations. Its tables, each with the records it hangs on (the cascade of a delete
 * is derived from them, tables.ts), and its routes; families/index.ts lists the families.
 */
import { defineFamily } from "../family";
import { gitSyncRoutes } from "./gitSync";
import { gitSyncRepositoryRoutes } from "./gitSyncRepositories";
import { gitSyncTables } from "./tables";

export const gitSyncFamily = defineFamily(gitSyncTables, [...gitSyncRoutes, ...gitSyncRepositoryRoutes]);
