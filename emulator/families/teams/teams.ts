/**
 * Teams (official: GET list, PUT create → 201, GET, PATCH title, DELETE) and team members (GET list, PUT bulk
 * {add, remove, memberships}, PUT /{userId} {role}, DELETE /{userId}).
 *
 * Bulk rule: a user in both `add` and `remove` ends up removed. Unknown user ids/emails → 400.
 */
import { BadRequestError, NotFoundError } from "../../errors";
import { paginate } from "../../pagination";
import type { Store } from "../../store";
import type { Route, RouteContext } from "../../types";
import { arr, obj, oneOfValues, opt, parseBody, queryString, record, req, str } from "../../validate";
import { deleted, noContent, ok, param, requireOrg } from "../common";
import type { MemberRec, OrgRec } from "../organization/records";
import { renderMember } from "../organization/render";
import type { TeamRec } from "./records";
import { renderTeam } from "./render";

const teamTitle = str({ min: 1, max: 64 });
const teamRole = oneOfValues(["owner", "member"] as const);

function requireTeam(ctx: RouteContext): { org: OrgRec; team: TeamRec } {
  const org = requireOrg(ctx);
  const id = param(ctx, "teamId");
  const team = ctx.store.teams.get(id);
  if (!team || team.orgId !== org.id) throw new NotFoundError(`Team "${id}" not found in organization "${org.id}"`);
  return { org, team };
}

function memberRef(store: Store, org: OrgRec, idOrEmail: string, field: string): MemberRec {
  const m = store.findMember(org.id, idOrEmail);
  if (!m) throw new BadRequestError(`${field}: no member of organization "${org.id}" with id or email "${idOrEmail}"`);
  return m;
}

export const teamRoutes: Route[] = [
  {
    method: "GET",
    path: "/v1/orgs/{organizationId}/teams",
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const title = queryString(ctx.query, "title")?.toLowerCase();
      const owner = queryString(ctx.query, "owner");
      const teams = ctx.store
        .teamsOf(org.id)
        .filter(
          (t) =>
            (title === undefined || t.title.toLowerCase().includes(title)) &&
            (owner === undefined || t.members.get(owner) === "owner"),
        );
      return ok(paginate(ctx, teams, (t) => renderTeam(ctx.store, t)));
    },
  },
  {
    method: "PUT",
    path: "/v1/orgs/{organizationId}/teams",
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const body = parseBody(
        ctx.body,
        { title: req(teamTitle), members: opt(arr(str({ min: 1 }))) },
        { required: true },
      );
      const members = (body.members ?? []).map((m, i) => memberRef(ctx.store, org, m, `members[${i}]`));
      const team = ctx.store.createTeam(
        org.id,
        body.title,
        members.map((m) => m.userId),
      );
      return { status: 201, body: renderTeam(ctx.store, team) };
    },
  },
  {
    method: "GET",
    path: "/v1/orgs/{organizationId}/teams/{teamId}",
    handler: (ctx) => ok(renderTeam(ctx.store, requireTeam(ctx).team)),
  },
  {
    method: "PATCH",
    path: "/v1/orgs/{organizationId}/teams/{teamId}",
    handler: (ctx) => {
      const { team } = requireTeam(ctx);
      const body = parseBody(ctx.body, { title: req(teamTitle) }, { required: true });
      ctx.store.update("teams", team, { title: body.title });
      return ok(renderTeam(ctx.store, team));
    },
  },
  {
    method: "DELETE",
    path: "/v1/orgs/{organizationId}/teams/{teamId}",
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const team = ctx.store.teams.get(param(ctx, "teamId"));
      return deleted(team !== undefined && team.orgId === org.id && ctx.store.remove("teams", team.id));
    },
  },
  {
    method: "GET",
    path: "/v1/orgs/{organizationId}/teams/{teamId}/members",
    handler: (ctx) => {
      const { org, team } = requireTeam(ctx);
      const entries = [...team.members.entries()].filter(([userId]) => ctx.store.member(org.id, userId));
      return ok(
        paginate(
          ctx,
          entries,
          ([userId, role]) => ({
            organization: renderMember(ctx.env, ctx.store, ctx.store.member(org.id, userId)!),
            team: { role },
            permissions: { view: true },
          }),
          ([userId]) => userId,
        ),
      );
    },
  },
  {
    method: "PUT",
    path: "/v1/orgs/{organizationId}/teams/{teamId}/members",
    handler: (ctx) => {
      const { org, team } = requireTeam(ctx);
      const { store } = ctx;
      const body = parseBody(
        ctx.body,
        {
          add: opt(arr(str({ min: 1 }))),
          remove: opt(arr(str({ min: 1 }))),
          memberships: opt(record(obj({ role: req(teamRole) }))),
        },
        { required: true },
      );
      // Resolve everything first: an unknown user fails the whole request.
      const add = (body.add ?? []).map((x, i) => memberRef(store, org, x, `add[${i}]`).userId);
      const remove = new Set((body.remove ?? []).map((x, i) => memberRef(store, org, x, `remove[${i}]`).userId));
      const memberships = Object.entries(body.memberships ?? {}).map(
        ([k, v]) => [memberRef(store, org, k, `memberships.${k}`).userId, v.role] as const,
      );
      store.updateTeamMembers(team, { add, memberships, remove });
      return noContent();
    },
  },
  {
    method: "PUT",
    path: "/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}",
    handler: (ctx) => {
      const { org, team } = requireTeam(ctx);
      const userId = param(ctx, "userId");
      const member = ctx.store.findMember(org.id, userId);
      if (!member) throw new NotFoundError(`User "${userId}" is not a member of organization "${org.id}"`);
      const body = parseBody(ctx.body, { role: opt(teamRole) });
      ctx.store.setTeamMember(team, member.userId, body.role);
      return noContent();
    },
  },
  {
    method: "DELETE",
    path: "/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}",
    handler: (ctx) => {
      const { org, team } = requireTeam(ctx);
      const member = ctx.store.findMember(org.id, param(ctx, "userId"));
      return deleted(member !== undefined && ctx.store.removeTeamMember(team, member.userId));
    },
  },
];
