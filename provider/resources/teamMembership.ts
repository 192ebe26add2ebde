/**
 * Team membership as a refresh reads it. The API reports it two ways: per team (`GET …/teams/{teamId}/members`, one
 * request per team) and per member (`GET …/members/{userId}/teams`: each item a team with the member's role in it),
 * where the organization's member listing says how many teams each member is in. Reading every team of an
 * organization costs a request per team the first way, and one per member who is in any team (after the member
 * listing) the second. Which is cheaper depends on how many teams the operation reads, which nobody knows in
 * advance: a refresh lists its first `TEAMS_LISTED_ALONE` teams alone, then reads the member listing and switches
 * to the members' listings as soon as the teams it has listed alone would have paid for them (the ski-rental rule:
 * never more than about twice the cheaper way). A refresh of a few teams costs what it always did; one of many teams
 * in an organization of few members costs a request per member.
 */
import {
  type ApiOrganizationMember,
  type ApiTeamMember,
  listMemberTeams,
  listOrganizationMembers,
  listTeamMembers,
  organizationMembersPath,
  teamMembersPath,
  teamsPath,
} from "../client";
import type { ResourceContext } from "../framework/kind";

/** Below this many teams in one operation, listing each team alone is at most this many requests: no member listing. */
export const TEAMS_LISTED_ALONE = 4;

/** How many members' team listings are read at once (the transport's rate limiter paces them further). */
const MEMBER_READS_AT_ONCE = 8;

interface Membership {
  teamId: string;
  entry: ApiTeamMember;
}

/**
 * The team's members as its own listing reports them (the organization member and the team role of each), shared by
 * every read of the operation; never served from a listing taken before a write of this process (`Listings`).
 */
export async function listedTeamMembers(ctx: ResourceContext, organizationId: string, teamId: string) {
  const { listings, client } = ctx;
  const readAlone = () =>
    listings.get(teamMembersPath(organizationId, teamId), () => listTeamMembers(client, organizationId, teamId));
  const demanded = listings.demanded(`${teamsPath(organizationId)}/*/members`, teamId);
  if (demanded <= TEAMS_LISTED_ALONE) return readAlone();
  // The member listing's counts change with every membership write: it is not one that survives writes.
  const members = await listings.get(`${organizationMembersPath(organizationId)}?teams`, () =>
    listOrganizationMembers(client, organizationId),
  );
  // A member whose count the API leaves out may be in teams.
  const inTeams = members.filter((member) => member.teams === undefined || member.teams > 0);
  if (demanded - 1 < inTeams.length) return readAlone();
  const all = await listings.get(`${organizationMembersPath(organizationId)}/*/teams`, () =>
    membershipsByMember(ctx, organizationId, inTeams),
  );
  return all.filter((membership) => membership.teamId === teamId).map((membership) => membership.entry);
}

/** Every membership of the organization's teams, from the team listing of each member who is in any. */
async function membershipsByMember(
  ctx: ResourceContext,
  organizationId: string,
  members: ApiOrganizationMember[],
): Promise<Membership[]> {
  let next = 0;
  // Kept in the member listing's order, whatever order the answers arrive in.
  const found: Membership[][] = [];
  await Promise.all(
    Array.from({ length: Math.min(MEMBER_READS_AT_ONCE, members.length) }, async () => {
      for (let index = next++; index < members.length; index = next++) {
        const member = members[index]!;
        const teams = await listMemberTeams(ctx.client, organizationId, member.id);
        found[index] = teams.map(({ team, member: { role } }) => ({
          teamId: team.id,
          entry: { organization: member, team: { role } },
        }));
      }
    }),
  );
  return found.flat();
}
