/** Renders the redirects family's records into API objects carrying every field the official response schemas require. */

import type { Store } from "../../store";
import type { SiteRec } from "../sites/records";
import { sectionBaseUrl, siteBaseUrl } from "../sites/render";
import type { SiteRedirectRec } from "./records";

type Json = Record<string, unknown>;

const enc = encodeURIComponent;

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
