/**
 * Site redirects: their operations and invariants. A source is unique within a site among redirects of the same
 * state (one live and one draft redirect may share a source: publishing the draft replaces the live one); a
 * destination names a section or site space of the same site; deleting a site deletes its redirects (siteStore.ts).
 */
import { BadRequestError, ConflictError } from "./errors";
import type { RedirectDestination, SiteRec, SiteRedirectRec } from "./records";
import type { Tables } from "./tables";

/** The settable fields of a redirect. */
export interface RedirectFields {
  source: string;
  draft: boolean;
  captureWildcard: boolean;
  permanent: boolean;
  destination: RedirectDestination;
}

/** One item of the bulk PUT, parsed: an upsert, a deletion (`destination: null`) or a publication. */
export type BulkItem =
  | {
      source: string;
      intent: "live" | "draft";
      captureWildcard?: boolean;
      permanent?: boolean;
      destination: RedirectDestination | null;
    }
  | { source: string; intent: "publish" };

export type BulkResult =
  | { status: "created" | "updated" | "published"; source: string; draft: boolean; id: string }
  | { status: "deleted"; source: string; draft: boolean }
  | { status: "error"; source: string; draft: boolean; error: string };

export function redirectsOf(tables: Tables, siteId: string, draft: boolean): SiteRedirectRec[] {
  return [...tables.redirects.values()].filter((r) => r.siteId === siteId && r.draft === draft);
}

export function redirectBySource(
  tables: Tables,
  siteId: string,
  source: string,
  draft: boolean,
): SiteRedirectRec | undefined {
  return redirectsOf(tables, siteId, draft).find((r) => r.source === source);
}

/** A destination inside the site must name a section or site space of it (400 naming the field otherwise). */
export function checkDestination(tables: Tables, site: SiteRec, d: RedirectDestination, field = "destination"): void {
  if (d.kind === "site-section") {
    const section = tables.sections.get(d.siteSectionId);
    if (!section || section.siteId !== site.id)
      throw new BadRequestError(`${field}.siteSectionId: no section "${d.siteSectionId}" in site "${site.id}"`);
  }
  if (d.kind === "site-space" || d.kind === "site-page") {
    const ss = tables.siteSpaces.get(d.siteSpaceId);
    if (!ss || ss.siteId !== site.id)
      throw new BadRequestError(`${field}.siteSpaceId: no site space "${d.siteSpaceId}" in site "${site.id}"`);
  }
}

function conflict(site: SiteRec, source: string, draft: boolean): ConflictError {
  return new ConflictError(
    `A ${draft ? "draft" : "live"} redirect with source "${source}" already exists in site "${site.id}"`,
  );
}

export function createRedirect(tables: Tables, site: SiteRec, fields: RedirectFields): SiteRedirectRec {
  checkDestination(tables, site, fields.destination);
  if (redirectBySource(tables, site.id, fields.source, fields.draft)) throw conflict(site, fields.source, fields.draft);
  const rec: SiteRedirectRec = { id: tables.newId(), siteId: site.id, ...fields, createdAt: tables.now() };
  tables.redirects.set(rec.id, rec);
  return rec;
}

/** Applies the given fields; moving onto a source (or state) another redirect holds is a 409. */
export function updateRedirect(
  tables: Tables,
  site: SiteRec,
  rec: SiteRedirectRec,
  patch: Partial<RedirectFields>,
): SiteRedirectRec {
  if (patch.destination) checkDestination(tables, site, patch.destination);
  const source = patch.source ?? rec.source;
  const draft = patch.draft ?? rec.draft;
  const holder = redirectBySource(tables, site.id, source, draft);
  if (holder && holder.id !== rec.id) throw conflict(site, source, draft);
  Object.assign(rec, patch, { updatedAt: tables.now() });
  return rec;
}

/**
 * The bulk PUT: every item on its own (a failing item is an `error` result, the others still apply). Deleting a
 * redirect that does not exist reports `deleted` too, so that a repeated request gives the same results.
 */
export function bulkRedirects(tables: Tables, site: SiteRec, items: readonly BulkItem[]): BulkResult[] {
  return items.map((item, index) => {
    const draft = item.intent === "draft";
    try {
      return bulkItem(tables, site, item, index);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { status: "error", source: item.source, draft, error: message };
    }
  });
}

function bulkItem(tables: Tables, site: SiteRec, item: BulkItem, index: number): BulkResult {
  const { source } = item;
  if (item.intent === "publish") {
    const pending = redirectBySource(tables, site.id, source, true);
    if (!pending) throw new BadRequestError(`redirects[${index}]: no draft redirect with source "${source}"`);
    const live = redirectBySource(tables, site.id, source, false);
    if (live) tables.redirects.delete(live.id);
    Object.assign(pending, { draft: false, updatedAt: tables.now() });
    return { status: "published", source, draft: false, id: pending.id };
  }
  const draft = item.intent === "draft";
  const existing = redirectBySource(tables, site.id, source, draft);
  if (item.destination === null) {
    if (existing) tables.redirects.delete(existing.id);
    return { status: "deleted", source, draft };
  }
  checkDestination(tables, site, item.destination, `redirects[${index}].destination`);
  if (existing) {
    const patch: Partial<RedirectFields> = { destination: item.destination };
    if (item.permanent !== undefined) patch.permanent = item.permanent;
    patch.captureWildcard = item.captureWildcard ?? false;
    updateRedirect(tables, site, existing, patch);
    return { status: "updated", source, draft, id: existing.id };
  }
  const rec = createRedirect(tables, site, {
    source,
    draft,
    captureWildcard: item.captureWildcard ?? false,
    permanent: item.permanent ?? false,
    destination: item.destination,
  });
  return { status: "created", source, draft, id: rec.id };
}
