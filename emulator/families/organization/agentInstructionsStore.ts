/**
 * The organization's instructions for the Docs agent (official `OrganizationAgentInstructions`): one record per
 * organization, made by its first PUT, over the declared `agentInstructions` table (tables.ts), which its
 * organization takes with it. Routes: routes/agentInstructions.ts.
 */
import type { Tables } from "../../tables";
import type { AgentInstructionsRec } from "./records";

/** An organization that never set them has an empty document, dated from its creation. */
export function instructionsOf(tables: Tables, orgId: string): AgentInstructionsRec {
  const rec = tables.agentInstructions.get(orgId);
  if (rec) return rec;
  const org = tables.orgs.get(orgId);
  return {
    orgId,
    instructions: { object: "document", data: {}, nodes: [] },
    updatedAt: org?.createdAt ?? tables.now(),
    updatedBy: tokenUser(tables),
  };
}

export function setInstructions(tables: Tables, orgId: string, instructions: Record<string, unknown>) {
  const rec: AgentInstructionsRec = {
    orgId,
    instructions: structuredClone(instructions),
    updatedAt: tables.now(),
    updatedBy: tokenUser(tables),
  };
  tables.agentInstructions.set(orgId, rec);
  return rec;
}

/** The emulator's token is the first user's (as audit.ts reads it). */
const tokenUser = (tables: Tables) => tables.users.keys().next().value ?? "";
