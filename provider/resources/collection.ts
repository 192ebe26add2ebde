import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  type ApiCollection,
  type CollectionPatch,
  createCollection,
  deleteCollection,
  getCollection,
  moveCollection,
  transferCollection,
  updateCollection,
} from "../client";
import { undoOnFailure } from "../framework/cleanup";
import { changedFields } from "../framework/patch";
import { type AdoptionArgs, type ArgsOf, DocsResource } from "../framework/resource";
import { defineResource } from "../framework/spec";
import { DEFAULT_LEVELS } from "./common";

const inputs = z.strictObject({
  organizationId: z.string().min(1),
  title: z.string().max(50),
  description: z.string().max(100).optional(),
  /** A role, `inherit` (from the parent collection) or null (no default access). Unmanaged when omitted. */
  defaultLevel: z.enum(DEFAULT_LEVELS).nullable().optional(),
  /** Omitted means the organization's top level, so a collection moved elsewhere out of band is drift. */
  parentId: z.string().min(1).nullable().default(null),
});

const state = z.object({
  organizationId: z.string(),
  title: z.string(),
  description: z.string().default(""),
  defaultLevel: z.string().nullable().default(null),
  parentId: z.string().nullable().default(null),
  urls: z.object({ location: z.string(), app: z.string() }).partial().default({}),
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

/** The PATCH body for the changed settings; create uses it too, since POST only takes title and parent. */
const settingsPatch = (news: Inputs, changed: ReadonlySet<string>) =>
  changedFields<CollectionPatch>(news, changed, {
    title: "title",
    description: "description",
    defaultLevel: "defaultLevel",
  });

export const collectionSpec = defineResource<Inputs, State>({
  kind: "Collection",
  inputs,
  state,
  outputs: ["urls"],
  idFormat: "the collection id, as in https://app.gitbook.com/o/<org>/c/<collectionId>",
  // Moving (parentId) and transferring (organizationId) have endpoints of their own: nothing forces a replace.
  replaceOnChanges: [],

  async create({ client }, news) {
    const created = await createCollection(client, news.organizationId, {
      title: news.title,
      ...(news.parentId ? { parent: news.parentId } : {}),
    });
    const patch = settingsPatch(news, new Set(["description", "defaultLevel"]));
    const collection = patch
      ? await undoOnFailure(
          () => deleteCollection(client, created.id),
          () => updateCollection(client, created.id, patch),
        )
      : created;
    return { id: collection.id, state: toState(collection) };
  },

  async read({ client }, id) {
    return { id, state: toState(await getCollection(client, id)) };
  },

  async update({ client }, id, olds, news, changed) {
    let collection: ApiCollection | undefined;
    // Transfer first: a new parent must be looked up in the organization the collection ends up in.
    if (changed.has("organizationId")) collection = await transferCollection(client, id, news.organizationId);
    const parentAfterTransfer = collection ? (collection.parent ?? null) : olds.parentId;
    if (changed.has("parentId") || (collection && parentAfterTransfer !== news.parentId)) {
      collection = await moveCollection(client, id, news.parentId);
    }
    const patch = settingsPatch(news, changed);
    if (patch) collection = await updateCollection(client, id, patch);
    return toState(collection ?? (await getCollection(client, id)));
  },

  delete: ({ client }, id) => deleteCollection(client, id),
});

export type CollectionArgs = ArgsOf<z.input<typeof inputs>> & AdoptionArgs;

/** A collection of spaces, optionally nested in another collection. Id: the collection id. */
export class Collection extends DocsResource {
  declare readonly organizationId: pulumi.Output<string>;
  declare readonly title: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string>;
  declare readonly defaultLevel: pulumi.Output<string | null>;
  declare readonly parentId: pulumi.Output<string | null>;
  /** `location` (API URL) and `app` (the collection in the web app). */
  declare readonly urls: pulumi.Output<{ location?: string; app?: string }>;

  constructor(name: string, args: CollectionArgs, opts?: pulumi.CustomResourceOptions) {
    super(collectionSpec, name, args, opts);
  }
}
