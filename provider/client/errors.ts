/**
 * One error hierarchy for every failure of an API call. Each message carries the method, the path, the HTTP status
 * and the API's own message, so that a Pulumi error printed in CI says what was asked and what the API answered.
 */

export interface ApiErrorDetails {
  method: string;
  path: string;
  status?: number;
  /** The API's `error.message`, when it sent one. */
  apiMessage?: string;
  /** How many attempts were made, retries included. */
  attempts: number;
  retryAfterMs?: number;
  cause?: unknown;
  /** See `DocsApiError.outcomeUnknown`; the transport decides it, since only it knows whether the request repeats. */
  outcomeUnknown?: boolean;
}

export class DocsApiError extends Error {
  readonly method: string;
  readonly path: string;
  readonly status: number | undefined;
  readonly apiMessage: string | undefined;
  readonly attempts: number;
  /** What the server asked us to wait (Retry-After), on 429 and 503 answers. */
  readonly retryAfterMs: number | undefined;
  /**
   * True when the request could create an object (a POST or PUT not marked idempotent) and it failed after it may
   * have reached the API: a connection lost after sending, a timeout, a 5xx. See `outcomeUnknown`.
   */
  readonly outcomeUnknown: boolean;

  constructor(details: ApiErrorDetails, summary?: string) {
    super(new.target.describe(details, summary), details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.method = details.method;
    this.path = details.path;
    this.status = details.status;
    this.apiMessage = details.apiMessage;
    this.attempts = details.attempts;
    this.retryAfterMs = details.retryAfterMs;
    this.outcomeUnknown = details.outcomeUnknown ?? false;
  }

  /** `GET /v1/x failed with 404 Not Found: <the API's message>; <what we add> (after 3 attempts)`. */
  protected static describe(d: ApiErrorDetails, summary?: string): string {
    const said = [d.apiMessage, summary].filter((part) => part).join("; ");
    const outcome =
      d.status === undefined ? `failed: ${said || "no response"}` : `failed with ${statusLabel(d.status)}`;
    const detail = d.status !== undefined && said ? `: ${said}` : "";
    return `${d.method} ${d.path} ${outcome}${detail}${tries(d.attempts)}`;
  }
}

export class BadRequestError extends DocsApiError {}
export class UnauthorizedError extends DocsApiError {}
/**
 * A request not sent because the API rejected the same token earlier in this process: a 401 is about the token, not
 * the call, so the first one is the error worth reading and the others only point at it.
 */
export class TokenRejectedError extends UnauthorizedError {
  /** `GET /v1/x not sent: the API rejected this token earlier (GET /v1/y: 401 Unauthorized)`. */
  protected static override describe(d: ApiErrorDetails, summary?: string): string {
    return `${d.method} ${d.path} not sent: ${summary}`;
  }
}
const USER_TOKEN_ONLY =
  "this operation accepts only a user's personal API token (the official document's security for it is \"user\"), " +
  "so the token is either of another type (an integration or OAuth token) or not valid";
/**
 * A 401 from an operation the official document admits a user's personal API token only to (its `security` is
 * `user`): the token may be valid for everything else (an integration or OAuth token), so it is not taken as rejected
 * for later requests.
 */
export class UserTokenRequiredError extends UnauthorizedError {
  /** `GET /v1/x failed with 401 Unauthorized: <the API's message>; this operation accepts only … (after 2 attempts)`. */
  protected static override describe(d: ApiErrorDetails, summary?: string): string {
    return UnauthorizedError.describe(d, [summary, USER_TOKEN_ONLY].filter((part) => part).join("; "));
  }
}
export class ForbiddenError extends DocsApiError {}
export class NotFoundError extends DocsApiError {}
export class ConflictError extends DocsApiError {}
export class PreconditionFailedError extends DocsApiError {}
export class RateLimitedError extends DocsApiError {}
export class ServerError extends DocsApiError {}
/** No HTTP answer at all: refused, reset, DNS failure. */
export class ConnectionError extends DocsApiError {}
export class TimeoutError extends ConnectionError {}
/** A 2xx answer whose body is not what the API documents: not JSON, too large, or without the fields relied on. */
export class UnexpectedResponseError extends DocsApiError {
  /** `GET /v1/x answered 200 OK with an unexpected body: <what was wrong>`. */
  protected static override describe(d: ApiErrorDetails, summary?: string): string {
    const status = d.status === undefined ? "" : ` ${statusLabel(d.status)}`;
    return `${d.method} ${d.path} answered${status} with an unexpected body: ${summary ?? "unreadable"}${tries(d.attempts)}`;
  }
}

/** An API URL the token must not be sent to: plain http to another machine, or not a URL at all. */
export class InsecureApiUrlError extends Error {
  constructor(
    readonly url: string,
    problem: string,
  ) {
    super(
      `The API URL "${url}" ${problem}. Use an https:// URL (plain http:// is accepted only for localhost, ` +
        "127.0.0.0/8 and ::1) in DOCS_API_URL or the docs:apiUrl stack config.",
    );
    this.name = "InsecureApiUrlError";
  }
}

/**
 * A request that would carry a value its caller does not know yet (Pulumi's placeholder for an output not yet
 * computed, which reaches a preview's checks as an ordinary string): refused before anything is sent, since the API
 * would answer about an object that does not exist.
 */
export class UnknownValueError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
  ) {
    super(`${method} ${path} not sent: it carries a value that is not known until the update runs`);
    this.name = "UnknownValueError";
  }
}

