/** The records of the redirects family's tables (declared in index.ts); routes render them (render.ts). */

/** The official SiteRedirectDestination. */
export type RedirectDestination =
  | { kind: "external"; url: string }
  | { kind: "site-section"; siteSectionId: string }
  | { kind: "site-space"; siteSpaceId: string }
  | { kind: "site-page"; siteSpaceId: string; pageId: string };

export interface SiteRedirectRec {
  id: string;
  siteId: string;
  /** Unique per site among redirects of the same `draft`. */
  source: string;
  draft: boolean;
  captureWildcard: boolean;
  permanent: boolean;
  destination: RedirectDestination;
  createdAt: string;
  updatedAt?: string;
}
