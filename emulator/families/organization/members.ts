/** Organization members: list (filters), get, update role, remove, set as SSO member, teams of a member. */
import { NotFoundError } from "../../errors";
import { paginate } from "../../pagination";
import type { Route, RouteContext } from "../../types";
import { expectNoBody, MEMBER_ROLES, memberRoleOrGuest, opt, parseBody, queryEnum, queryString } from "../../validate";
import { deleted, ok, param, requireOrg } from "../common";
import { renderTeam } from "../teams/render";
import type { MemberRec } from "./records";
import { renderMember } from "./render";

function requireMember(ctx: RouteContext): MemberRec {
  const org = requireOrg(ctx);
  const userId = param(ctx, "userId");
  const m = ctx.store.member(org.id, userId);
  if (!m) throw new NotFoundError(`User "${userId}" is not a member of organization "${org.id}"`);
  return m;
}

export const memberRoutes: Route[] = [
  {
    method: "GET",
    path: "/v1/orgs/{organizationId}/members",
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const { store } = ctx;
      const role = queryEnum(ctx.query, "role", [...MEMBER_ROLES, "guest"] as const);
      const order = queryEnum(ctx.query, "order", ["asc", "desc"] as const) ?? "desc";
      const sort = queryEnum(ctx.query, "sort", ["joinedAt", "lastSeenAt", "name"] as const) ?? "joinedAt";
      const search = queryString(ctx.query, "search")?.toLowerCase();
      let members = store.membersOf(org.id);
      if (role) members = members.filter((m) => (role === "guest" ? m.role === null : m.role === role));
      if (search !== undefined) {
        members = members.filter((m) => {
          const u = store.users.get(m.userId)!;
          return u.displayName.toLowerCase().includes(search) || u.email.toLowerCase().includes(search);
        });
      }
      if (sort === "lastSeenAt") members = members.filter((m) => m.lastSeenAt !== undefined);
      const keyOf = (m: MemberRec): string =>
        sort === "name"
          ? store.users.get(m.userId)!.displayName.toLowerCase()
          : sort === "lastSeenAt"
            ? m.lastSeenAt!
            : m.joinedAt;
      members.sort((a, b) => {
        const c = keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : a.userId < b.userId ? -1 : 1;
        return order === "asc" ? c : -c;
      });
      return ok(
        paginate(
          ctx,
          members,
          (m) => renderMember(ctx.env, store, m),
          (m) => m.userId,
        ),
      );
    },
  },
  {
    method: "GET",
    path: "/v1/orgs/{organizationId}/members/{userId}",
    handler: (ctx) => ok(renderMember(ctx.env, ctx.store, requireMember(ctx))),
  },
  {
    method: "PATCH",
    path: "/v1/orgs/{organizationId}/members/{userId}",
    handler: (ctx) => {
      const m = requireMember(ctx);
      const body = parseBody(ctx.body, { role: opt(memberRoleOrGuest) }, { required: true });
      if (body.role !== undefined) ctx.store.update("members", m, { role: body.role });
      return ok(renderMember(ctx.env, ctx.store, m));
    },
  },
  {
    // 205 when removed, 204 when the user was not a member (the official document's answers). The emulator's token is
    // an admin's, so the 202 of a removal request sent to the administrators never happens here.
    method: "DELETE",
    path: "/v1/orgs/{organizationId}/members/{userId}",
    handler: (ctx) => deleted(ctx.store.removeMember(requireOrg(ctx).id, param(ctx, "userId"))),
  },
  {
    // One way: the official document has no call that takes the SSO login away from a member.
    method: "POST",
    path: "/v1/orgs/{organizationId}/members/{userId}/sso",
    security: "user",
    handler: (ctx) => {
      const m = requireMember(ctx);
      expectNoBody(ctx.body);
      ctx.store.update("members", m, { sso: true });
      return ok(renderMember(ctx.env, ctx.store, m));
    },
  },
  {
    method: "GET",
    path: "/v1/orgs/{organizationId}/members/{userId}/teams",
    handler: (ctx) => {
      const m = requireMember(ctx);
      const title = queryString(ctx.query, "title")?.toLowerCase();
      const teams = ctx.store
        .teamsOf(m.orgId)
        .filter((t) => t.members.has(m.userId) && (title === undefined || t.title.toLowerCase().includes(title)));
      return ok(
        paginate(ctx, teams, (t) => ({ team: renderTeam(ctx.store, t), member: { role: t.members.get(m.userId)! } })),
      );
    },
  },
];
