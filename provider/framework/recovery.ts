/**
 * Creates that never duplicate. A create whose response was lost (the connection dropped after the request was sent,
 * a timeout, a 5xx: `outcomeUnknown`) may or may not have made its object. Repeating it blindly could leave two;
 * failing could leave one no state records. So the create looks for what it may have made, with the kind's
 * `findCreated`: exactly one candidate is adopted (and brought to the declared inputs, as `importId` would), none
 * means nothing was made and the create is repeated, several fail naming each with the `importId` that adopts it.
 */
import { outcomeUnknown } from "../client";
import { messageOf, withNote } from "./explain";
import type { CreatedCandidate, Found, KindDefinition, Props, ResourceContext } from "./kind";

/**
 * How far the API's clock may lag ours: objects whose `createdAt` is up to this much before the request began still
 * count as made by it.
 */
export const CLOCK_SKEW_MS = 2 * 60_000;

/** Whether an object reported with this `createdAt` may have been made at or after `since`; without one, it may. */
export function createdSince(createdAt: string | null | undefined, since: Date): boolean {
  if (!createdAt) return true;
  const at = Date.parse(createdAt);
  return Number.isNaN(at) || at >= since.getTime();
}

/**
 * `definition.create`, made safe to repeat: on an unknown outcome the kind's `findCreated` decides between adopting
 * (one candidate, through `adopt`), repeating the create (none; at most the client's attempt budget in all) and
 * failing (several). Candidates are looked for among objects made since the first attempt began, less CLOCK_SKEW_MS.
 */
export async function createWithoutDuplicates<Inputs extends Props, State extends Props>(
  definition: KindDefinition<Inputs, State>,
  ctx: ResourceContext,
  inputs: Inputs,
  adopt: (id: string) => Promise<Found<State>>,
  now: () => number = Date.now,
): Promise<Found<State>> {
  const since = new Date(now() - CLOCK_SKEW_MS);
  const attempts = Math.max(1, ctx.client.policy.maxAttempts);
  for (let attempt = 1; ; attempt++) {
    try {
      if (!definition.create) throw new Error(`${definition.kind} has no create: it adopts (adoptsOnCreate)`);
      return await definition.create(ctx, inputs);
    } catch (error) {
      if (!definition.findCreated || !outcomeUnknown(error)) throw error;
      let candidates: CreatedCandidate[];
      try {
        candidates = await definition.findCreated(ctx, inputs, since);
      } catch (lookup) {
        throw withNote(
          error,
          `the API may have made it, and looking for it failed too (${messageOf(lookup)}): look for it and adopt it ` +
            `with importId (${definition.idFormat}), or run \`pulumi up\` again`,
        );
      }
      const [only] = candidates;
      if (candidates.length === 1 && only) return adopt(only.id);
      if (candidates.length > 1) throw severalFound(definition, candidates, since, error);
      if (attempt >= attempts) {
        throw withNote(
          error,
          `the API made no ${definition.kind} either (looked ${attempt} times), so nothing is left behind`,
        );
      }
    }
  }
}

function severalFound(
  definition: Pick<KindDefinition, "kind" | "idFormat">,
  candidates: readonly CreatedCandidate[],
  since: Date,
  cause: unknown,
): Error {
  const named = candidates.map((candidate) => `"${candidate.id}" ("${candidate.title}")`).join(", ");
  return new Error(
    `${definition.kind} create: the response was lost (${messageOf(cause)}), and ${candidates.length} ` +
      `${definition.kind}s that it may have made exist (made since ${since.toISOString()}): ${named}. ` +
      `Set importId to the one this resource should manage (${definition.idFormat}), delete the others, ` +
      "and run `pulumi up` again.",
    { cause },
  );
}
