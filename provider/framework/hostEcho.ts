/**
 * The dynamic provider host reports every failed call twice: to the engine, which shows it against the resource, and
 * as `console.error(`${error}: ${error.stack}`)` on the plugin's stderr, which the CLI shows a second time under the
 * stack, in the progress and in "Diagnostics", ending in a stray `: `
 * (`@pulumi/pulumi/cmd/dynamic-provider/index.js`). An error this package explained carries EXPLAINED_STACK as its
 * stack, so the host's copy of it can be told apart and dropped; the engine's copy stays.
 */

/** An invisible separator: the whole stack of an explained error. */
export const EXPLAINED_STACK = "\u2063";

const WRAPPED = Symbol.for("pulumi-docs-platform.hostEcho");

/** Whether one `console.error` call is the host's copy of an error this package explained. */
export function isHostEcho(args: readonly unknown[]): boolean {
  const [line] = args;
  return args.length === 1 && typeof line === "string" && line.endsWith(`: ${EXPLAINED_STACK}`);
}

/** Makes `console.error` drop the host's copies of explained errors (once per process; the provider host only). */
export function dropHostEchoes(target: Pick<Console, "error"> = console): void {
  const original = target.error as Console["error"] & { [WRAPPED]?: true };
  if (original[WRAPPED]) return;
  const filtered = Object.assign(
    (...args: unknown[]) => {
      if (!isHostEcho(args)) original.apply(target, args);
    },
    { [WRAPPED]: true as const },
  );
  target.error = filtered;
}
