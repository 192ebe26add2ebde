/**
 * Content permissions, the same seven operations on three targets (official): `POST {base}` grants a role to teams
 * or users, `GET {base}/teams|users` lists the grants, `PATCH|DELETE {base}/teams/{teamId}|users/{userId}` changes
 * or removes one. Bases: /spaces/{spaceId}/permissions, /collections/{collectionId}/permissions and
 * /orgs/{organizationId}/sites/{siteId}/permissions.
 */
import { BadRequestError, NotFoundError } from "../../errors";
import { paginate } from "../../pagination";
import type { Route, RouteContext } from "../../types";
import { arr, MEMBER_ROLES, memberRoleOrGuest, oneOfValues, opt, parseBody, req, str } from "../../validate";
import { deleted, noContent, ok, param, requireCollection, requireSite, requireSpace } from "../common";
import { renderUser } from "../organization/render";
import type { PermissionRec } from "./records";
import { renderTeam } from "./render";

type Target = PermissionRec["target"];
type Grantee = PermissionRec["grantee"];

interface TargetRoutes {
  target: Target;
  base: string;
  /** The target's id and organization; unknown → 404. */
  resolve(ctx: RouteContext): { id: string; orgId: string };
}

const targets: TargetRoutes[] = [
  {
    target: "space",
    base: "/v1/spaces/{spaceId}/permissions",
    resolve: (ctx) => {
      const s = requireSpace(ctx);
      return { id: s.id, orgId: s.orgId };
    },
  },
  {
    target: "collection",
    base: "/v1/collections/{collectionId}/permissions",
    resolve: (ctx) => {
      const c = requireCollection(ctx);
      return { id: c.id, orgId: c.orgId };
    },
  },
  {
    target: "site",
    base: "/v1/orgs/{organizationId}/sites/{siteId}/permissions",
    resolve: (ctx) => {
      const s = requireSite(ctx);
      return { id: s.id, orgId: s.orgId };
    },
  },
];

const ids = arr(str({ min: 1 }), { min: 1 });

function requireGrantee(ctx: RouteContext, grantee: Grantee, orgId: string, id: string, field: string): void {
  const exists =
    grantee === "team"
      ? ctx.store.teams.get(id)?.orgId === orgId
      : ctx.store.members.has(`${orgId}/${id}`) && ctx.store.users.has(id);
  if (!exists) throw new BadRequestError(`${field}: ${grantee} "${id}" not found in organization "${orgId}"`);
}

function routesFor({ target, base, resolve }: TargetRoutes): Route[] {
  // The official PATCH of a site grant takes a MemberRole only; spaces and collections also take null.
  const patchRole = target === "site" ? oneOfValues(MEMBER_ROLES) : memberRoleOrGuest;
  const routes: Route[] = [
    {
      method: "POST",
      path: base,
      handler: (ctx) => {
        const t = resolve(ctx);
        const body = parseBody(
          ctx.body,
          { role: req(memberRoleOrGuest), teams: opt(ids), users: opt(ids) },
          { required: true },
        );
        if (!body.teams && !body.users) throw new BadRequestError("teams: one of teams and users is required");
        const invited: [Grantee, string[] | undefined][] = [
          ["team", body.teams],
          ["user", body.users],
        ];
        // Resolve every id first: an unknown one changes nothing.
        for (const [grantee, list] of invited) {
          for (const [i, id] of (list ?? []).entries()) requireGrantee(ctx, grantee, t.orgId, id, `${grantee}s.${i}`);
        }
        for (const [grantee, list] of invited) {
          for (const granteeId of list ?? [])
            ctx.store.permissionStore.setGrant({ target, targetId: t.id, grantee, granteeId }, body.role);
        }
        return noContent();
      },
    },
  ];
  for (const grantee of ["team", "user"] as const) {
    const one = `${base}/${grantee}s/{${grantee}Id}`;
    routes.push(
      {
        method: "GET",
        path: `${base}/${grantee}s`,
        handler: (ctx) => {
          const t = resolve(ctx);
          const grants = ctx.store.permissionStore.grantsOf(target, t.id, grantee);
          return ok(
            paginate(
              ctx,
              grants,
              (g) =>
                grantee === "team"
                  ? { permission: g.role, team: renderTeam(ctx.store, ctx.store.teams.get(g.granteeId)!) }
                  : { permission: g.role, user: renderUser(ctx.env, ctx.store.users.get(g.granteeId)!) },
              (g) => g.granteeId,
            ),
          );
        },
      },
      {
        method: "PATCH",
        path: one,
        handler: (ctx) => {
          const t = resolve(ctx);
          const granteeId = param(ctx, `${grantee}Id`);
          const body = parseBody(ctx.body, { role: opt(patchRole) }, { required: true });
          const grant = ctx.store.permissionStore.findGrant(target, t.id, grantee, granteeId);
          if (!grant) throw new NotFoundError(`${grantee} "${granteeId}" has no permission on ${target} "${t.id}"`);
          if (body.role !== undefined)
            ctx.store.permissionStore.setGrant({ target, targetId: t.id, grantee, granteeId }, body.role);
          return noContent();
        },
      },
      {
        method: "DELETE",
        path: one,
        handler: (ctx) => {
          const t = resolve(ctx);
          return deleted(
            ctx.store.permissionStore.revoke({
              target,
              targetId: t.id,
              grantee,
              granteeId: param(ctx, `${grantee}Id`),
            }),
          );
        },
      },
    );
  }
  return routes;
}

export const permissionRoutes: Route[] = targets.flatMap(routesFor);
