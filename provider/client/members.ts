import { z } from "zod";
import { listAll } from "./pagination";
import type { HttpClient } from "./transport";

/** A user as the member listings embed it; `email` is optional in the official User schema. */
export const UserSchema = z.object({ id: z.string(), email: z.string().optional() });

export const OrganizationMemberSchema = z.object({
  /** The member's user id. */
  id: z.string(),
  role: z.string().nullish(),
  user: UserSchema,
  /** How many teams the member is in. */
  teams: z.number().optional(),
});
export type ApiOrganizationMember = z.infer<typeof OrganizationMemberSchema>;

export function organizationMembersPath(organizationId: string): string {
  return `/orgs/${encodeURIComponent(organizationId)}/members`;
}

export function listOrganizationMembers(client: HttpClient, organizationId: string): Promise<ApiOrganizationMember[]> {
  const path = organizationMembersPath(organizationId);
  return listAll(client, path, {}, OrganizationMemberSchema);
}
