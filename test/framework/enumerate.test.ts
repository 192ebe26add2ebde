import { describe, expect, it } from "vitest";
import {
  type Batch,
  enumerate,
  enumerationOrder,
  KindFailure,
  referableIds,
  siteRootKind,
  treeOrder,
} from "../../provider/framework/enumerate";
import type {
  KindListing,
  KindParent,
  ListedObject,
  ListingParent,
  ResourceContext,
} from "../../provider/framework/kind";

/** Every listing call, as `<kind> <parent ids>`. */
let calls: string[] = [];
const ctx = {} as ResourceContext;

function kind(
  name: string,
  scope: "organization" | "site",
  listing?: Omit<KindListing, "path" | "unmanaged">,
  parent?: KindParent,
) {
  return {
    kind: name,
    scope,
    ...(parent ? { parent } : {}),
    ...(listing
      ? {
          listing: {
            path: () => `/${name}`,
            unmanaged: true,
            ...listing,
            list: async (c: ResourceContext, parent: ListingParent) => {
              calls.push(`${name} ${JSON.stringify(parent.ids)}`);
              return listing.list(c, parent);
            },
          },
        }
      : {}),
  };
}

const Shelf = kind("Shelf", "organization", {
  list: async (_c, { ids }) => [
    { id: "s1", title: "Top", known: ids },
    { id: "s2", title: "Low", known: ids },
  ],
});
const Book = kind(
  "Book",
  "organization",
  {
    list: async (_c, { ids, title }) => [{ id: `${ids.shelfId}-b`, title: `book on ${title}`, known: ids }],
  },
  { kind: "Shelf", input: "shelfId" },
);
const Note = kind("Note", "organization");
const Portal = kind("Portal", "site", {
  list: async (_c, { ids }) => [
    { id: "p1", title: "Docs", known: ids, siteId: "p1", item: { open: true } },
    { id: "p2", title: "Help", known: ids, siteId: "p2", item: { open: false } },
  ],
});
const Page = kind(
  "Page",
  "site",
  {
    list: async (_c, { ids, title }) => [{ id: `${ids.portalId}-page`, title: `page of ${title}`, known: ids }],
  },
  { kind: "Portal", input: "portalId" },
);
const Comment = kind(
  "Comment",
  "site",
  {
    list: async (_c, { ids }) => [{ id: `${ids.pageId}-c`, title: "c", known: ids }],
  },
  { kind: "Page", input: "pageId" },
);
const Gate = kind(
  "Gate",
  "site",
  {
    // One per portal, only where the portal (its listed item) is open.
    list: async (_c, { ids, item }) =>
      (item as { open?: boolean } | undefined)?.open ? [{ id: String(ids.portalId), title: "gate", known: ids }] : [],
  },
  { kind: "Portal", input: "portalId" },
);
const definitions = [Comment, Page, Gate, Portal, Book, Note, Shelf];

async function all(kinds: string[], siteId?: string): Promise<Batch[]> {
  const batches: Batch[] = [];
  for await (const batch of enumerate(ctx, definitions, { organizationId: "org", kinds: new Set(kinds), siteId })) {
    batches.push(batch);
  }
  return batches;
}
const ids = (items: ListedObject[]) => items.map((item) => item.id);

