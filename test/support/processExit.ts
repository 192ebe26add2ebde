import { onTestFinished, vi } from "vitest";
import { Operation } from "../../provider/framework/operation";

/**
 * A new operation set to tell its closing notices when the provider process exits (Operation.tellAtExit), asked twice
 * as every resource of an operation asks, with the process hooks it uses stubbed until the test ends: the handlers
 * given to `process.once` are kept instead of installed, and `process.exit` is recorded instead of done.
 * captureStderr (./log.ts) collects what the notices write.
 */
export function operationTellingAtExit() {
  const handlers = new Map<string, () => void>();
  const once = vi.spyOn(process, "once").mockImplementation(((event: string, handler: () => void) => {
    handlers.set(event, handler);
    return process;
  }) as typeof process.once);
  const exit = vi.spyOn(process, "exit").mockImplementation((() => undefined) as never);
  onTestFinished(() => {
    once.mockRestore();
    exit.mockRestore();
  });
  const operation = new Operation([]);
  operation.tellAtExit();
  operation.tellAtExit();
  return {
    operation,
    /** The events handlers were registered for, in order. */
    events: () => once.mock.calls.map(([event]) => event),
    /** Runs the handler registered for an event, as the process would on that event. */
    emit: (event: string) => handlers.get(event)?.(),
    /** Runs the handlers of these signals, in turn; the codes the process would have exited with. */
    exitCodesOn: (...signals: string[]) => {
      for (const signal of signals) handlers.get(signal)?.();
      return exit.mock.calls.map(([code]) => code);
    },
  };
}
