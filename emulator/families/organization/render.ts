/** Renders the organization family's records into API objects carrying every field the official response schemas require. */

import type { Store } from "../../store";
import type { Env } from "../../types";
import type { MemberRec, OrgRec, UserRec } from "./records";

type Json = Record<string, unknown>;

const enc = encodeURIComponent;

export function renderUser(env: Env, u: UserRec): Json {
  const out: Json = { object: "user", id: u.id, displayName: u.displayName, email: u.email };
  if (u.photoURL) out.photoURL = u.photoURL;
  out.urls = { location: `${env.apiBase}/users/${enc(u.id)}` };
  return out;
}

export function renderOrg(env: Env, store: Store, o: OrgRec): Json {
  const defaultSiteId = store.defaultSiteOf(o);
  const urls: Json = { location: `${env.apiBase}/orgs/${enc(o.id)}`, app: `${env.appBase}/o/${enc(o.id)}/` };
  if (o.logo) urls.logo = o.logo;
  return {
    object: "organization",
    id: o.id,
    title: o.title,
    createdAt: o.createdAt,
    emailDomains: [...o.emailDomains],
    hostname: o.hostname,
    type: "business",
    useCase: "productDocs",
    defaultRole: o.defaultRole,
    ...(defaultSiteId ? { defaultContent: { type: "site", site: defaultSiteId } } : {}),
    sso: o.sso ?? false,
    ai: o.ai ?? true,
    inviteLinks: o.inviteLinks,
    plan: "free_2024",
    mergeRules: o.mergeRules ?? { type: "none" },
    urls,
    trial: { status: "notapplicable", count: 0 },
    permissions: {
      view: true,
      access: true,
      admin: true,
      ownTeam: true,
      createContent: true,
      createOpenAPISpec: true,
      viewBilling: true,
      listMembers: true,
      listTeams: true,
      listIntegrations: true,
      listInstallations: true,
      installIntegration: true,
    },
  };
}

export function renderMember(env: Env, store: Store, m: MemberRec): Json {
  const user = store.users.get(m.userId)!;
  const out: Json = {
    object: "member",
    id: m.userId,
    role: m.role,
    user: renderUser(env, user),
    disabled: m.disabled,
    joinedAt: m.joinedAt,
  };
  if (m.lastSeenAt) out.lastSeenAt = m.lastSeenAt;
  out.sso = m.sso;
  out.spaces = 0;
  out.teams = store.teamCountForMember(m.orgId, m.userId);
  out.sites = 0;
  return out;
}
