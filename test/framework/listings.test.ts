import { describe, expect, it } from "vitest";
import { Listings, readListed } from "../../provider/framework/listings";

interface Item {
  id: string;
  title: string;
}

/** A listing whose every load is counted and answered by hand, so a test decides when each one completes. */
function controlledListing() {
  const loads: { resolve: (items: Item[]) => void; reject: (error: Error) => void }[] = [];
  const load = () =>
    new Promise<Item[]>((resolve, reject) => {
      loads.push({ resolve, reject });
    });
  return { loads, load };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe("Listings", () => {
  it("serves every read of a path that arrives while, or after, it loads from one load", async () => {
    const listings = new Listings();
    const { loads, load } = controlledListing();
    const first = listings.get("/orgs/o/teams", load);
    const second = listings.get("/orgs/o/teams", load);
    loads[0]?.resolve([{ id: "a", title: "A" }]);
    expect(await first).toEqual([{ id: "a", title: "A" }]);
    expect(await second).toEqual([{ id: "a", title: "A" }]);
    expect(await listings.get("/orgs/o/teams", load)).toEqual([{ id: "a", title: "A" }]);
    expect(loads).toHaveLength(1);
  });

  it("a listing loading when a write ends serves the reads already waiting, and is listed again for later ones", async () => {
    const listings = new Listings();
    const { loads, load } = controlledListing();
    const waiting = [listings.get("/orgs/o/teams", load), listings.get("/orgs/o/teams", load)];
    listings.written();
    const later = listings.get("/orgs/o/teams", load);
    loads[0]?.resolve([{ id: "a", title: "Before" }]);
    loads[1]?.resolve([{ id: "a", title: "After" }]);
    expect(await Promise.all(waiting)).toEqual([[{ id: "a", title: "Before" }], [{ id: "a", title: "Before" }]]);
    expect(await later).toEqual([{ id: "a", title: "After" }]);
    await flush();
    expect(loads).toHaveLength(2);
  });

  it("drops every listing on a write, except one marked as surviving writes", async () => {
    const listings = new Listings();
    let teams = 0;
    let members = 0;
    const listTeams = async () => [{ id: `t${++teams}`, title: "" }];
    const listMembers = async () => [{ id: `m${++members}`, title: "" }];
    await listings.get("/orgs/o/teams", listTeams);
    await listings.get("/orgs/o/members", listMembers, { survivesWrites: true });
    listings.written();
    expect(await listings.get("/orgs/o/teams", listTeams)).toEqual([{ id: "t2", title: "" }]);
    expect(await listings.get("/orgs/o/members", listMembers, { survivesWrites: true })).toEqual([
      { id: "m1", title: "" },
    ]);
  });

  it("forgets a failed listing", async () => {
    let loads = 0;
    const load = async () => [{ id: String(++loads), title: "" }];
    const listings = new Listings();
    await expect(listings.get("/p", () => Promise.reject(new Error("503")))).rejects.toThrow("503");
    expect(await listings.get("/p", load)).toEqual([{ id: "1", title: "" }]);
  });
});

/** A client that reports writes the way HttpClient does, without sending them. */
function reportingClient() {
  const listeners: ((path: string) => void)[] = [];
  return {
    observeWrites: (listener: (path: string) => void) => listeners.push(listener),
    wrote: (path: string) => {
      for (const listener of listeners) listener(path);
    },
    get listeners() {
      return listeners.length;
    },
  };
}

describe("Listings.follow: a client's writes drop the listings they can change", () => {
  const paths = [
    "/orgs/acme/sites",
    "/orgs/acme/sites/s1/sections",
    "/orgs/acme/sites/s1/permissions/teams",
    "/orgs/acme/sites/s10/sections",
    "/orgs/acme/sites/s2/site-spaces",
    "/orgs/acme/spaces",
    "/spaces/x/permissions/teams",
  ];
  async function listedAgainAfter(write: string): Promise<string[]> {
    const listings = new Listings();
    const client = reportingClient();
    listings.follow(client);
    listings.follow(client);
    expect(client.listeners).toBe(1);
    const loads: string[] = [];
    const load = (path: string) => async () => {
      loads.push(path);
      return [];
    };
    for (const path of paths) await listings.get(path, load(path));
    loads.length = 0;
    client.wrote(write);
    for (const path of paths) await listings.get(path, load(path));
    return loads;
  }

  it("a write inside a site: that site's listings and the organization's sites, no other", async () => {
    expect(await listedAgainAfter("/orgs/acme/sites/s1/sections/sec1")).toEqual([
      "/orgs/acme/sites",
      "/orgs/acme/sites/s1/sections",
      "/orgs/acme/sites/s1/permissions/teams",
    ]);
  });

  it("any other write, the site's own included: every listing", async () => {
    const writes = ["/orgs/acme/sites/s1", "/orgs/acme/sites", "/spaces/x", "/orgs/acme/teams/t1", "/collections/c"];
    // Only a path that starts with a site's is inside it.
    writes.push("/integrations/i/orgs/acme/sites/s1/sections");
    for (const write of writes) {
      expect(await listedAgainAfter(write)).toEqual(paths);
    }
  });

  it("a client that cannot report writes is followed without failing", () => {
    expect(() => new Listings().follow({})).not.toThrow();
  });
});

describe("Listings.demanded", () => {
  it("counts the distinct keys asked for per group until the process's caches are cleared, and writes keep it", () => {
    const listings = new Listings();
    expect(listings.demanded("teams", "a")).toBe(1);
    expect(listings.demanded("teams", "b")).toBe(2);
    expect(listings.demanded("teams", "a")).toBe(2);
    expect(listings.demanded("sites", "a")).toBe(1);
    listings.written();
    expect(listings.demanded("teams", "c")).toBe(3);
    listings.clear();
    expect(listings.demanded("teams", "c")).toBe(1);
  });

  it("demandedKeys lists the keys asked for per group, without asking", () => {
    const listings = new Listings();
    expect([...listings.demandedKeys("teams")]).toEqual([]);
    listings.demanded("teams", "b");
    listings.demanded("teams", "a");
    listings.demanded("teams", "b");
    listings.demanded("sites", "c");
    expect([...listings.demandedKeys("teams")]).toEqual(["b", "a"]);
    expect([...listings.demandedKeys("sites")]).toEqual(["c"]);
    listings.clear();
    expect([...listings.demandedKeys("teams")]).toEqual([]);
  });
});

describe("readListed", () => {
  const items: Item[] = [{ id: "a", title: "A" }];
  const single = (title: string) => async () => ({ id: "x", title });

  it("finds the object in the listing without a single read", async () => {
    const found = await readListed(new Listings(), {
      path: "/p",
      list: async () => items,
      matches: (item) => item.id === "a",
      single: () => Promise.reject(new Error("no single read expected")),
    });
    expect(found).toEqual({ id: "a", title: "A" });
  });

  it("calls an object missing from a complete listing gone, unless absence must be confirmed", async () => {
    const read = { path: "/p", list: async () => items, matches: (item: Item) => item.id === "x" };
    expect(await readListed(new Listings(), { ...read, single: single("unused") })).toBeUndefined();
    const confirmed = await readListed(new Listings(), { ...read, single: single("moved"), confirmAbsence: true });
    expect(confirmed).toEqual({ id: "x", title: "moved" });
  });

  it("falls back to the single read when the listing fails", async () => {
    const found = await readListed(new Listings(), {
      path: "/p",
      list: () => Promise.reject(new Error("429 after every retry")),
      matches: (item: Item) => item.id === "x",
      single: single("alone"),
    });
    expect(found).toEqual({ id: "x", title: "alone" });
  });
});
