/**
 * Site redirects: their operations and invariants. A source is unique within a site among redirects of the same
 * state (one live and one draft redirect may share a source: publishing the draft replaces the live one); a
 * destination names a section or site space of the same site; deleting a site deletes its redirects (siteStore.ts).
 * Composed over the tables like every store (store.ts).
 */
import { BadRequestError, ConflictError } from "../../errors";
import type { Tables } from "../../tables";
import type { SiteRec } from "../sites/records";
import type { RedirectDestination, SiteRedirectRec } from "./records";

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

export class RedirectStore {
  private readonly tables: Tables;

  constructor(tables: Tables) {
    this.tables = tables;
  }

  redirectsOf(siteId: string, draft: boolean): SiteRedirectRec[] {
    return [...this.tables.redirects.values()].filter((r) => r.siteId === siteId && r.draft === draft);
  }

  redirectBySource(siteId: string, source: string, draft: boolean): SiteRedirectRec | undefined {
    return this.redirectsOf(siteId, draft).find((r) => r.source === source);
  }

  createRedirect(site: SiteRec, fields: RedirectFields): SiteRedirectRec {
    this.checkDestination(site, fields.destination);
    if (this.redirectBySource(site.id, fields.source, fields.draft)) throw conflict(site, fields.source, fields.draft);
    const rec: SiteRedirectRec = { id: this.tables.newId(), siteId: site.id, ...fields, createdAt: this.tables.now() };
    this.tables.redirects.set(rec.id, rec);
    return rec;
  }

  /** Applies the given fields; moving onto a source (or state) another redirect holds is a 409. */
  updateRedirect(site: SiteRec, rec: SiteRedirectRec, patch: Partial<RedirectFields>): SiteRedirectRec {
    if (patch.destination) this.checkDestination(site, patch.destination);
    const source = patch.source ?? rec.source;
    const draft = patch.draft ?? rec.draft;
    const holder = this.redirectBySource(site.id, source, draft);
    if (holder && holder.id !== rec.id) throw conflict(site, source, draft);
    Object.assign(rec, patch, { updatedAt: this.tables.now() });
    return rec;
  }

  /** Deletes a redirect of `site`; false when it has none with that id. */
  deleteRedirect(site: SiteRec, id: string): boolean {
    const rec = this.tables.redirects.get(id);
    return rec !== undefined && rec.siteId === site.id && this.tables.remove("redirects", id);
  }

  /**
   * The bulk PUT: every item on its own (a failing item is an `error` result, the others still apply). Deleting a
   * redirect that does not exist reports `deleted` too, so that a repeated request gives the same results.
   */
  bulkRedirects(site: SiteRec, items: readonly BulkItem[]): BulkResult[] {
    return items.map((item, index) => {
      const draft = item.intent === "draft";
      try {
        return this.bulkItem(site, item, index);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { status: "error", source: item.source, draft, error: message };
      }
    });
  }

  private bulkItem(site: SiteRec, item: BulkItem, index: number): BulkResult {
    const { source } = item;
    if (item.intent === "publish") {
      const pending = this.redirectBySource(site.id, source, true);
      if (!pending) throw new BadRequestError(`redirects[${index}]: no draft redirect with source "${source}"`);
      const live = this.redirectBySource(site.id, source, false);
      if (live) this.tables.remove("redirects", live.id);
      Object.assign(pending, { draft: false, updatedAt: this.tables.now() });
      return { status: "published", source, draft: false, id: pending.id };
    }
    const draft = item.intent === "draft";
    const existing = this.redirectBySource(site.id, source, draft);
    if (item.destination === null) {
      if (existing) this.tables.remove("redirects", existing.id);
      return { status: "deleted", source, draft };
    }
    this.checkDestination(site, item.destination, `redirects[${index}].destination`);
    if (existing) {
      const patch: Partial<RedirectFields> = { destination: item.destination };
      if (item.permanent !== undefined) patch.permanent = item.permanent;
      patch.captureWildcard = item.captureWildcard ?? false;
      this.updateRedirect(site, existing, patch);
      return { status: "updated", source, draft, id: existing.id };
    }
    const rec = this.createRedirect(site, {
      source,
      draft,
      captureWildcard: item.captureWildcard ?? false,
      permanent: item.permanent ?? false,
      destination: item.destination,
    });
    return { status: "created", source, draft, id: rec.id };
  }

  /** A destination inside the site must name a section or site space of it (400 naming the field otherwise). */
  private checkDestination(site: SiteRec, d: RedirectDestination, field = "destination"): void {
    if (d.kind === "site-section") {
      const section = this.tables.sections.get(d.siteSectionId);
      if (!section || section.siteId !== site.id)
        throw new BadRequestError(`${field}.siteSectionId: no section "${d.siteSectionId}" in site "${site.id}"`);
    }
    if (d.kind === "site-space" || d.kind === "site-page") {
      const ss = this.tables.siteSpaces.get(d.siteSpaceId);
      if (!ss || ss.siteId !== site.id)
        throw new BadRequestError(`${field}.siteSpaceId: no site space "${d.siteSpaceId}" in site "${site.id}"`);
    }
  }
}

function conflict(site: SiteRec, source: string, draft: boolean): ConflictError {
  return new ConflictError(
    `A ${draft ? "draft" : "live"} redirect with source "${source}" already exists in site "${site.id}"`,
  );
}
