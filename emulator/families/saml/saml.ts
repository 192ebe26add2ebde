/**
 * SAML providers: list, create, get, update, delete; GET /orgs/{organizationId}/sso (login entry points).
 *
 * `status` is `active` once ssoURL, entityID and certificate are all set, `pending` before. Until an ssoURL is
 * set the provider reports `about:blank` (the official schema requires a URI there).
 *
 * The official document admits user tokens only to the five SAML provider operations (`security: "user"`), not to the
 * login entry points.
 */
import { BadRequestError, NotFoundError } from "../../errors";
import { paginate } from "../../pagination";
import type { Store } from "../../store";
import type { Route, RouteContext } from "../../types";
import { memberRoleOrGuest, opt, parseBody, req, str, url } from "../../validate";
import { created, deleted, given, ok, param, requireOrg } from "../common";
import type { OrgRec } from "../organization/records";
import type { SamlRec } from "./records";
import { renderSaml, samlService } from "./render";

const label = str({ min: 1, max: 30 });
const entityID = str({ max: 1024 });
const certificate = str({ max: 10000 });

const fields = {
  entityID: opt(entityID),
  certificate: opt(certificate),
  ssoURL: opt(url),
  defaultTeam: opt(str({ min: 1 })),
  defaultRole: opt(memberRoleOrGuest),
};

function requireProvider(ctx: RouteContext): SamlRec {
  const org = requireOrg(ctx);
  const id = param(ctx, "samlProviderId");
  const p = ctx.store.samlProviders.get(id);
  if (!p || p.orgId !== org.id) throw new NotFoundError(`SAML provider "${id}" not found in organization "${org.id}"`);
  return p;
}

function teamRef(store: Store, org: OrgRec, id: string): string {
  const t = store.teams.get(id);
  if (!t || t.orgId !== org.id)
    throw new BadRequestError(`defaultTeam: team "${id}" not found in organization "${org.id}"`);
  return t.id;
}

export const samlRoutes: Route[] = [
  {
    method: "GET",
    path: "/v1/orgs/{organizationId}/saml",
    security: "user",
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const providers = [...ctx.store.samlProviders.values()].filter((p) => p.orgId === org.id);
      return ok(paginate(ctx, providers, (p) => renderSaml(ctx.env, ctx.store, p)));
    },
  },
  {
    method: "POST",
    path: "/v1/orgs/{organizationId}/saml",
    security: "user",
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const body = parseBody(ctx.body, { label: req(label), ...fields }, { required: true });
      const id = ctx.store.newId();
      const p = ctx.store.insert("samlProviders", id, {
        id,
        orgId: org.id,
        createdAt: ctx.store.now(),
        label: body.label,
        ssoURL: body.ssoURL,
        entityID: body.entityID ?? "",
        certificate: body.certificate ?? "",
        defaultTeamId: body.defaultTeam !== undefined ? teamRef(ctx.store, org, body.defaultTeam) : undefined,
        defaultRole: body.defaultRole ?? null,
      });
      const rendered = renderSaml(ctx.env, ctx.store, p);
      return created(rendered, (rendered.urls as { location: string }).location);
    },
  },
  {
    method: "GET",
    path: "/v1/orgs/{organizationId}/saml/{samlProviderId}",
    security: "user",
    handler: (ctx) => ok(renderSaml(ctx.env, ctx.store, requireProvider(ctx))),
  },
  {
    method: "PATCH",
    path: "/v1/orgs/{organizationId}/saml/{samlProviderId}",
    security: "user",
    handler: (ctx) => {
      const p = requireProvider(ctx);
      const org = ctx.store.orgs.get(p.orgId)!;
      const body = parseBody(ctx.body, { label: opt(label), ...fields }, { required: true });
      const team = body.defaultTeam !== undefined ? teamRef(ctx.store, org, body.defaultTeam) : undefined;
      const { entityID, certificate, ssoURL } = body;
      const changes = {
        label: body.label,
        entityID,
        certificate,
        ssoURL,
        defaultTeamId: team,
        defaultRole: body.defaultRole,
      };
      ctx.store.update("samlProviders", p, given(changes));
      return ok(renderSaml(ctx.env, ctx.store, p));
    },
  },
  {
    method: "DELETE",
    path: "/v1/orgs/{organizationId}/saml/{samlProviderId}",
    security: "user",
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const p = ctx.store.samlProviders.get(param(ctx, "samlProviderId"));
      if (!p || p.orgId !== org.id) return deleted(false);
      ctx.store.remove("samlProviders", p.id);
      return deleted(true);
    },
  },
  {
    method: "GET",
    path: "/v1/orgs/{organizationId}/sso",
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const items = [...ctx.store.samlProviders.values()]
        .filter((p) => p.orgId === org.id)
        .map((p) => ({ id: p.id, label: p.label, startURL: samlService(ctx.env, p).startURL }));
      return ok({ items });
    },
  },
];
