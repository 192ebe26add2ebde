import { apiTokenSource, apiUrlSetting, CONFIG_KEYS, ENV_KEYS, MissingCredentialsError } from "./connection";
import { EXPLAINED_STACK } from "./hostEcho";
import { MissingConnectionTokenError } from "./resourceConnection";

/**
 * Operations the engine runs with the provider configuration stored in the state by the last `pulumi up`
 * (refresh and destroy load the provider from the state, not from the stack's current config).
 */
const STORED_CONFIGURATION_OPERATIONS: ReadonlySet<string> = new Set(["read", "delete"]);

/**
 * What to do about a missing or rejected token, in the words that are true for the operation: refresh and destroy
 * never see stack config set after the last `up`, so "set docs:apiToken" alone would send the user in circles.
 */
export function credentialFix(operation: string, problem: "missing" | "rejected"): string {
  const source = apiTokenSource();
  if (!STORED_CONFIGURATION_OPERATIONS.has(operation)) {
    return (
      `Check the API token: \`pulumi config set --secret ${CONFIG_KEYS.apiToken} <token>\` or the ` +
      `${ENV_KEYS.apiToken} environment variable.`
    );
  }
  const saved =
    "Refresh, read and destroy use the provider configuration saved in the state by the last `pulumi up`, " +
    `so a ${CONFIG_KEYS.apiToken} set or changed since then is not used yet.`;
  if (problem === "rejected" && source === "config") {
    return (
      `${saved} The rejected token is that saved ${CONFIG_KEYS.apiToken}: run \`pulumi up\` once to save the ` +
      "current one (or `pulumi refresh --run-program`)."
    );
  }
  // A token from the environment is read anew by every process: what the last `up` saved does not matter.
  if (problem === "rejected") return `The rejected token is ${ENV_KEYS.apiToken}: export a valid one.`;
  return `${saved} Fix: export ${ENV_KEYS.apiToken}=<token> and run again, or run \`pulumi up\` once.`;
}

/** Where a connection that failed was going, and which setting sent it there. */
export function connectionFix(): string {
  const { url, source } = apiUrlSetting();
  return `The API URL ${url} comes from ${source}: check it and the network.`;
}

/**
 * A credential problem raised before any request (no token at all), in the same shape as an API error:
 * `<Kind> "<id>" <operation>: No API token. <fix>`. Other errors pass through.
 */
export function explainMissingCredentials(kind: string, operation: string, id: string | undefined, error: unknown) {
  const subject = `${kind}${id ? ` "${id}"` : ""} ${operation}`;
  if (error instanceof MissingConnectionTokenError) {
    const explained = new Error(`${subject}: ${error.message}`, { cause: error });
    explained.name = error.name;
    return explained;
  }
  if (!(error instanceof MissingCredentialsError)) return error;
  const explained = new Error(`${subject}: No API token. ${credentialFix(operation, "missing")}`, { cause: error });
  explained.name = error.name;
  return explained;
}

/** Errors that signal a defect in this package's code: their stack trace is what a bug report needs. */
const DEFECTS = [TypeError, ReferenceError, RangeError, SyntaxError];

/**
 * The dynamic provider host prints every error of check, diff, read and delete as `${error}: ${error.stack}` on the
 * plugin's stderr, which the CLI shows line by line (a 7-frame trace per resource) besides the message it shows
 * against the resource anyway. For an error the provider raised itself, the message is the whole story: its stack
 * is the mark that lets the provider process drop the host's copy (./hostEcho.ts). A defect keeps its trace.
 */
export function withoutStackTrace<T>(error: T): T {
  if (!(error instanceof Error) || DEFECTS.some((type) => error instanceof type)) return error;
  Object.defineProperty(error, "stack", { value: EXPLAINED_STACK, configurable: true, writable: true });
  return error;
}

/**
 * A message for the CLI from inside the provider process. The dynamic provider host has no engine connection
 * (`pulumi.log` there prints `info: [runtime] …` on stdout) and offers no way to attach a message to a resource, so
 * the message goes to stderr as one line, which the CLI shows under the stack, in the progress output and in
 * "Diagnostics". It names the resource itself: kind, id or title.
 */
export function notice(severity: "info" | "warning", message: string): void {
  process.stderr.write(`${severity}: ${message}\n`);
}

export interface Notice {
  severity: "info" | "warning";
  message: string;
}

/** What each `noticeAtExit` caller has to say once the operation is over, in the order they registered. */
const closingNotices = new Set<() => readonly Notice[]>();
let listening = false;

/**
 * Writes notices only known once the operation is over (a summary, a resource no other one matched) when the provider
 * process ends. The engine interrupts the process (SIGINT, then SIGKILL after 5 s) once the operation is done and
 * still shows what it writes to stderr then: under the stack in "Diagnostics", above the `Resources:` count. Node
 * would die of the signal without an `exit` event, so the signals exit instead. Called from the provider process's
 * `configure` (never in tests or tools); registering the same function again changes nothing.
 */
