import { ForbiddenError, listingsChangedBy, UnauthorizedError } from "../client";
/**
 * Reads of many objects of one kind under one parent cost one paginated listing, not one request each: the first
 * read lists the parent, every read of the same kind and parent that follows in the same operation finds its object
 * in that listing (the DataLoader pattern with the listing as the batch). Listings are shared per provider process
 * (one engine operation) and per path. A batch window of one tick, as the `dataloader` package has, would coalesce at
 * most `--parallel` reads, since the engine paces an operation's reads; so a listing is kept for the whole operation,
 * until a write of this process that can change it ends (`follow`, `written`). Neither time nor the engine's speed
 * nor a rate limit's waits decide how often a parent is listed: a refresh, an adoption that writes nothing, `import`
 * and `unmanaged` list each parent and kind once.
 *
 * Why that is safe. What a read of this process can miss is a change made outside it after the listing was taken:
 * a hand edit in the web app, another stack's or a script's write, during this operation. The read then answers the
 * object as it was when the listing was taken, which is what a read of its own made at that moment would have
 * answered: the operation's reads are a snapshot taken at listing time rather than at each read, and the next
 * refresh or preview sees the edit (a time limit did not close that window either, it only narrowed it to 10 s).
 * What it cannot miss is its own writes: every request that can change the API drops, once it has ended, the
 * listings it can change (`listingsChangedBy`: a site's for a write inside the site, every one otherwise), so a read
 * that starts after a write ended lists again. A read that started before the write ended gets the listing it
 * waited for, taken before or during the write: such a read is concurrent with the write (the engine orders a
 * resource's operations after those of what it depends on, so a read that needs the write's result starts after
 * it), and either answer is one a read made a moment earlier or later would have had. Listings marked
 * `survivesWrites` (the organization's members, which this package's writes do not change) are kept.
 */
export class Listings {
  private readonly cache = new Map<string, Entry>();
  private readonly demand = new Map<string, Set<string>>();
  /** The clients whose writes drop these listings (`follow`). */
  private readonly followed = new WeakSet<object>();

  /**
   * The listing at `path`, shared with every other read of it. `survivesWrites` marks a listing of objects this
   * package never writes (the organization's members), which `written` keeps.
   */
  async get<T>(path: string, load: () => Promise<T[]>, options: { survivesWrites?: boolean } = {}): Promise<T[]> {
    const cached = this.cache.get(path);
    if (cached) return (await cached.listing) as T[];
    const entry: Entry = { survivesWrites: options.survivesWrites === true, listing: load() };
    this.cache.set(path, entry);
    entry.listing.catch(() => {
      if (this.cache.get(path) === entry) this.cache.delete(path);
    });
    return (await entry.listing) as T[];
  }

  /**
   * Drops, after each write `client` sends, the listings that write can change: called before every read or write
   * a lifecycle runs with this client (./lifecycle.ts), once is enough per client.
   */
  follow(client: WriteObserved): void {
    if (this.followed.has(client)) return;
    this.followed.add(client);
    // A stand-in client of a test may not report writes: its listings are then dropped by `written` alone.
    client.observeWrites?.((path) => this.written(listingsChangedBy(path)));
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

  /**
   * A write of this process has ended: no read that starts from now on is served a listing it may have changed
   * (`changed`, by path; every listing when not given), loaded or still loading. Reads already waiting for one keep
   * it (see the class).
   */
  written(changed: (path: string) => boolean = () => true): void {
    for (const [path, entry] of this.cache) if (!entry.survivesWrites && changed(path)) this.cache.delete(path);
  }

  clear(): void {
    this.cache.clear();
    this.demand.clear();
  }
}

/** What `follow` needs of a client: to be told of its writes. */
export interface WriteObserved {
  observeWrites?(listener: (path: string) => void): void;
}

interface Entry {
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
