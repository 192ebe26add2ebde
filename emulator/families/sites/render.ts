/** Renders the sites family's records into API objects carrying every field the official response schemas require. */

import type { Store } from "../../store";
import type { Env } from "../../types";
import { renderGitSyncState } from "../gitSync/render";
import type { SectionRec } from "../siteStructure/records";
import type { SiteRec } from "./records";

type Json = Record<string, unknown>;

const enc = encodeURIComponent;

export function siteLocation(env: Env, site: SiteRec): string {
  return `${env.apiBase}/orgs/${enc(site.orgId)}/sites/${enc(site.id)}`;
}

/** Public base URL of a site (whether or not it is published): https://<org-host>.gitbook.example/<basename|id> */
export function siteBaseUrl(store: Store, site: SiteRec): string {
  const org = store.orgs.get(site.orgId);
  const host = `${org?.hostname ?? "docs"}.gitbook.example`;
  return `https://${host}/${enc(site.basename ?? site.id)}`;
}

export function sectionBaseUrl(store: Store, site: SiteRec, section: SectionRec): string {
  const base = siteBaseUrl(store, site);
  return section.isDefault ? base : `${base}/${enc(section.path)}`;
}

export function renderSite(env: Env, store: Store, site: SiteRec): Json {
  const out: Json = {
    object: "site",
    id: site.id,
    type: site.type,
    appliedType: site.type,
    title: site.title,
  };
  if (site.basename !== undefined) out.basename = site.basename;
  if (site.proxy !== undefined) out.proxy = { origin: site.proxy, target: siteBaseUrl(store, site) };
  out.visibility = site.visibility;
  out.defaultLevel = site.defaultLevel;
  out.permissions = {
    view: true,
    access: true,
    edit: true,
    create: true,
    admin: true,
    installIntegration: true,
    viewAdaptiveSchema: true,
    editAdaptiveSchema: true,
  };
  out.published = site.published;
  out.siteSpaces = store.siteStore.siteSpacesOf(site.id).length;
  out.createdAt = site.createdAt;
  if (site.adaptiveContent !== undefined) out.adaptiveContent = { enabled: site.adaptiveContent };
  if (site.styleguideSpaceId) out.styleguide = { kind: "space", space: site.styleguideSpaceId };
  out.agentsContext = site.agentsContext;
  out.features = [];
  const urls: Json = {
    location: siteLocation(env, site),
    app: `${env.appBase}/o/${enc(site.orgId)}/sites/${enc(site.id)}`,
    preview: `${env.appBase}/o/${enc(site.orgId)}/sites/${enc(site.id)}/preview`,
  };
  if (site.published) urls.published = siteBaseUrl(store, site);
  out.urls = urls;
  const gitSync = store.gitSyncStore.of({ type: "site", siteId: site.id });
  if (gitSync) out.gitSync = renderGitSyncState(store, gitSync);
  return out;
}
