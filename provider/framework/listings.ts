import { ForbiddenError, UnauthorizedError } from "../client";
/**
 * Reads of many objects of one kind under one parent cost one paginated listing, not one request each: the first
 * read lists the parent, every read of the same kind and parent that follows in the same operation finds its object
 * in that listing (the DataLoader pattern with the listing as the batch). Listings are shared per provider process
 * and per path, expire after `maxAgeMs` (an operation's reads arrive paced by the engine's parallelism, so a batch
 * window of one tick, as the `dataloader` package has, would coalesce at most `--parallel` reads), and are dropped as
 * soon as this process writes anything (`written`), so nothing it wrote is ever served from an older listing.
 */
export class Listings {
  private readonly cache = new Map<string, Entry>();
  private readonly demand = new Map<string, Set<string>>();
  /** Bumped before and after every write: a listing is only served when none happened while it was loading. */
  private generation = 0;

  /** A listing older than `maxAgeMs` is loaded again: reads in one refresh share it, a later operation does not. */
  constructor(private readonly maxAgeMs = 10_000) {}

  /**
   * The listing at `path`, shared with every other read of it. `survivesWrites` marks a listing of objects this
   * package never writes (the organization's members), which `written` keeps.
   */
  async get<T>(path: string, load: () => Promise<T[]>, options: { survivesWrites?: boolean } = {}): Promise<T[]> {
    for (;;) {
      const entry = this.entry(path, load as () => Promise<unknown[]>, options.survivesWrites === true);
      const items = (await entry.listing) as T[];
      // A write that began or ended while the listing was in flight may be missing from it: list again.
      if (entry.survivesWrites || entry.generation === this.generation) return items;
    }
  }

  private entry(path: string, load: () => Promise<unknown[]>, survivesWrites: boolean): Entry {
    const cached = this.cache.get(path);
    const fresh = cached && Date.now() - cached.at <= this.maxAgeMs;
    if (cached && fresh && (cached.survivesWrites || cached.generation === this.generation)) return cached;
    const entry: Entry = { at: Date.now(), generation: this.generation, survivesWrites, listing: load() };
    this.cache.set(path, entry);
    entry.listing.catch(() => {
      if (this.cache.get(path) === entry) this.cache.delete(path);
    });
    return entry;
  }

  /**
   * How many distinct `key`s have been asked for under `group` since the last `clear` (one provider process serves
   * one operation), this one included: lets a kind choose between a listing per parent and one that spans them by how
   * many parents the operation actually reads.
   */
  demanded(group: string, key: string): number {
    const keys = this.demand.get(group) ?? new Set<string>();
    this.demand.set(group, keys);
    keys.add(key);
    return keys.size;
  }

  /** The keys asked for under `group` since the last `clear` (`demanded`), in the order first asked. */
  demandedKeys(group: string): ReadonlySet<string> {
    return this.demand.get(group) ?? new Set();
  }

  /** Forgets every listing whose path starts with the given prefix. */
  invalidate(prefix: string): void {
    for (const path of this.cache.keys()) if (path.startsWith(prefix)) this.cache.delete(path);
  }

  /** This process is about to write, or has written: no listing taken before serves a read after. */
  written(): void {
    this.generation++;
    for (const [path, entry] of this.cache) if (!entry.survivesWrites) this.cache.delete(path);
  }

  clear(): void {
    this.cache.clear();
    this.demand.clear();
  }
}

interface Entry {
  at: number;
  generation: number;
  survivesWrites: boolean;
  listing: Promise<unknown[]>;
}

/** How one object is found in its parent's listing, and read alone when the listing cannot be had. */
export interface ListedRead<T> {
  /** The listing's path: the key reads of the same kind and parent share. */
  path: string;
  list: () => Promise<T[]>;
  /** Whether a listed item is the object being read. */
  matches: (item: T) => boolean;
  /** The single read, used when the listing fails (and, with `confirmAbsence`, when the object is not listed). */
  single: () => Promise<T>;
  /**
   * Read an object missing from the listing alone before calling it gone: for objects that can leave the parent
   * without being deleted (a collection transferred to another organization is drift, not a deletion).
   */
  confirmAbsence?: boolean;
}

/**
 * One object through its parent's shared listing: `undefined` when a complete listing lacks it (it is gone). A
 * listing that fails (a rate limit that outlasted the retries, a page the client cannot read) falls back to the
 * single read, whose own failure is then the one reported; a 404 there means gone, as for any read.
 */
export async function readListed<T>(listings: Listings, read: ListedRead<T>): Promise<T | undefined> {
  let items: T[];
  try {
    items = await listings.get(read.path, read.list);
  } catch (error) {
    // A rejected token or a missing permission would fail the single read too: say so rather than hide it.
    if (error instanceof UnauthorizedError || error instanceof ForbiddenError) throw error;
    return read.single();
  }
  const found = items.find(read.matches);
  if (found !== undefined || !read.confirmAbsence) return found;
  return read.single();
}
