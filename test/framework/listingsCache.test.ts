import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ForbiddenError, NotFoundError, ServerError, UnauthorizedError } from "../../provider/client";
import { Listings, readListed } from "../../provider/framework/listings";

/** How long a listing is served, what forgets it, and which failures of a listing a read may not hide. */
interface Item {
  id: string;
}

/** A load that answers a fresh listing each time, counting its calls. */
function counted() {
  let calls = 0;
  return {
    load: async (): Promise<Item[]> => [{ id: `load ${++calls}` }],
    get calls() {
      return calls;
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.parse("2026-11-23T12:00:00Z"));
});
afterEach(() => vi.useRealTimers());

describe("how long a listing is served", () => {
  it("the whole operation: no time, however long (a rate limit's waits), makes it list again", async () => {
    const listings = new Listings();
    const listing = counted();
    await listings.get("/p", listing.load);
    await listings.get("/members", listing.load, { survivesWrites: true });
    vi.advanceTimersByTime(3_600_000);
    expect(await listings.get("/p", listing.load)).toEqual([{ id: "load 1" }]);
    expect(await listings.get("/members", listing.load, { survivesWrites: true })).toEqual([{ id: "load 2" }]);
    expect(listing.calls).toBe(2);
  });

  it("per path: another path has its own listing", async () => {
    const listings = new Listings();
    const listing = counted();
    expect(await listings.get("/a", listing.load)).toEqual([{ id: "load 1" }]);
    expect(await listings.get("/b", listing.load)).toEqual([{ id: "load 2" }]);
    expect(await listings.get("/a", listing.load)).toEqual([{ id: "load 1" }]);
  });
});

describe("what forgets listings", () => {
  it("invalidate forgets the paths under a prefix, and only those", async () => {
    const listings = new Listings();
    const listing = counted();
    await listings.get("/sites/s1/sections", listing.load);
    await listings.get("/sites/s1/spaces", listing.load);
    await listings.get("/sites/s2/sections", listing.load);
    listings.invalidate("/sites/s1/");
    expect(await listings.get("/sites/s1/sections", listing.load)).toEqual([{ id: "load 4" }]);
    expect(await listings.get("/sites/s1/spaces", listing.load)).toEqual([{ id: "load 5" }]);
    expect(await listings.get("/sites/s2/sections", listing.load)).toEqual([{ id: "load 3" }]);
  });

  it("clear forgets every listing, those surviving writes included", async () => {
    const listings = new Listings();
    const listing = counted();
    await listings.get("/teams", listing.load);
    await listings.get("/members", listing.load, { survivesWrites: true });
    listings.clear();
    expect(await listings.get("/teams", listing.load)).toEqual([{ id: "load 3" }]);
    expect(await listings.get("/members", listing.load, { survivesWrites: true })).toEqual([{ id: "load 4" }]);
  });

  it("a listing loaded again after a write is served until the next write", async () => {
    const listings = new Listings();
    const listing = counted();
    await listings.get("/teams", listing.load);
    listings.written();
    expect(await listings.get("/teams", listing.load)).toEqual([{ id: "load 2" }]);
    expect(await listings.get("/teams", listing.load)).toEqual([{ id: "load 2" }]);
    expect(listing.calls).toBe(2);
  });

  it("a failed load is forgotten, but never a newer listing that replaced it meanwhile", async () => {
    const listings = new Listings();
    let fail: (error: Error) => void = () => {};
    const failing = listings.get("/teams", () => new Promise<Item[]>((_resolve, reject) => (fail = reject)));
    listings.written();
    const listing = counted();
    // The write dropped the pending listing; this read loads a new one, which the old one's failure must not drop.
    expect(await listings.get("/teams", listing.load)).toEqual([{ id: "load 1" }]);
    fail(new Error("503"));
    await expect(failing).rejects.toThrow("503");
    expect(await listings.get("/teams", listing.load)).toEqual([{ id: "load 1" }]);
    expect(listing.calls).toBe(1);
  });
});

describe("readListed and a failed listing", () => {
  const where = { method: "GET", path: "/v1/orgs/o/teams", attempts: 1 };
  const read = (error: Error) => ({
    path: "/orgs/o/teams",
    list: () => Promise.reject(error),
    matches: (item: Item) => item.id === "t1",
    single: async () => ({ id: "t1" }),
  });

  it.each([
    ["a rejected token", new UnauthorizedError({ ...where, status: 401 })],
    ["a missing permission", new ForbiddenError({ ...where, status: 403 })],
  ])("%s is reported, not hidden by the single read", async (_what, error) => {
    await expect(readListed(new Listings(), read(error))).rejects.toBe(error);
  });

  it.each([
    ["a 5xx", new ServerError({ ...where, status: 503 })],
    ["a missing parent", new NotFoundError({ ...where, status: 404 })],
    ["anything else", new Error("unreadable page")],
  ])("%s falls back to the single read", async (_what, error) => {
    expect(await readListed(new Listings(), read(error))).toEqual({ id: "t1" });
  });

  it("an object found in the listing is not read again, even when absence must be confirmed", async () => {
    let singles = 0;
    const found = await readListed(new Listings(), {
      path: "/p",
      list: async () => [{ id: "t1" }, { id: "t2" }],
      matches: (item: Item) => item.id === "t2",
      single: async () => ({ id: `single ${++singles}` }),
      confirmAbsence: true,
    });
    expect(found).toEqual({ id: "t2" });
    expect(singles).toBe(0);
  });
});
