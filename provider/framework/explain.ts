import { ConnectionError, DocsApiError, UserTokenRequiredError } from "../client";
import { MissingConnectionTokenError, type ResourceConnection } from "./connection";
import { EXPLAINED_STACK } from "./hostEcho";
import type { KindDefinition } from "./kind";
import { apiTokenSource, apiUrlSetting, ENV_KEYS, MissingCredentialsError, settingFix, settingName } from "./settings";

/**
 * How a failure of one resource operation is put into words a user acts on: which resource and operation, what the
 * API answered (or the kind's own words), what became of an object the failed create had made, and the fix. One
 * error type, whose message is computed from these parts when it is made; explaining more makes a new one.
 */
export interface ResourceErrorDetails {
  /** `Site "abc" create`: absent when `what` already names the resource (a kind's own words). */
  subject?: string;
  /** What went wrong: the API's answer (method, path, status, its message) or the kind's own sentence. */
  what: string;
  /** What became of the object a failed create had made (removed again, kept, left behind). */
  note?: string;
  /** What to do about it. */
  fix?: string;
  /** The failure itself. */
  cause: unknown;
}

export class ResourceError extends Error {
  constructor(readonly details: ResourceErrorDetails) {
    super(render(details), { cause: details.cause });
    // The class of the failure (`UnauthorizedError`), which is what the user's eye looks for first.
    this.name = details.cause instanceof Error ? details.cause.name : "Error";
  }
}

function render({ subject, what, note, fix }: ResourceErrorDetails): string {
  let body = note === undefined ? what : `${what}; ${note}`;
  if (subject !== undefined && !/[.!?]$/.test(body)) body = `${body}.`;
  const head = subject === undefined ? "" : `${subject}: `;
  return fix === undefined ? `${head}${body}` : `${head}${body} ${fix}`;
}

/** A failure with a note on what became of the object a create had made, to be explained like any other. */
export function withNote(error: unknown, note: string): ResourceError {
  const details = error instanceof ResourceError ? error.details : { what: messageOf(error), cause: error };
  return new ResourceError({ ...details, note: details.note === undefined ? note : `${details.note}; ${note}` });
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

type KindInfo = Pick<KindDefinition, "kind" | "idFormat">;

/**
 * Turns a failure into an error that names the kind, the object, the operation, the API's answer and the fix. An
 * error the provider has nothing to add to is returned as it is.
 */
export function explain(
  kind: KindInfo,
  operation: string,
  id: string | undefined,
  error: unknown,
  connection?: ResourceConnection,
): unknown {
  const subject = `${kind.kind}${id ? ` "${id}"` : ""} ${operation}`;
  if (error instanceof MissingConnectionTokenError)
    return new ResourceError({ subject, what: error.message, cause: error });
  if (error instanceof MissingCredentialsError) {
    return new ResourceError({ subject, what: "No API token", fix: credentialFix(operation, "missing"), cause: error });
  }
  const details = error instanceof ResourceError ? error.details : { what: messageOf(error), cause: error };
  const failure = details.cause;
  if (failure instanceof DocsApiError) {
    return new ResourceError({ ...details, subject, fix: hintFor(kind, operation, failure, connection) });
  }
  // A kind that already put the failure in its own words keeps them; the fix for the API's answer is added.
  const apiCause = apiFailureBehind(failure);
  const fix = apiCause === undefined ? undefined : hintFor(kind, operation, apiCause, connection);
  if (fix === undefined || details.what.includes(fix)) return error;
  return new ResourceError({ ...details, fix });
}

/** Shorter values are left in errors: hiding every `ab` would garble the message, and so short a secret hides little. */
const SHORTEST_REDACTED = 4;

/**
 * The error with the resource's secret values (its sensitive inputs and secret outputs) taken out of its words. The
 * API's messages may echo what it was sent, such as a header's value, and an error reaches CI logs as plain text.
 * Returns the error itself when it names none of them.
 */
export function withoutSecrets(error: unknown, secrets: Iterable<string>): unknown {
  // Longest first: a secret that contains another is hidden whole.
  const hidden = [...new Set(secrets)]
    .filter((secret) => secret.length >= SHORTEST_REDACTED)
    .sort((a, b) => b.length - a.length);
  if (!(error instanceof Error) || !hidden.some((secret) => error.message.includes(secret))) return error;
  const hide = (text: string) => hidden.reduce((shown, secret) => shown.split(secret).join("[secret]"), text);
  const details = error instanceof ResourceError ? error.details : { what: error.message, cause: error };
  return new ResourceError({
    ...details,
    subject: details.subject === undefined ? undefined : hide(details.subject),
    what: hide(details.what),
    note: details.note === undefined ? undefined : hide(details.note),
    fix: details.fix === undefined ? undefined : hide(details.fix),
  });
}

/** The API's answer a kind's own error was caused by, however deep in its causes (a few levels at most). */
function apiFailureBehind(error: unknown): DocsApiError | undefined {
  return causeOfType(error instanceof Error ? error.cause : undefined, DocsApiError);
}

/** The error of a type that is, or is behind, an error, through the causes it was wrapped in (five at most). */
export function causeOfType<T extends Error>(
  error: unknown,
  type: abstract new (...args: never[]) => T,
): T | undefined {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    if (current instanceof type) return current;
    current = current.cause;
  }
  return undefined;
}

