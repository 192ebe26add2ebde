import { z } from "zod";
import {
  type ApiTeamMember,
  createTeam,
  deleteTeam,
  getTeam,
  listOrganizationMembers,
  listTeamMembers,
  listTeams,
  organizationMembersPath,
  renameTeam,
  TEAM_ROLES,
  type TeamMembersChange,
  teamMembersPath,
  teamsPath,
  updateTeamMembers,
} from "../client";
import { undoOnFailure } from "../framework/cleanup";
import { apiId, defineKind, type ResourceContext } from "../framework/kind";
import { readListed } from "../framework/listings";
import { createdSince } from "../framework/recovery";
import { listedTeamMembers } from "./teamMembership";

/** Emails compare case-insensitively (they may be written in any case); user ids compare exactly. */
const key = (user: string) => (user.includes("@") ? user.toLowerCase() : user);

const member = z.strictObject({
  user: z
    .string()
    .min(1)
    .describe("A user id, or the email of an organization member (emails compare case-insensitively)."),
  // A declared member without a role is a plain member: the list is authoritative, roles included.
  role: z.enum(TEAM_ROLES).default("member").describe("`owner` (may manage the team's members) or `member`."),
});

const inputs = z.strictObject({
  organizationId: apiId.describe("The organization of the team."),
  title: z.string().min(1).max(64).describe("The team's name."),
  members: z
    .array(member)
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((entry, i) => {
        if (seen.has(key(entry.user)))
          ctx.addIssue({ code: "custom", path: [i, "user"], message: "lists a user twice" });
        seen.add(key(entry.user));
      });
    })
    .optional()
    .describe(
      "The complete membership, roles included, order-insensitive, no user twice: members not listed are removed, " +
        "`[]` empties the team. Omitted: membership is not managed (use TeamMember for single memberships).",
    ),
});

