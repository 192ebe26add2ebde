/**
 * The objects of an organization, kind by kind, as the kinds' listing facets name them (provider/framework/
 * enumerate.ts): what `import` reads and declares (walk.ts) and what `unmanaged` compares with a stack's state
 * (unmanaged.ts). Listings go through the runtime's shared listings, so the kinds' reads that follow cost no request.
 */
import {
  causeOfType,
  definitions,
  enumerateKinds,
  enumerationOrder,
  KindFailure,
  type ListedObject,
  sharedContext,
  UserTokenRequiredError,
} from "./provider";

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
  /** Failures that leave a kind out (reported in `Batch.refused`) instead of ending the enumeration. */
  passOver?: (error: unknown) => boolean;
}

export function enumerate(options: EnumerateOptions) {
  return enumerateKinds(sharedContext(), definitions, options);
}

/**
 * The kinds a token is refused because their operations take users' tokens only: a walk passes over them and goes on,
 * so that its failure names all of them at once, not one per run.
 */
export class UserTokenRefusals {
  private readonly refused = new Map<string, unknown>();
  readonly passOver = (error: unknown): boolean => causeOfType(error, UserTokenRequiredError) !== undefined;

  /** Whether the failure was one to pass over (and is now noted against the kind). */
  note(kind: string, error: unknown): boolean {
    if (!this.passOver(error)) return false;
    if (!this.refused.has(kind)) this.refused.set(kind, error);
    return true;
  }

  /** Ends the walk with every kind refused, the first refusal as its cause. */
  throwIfAny(): void {
    const [first] = this.refused.values();
    if (this.refused.size > 0) throw new KindFailure([...this.refused.keys()], first);
  }
}

/** Every object of one kind in the organization (a kind listed under the organization or under a kind of it). */
export async function listKind(organizationId: string, kind: string): Promise<Listed[]> {
  const items: Listed[] = [];
  for await (const batch of enumerate({ organizationId, kinds: new Set([kind]) })) items.push(...batch.items);
  return items;
}
