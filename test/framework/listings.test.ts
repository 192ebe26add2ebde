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

  it("never serves a listing that was loading while this process wrote: it lists again", async () => {
    const listings = new Listings();
    const { loads, load } = controlledListing();
    const read = listings.get("/orgs/o/teams", load);
    listings.written();
    loads[0]?.resolve([{ id: "a", title: "Before" }]);
    await flush();
    expect(loads).toHaveLength(2);
    loads[1]?.resolve([{ id: "a", title: "After" }]);
    expect(await read).toEqual([{ id: "a", title: "After" }]);
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

  it("expires a listing after maxAgeMs, and forgets a failed one", async () => {
    const listings = new Listings(-1);
    let loads = 0;
    const load = async () => [{ id: String(++loads), title: "" }];
    await listings.get("/p", load);
    await listings.get("/p", load);
    expect(loads).toBe(2);
    const fresh = new Listings();
    await expect(fresh.get("/p", () => Promise.reject(new Error("503")))).rejects.toThrow("503");
    expect(await fresh.get("/p", load)).toEqual([{ id: "3", title: "" }]);
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
