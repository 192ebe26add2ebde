/**
 * The objects of an organization, kind by kind, as the kinds' listing facets name them (provider/framework/
 * enumerate.ts): what `import` reads and declares (walk.ts) and what `unmanaged` compares with a stack's state
 * (unmanaged.ts). Listings go through the runtime's shared listings, so the kinds' reads that follow cost no request.
 */
import { definitions, enumerateKinds, enumerationOrder, type ListedObject, sharedContext } from "./provider";

export type { Batch } from "./provider";

/** One object as a listing names it. */
export type Listed = ListedObject;

/** Every kind with a listing, in the order they are enumerated: parents before what refers to them. */
export const ENUMERATED_KINDS: readonly string[] = enumerationOrder(definitions).map((definition) => definition.kind);

export interface EnumerateOptions {
  organizationId: string;
  kinds: ReadonlySet<string>;
  /** Only this site (and the organization-level kinds). */
  siteId?: string;
}

export function enumerate(options: EnumerateOptions) {
  return enumerateKinds(sharedContext(), definitions, options);
}

/** Every object of one kind in the organization (a kind listed under the organization or under a kind of it). */
export async function listKind(organizationId: string, kind: string): Promise<Listed[]> {
  const items: Listed[] = [];
  for await (const batch of enumerate({ organizationId, kinds: new Set([kind]) })) items.push(...batch.items);
  return items;
}
