/** Organizations: GET /orgs, GET and PATCH /orgs/{organizationId}. */
import { BadRequestError } from "../../errors";
import { paginate } from "../../pagination";
import type { Route } from "../../types";
import {
  arr,
  bool,
  literal,
  memberRoleOrGuest,
  mergeRules,
  nullable,
  obj,
  opt,
  parseBody,
  req,
  str,
  url,
} from "../../validate";
import { given, ok, requireOrg } from "../common";
import { renderOrg } from "./render";

/** The official `updateOrganizationById` body. */
const orgPatch = {
  title: opt(
    str({ min: 2, max: 255, pattern: /\S.*\S/, patternLabel: "must contain at least two non-space characters" }),
  ),
  emailDomains: opt(arr(str())),
  hostname: opt(str({ min: 3, max: 32 })),
  defaultRole: opt(memberRoleOrGuest),
  defaultContent: opt(nullable(obj({ type: req(literal("site")), site: req(str({ min: 1 })) }))),
  logo: opt(nullable(url)),
  sso: opt(bool()),
  ai: opt(bool()),
  inviteLinks: opt(bool()),
  mergeRules: opt(mergeRules({ inherit: false })),
};

export const orgRoutes: Route[] = [
  {
    method: "GET",
    path: "/v1/orgs",
    handler: (ctx) => {
      const orgs = [...ctx.store.orgs.values()];
      return ok(paginate(ctx, orgs, (o) => renderOrg(ctx.env, ctx.store, o)));
    },
  },
  {
    method: "GET",
    path: "/v1/orgs/{organizationId}",
    handler: (ctx) => ok(renderOrg(ctx.env, ctx.store, requireOrg(ctx))),
  },
  {
    method: "PATCH",
    path: "/v1/orgs/{organizationId}",
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const body = parseBody(ctx.body, orgPatch, { required: true });
      // The official document answers 400 for a default content it cannot use.
      const siteId = body.defaultContent?.site;
      if (siteId !== undefined && ctx.store.sites.get(siteId)?.orgId !== org.id) {
        throw new BadRequestError(`defaultContent: site "${siteId}" is not a site of organization "${org.id}"`);
      }
      if (body.hostname !== undefined && ctx.store.hostnameTaken(org, body.hostname)) {
        throw new BadRequestError(`hostname: "${body.hostname}" is already used by another organization`);
      }
      const { emailDomains, defaultContent, logo, ...plain } = body;
      ctx.store.update("orgs", org, {
        ...given(plain),
        ...(emailDomains !== undefined && { emailDomains: [...new Set(emailDomains)] }),
        ...(defaultContent !== undefined && { defaultSiteId: defaultContent?.site }),
        ...(logo !== undefined && { logo: logo ?? undefined }),
      });
      return ok(renderOrg(ctx.env, ctx.store, org));
    },
  },
];