/** What the caller knows of the operation that answered, beyond its status. */
export interface OperationTraits {
  /**
   * The official document admits a user's personal API token only to this operation (its `security` is `user`): a 401
   * is then a UserTokenRequiredError, and the token stays usable for the other operations.
   */
  userTokenOnly?: boolean;
}

export function errorForStatus(
  details: ApiErrorDetails & { status: number },
  operation: OperationTraits = {},
): DocsApiError {
  const s = details.status;
  if (s === 400 || s === 422) return new BadRequestError(details);
  if (s === 401) return operation.userTokenOnly ? new UserTokenRequiredError(details) : new UnauthorizedError(details);
  if (s === 403) return new ForbiddenError(details);
  if (s === 404) return new NotFoundError(details);
  if (s === 409) return new ConflictError(details);
  if (s === 412) return new PreconditionFailedError(details);
  if (s === 429) return new RateLimitedError(details);
  if (s >= 500) return new ServerError(details);
  return new DocsApiError(details);
}

/**
 * Whether a failed write may still have taken effect: the API may hold the object the request was to create even
 * though the client never heard back (connection reset after sending, timeout, 5xx). A create that fails this way
 * must look for its object before it is repeated (provider/framework/recovery.ts). Errors a kind wrapped are
 * followed through their `cause`. Never true for a request the API cannot have received (refused connection, DNS
 * failure) or answered with a definite 4xx.
 */
export function outcomeUnknown(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    if (current instanceof DocsApiError) return current.outcomeUnknown;
    current = current.cause;
  }
  return false;
}

export function isNotFound(error: unknown): error is NotFoundError {
  return error instanceof NotFoundError;
}

const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  204: "No Content",
  205: "Reset Content",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  412: "Precondition Failed",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** `404 Not Found`, or the bare number for a status without a known reason phrase: never a dangling space. */
function statusLabel(status: number): string {
  const text = STATUS_TEXT[status];
  return text ? `${status} ${text}` : String(status);
}

function tries(attempts: number): string {
  return attempts > 1 ? ` (after ${attempts} attempts)` : "";
}

/** Removes every occurrence of the token from a text that may reach a log, an error or the state. */
export function redact(text: string, token: string | undefined): string {
  if (!token || token.length < 4) return text;
  return text.split(token).join("[redacted]");
}
