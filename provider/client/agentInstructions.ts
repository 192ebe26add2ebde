import { z } from "zod";
import { JsonDocumentSchema } from "./documentText";
import { organizationPath } from "./organization";
import { call } from "./parse";
import type { HttpClient } from "./transport";

/*
 * The organization's instructions for the Docs agent. The official document admits a user's personal token only to
 * both operations (`security` is `user`): each call says `userTokenOnly`.
 */
const USER_ONLY = { userTokenOnly: true } as const;

/** The official `OrganizationAgentInstructions`. */
export const AgentInstructionsSchema = z.object({
  instructions: JsonDocumentSchema,
  updatedAt: z.string().optional(),
  updatedBy: z.string().optional(),
});
export type ApiAgentInstructions = z.infer<typeof AgentInstructionsSchema>;

export function agentInstructionsPath(organizationId: string): string {
  return `${organizationPath(organizationId)}/agent-instructions`;
}

/** `getOrganizationAgentInstructions`. */
export function getAgentInstructions(client: HttpClient, organizationId: string) {
  return call(client, AgentInstructionsSchema, "GET", agentInstructionsPath(organizationId), USER_ONLY);
}

/** `updateOrganizationAgentInstructions`: replaces the document whole. */
export function putAgentInstructions(
  client: HttpClient,
  organizationId: string,
  instructions: ApiAgentInstructions["instructions"],
) {
  return call(client, AgentInstructionsSchema, "PUT", agentInstructionsPath(organizationId), {
    ...USER_ONLY,
    body: { instructions },
  });
}
