import { z } from "zod";
import { NotFoundError } from "./errors";
import { listAll } from "./pagination";
import { call } from "./parse";
import type { HttpClient } from "./transport";

/** A user as the member listings embed it; `email` and `displayName` are optional in the official User schema. */
export const UserSchema = z.object({
  id: z.string(),
  email: z.string().optional(),
  displayName: z.string().optional(),
});

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

/** A member as `GET`/`PATCH …/members/{userId}` report it, with the fields the `OrganizationMember` kind manages. */
export const MemberSchema = OrganizationMemberSchema.extend({
  sso: z.boolean().default(false),
  disabled: z.boolean().default(false),
});
export type ApiMember = z.infer<typeof MemberSchema>;

const memberPath = (organizationId: string, userId: string) =>
  `${organizationMembersPath(organizationId)}/${encodeURIComponent(userId)}`;

export function getMember(client: HttpClient, organizationId: string, userId: string): Promise<ApiMember> {
  return call(client, MemberSchema, "GET", memberPath(organizationId, userId));
}

export function updateMemberRole(
  client: HttpClient,
  organizationId: string,
  userId: string,
  role: string | null,
): Promise<ApiMember> {
  return call(client, MemberSchema, "PATCH", memberPath(organizationId, userId), { body: { role } });
}

/**
 * Lets the member log in with SSO. One way: the official document has no call that takes it back. It admits a user's
 * personal API token only.
 */
export function setMemberSso(client: HttpClient, organizationId: string, userId: string): Promise<ApiMember> {
  const path = `${memberPath(organizationId, userId)}/sso`;
  return call(client, MemberSchema, "POST", path, { idempotent: true, userTokenOnly: true });
}

/**
 * Removes the user from the organization. The API answers 205 (removed), 204 (was not a member) or 202 (the token's
 * user may not remove members, so a request went to the organization's administrators); the answers carry no body,
 * so a read afterwards tells a removal from a request: `requested` when the member is still there.
 */
export async function removeMember(
  client: HttpClient,
  organizationId: string,
  userId: string,
): Promise<"removed" | "requested"> {
  await client.delete(memberPath(organizationId, userId));
  try {
    await getMember(client, organizationId, userId);
    return "requested";
  } catch (error) {
    if (error instanceof NotFoundError) return "removed";
    throw error;
  }
}