describe("enumerate: an organization through the kinds' listing facets", () => {
  it("orders the listed kinds organization-level first, then the site family, each in registry order", () => {
    expect(enumerationOrder(definitions).map((d) => d.kind)).toEqual([
      "Book",
      "Shelf",
      "Comment",
      "Page",
      "Gate",
      "Portal",
    ]);
    expect(siteRootKind(definitions)).toBe("Portal");
    expect(siteRootKind([Shelf, Book, Note])).toBeUndefined();
    // A site-level kind without a listing is never the root, wherever it stands.
    expect(siteRootKind([kind("Banner", "site"), Page, Portal])).toBe("Portal");
  });

  it("lists each kind under every object of its parent kind, once per parent, site by site", async () => {
    calls = [];
    const batches = await all(["Shelf", "Book", "Portal", "Page", "Comment", "Gate"]);
    expect(batches.map((b) => [b.kind, b.site?.id, ids(b.items)])).toEqual([
      ["Book", undefined, ["s1-b", "s2-b"]],
      ["Shelf", undefined, ["s1", "s2"]],
      ["Comment", "p1", ["p1-page-c"]],
      ["Page", "p1", ["p1-page"]],
      ["Gate", "p1", ["p1"]],
      ["Portal", "p1", ["p1"]],
      ["Comment", "p2", ["p2-page-c"]],
      ["Page", "p2", ["p2-page"]],
      ["Gate", "p2", []],
      ["Portal", "p2", ["p2"]],
    ]);
    expect(batches[2]?.site).toEqual({ id: "p1", title: "Docs" });
    // The site kind's own objects keep the site they are; organization-level objects have none.
    expect(batches[5]?.items.map((item) => item.siteId)).toEqual(["p1"]);
    expect(batches[0]?.items.map((item) => item.siteId)).toEqual([undefined, undefined]);
    // Shelves are listed once, though Book needed them before Shelf's own batch; each portal's pages once.
    expect(calls.filter((call) => call.startsWith("Shelf"))).toHaveLength(1);
    expect(calls.filter((call) => call.startsWith("Portal"))).toHaveLength(1);
    expect(calls.filter((call) => call.startsWith("Page"))).toEqual([
      'Page {"organizationId":"org","portalId":"p1"}',
      'Page {"organizationId":"org","portalId":"p2"}',
    ]);
  });

  it("gives a child its parents' ids, its parent's title and item, and the site it lives under", async () => {
    calls = [];
    const [books] = await all(["Book"]);
    expect(books?.items[0]).toEqual({
      id: "s1-b",
      title: "book on Top",
      known: { organizationId: "org", shelfId: "s1" },
    });
    const comments = (await all(["Comment"])).flatMap((b) => b.items);
    expect(comments[0]).toEqual({
      id: "p1-page-c",
      title: "c",
      known: { organizationId: "org", portalId: "p1", pageId: "p1-page" },
      siteId: "p1",
    });
    expect(calls).toContain('Comment {"organizationId":"org","portalId":"p2","pageId":"p2-page"}');
  });

  it("lists only what the kinds asked for need: no site listing without a site-level kind", async () => {
    calls = [];
    expect((await all(["Shelf"])).map((b) => b.kind)).toEqual(["Shelf"]);
    expect(calls).toEqual(['Shelf {"organizationId":"org"}']);
    expect(await all(["Note"])).toEqual([]);
  });

  it("takes one site with siteId, and names a site the organization does not have", async () => {
    const batches = await all(["Page"], "p2");
    expect(batches.map((b) => [b.site?.id, ids(b.items)])).toEqual([["p2", ["p2-page"]]]);
    await expect(all(["Page"], "p9")).rejects.toThrow('no site "p9" in organization "org"');
  });

  it("fails when site-level kinds are asked for and no site kind lists the sites", async () => {
    const run = async () => {
      for await (const _ of enumerate(ctx, [Shelf, Page], { organizationId: "org", kinds: new Set(["Page"]) })) {
        // drained
      }
    };
    await expect(run()).rejects.toThrow("site-level kinds are listed under the site kind, and there is none");
  });

  it("fails naming the kind whose parent kind has no listing", async () => {
    const Orphan = kind("Orphan", "organization", { list: async () => [] }, { kind: "Note", input: "noteId" });
    const run = async () => {
      for await (const _ of enumerate(ctx, [Note, Orphan], { organizationId: "org", kinds: new Set(["Orphan"]) })) {
        // drained
      }
    };
    await expect(run()).rejects.toThrow("Orphan is listed under Note, which has no listing");
  });
});

