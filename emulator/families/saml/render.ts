/** Renders the saml family's records into API objects carrying every field the official response schemas require. */

import type { Store } from "../../store";
import type { Env } from "../../types";
import { renderTeam } from "../teams/render";
import type { SamlRec } from "./records";

type Json = Record<string, unknown>;

const enc = encodeURIComponent;

export function samlService(env: Env, p: SamlRec): { acsURL: string; startURL: string; entityID: string } {
  const base = `${env.appBase}/__/auth/saml/${enc(p.orgId)}/${enc(p.id)}`;
  return { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: `${base}/metadata` };
}

/** `active` once the identity provider is fully configured (ssoURL, entityID and certificate), else `pending`. */
export function samlStatus(p: SamlRec): "active" | "pending" {
  return p.ssoURL && p.entityID && p.certificate ? "active" : "pending";
}

/** Placeholder reported for `ssoURL` until one is set (the official schema requires a URI). */
export const UNSET_SSO_URL = "about:blank";

export function renderSaml(env: Env, store: Store, p: SamlRec): Json {
  const out: Json = {
    object: "saml-provider",
    id: p.id,
    label: p.label,
    ssoURL: p.ssoURL ?? UNSET_SSO_URL,
    entityID: p.entityID,
    certificate: p.certificate,
  };
  const team = p.defaultTeamId ? store.teams.get(p.defaultTeamId) : undefined;
  if (team) out.defaultTeam = renderTeam(store, team);
  out.defaultRole = p.defaultRole;
  out.createdAt = p.createdAt;
  out.status = samlStatus(p);
  out.service = samlService(env, p);
  out.urls = { location: `${env.apiBase}/orgs/${enc(p.orgId)}/saml/${enc(p.id)}` };
  return out;
}
