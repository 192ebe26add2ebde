import { z } from "zod";
import { call } from "./parse";
import type { HttpClient } from "./transport";

export const CollectionSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().optional(),
  organization: z.string(),
  parent: z.string().nullish(),
  /** A role, `inherit` or null (no default access). */
  defaultLevel: z.string().nullish(),
  urls: z.object({ location: z.string().optional(), app: z.string().optional() }).partial().optional(),
});
export type ApiCollection = z.infer<typeof CollectionSchema>;

export interface CollectionPatch {
  title?: string;
  description?: string;
  defaultLevel?: string | null;
}

/** The organization's collections: listed (nested ones too, with `nested`) and created here. */
export function collectionsPath(organizationId: string): string {
  return `/orgs/${encodeURIComponent(organizationId)}/collections`;
}

export function collectionPath(id: string): string {
  return `/collections/${encodeURIComponent(id)}`;
}

export async function getCollection(client: HttpClient, id: string): Promise<ApiCollection> {
  const path = collectionPath(id);
  return call(client, CollectionSchema, "GET", path);
}

export async function createCollection(
  client: HttpClient,
  organizationId: string,
  body: { title?: string; parent?: string },
): Promise<ApiCollection> {
  return call(client, CollectionSchema, "POST", collectionsPath(organizationId), { body });
}

export async function updateCollection(client: HttpClient, id: string, patch: CollectionPatch): Promise<ApiCollection> {
  const path = collectionPath(id);
  return call(client, CollectionSchema, "PATCH", path, { body: patch });
}

/** `parent: null` moves the collection to the organization's top level. */
export async function moveCollection(client: HttpClient, id: string, parent: string | null): Promise<ApiCollection> {
  const path = `${collectionPath(id)}/move`;
  // A move to where the collection already is changes nothing: a lost answer is retried.
  return call(client, CollectionSchema, "POST", path, { body: { parent }, idempotent: true });
}

export async function transferCollection(client: HttpClient, id: string, organization: string): Promise<ApiCollection> {
  const path = `${collectionPath(id)}/transfer`;
  return call(client, CollectionSchema, "POST", path, { body: { organization } });
}

export function deleteCollection(client: HttpClient, id: string): Promise<void> {
  return client.delete(collectionPath(id));
}