function hintFor(
  kind: KindInfo,
  operation: string,
  error: DocsApiError,
  connection: ResourceConnection | undefined,
): string | undefined {
  switch (error.status) {
    case 400:
      // The API answers 400, not 404, when a body names an object it does not know (a section's space).
      return /not found/i.test(error.apiMessage ?? "")
        ? "An id in the inputs names no object the API knows: check it. `DOCS_PREFLIGHT=true pulumi preview` checks " +
            "every id before `up`."
        : undefined;
    case 401:
      if (error instanceof UserTokenRequiredError) return userTokenFix(connection);
      return connection ? connectionCredentialFix(connection) : credentialFix(operation, "rejected");
    case 403:
      if (connection) {
        return `${connectionCredentialFix(connection)} Its user must be an admin of the organization it addresses.`;
      }
      return "The token's user lacks the permission this operation needs; use a token of an organization admin.";
    case 404:
      return operation === "create"
        ? "A parent object named in the inputs does not exist: check the ids passed to this resource."
        : `It no longer exists: run \`pulumi refresh\` to drop it from the state, then \`pulumi up\` recreates it.`;
    case 409:
      // Only a conflict with an object that already exists is solved by adopting it; others (a move into a
      // collection's own subtree, a transfer to the same organization) are explained by the API's message.
      return /already exists/i.test(error.apiMessage ?? "")
        ? `It conflicts with an existing object: adopt that object with importId (${kind.idFormat}) instead.`
        : undefined;
    default:
      return error instanceof ConnectionError ? connectionFix() : undefined;
  }
}

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
    return `Check the API token: ${settingFix("apiToken", "<token>")} or the ${ENV_KEYS.apiToken} environment variable.`;
  }
  const saved =
    "Refresh, read and destroy use the provider configuration saved in the state by the last `pulumi up`, " +
    `so a token set in ${settingName("apiToken")} or changed since then is not used yet.`;
  if (problem === "rejected" && source === "config") {
    return (
      `${saved} The rejected token is that saved ${settingName("apiToken")}: run \`pulumi up\` once to save the ` +
      "current one (or `pulumi refresh --run-program`)."
    );
  }
  // A token from the environment is read anew by every process: what the last `up` saved does not matter.
  if (problem === "rejected") return `The rejected token is ${ENV_KEYS.apiToken}: export a valid one.`;
  return `${saved} Fix: export ${ENV_KEYS.apiToken}=<token> and run again, or run \`pulumi up\` once.`;
}

/**
 * What to do when an operation that accepts a user's personal API token only was refused the token: one of another
 * type works for the other resources, so the fix is a personal token for these, stack-wide or on their connection.
 */
function userTokenFix(connection: ResourceConnection | undefined): string {
  const personal = "a personal API token of an organization admin";
  if (connection) return `${connectionCredentialFix(connection)} It must be ${personal}.`;
  return (
    `Use ${personal}: ${settingFix("apiToken", "<token>")} or the ${ENV_KEYS.apiToken} environment variable, or ` +
    "give these resources a docs.Connection with one."
  );
}

/** Where a connection that failed was going, and which setting sent it there. */
export function connectionFix(): string {
  const { url, source } = apiUrlSetting();
  return `The API URL ${url} comes from ${source}: check it and the network.`;
}

/** Which token of a resource's connection the API refused, and where to fix it. */
export function connectionCredentialFix(connection: ResourceConnection): string {
  const organization = connection.organizationId ? ` (organization ${connection.organizationId})` : "";
  if (connection.tokenEnv) {
    return `The token is from this resource's connection${organization}: the ${connection.tokenEnv} environment variable.`;
  }
  if (connection.token !== undefined) {
    return (
      `The token is this resource's connection's${organization} secret token: fix the value the program gives it ` +
      "(refresh and destroy use the one saved by the last `pulumi up`)."
    );
  }
  return `This resource's connection${organization} uses the stack-wide token.`;
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

/** The name a misspelling most likely meant: the nearest within three edits, if any. */
export function closestName(word: string, names: readonly string[]): string | undefined {
  const distance = (a: string, b: string) => {
    let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const row = [i];
      for (let j = 1; j <= b.length; j++) {
        row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      }
      previous = row;
    }
    return previous[b.length]!;
  };
  const ranked = names.map((name) => ({ name, edits: distance(word, name) })).sort((x, y) => x.edits - y.edits);
  return ranked[0] !== undefined && ranked[0].edits <= 3 ? ranked[0].name : undefined;
}
