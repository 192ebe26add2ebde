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

/** How a create came to take over an existing object instead of making one. */
export type AdoptedBy = "importId" | "adoptsOnCreate" | "recovery";

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
