import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { isNotFound, listTeamMembers, putTeamMember, removeTeamMember, TEAM_ROLES, teamMembersPath } from "../client";
import { type AdoptionArgs, type ArgsOf, DocsResource } from "../framework/resource";
import { defineResource, type ResourceContext } from "../framework/spec";

const inputs = z.strictObject({
  organizationId: z.string().min(1),
  teamId: z.string().min(1),
  /** The member's user id; they must already be a member of the organization. */
  // The member endpoint also takes an email, but the team's listing reports users by id only, so an email here could
  // never be read back: Team.members is where emails are accepted.
  userId: z
    .string()
    .min(1)
    .regex(/^[^@]*$/, "must be a user id, not an email (Team.members accepts emails)"),
  /** `owner` (may manage the team's members) or `member`. Unmanaged when omitted: the API gives new members `member`. */
  role: z.enum(TEAM_ROLES).optional(),
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
 * No operation reads one team member: list the team. A refresh of many members of one team shares the listing,
 * which every write under the team drops. Undefined when the team or the membership is gone.
 */
async function find(ctx: ResourceContext, organizationId: string, teamId: string, userId: string, fresh: boolean) {
  const path = teamMembersPath(organizationId, teamId);
  const load = () => listTeamMembers(ctx.client, organizationId, teamId);
  try {
    const entries = fresh ? await load() : await ctx.listings.get(path, load);
    const entry = entries.find((e) => e.organization.user.id === userId);
    return entry && { organizationId, teamId, userId, role: entry.team.role };
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** Adds the user or sets their role, then reads the result without leaving a listing in the cache. */
async function put(ctx: ResourceContext, news: Inputs): Promise<State> {
  await putTeamMember(ctx.client, news.organizationId, news.teamId, news.userId, news.role ? { role: news.role } : {});
  ctx.listings.invalidate(teamMembersPath(news.organizationId, news.teamId));
  const found = await find(ctx, news.organizationId, news.teamId, news.userId, true);
  if (!found)
    throw new Error(`TeamMember "${idOf(news.teamId, news.userId)}": the API accepted the member but does not list it`);
  return found;
}

export const teamMemberSpec = defineResource<Inputs, State>({
  kind: "TeamMember",
  inputs,
  state,
  outputs: [],
  idFormat: "`<teamId>/<userId>`, e.g. `Tm0aB.../Us9xY...`; the organization comes from organizationId",
  // The id is the pair; a membership cannot be moved to another team, user or organization.
  replaceOnChanges: ["organizationId", "teamId", "userId"],
  // The old and new membership may be the same pair (e.g. only organizationId was corrected): removing the old one
  // after adding the new one would remove both.
  deleteBeforeReplace: true,

  async create(ctx, news) {
    return { id: idOf(news.teamId, news.userId), state: await put(ctx, news) };
  },

  async read(ctx, id, known) {
    const ids = parseId(id);
    const state = ids && (await find(ctx, known.organizationId as string, ids.teamId, ids.userId, false));
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

export type TeamMemberArgs = ArgsOf<z.input<typeof inputs>> & AdoptionArgs;

/**
 * One member of a team whose membership is otherwise not managed (a Team without `members`).
 * Id: `<teamId>/<userId>`.
 */
export class TeamMember extends DocsResource {
  declare readonly organizationId: pulumi.Output<string>;
  declare readonly teamId: pulumi.Output<string>;
  declare readonly userId: pulumi.Output<string>;
  declare readonly role: pulumi.Output<string>;

  constructor(name: string, args: TeamMemberArgs, opts?: pulumi.CustomResourceOptions) {
    super(teamMemberSpec, name, args, opts);
  }
}
