/**
 * The teams family: teams and permission grants. Its tables, each with the records it hangs on (the cascade of a
 * delete is derived from them, tables.ts), and its routes; families/index.ts lists the families.
 */
import { defineFamily } from "../family";
import { permissionRoutes } from "./permissions";
import { teamsTables } from "./tables";
import { teamRoutes } from "./teams";

export const teamsFamily = defineFamily(teamsTables, [...teamRoutes, ...permissionRoutes]);
