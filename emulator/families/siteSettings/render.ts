/** Renders the siteSettings family's records into API objects carrying every field the official response schemas require. */

import type { Store } from "../../store";
import type { Env } from "../../types";
import type { SiteRec } from "../sites/records";
import { siteBaseUrl, siteLocation } from "../sites/render";
import type { ShareLinkRec, SiteAgentSettingsRec, SiteMcpServerRec } from "./records";

type Json = Record<string, unknown>;

const enc = encodeURIComponent;

export function renderShareLink(store: Store, link: ShareLinkRec): Json {
  const site = store.sites.get(link.siteId)!;
  return {
    object: "share-link",
    id: link.id,
    createdAt: link.createdAt,
    name: link.name,
    active: link.active,
    urls: { published: `${siteBaseUrl(store, site)}/?token=${link.token}` },
  };
}

export function renderMcpServer(env: Env, store: Store, server: SiteMcpServerRec): Json {
  const site = store.sites.get(server.siteId)!;
  const out: Json = {
    object: "site-mcp-server",
    id: server.id,
    name: server.name,
    url: server.url,
    transport: server.transport,
    headers: { ...server.headers },
  };
  if (server.condition !== undefined) out.condition = server.condition;
  out.urls = { location: `${siteLocation(env, site)}/mcp-servers/${enc(server.id)}` };
  return out;
}

/** `urls.location` is "Relative URL to the resource in the API" (official): the path from the API's origin. */
export function renderAgentSettings(env: Env, site: SiteRec, rec: SiteAgentSettingsRec): Json {
  const out: Json = { object: "site-agent-settings", ...structuredClone(rec.settings) };
  if (rec.updatedAt !== undefined) out.updatedAt = rec.updatedAt;
  out.urls = { location: `${siteLocation(env, site).slice(env.origin.length)}/agent-settings` };
  return out;
}
