import { NotFoundError } from "../client";
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
