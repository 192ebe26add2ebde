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
}

export class DocsApiError extends Error {
  readonly method: string;
  readonly path: string;
  readonly status: number | undefined;
  readonly apiMessage: string | undefined;
  readonly attempts: number;
  /** What the server asked us to wait (Retry-After), on 429 and 503 answers. */
  readonly retryAfterMs: number | undefined;

  constructor(details: ApiErrorDetails, summary?: string) {
    super(DocsApiError.describe(details, summary), details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.method = details.method;
    this.path = details.path;
    this.status = details.status;
    this.apiMessage = details.apiMessage;
    this.attempts = details.attempts;
    this.retryAfterMs = details.retryAfterMs;
  }

  private static describe(d: ApiErrorDetails, summary?: string): string {
    const status = d.status === undefined ? (summary ?? "no response") : `${d.status} ${statusText(d.status)}`;
    const said = d.apiMessage ? `: ${d.apiMessage}` : summary && d.status !== undefined ? `: ${summary}` : "";
    const tries = d.attempts > 1 ? ` (after ${d.attempts} attempts)` : "";
    return `${d.method} ${d.path} failed with ${status}${said}${tries}`;
  }
}

export class BadRequestError extends DocsApiError {}
export class UnauthorizedError extends DocsApiError {}
export class ForbiddenError extends DocsApiError {}
export class NotFoundError extends DocsApiError {}
export class ConflictError extends DocsApiError {}
export class PreconditionFailedError extends DocsApiError {}
export class RateLimitedError extends DocsApiError {}
export class ServerError extends DocsApiError {}
/** No HTTP answer at all: refused, reset, DNS failure. */
export class ConnectionError extends DocsApiError {}
export class TimeoutError extends ConnectionError {}
/** A 2xx answer whose body is not what the API documents. */
export class UnexpectedResponseError extends DocsApiError {}

export function errorForStatus(details: ApiErrorDetails & { status: number }): DocsApiError {
  const s = details.status;
  if (s === 400 || s === 422) return new BadRequestError(details);
  if (s === 401) return new UnauthorizedError(details);
  if (s === 403) return new ForbiddenError(details);
  if (s === 404) return new NotFoundError(details);
  if (s === 409) return new ConflictError(details);
  if (s === 412) return new PreconditionFailedError(details);
  if (s === 429) return new RateLimitedError(details);
  if (s >= 500) return new ServerError(details);
  return new DocsApiError(details);
}

export function isNotFound(error: unknown): error is NotFoundError {
  return error instanceof NotFoundError;
}

const STATUS_TEXT: Record<number, string> = {
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

function statusText(status: number): string {
  return STATUS_TEXT[status] ?? "";
}

/** Removes every occurrence of the token from a text that may reach a log, an error or the state. */
export function redact(text: string, token: string | undefined): string {
  if (!token || token.length < 4) return text;
  return text.split(token).join("[redacted]");
}
