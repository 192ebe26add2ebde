import { z } from "zod";
import { OrganizationMemberSchema, organizationMembersPath } from "./members";
import { listAll } from "./pagination";
import { call } from "./parse";
import type { HttpClient } from "./transport";

export const TEAM_ROLES = ["owner", "member"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export const TeamSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** Count of members. */
  members: z.number().optional(),
  createdAt: z.string().optional(),
});
export type ApiTeam = z.infer<typeof TeamSchema>;

/** One entry of a team's member listing: the organization member and its role in the team. */
export const TeamMemberEntrySchema = z.object({
  organization: OrganizationMemberSchema,
  team: z.object({ role: z.string() }),
});
export type ApiTeamMember = z.infer<typeof TeamMemberEntrySchema>;

/** The bulk membership change; `add`/`remove` take user ids or emails, `memberships` is keyed by user id. */
export interface TeamMembersChange {
  add?: string[];
  remove?: string[];
  memberships?: Record<string, { role: TeamRole }>;
}

export function teamsPath(organizationId: string): string {
  return `/orgs/${encodeURIComponent(organizationId)}/teams`;
}

export function teamPath(organizationId: string, teamId: string): string {
  return `${teamsPath(organizationId)}/${encodeURIComponent(teamId)}`;
}

export function teamMembersPath(organizationId: string, teamId: string): string {
  return `${teamPath(organizationId, teamId)}/members`;
}

/**
 * The official create is a PUT on the collection path (createOrganizationTeam), answering 201. Each call makes a new
 * team, so it is retried like a POST: a repeat after a 5xx or a lost answer could leave a duplicate team.
 */
export async function createTeam(
  client: HttpClient,
  organizationId: string,
  body: { title: string; members?: string[] },
): Promise<ApiTeam> {
  const path = teamsPath(organizationId);
  return call(client, TeamSchema, "PUT", path, { body, idempotent: false });
}

export async function getTeam(client: HttpClient, organizationId: string, teamId: string): Promise<ApiTeam> {
  const path = teamPath(organizationId, teamId);
  return call(client, TeamSchema, "GET", path);
}

export async function renameTeam(
  client: HttpClient,
  organizationId: string,
  teamId: string,
  title: string,
): Promise<ApiTeam> {
  const path = teamPath(organizationId, teamId);
  return call(client, TeamSchema, "PATCH", path, { body: { title } });
}

export function deleteTeam(client: HttpClient, organizationId: string, teamId: string): Promise<void> {
  return client.delete(teamPath(organizationId, teamId));
}

export function listTeamMembers(client: HttpClient, organizationId: string, teamId: string): Promise<ApiTeamMember[]> {
  const path = teamMembersPath(organizationId, teamId);
  return listAll(client, path, {}, TeamMemberEntrySchema);
}

export function memberTeamsPath(organizationId: string, userId: string): string {
  return `${organizationMembersPath(organizationId)}/${encodeURIComponent(userId)}/teams`;
}

const MemberTeamSchema = z.object({ team: TeamSchema, member: z.object({ role: z.string() }) });
export type ApiMemberTeam = z.infer<typeof MemberTeamSchema>;

/** `GET /orgs/{organizationId}/members/{userId}/teams`: every team the member is in, with their role in it. */
export function listMemberTeams(client: HttpClient, organizationId: string, userId: string): Promise<ApiMemberTeam[]> {
  return listAll(client, memberTeamsPath(organizationId, userId), {}, MemberTeamSchema);
}

/** Answers 204. A user both added and removed ends up removed. */
export async function updateTeamMembers(
  client: HttpClient,
  organizationId: string,
  teamId: string,
  change: TeamMembersChange,
): Promise<void> {
  await client.put(teamMembersPath(organizationId, teamId), change);
}

/** Adds the user, or sets the role of a member (answers 204); without a role the API keeps or defaults it. */
export async function putTeamMember(
  client: HttpClient,
  organizationId: string,
  teamId: string,
  userId: string,
  body: { role?: TeamRole },
): Promise<void> {
  await client.put(`${teamMembersPath(organizationId, teamId)}/${encodeURIComponent(userId)}`, body);
}

export function removeTeamMember(client: HttpClient, organizationId: string, teamId: string, userId: string) {
  return client.delete(`${teamMembersPath(organizationId, teamId)}/${encodeURIComponent(userId)}`);
}
