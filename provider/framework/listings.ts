/**
 * Some kinds (sections, section groups, site spaces, share links) can only be read by listing their parent. A refresh
 * of many of them must not list the same site once per resource, so listings are shared per provider process and
 * per path, and dropped as soon as anything under that path is written.
 */
export class Listings {
  private readonly cache = new Map<string, { at: number; listing: Promise<unknown[]> }>();

  /** A listing older than `maxAgeMs` is loaded again: reads in one refresh share it, a later operation does not. */
  constructor(private readonly maxAgeMs = 10_000) {}

  get<T>(path: string, load: () => Promise<T[]>): Promise<T[]> {
    const cached = this.cache.get(path);
    if (cached && Date.now() - cached.at <= this.maxAgeMs) return cached.listing as Promise<T[]>;
    const listing = load();
    this.cache.set(path, { at: Date.now(), listing });
    listing.catch(() => this.cache.delete(path));
    return listing;
  }

  /** Forgets every listing whose path starts with the given prefix. */
  invalidate(prefix: string): void {
    for (const path of this.cache.keys()) if (path.startsWith(prefix)) this.cache.delete(path);
  }

  clear(): void {
    this.cache.clear();
  }
}
