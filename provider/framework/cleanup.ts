/**
 * Runs the steps that follow a successful POST; if one fails, removes the new object before rethrowing, so that
 * the failed `up` leaves nothing behind that the next one would duplicate (Pulumi records no state for a create
 * that fails).
 */
export async function undoOnFailure<T>(undo: () => Promise<void>, steps: () => Promise<T>): Promise<T> {
  try {
    return await steps();
  } catch (error) {
    await undo().catch(() => undefined);
    throw error;
  }
}