export function noticeAtExit(collect: () => readonly Notice[]): void {
  closingNotices.add(collect);
  if (listening) return;
  listening = true;
  process.once("exit", () => {
    for (const closing of closingNotices) {
      for (const { severity, message } of closing()) notice(severity, message);
    }
  });
  process.once("SIGINT", () => process.exit(130));
  process.once("SIGTERM", () => process.exit(143));
}

/** Forgets what `noticeAtExit` registered, and that it listens (tests, which replace `process.once`). */
export function resetNoticesAtExit(): void {
  closingNotices.clear();
  listening = false;
}

/** How a create came to take over an existing object instead of making one. */
export type AdoptedBy = "importId" | "adoptsOnCreate" | "recovery";

/**
 * What check expects of one importId adoption: `unread` (preflight off), `pending` (the object is found through a
 * parent the same update adopts or creates, which has no id yet), or what preflight read: the fields it will change,
 * and the line telling it when there are any.
 */
export type ExpectedAdoption = "unread" | "pending" | { changed: readonly string[]; notice: string };

/**
 * The importId adoptions of this operation (one provider process): announced by check, by `<kind> <importId>`, and
 * made by create, by `<kind> <id>` with the line telling what it changed, if anything. A preview only checks; the
 * update of `pulumi up` runs in a process of its own, which checks again and then creates.
 */
const expectedAdoptions = new Map<string, ExpectedAdoption>();
const madeAdoptions = new Map<string, string | undefined>();

/** Forgets the adoptions seen (tests). */
export function resetAdoptions(): void {
  expectedAdoptions.clear();
  madeAdoptions.clear();
}

/** Records what check found an importId adoption will do, for the notices at the end of the operation. */
export function expectAdoption(kind: string, importId: string, expected: ExpectedAdoption): void {
  expectedAdoptions.set(`${kind} ${importId}`, expected);
}

/**
 * Tells what a create that took over an existing object did. An importId adoption is told at the end of the
 * operation (`adoptionNotices`): counted, and named only if it changed the object, as a hundred "no change" lines would
 * hide that one. A take-over the program did not ask for (a kind that always adopts, a lost create answer) is told at
 * once.
 */
export function reportAdoption(kind: string, id: string, changed: readonly string[], by: AdoptedBy): void {
  const message = adoptedMessage(kind, id, changed, by);
  if (by === "importId") madeAdoptions.set(`${kind} ${id}`, changed.length > 0 ? message : undefined);
  else notice("info", message);
}

/**
 * The importId adoptions of this operation, for a reviewer who sees them counted as creates in `Resources:` below:
 * one line per adoption that changes its object, then one line for all, `15 adopted, 0 changed: …` after `up` and
 * `15 to adopt, 0 to change: …` in a preview (the changes counted only when preflight read the objects). None when
 * nothing is adopted. Written at the end of the operation, once check and create have seen every resource.
 */
export function adoptionNotices(): Notice[] {
  const info = (message: string): Notice => ({ severity: "info", message });
  if (madeAdoptions.size > 0) {
    const changes = [...madeAdoptions.values()].filter((message) => message !== undefined);
    const count = madeAdoptions.size;
    const what =
      count === 1
        ? "took over an existing object instead of making a new one"
        : "took over existing objects instead of making new ones";
    const listed = changes.length > 0 ? " (listed above)" : "";
    const summary = `${count} adopted, ${changes.length} changed${listed}: ${count} of the creates counted below ${what}.`;
    return [...changes, summary].map(info);
  }
  const expected = [...expectedAdoptions.values()];
  if (expected.length === 0) return [];
  const count = expected.length;
  const unread = expected.filter((adoption) => adoption === "unread").length;
  const pending = expected.filter((adoption) => adoption === "pending").length;
  const changes = expected.flatMap((adoption) =>
    typeof adoption === "object" && adoption.changed.length > 0 ? [adoption.notice] : [],
  );
  const counts = [`${count} to adopt`];
  if (unread < count) counts.push(`${changes.length} to change${changes.length > 0 ? " (listed above)" : ""}`);
  if (pending > 0) {
    counts.push(
      `${pending} read only at \`up\` (found through a parent the same update adopts or creates, which has no id yet)`,
    );
  }
  const what =
    count === 1
      ? "takes over the existing object its importId names instead of making a new one"
      : "take over the existing objects their importId names instead of making new ones";
  const hint = unread > 0 ? `; turn on ${CONFIG_KEYS.preflight} to see what adoption changes` : "";
  return [...changes, `${counts.join(", ")}: ${count} of the creates counted below ${what}${hint}.`].map(info);
}

/** What `up` says once an adoption is done: it adopted, not created, why, and what it changed. */
export function adoptedMessage(kind: string, id: string, changed: readonly string[], by: AdoptedBy): string {
  const what = changed.length === 0 ? "no change" : `changed ${changed.join(", ")}`;
  if (by === "recovery") {
    return (
      `${kind} "${id}" adopted: the create's answer was lost but the API had made it, so it was taken over, ` +
      `not made twice; ${what}.`
    );
  }
  const how = by === "importId" ? " (importId)" : "";
  return `${kind} "${id}" adopted${how}: the existing object was taken over, not created; ${what}.`;
}
