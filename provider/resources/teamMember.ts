import { z } from "zod";
import { listTeamMembers, putTeamMember, removeTeamMember, TEAM_ROLES, teamMembersPath } from "../client";
import { undoIfActed, undoOnFailure } from "../framework/cleanup";
import {
  API_ID_PATTERN,
  API_ID_RULE,
  apiId,
  apiIdPair,
  defineKind,
  idRef,
  type ResourceContext,
} from "../framework/kind";
import { listedTeamMembers } from "./teamMembership";

const inputs = z.strictObject({
  organizationId: apiId.describe("The organization of the team."),
  teamId: idRef("Team").describe("The team."),
  // The member endpoint also takes an email, but the team's listing reports users by id only, so an email here could
  // never be read back: Team.members is where emails are accepted.
  userId: z
    .string()
    .meta({ refersTo: "OrganizationMember" })
    .regex(API_ID_PATTERN, {
      error: (issue) =>
        String(issue.input).includes("@")
          ? "must be a user id, not an email (Team.members accepts emails)"
          : API_ID_RULE,
    })
    .describe("The member's user id (not an email); they must already be a member of the organization."),
  role: z
    .enum(TEAM_ROLES)
    .optional()
    .describe("`owner` (may manage the team's members) or `member`; a new member gets `member` when omitted."),
});

const state = z.object({
  organizationId: z.string(),
  teamId: z.string(),
  userId: z.string(),
  role: z.string().default("member"),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

/** Team and user ids never contain a slash, so the pair makes an unambiguous resource id. */
const idOf = (teamId: string, userId: string) => `${teamId}/${userId}`;

function parseId(id: string): { teamId: string; userId: string } | undefined {
  const [teamId, userId, ...rest] = id.split("/");
  return teamId && userId && rest.length === 0 ? { teamId, userId } : undefined;
}

/**
 * No operation reads one team member: list the team (fresh after a write of this resource), or, in a refresh, read
 * the membership every read of the operation shares (teamMembership.ts). Undefined when the membership is gone (a
 * 404 of the team's listing: the team is).
 */
async function find(ctx: ResourceContext, organizationId: string, teamId: string, userId: string, fresh: boolean) {
  const entries = fresh
    ? await listTeamMembers(ctx.client, organizationId, teamId)
    : await listedTeamMembers(ctx, organizationId, teamId);
  const entry = entries.find((e) => e.organization.user.id === userId);
  return entry && { organizationId, teamId, userId, role: entry.team.role };
}

/** Adds the user or sets their role, then reads the result without leaving a listing in the cache. */
async function put(ctx: ResourceContext, news: Inputs): Promise<State> {
  await write(ctx, news);
  return readBack(ctx, news);
}

async function write(ctx: ResourceContext, news: Inputs): Promise<void> {
  await putTeamMember(ctx.client, news.organizationId, news.teamId, news.userId, news.role ? { role: news.role } : {});
  ctx.listings.invalidate(teamMembersPath(news.organizationId, news.teamId));
}

async function readBack(ctx: ResourceContext, news: Inputs): Promise<State> {
  const found = await find(ctx, news.organizationId, news.teamId, news.userId, true);
  if (!found)
    throw new Error(`TeamMember "${idOf(news.teamId, news.userId)}": the API accepted the member but does not list it`);
  return found;
}

export const teamMemberKind = defineKind<Inputs, State>({
  kind: "TeamMember",
  docs: {
    description: "One member of a team whose membership is otherwise not managed (a `Team` without `members`).",
    adoption:
      '`importId: "<teamId>/<userId>"`, naming the same team and user as `teamId` and `userId` (otherwise `up` fails). ' +
      "Adoption is optional here: create is the same idempotent `PUT` as an update, so creating a membership that " +
      "already exists succeeds (and sets `role` if declared).",
    notes: [
      "- There is no API call that reads one membership: the provider lists the team's members. A refresh of many " +
        "members of the same team makes one listing request.",
      "- A create that fails after the API may have added the member (every answer lost, a 5xx, the member not read " +
        "back) removes the member again, so that no membership outlives a failed `up` unrecorded; one that existed " +
        "before the program declared it is removed too, and the next `up` adds it again.",
      "- Delete is `DELETE /orgs/{organizationId}/teams/{teamId}/members/{userId}`. When the team itself is deleted, the " +
        "membership is gone; a refresh drops it from the state.",
      "- Replacements delete first, because the old and new membership may be the same pair (for example when only " +
        "`organizationId` was corrected).",
    ],
    example: `new docs.TeamMember("lead", { organizationId, teamId: team.id, userId: leadUserId, role: "owner" });`,
  },
  scope: "organization",
  inputs,
  state,
  parent: { kind: "Team", input: "teamId" },
  id: { pair: "userId" },
  listing: {
    path: ({ organizationId, teamId }) => teamMembersPath(String(organizationId), String(teamId)),
    async list(ctx, { ids, title }) {
      const [org, team] = [String(ids.organizationId), String(ids.teamId)];
      const entries = await ctx.listings.get(teamMembersPath(org, team), () => listTeamMembers(ctx.client, org, team));
      return entries.map(({ organization: { user } }) => ({
        id: `${team}/${user.id}`,
        title: user.email ?? user.id,
        known: { organizationId: org, teamId: team, userId: user.id },
        under: `team "${title}"`,
      }));
    },
    // A team that declares `members` holds its whole membership.
    managedBy: { byParentInput: "members" },
    unmanaged: true,
  },
  imported: { inside: "in their team's `members` (Team)" },
  outputs: [],
  idFormat: "`<teamId>/<userId>`, e.g. `Tm0aB.../Us9xY...`; the organization comes from `organizationId`",
  importId: apiIdPair,
  // The id is the pair; a membership cannot be moved to another team, user or organization.
  replaceOnChanges: ["organizationId", "teamId", "userId"],
  // The old and new membership may be the same pair (e.g. only organizationId was corrected): removing the old one
  // after adding the new one would remove both.
  deleteBeforeReplace: true,

  // Create is an idempotent PUT, repeated by the client itself; the lookup serves recovery of a pending create.
  async findCreated(ctx, news) {
    const found = await find(ctx, news.organizationId, news.teamId, news.userId, true);
    return found ? [{ id: idOf(found.teamId, found.userId), title: found.userId }] : [];
  },
  async create(ctx, news) {
    // A failed create leaves no member that no state records (the next `up` may declare another user).
    const created = { kind: "TeamMember", id: idOf(news.teamId, news.userId) };
    const remove = () => removeTeamMember(ctx.client, news.organizationId, news.teamId, news.userId);
    await undoIfActed(created, remove, () => write(ctx, news));
    const state = await undoOnFailure(created, remove, () => readBack(ctx, news));
    return { id: created.id, state };
  },

  async read(ctx, id, { organizationId }) {
    const ids = parseId(id);
    const state = ids && (await find(ctx, organizationId, ids.teamId, ids.userId, false));
    return state && { id, state };
  },

  async update(ctx, _id, olds, news, changed) {
    // Only reachable by adopting with an importId naming another membership than teamId/userId say.
    for (const key of ["teamId", "userId"] as const) {
      if (changed.has(key))
        throw new Error(`TeamMember: importId names ${key} "${olds[key]}", the inputs "${news[key]}"`);
    }
    return put(ctx, news);
  },

  async delete(ctx, _id, olds) {
    await removeTeamMember(ctx.client, olds.organizationId, olds.teamId, olds.userId);
    ctx.listings.invalidate(teamMembersPath(olds.organizationId, olds.teamId));
  },
});
