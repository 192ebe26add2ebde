import type {
  ExternalLinkRec,
  SectionGroupRec,
  SectionRec,
  ShareLinkRec,
  SiteAgentSettingsRec,
  SiteMcpServerRec,
  SiteRec,
  SiteRedirectRec,
  SiteSpaceRec,
} from "./records";
import { renderGitSyncState, renderSpace } from "./render";
import type { StructureItem } from "./sitePatches";
import type { Store } from "./store";
import type { Env } from "./types";

type Json = Record<string, unknown>;

const enc = encodeURIComponent;

// ---------------------------------------------------------------------------------------------------------------
// Sites

export function siteLocation(env: Env, site: SiteRec): string {
  return `${env.apiBase}/orgs/${enc(site.orgId)}/sites/${enc(site.id)}`;
}

/** Public base URL of a site (whether or not it is published): https://<org-host>.gitbook.example/<basename|id> */
export function siteBaseUrl(store: Store, site: SiteRec): string {
  const org = store.orgs.get(site.orgId);
  const host = `${org?.hostname ?? "docs"}.gitbook.example`;
  return `https://${host}/${enc(site.basename ?? site.id)}`;
}

function sectionBaseUrl(store: Store, site: SiteRec, section: SectionRec): string {
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

export function renderSiteSpace(env: Env, store: Store, ss: SiteSpaceRec): Json {
  const site = store.sites.get(ss.siteId)!;
  const space = store.spaces.get(ss.spaceId)!;
  const out: Json = { object: "site-space", id: ss.id, path: ss.path };
  if (ss.sectionId) out.section = ss.sectionId;
  out.space = renderSpace(env, store, space);
  out.title = ss.title ?? space.title;
  out.default = ss.isDefault;
  if (ss.condition !== undefined) out.condition = ss.condition;
  if (ss.pageId !== undefined) out.pageId = ss.pageId;
  out.draft = ss.draft;
  if (ss.hidden !== undefined) out.hidden = ss.hidden;
  const urls: Json = {};
  if (site.published) {
    const section = ss.sectionId ? store.sections.get(ss.sectionId) : undefined;
    const base = section ? sectionBaseUrl(store, site, section) : siteBaseUrl(store, site);
    urls.published = ss.isDefault ? base : `${base}/${enc(ss.path)}`;
  }
  out.urls = urls;
  return out;
}

export function renderSection(env: Env, store: Store, section: SectionRec): Json {
  const site = store.sites.get(section.siteId)!;
  const out: Json = { object: "site-section", id: section.id, title: section.title };
  if (section.localizedTitle) out.localizedTitle = { ...section.localizedTitle };
  if (section.description !== undefined) out.description = section.description;
  if (section.localizedDescription) out.localizedDescription = { ...section.localizedDescription };
  out.default = section.isDefault;
  out.draft = section.draft;
  out.path = section.path;
  if (section.condition !== undefined) out.condition = section.condition;
  if (section.groupId) out.sectionGroup = section.groupId;
  out.siteSpaces = store.siteStore
    .siteSpacesIn(section.siteId, section.id)
    .map((ss) => renderSiteSpace(env, store, ss));
  out.urls = site.published ? { published: sectionBaseUrl(store, site, section) } : {};
  if (section.icon !== undefined) out.icon = section.icon;
  return out;
}

/** A section, group or external link as an item of the site's structure (a group with its children). */
export function renderStructureItem(env: Env, store: Store, item: StructureItem, depth = 0): Json {
  if (item.kind === "site-section") return renderSection(env, store, item.rec);
  if (item.kind === "site-external-link") return renderExternalLink(item.rec);
  return renderSectionGroup(env, store, item.rec, depth);
}

export function renderSectionGroup(env: Env, store: Store, group: SectionGroupRec, depth = 0): Json {
  const sections = store.siteStore.sectionsOf(group.siteId).filter((s) => s.groupId === group.id);
  const children = () =>
    store.siteStructureStore
      .structureSiblings(group.siteId, group.id)
      .map((item) => renderStructureItem(env, store, item, depth + 1));
  const out: Json = { object: "site-section-group", id: group.id, title: group.title };
  if (group.localizedTitle) out.localizedTitle = { ...group.localizedTitle };
  out.sections = sections.map((s) => renderSection(env, store, s));
  if (group.parentGroupId) out.sectionGroup = group.parentGroupId;
  out.draft = group.draft;
  out.children = depth > 20 ? [] : children();
  if (group.icon !== undefined) out.icon = group.icon;
  return out;
}

export function renderExternalLink(link: ExternalLinkRec): Json {
  const out: Json = { object: "site-external-link", id: link.id, title: link.title, url: link.url, draft: link.draft };
  if (link.localizedTitle) out.localizedTitle = { ...link.localizedTitle };
  if (link.description !== undefined) out.description = link.description;
  if (link.localizedDescription) out.localizedDescription = { ...link.localizedDescription };
  if (link.icon !== undefined) out.icon = link.icon;
  if (link.groupId) out.sectionGroup = link.groupId;
  if (link.condition !== undefined) out.condition = link.condition;
  return out;
}

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

export function renderRedirect(r: SiteRedirectRec): Json {
  const out: Json = {
    object: "site-redirect",
    id: r.id,
    source: r.source,
    draft: r.draft,
    captureWildcard: r.captureWildcard,
    permanent: r.permanent,
    destination: { ...r.destination },
    createdAt: r.createdAt,
  };
  if (r.updatedAt) out.updatedAt = r.updatedAt;
  return out;
}

/** The URL a redirect sends readers to (getSiteRedirectBySource's `target`). */
export function redirectTarget(store: Store, site: SiteRec, r: SiteRedirectRec): string {
  const d = r.destination;
  if (d.kind === "external") return d.url;
  if (d.kind === "site-section") {
    const section = store.sections.get(d.siteSectionId);
    return section ? sectionBaseUrl(store, site, section) : siteBaseUrl(store, site);
  }
  const ss = store.siteSpaces.get(d.siteSpaceId);
  const section = ss?.sectionId ? store.sections.get(ss.sectionId) : undefined;
  const base = section ? sectionBaseUrl(store, site, section) : siteBaseUrl(store, site);
  const space = ss && !ss.isDefault ? `${base}/${enc(ss.path)}` : base;
  return d.kind === "site-page" ? `${space}/${enc(d.pageId)}` : space;
}
