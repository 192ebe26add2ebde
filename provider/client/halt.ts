/**
 * The process-wide stop of every client: once the process's caller is gone (the Pulumi engine that started a provider
 * plugin died, ../framework/engineWatch.ts), no client of the process sends another request, and every wait for the
 * rate limit or before a retry ends at once. A request already on the wire is left to finish or fail: the API has it,
 * and cutting it would not undo what it does. Nothing here knows of kinds: the transport checks the signal before each
 * attempt, so every call of every kind stops the same way.
 */

/** A request refused because the process was halted: nobody is left to act for, so nothing is sent. */
export class HaltedError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly why: string,
  ) {
    super(`${method} ${path} not sent: ${why}`);
    this.name = "HaltedError";
  }
}

const controller = new AbortController();

/** The process's signal: the default of every client (a test gives its client one of its own). */
export const processHalt: AbortSignal = controller.signal;

/** Stops every client of the process for good; `why` ends up in the errors of the requests refused. */
export function haltRequests(why: string): void {
  if (!controller.signal.aborted) controller.abort(why);
}

/** Why `signal` was halted, as the errors say it. */
export function haltReason(signal: AbortSignal): string {
  return typeof signal.reason === "string" ? signal.reason : "the process is shutting down";
}

/**
 * `ms` of waiting that ends early, rejecting with the halt, when `signal` is aborted: a rate-limit hold or a retry's
 * backoff never outlives the process's caller.
 */
export function haltableSleep(
  sleep: (ms: number) => Promise<void>,
  ms: number,
  signal: AbortSignal,
  where: { method: string; path: string },
): Promise<void> {
  const halted = () => new HaltedError(where.method, where.path, haltReason(signal));
  if (signal.aborted) return Promise.reject(halted());
  return new Promise<void>((resolve, reject) => {
    const onHalt = () => reject(halted());
    signal.addEventListener("abort", onHalt, { once: true });
    sleep(ms).then(
      () => {
        signal.removeEventListener("abort", onHalt);
        resolve();
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onHalt);
        reject(error);
      },
    );
  });
}

/** Requests of every client of the process sent and not yet answered (or failed). */
let onTheWire = 0;
const settledWaiters = new Set<() => void>();

/** Counts one request from the moment it is handed to the connection until its answer is read or it fails. */
export async function onWire<T>(send: () => Promise<T>): Promise<T> {
  onTheWire++;
  try {
    return await send();
  } finally {
    onTheWire--;
    if (onTheWire === 0) for (const wake of [...settledWaiters]) wake();
  }
}

export function requestsOnTheWire(): number {
  return onTheWire;
}

/**
 * Resolves when no request of the process is on the wire, or after `graceMs`, whichever comes first, with how many
 * are still on it.
 */
export function wireSettled(graceMs: number): Promise<number> {
  if (onTheWire === 0) return Promise.resolve(0);
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      settledWaiters.delete(done);
      resolve(onTheWire);
    };
    const timer = setTimeout(done, graceMs);
    settledWaiters.add(done);
  });
}