const state = z.object({
  organizationId: z.string(),
  title: z.string(),
  members: z
    .array(z.object({ user: z.string(), role: z.string() }))
    .default([])
    .describe(
      "Every current member, by the identifier the program declared (user id or email), otherwise by user id. When " +
        "`members` is not managed, it is never read: `[]` for a team created by the program, else as last read.",
    ),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;
type Member = State["members"][number];
type DeclaredMember = NonNullable<Inputs["members"]>[number];

/**
 * Resolves a declared user (id or email) to a user id: from the team's listing, which embeds each member's user, and,
 * for users it does not name, from the organization's (the official User schema makes `email` optional).
 */
async function directory(ctx: ResourceContext, organizationId: string, entries: ApiTeamMember[], declared: Member[]) {
  const ids = new Map<string, string>();
  const note = (user: { id: string; email?: string }) => {
    ids.set(user.id, user.id);
    if (user.email) ids.set(key(user.email), user.id);
  };
  for (const entry of entries) note(entry.organization.user);
  // Only an email needs the organization's listing: a user id the team's listing lacks is sent as declared.
  if (declared.some((d) => d.user.includes("@") && !ids.has(key(d.user)))) {
    const path = organizationMembersPath(organizationId);
    // This package never writes organization members: the listing outlives this process's writes.
    const load = () => listOrganizationMembers(ctx.client, organizationId);
    for (const m of await ctx.listings.get(path, load, { survivesWrites: true })) {
      note(m.user);
    }
  }
  return (user: string) => ids.get(key(user));
}

/**
 * The members as the API reports them now (`entries`: from a refresh's shared listings, else listed fresh). It names
 * them by user id; a user the program declared by email keeps that email, so there is no perpetual diff. Declared
 * order first, then the others by user id: unchanged teams read the same whichever listing reported them.
 */
async function currentMembers(
  ctx: ResourceContext,
  organizationId: string,
  teamId: string,
  declared: Member[] = [],
  listed?: ApiTeamMember[],
) {
  const entries = listed ?? (await listTeamMembers(ctx.client, organizationId, teamId));
  const idOf = await directory(ctx, organizationId, entries, declared);
  const found = entries.map((entry) => {
    const index = declared.findIndex((d) => idOf(d.user) === entry.organization.user.id);
    const user = index < 0 ? entry.organization.user.id : declared[index]!.user;
    return { index: index < 0 ? declared.length : index, member: { user, role: entry.team.role } };
  });
  const order = (a: (typeof found)[number], b: (typeof found)[number]) =>
    a.index - b.index || (a.member.user < b.member.user ? -1 : a.member.user > b.member.user ? 1 : 0);
  return found.sort(order).map((f) => f.member);
}

/**
 * Makes the team's membership exactly `desired`, in one bulk request. `entries`: the current membership when already
 * known (a team just created has none), else listed.
 */
async function syncMembers(
  ctx: ResourceContext,
  organizationId: string,
  teamId: string,
  desired: DeclaredMember[],
  known?: ApiTeamMember[],
) {
  const entries = known ?? (await listTeamMembers(ctx.client, organizationId, teamId));
  const current = new Map(entries.map((e) => [e.organization.user.id, e.team.role]));
  const idOf = await directory(ctx, organizationId, entries, desired);
  const change: Required<TeamMembersChange> = { add: [], remove: [], memberships: {} };
  const wanted = new Set<string>();
  for (const d of desired) {
    // A user the organization does not know is sent as declared: the API's 400 then names it.
    const id = idOf(d.user) ?? d.user;
    wanted.add(id);
    if (!current.has(id)) change.add.push(id);
    if (current.get(id) !== d.role) change.memberships[id] = { role: d.role };
  }
  for (const id of current.keys()) if (!wanted.has(id)) change.remove.push(id);
  const body = Object.fromEntries(Object.entries(change).filter(([, value]) => Object.keys(value).length > 0));
  if (Object.keys(body).length === 0) return;
  // The API adds, then sets roles (of new members too), then removes.
  await updateTeamMembers(ctx.client, organizationId, teamId, body);
  ctx.listings.invalidate(teamMembersPath(organizationId, teamId));
}

export const teamKind = defineKind<Inputs, State>({
  kind: "Team",
  docs: {
    description: "A team of organization members, with or without its membership managed.",
    adoption:
      '`importId: "<teamId>"`; the organization comes from `organizationId`. With `members` declared, adoption makes ' +
      "the team's membership exactly that list.",
    notes: [
      "Do not manage the same team's membership with both `members` and [TeamMember](#teammember): they would undo " +
        "each other's changes. When `members` is not managed, the membership is never listed (a refresh reads the " +
        "team from the organization's shared team listing alone) and membership changes are not drift.",
      "- Create is `PUT /orgs/{organizationId}/teams` (the official create operation is a `PUT` on the list path) with " +
        "the title, then, when `members` is declared, one bulk `PUT /orgs/{organizationId}/teams/{id}/members` that " +
        "adds, removes and sets roles. If that request fails, the new team is deleted again and `up` fails.",
      "- Every user must already be a member of the organization; the API rejects an unknown user (400, naming it). " +
        "This is not checked during preview.",
      "- A user declared by email is matched through the email the API reports for that member. The official schema " +
        "makes a user's `email` optional; if your API does not report it, declare user ids, or the member shows as a " +
        "change on every preview.",
    ],
    example: `const writers = new docs.Team("writers", {
  organizationId,
  title: "Technical writers",
  members: [{ user: leadUserId, role: "owner" }, { user: "writer@example.com" }],
});`,
  },
  scope: "organization",
  inputs,
  state,
  setProperties: ["members"],
  listing: {
    path: ({ organizationId }) => teamsPath(String(organizationId)),
    async list(ctx, { ids }) {
      const org = String(ids.organizationId);
      const all = await ctx.listings.get(teamsPath(org), () => listTeams(ctx.client, org));
      return all.map((t) => ({ id: t.id, title: t.title, known: ids, item: t }));
    },
    unmanaged: true,
  },
  imported: { word: "team", heading: "Teams and their complete membership." },
  outputs: [],
  idFormat: "the team id (API `id`); the organization comes from `organizationId`",
  // No endpoint moves a team to another organization.
  replaceOnChanges: ["organizationId"],

  async findCreated({ client }, news, since) {
    const all = await listTeams(client, news.organizationId);
    return all
      .filter((team) => team.title === news.title && createdSince(team.createdAt, since))
      .map((team) => ({ id: team.id, title: team.title }));
  },
  async create(ctx, news) {
    const organizationId = news.organizationId;
    const team = await createTeam(ctx.client, organizationId, { title: news.title });
    // A failed create leaves nothing in the state: do not leave a team behind that no program owns.
    const members = await undoOnFailure(
      { kind: "Team", id: team.id, title: team.title },
      () => deleteTeam(ctx.client, organizationId, team.id),
      async () => {
        // A new team has no members: unmanaged membership costs no listing.
        if (!news.members) return [];
        await syncMembers(ctx, organizationId, team.id, news.members, []);
        return currentMembers(ctx, organizationId, team.id, news.members);
      },
    );
    return { id: team.id, state: { organizationId, title: team.title, members } };
  },

  async read(ctx, id, known, declared) {
    const { organizationId } = known;
    // One listing of the organization's teams (the same OrganizationTeam objects as the single GET) serves every
    // team of a refresh; a team missing from it is gone.
    const team = await readListed(ctx.listings, {
      path: teamsPath(organizationId),
      list: () => listTeams(ctx.client, organizationId),
      matches: (item) => item.id === id,
      single: () => getTeam(ctx.client, organizationId, id),
    });
    if (team === undefined) return undefined;
    const { title } = team;
    // Listing the members costs a second request: only worth it when the program manages them.
    const managed = declared?.has("members") ?? true;
    const members = managed
      ? await currentMembers(ctx, organizationId, id, known.members, await listedTeamMembers(ctx, organizationId, id))
      : (known.members ?? []);
    return { id, state: { organizationId, title, members } };
  },

  async update(ctx, id, olds, news, changed) {
    const { organizationId } = olds;
    const title = changed.has("title")
      ? (await renameTeam(ctx.client, organizationId, id, news.title)).title
      : olds.title;
    // Membership the update does not change is as the state says (the diff compared it): no listing.
    if (!news.members || !changed.has("members")) return { organizationId, title, members: olds.members };
    await syncMembers(ctx, organizationId, id, news.members);
    const members = await currentMembers(ctx, organizationId, id, news.members);
    return { organizationId, title, members };
  },

  async delete(ctx, id, olds) {
    await deleteTeam(ctx.client, olds.organizationId, id);
    ctx.listings.invalidate(teamMembersPath(olds.organizationId, id));
  },
});
