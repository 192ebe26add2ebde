/**
 * The organization family: organizations, their users and members. Its tables, each with the records it hangs on (the
 * cascade of a delete is derived from them, tables.ts), and its routes; families/index.ts lists the families.
 */
import { defineFamily } from "../family";
import { agentInstructionsRoutes } from "./agentInstructions";
import { memberRoutes } from "./members";
import { orgRoutes } from "./orgs";
import { organizationTables } from "./tables";

export const organizationFamily = defineFamily(organizationTables, [
  ...orgRoutes,
  ...memberRoutes,
  ...agentInstructionsRoutes,
]);
