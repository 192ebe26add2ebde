import { z } from "zod";
import {
  type ApiCollection,
  type CollectionPatch,
  collectionsPath,
  createCollection,
  deleteCollection,
  getCollection,
  listCollections,
  moveCollection,
  transferCollection,
  updateCollection,
} from "../client";
import { undoOnFailure } from "../framework/cleanup";
import { treeOrder } from "../framework/enumerate";
import { apiId, defineKind, idRef } from "../framework/kind";
import { readListed } from "../framework/listings";
import { changedFields } from "../framework/patch";
import { DEFAULT_LEVELS } from "./common";

const inputs = z.strictObject({
  organizationId: apiId.describe(
    "The organization the collection belongs to; a change transfers the collection to that organization.",
  ),
  title: z.string().max(50).describe("The collection's title."),
  description: z.string().max(100).optional().describe("A short description shown with the collection."),
  defaultLevel: z
    .enum(DEFAULT_LEVELS)
    .nullable()
    .optional()
    .describe(
      "The access every organization member gets: a role, `inherit` (from the parent collection) or `null` (none).",
    ),
  // Omitted means the organization's top level, so a collection moved elsewhere out of band is drift.
  parentId: idRef("Collection")
    .nullable()
    .default(null)
    .describe(
      "The collection this one is nested in; omitted or `null` means the organization's top level. A change moves it.",
    ),
});

const state = z.object({
  organizationId: z.string(),
  title: z.string(),
  description: z.string().default("").describe('The description; `""` when the collection has none.'),
  defaultLevel: z.string().nullable().default(null),
  parentId: z.string().nullable().default(null),
  urls: z
    .object({ location: z.string(), app: z.string() })
    .partial()
    .default({})
    .describe("`location` (the API URL) and `app` (the collection in the web app)."),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

function toState(collection: ApiCollection): State {
  return {
    organizationId: collection.organization,
    title: collection.title,
    description: collection.description ?? "",
    defaultLevel: collection.defaultLevel ?? null,
    parentId: collection.parent ?? null,
    urls: { location: collection.urls?.location, app: collection.urls?.app },
  };
}

/** The PATCH body for the changed fields; create uses it too, since POST only takes title and parent. */
const patchOf = (news: Inputs, changed: ReadonlySet<string>) =>
  changedFields<CollectionPatch>(news, changed, {
    title: "title",
    description: "description",
    defaultLevel: "defaultLevel",
  });

export const collectionKind = defineKind<Inputs, State>({
  kind: "Collection",
  docs: {
    description: "A collection of spaces, optionally nested in another collection.",
    adoption:
      '`importId: "<collectionId>"`. Adopting a collection of another organization than `organizationId` transfers it; ' +
      "adopting a nested collection without declaring its `parentId` moves it to the top level.",
    notes: [
      "- Create is `POST /orgs/{organizationId}/collections` with `title` and `parentId`, followed by one `PATCH` when " +
        "`description` or `defaultLevel` is declared.",
      "- A change of `organizationId` transfers the collection (`POST /collections/{id}/transfer`), then moves it if its " +
        "parent is not the declared `parentId`; a change of `parentId` moves it (`POST /collections/{id}/move`).",
      "- `parentId` is always managed: a collection moved by hand is drift.",
    ],
    example: `const handbook = new docs.Collection("handbook", { organizationId, title: "Handbook", defaultLevel: "read" });
new docs.Collection("engineering", { organizationId, title: "Engineering", parentId: handbook.id });`,
  },
  scope: "organization",
  inputs,
  state,
  listing: {
    path: ({ organizationId }) => collectionsPath(String(organizationId)),
    async list(ctx, { ids }) {
      const org = String(ids.organizationId);
      const all = await ctx.listings.get(collectionsPath(org), () => listCollections(ctx.client, org));
      return treeOrder(all).map((c) => ({ id: c.id, title: c.title, known: ids, item: c }));
    },
    unmanaged: true,
  },
  imported: { word: "collection", heading: "Collections, parents before their children." },
  outputs: ["urls"],
  idFormat: "the collection id, as in `https://app.gitbook.com/o/<org>/c/<collectionId>`",
  // Moving (parentId) and transferring (organizationId) have endpoints of their own: nothing forces a replace.
  replaceOnChanges: [],

  // The API reports no createdAt for collections: every collection of the declared title and parent counts.
  async findCreated({ client }, news) {
    const all = await listCollections(client, news.organizationId);
    return all
      .filter((c) => c.title === news.title && (c.parent ?? null) === (news.parentId ?? null))
      .map((c) => ({ id: c.id, title: c.title }));
  },
  async create({ client }, news) {
    const created = await createCollection(client, news.organizationId, {
      title: news.title,
      ...(news.parentId ? { parent: news.parentId } : {}),
    });
    const patch = patchOf(news, new Set(["description", "defaultLevel"]));
    const collection = patch
      ? await undoOnFailure(
          { kind: "Collection", id: created.id, title: created.title },
          () => deleteCollection(client, created.id),
          () => updateCollection(client, created.id, patch),
        )
      : created;
    return { id: collection.id, state: toState(collection) };
  },

  // Every collection of a refresh comes from one listing of its organization (nested ones included), which reports
  // the same Collection objects as GET /collections/{id}. A collection missing from it is read alone: it may have
  // been transferred to another organization, which is drift of organizationId, not a deletion.
  async read({ client, listings }, id, known) {
    const collection = await readListed(listings, {
      path: collectionsPath(known.organizationId),
      list: () => listCollections(client, known.organizationId),
      matches: (item) => item.id === id,
      single: () => getCollection(client, id),
      confirmAbsence: true,
    });
    return collection && { id, state: toState(collection) };
  },

  async update({ client }, id, olds, news, changed) {
    let collection: ApiCollection | undefined;
    // Transfer first: a new parent must be looked up in the organization the collection ends up in.
    if (changed.has("organizationId")) collection = await transferCollection(client, id, news.organizationId);
    const parentAfterTransfer = collection ? (collection.parent ?? null) : olds.parentId;
    if (changed.has("parentId") || (collection && parentAfterTransfer !== news.parentId)) {
      collection = await moveCollection(client, id, news.parentId);
    }
    const patch = patchOf(news, changed);
    if (patch) collection = await updateCollection(client, id, patch);
    return toState(collection ?? (await getCollection(client, id)));
  },

  delete: ({ client }, id) => deleteCollection(client, id),
});