describe("referableIds: what an input referring to a kind may hold", () => {
  it("is the listed ids under the parent the referring inputs name, or what the kind says references name", async () => {
    calls = [];
    expect(await referableIds(ctx, Page.listing!, { organizationId: "org", portalId: "p1" })).toEqual(
      new Set(["p1-page"]),
    );
    expect(calls).toEqual(['Page {"organizationId":"org","portalId":"p1"}']);
    const Member = kind("Member", "organization", {
      referredToAs: "userId",
      list: async (_c, { ids: parent }) => [
        { id: `${parent.organizationId}/u1`, title: "Ada", known: { userId: "u1" } },
      ],
    });
    expect(await referableIds(ctx, Member.listing!, { organizationId: "org" })).toEqual(new Set(["u1"]));
  });
});

describe("treeOrder", () => {
  it("puts parents before their children, depth first, siblings in the listing's order; a missing parent is the top", () => {
    const items = [
      { id: "c", parent: "b" },
      { id: "b", parent: "a" },
      { id: "d", parent: null },
      { id: "a" },
      { id: "e", parent: "gone" },
      { id: "f", parent: "a" },
    ];
    expect(treeOrder(items).map((item) => item.id)).toEqual(["d", "a", "b", "c", "f", "e"]);
  });
});

describe("enumerate's failures: the kind named, and the ones passOver allows left out while the rest go on", () => {
  class Refused extends Error {}
  const refusing = (name: string, scope: "organization" | "site", parent?: KindParent) =>
    kind(name, scope, { list: async () => Promise.reject(new Refused(`GET /${name} refused`)) }, parent);
  const run = async (defs: ReturnType<typeof kind>[], kinds: string[], passOver?: (e: unknown) => boolean) => {
    const batches: Batch[] = [];
    for await (const batch of enumerate(ctx, defs, { organizationId: "org", kinds: new Set(kinds), passOver })) {
      batches.push(batch);
    }
    return batches;
  };
  const passRefused = (error: unknown) => error instanceof Refused;

  it("without passOver, the first failure ends enumeration as a KindFailure naming the kind, with its message", async () => {
    const Locked = refusing("Locked", "organization");
    const failure = await run([Locked, Shelf], ["Locked", "Shelf"]).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(KindFailure);
    expect((failure as KindFailure).kinds).toEqual(["Locked"]);
    expect((failure as KindFailure).message).toBe("GET /Locked refused");
    expect((failure as KindFailure).cause).toBeInstanceOf(Refused);
    // Whatever was thrown, the failure's message says it.
    expect(new KindFailure("Locked", "a string thrown").message).toBe("a string thrown");
  });

  it("with passOver, a refused kind and the kinds listed under it are reported refused, and the others listed", async () => {
    const Vault = refusing("Vault", "organization");
    const Drawer = kind("Drawer", "organization", { list: async () => [] }, { kind: "Vault", input: "vaultId" });
    const batches = await run([Vault, Drawer, Shelf], ["Vault", "Drawer", "Shelf"], passRefused);
    expect(batches.map((b) => [b.kind, b.refused instanceof Refused, ids(b.items)])).toEqual([
      ["Vault", true, []],
      ["Drawer", true, []],
      ["Shelf", false, ["s1", "s2"]],
    ]);
  });

  it("with passOver, refused sites leave every site-level kind asked for refused, and a failure not passed over still ends it", async () => {
    const Closed = refusing("Closed", "site");
    const batches = await run([Shelf, Closed, Page], ["Shelf", "Page", "Closed"], passRefused);
    expect(batches.map((b) => [b.kind, b.refused instanceof Refused])).toEqual([
      ["Shelf", false],
      ["Closed", true],
      ["Page", true],
    ]);
    const failure = await run([Shelf, Closed, Page], ["Page"], () => false).catch((error: unknown) => error);
    expect((failure as KindFailure).kinds).toEqual(["Closed"]);
  });
});
