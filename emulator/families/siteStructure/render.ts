/** Renders the siteStructure family's records into API objects carrying every field the official response schemas require. */

import type { Store } from "../../store";
import type { Env } from "../../types";
import { renderSpace } from "../content/render";
import { sectionBaseUrl, siteBaseUrl } from "../sites/render";
import type { StructureItem } from "../sites/sitePatches";
import type { ExternalLinkRec, SectionGroupRec, SectionRec, SiteSpaceRec } from "./records";

type Json = Record<string, unknown>;

const enc = encodeURIComponent;

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
