import { DocsApiError, mayHaveActed, NotFoundError } from "../client";
import { messageOf, withNote } from "./explain";

/**
 * The one way a create undoes itself: runs the steps that follow a successful POST and, if one fails, removes the new
 * object before rethrowing, so that the failed `up` leaves nothing behind that the next one would duplicate (Pulumi
 * records no state for a create that fails). The error then says what became of the object: removed, kept on purpose
 * (`undo` returns the reason) or left behind because removing it failed too, with the `importId` that adopts it.
 * `undo` goes through the same client as every request, so it waits out a rate limit (429) like any other call.
 */
export async function undoOnFailure<T>(
  created: { kind: string; id: string; title?: string },
  undo: () => Promise<unknown>,
  steps: () => Promise<T>,
): Promise<T> {
  try {
    return await steps();
  } catch (error) {
    const titled = created.title === undefined || created.title === created.id ? "" : ` ("${created.title}")`;
    const the = `the new ${created.kind} "${created.id}"${titled}`;
    const adopt = `adopt it with importId "${created.id}"`;
    const removed = `${the} was removed again`;
    const note = await undo().then(
      (kept) => (typeof kept === "string" ? `${the} was kept (${kept}): ${adopt}` : removed),
      // A 404: it is gone already (a retried DELETE whose first answer was lost).
      (failed) =>
        failed instanceof NotFoundError
          ? removed
          : `removing ${the} failed too (${messageOf(failed)}): ${adopt} or delete it`,
    );
    throw withNote(error, note);
  }
}

/**
 * A create's write that is safe to repeat (a PUT, a grant), which the client retried: if it still failed in a way the
 * API may have acted on (every answer lost, a 5xx), it is undone as undoOnFailure undoes, since the object may exist
 * and no state will record it. A definite refusal (4xx) is rethrown as it is: nothing was written.
 */
export async function undoIfActed<T>(
  created: { kind: string; id: string; title?: string },
  undo: () => Promise<unknown>,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!(error instanceof DocsApiError) || !mayHaveActed(error)) throw error;
    return undoOnFailure(created, undo, () => Promise.reject(error));
  }
}
