import { Agent, type Dispatcher, request } from "undici";
import { ConnectionError, DocsApiError, errorForStatus, redact, TimeoutError } from "./errors";

export const DEFAULT_API_URL = "https://api.gitbook.com/v1";

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is cut to it, so a misbehaving server cannot park a deployment for hours. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 200,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 60_000,
};

export interface ClientOptions {
  /** API base including the version, such as https://api.gitbook.com/v1. */
  baseUrl: string;
  token: string;
  /** Per attempt. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  userAgent?: string;
  /** Test seam: how to wait between attempts. */
  sleep?: (ms: number) => Promise<void>;
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /**
   * Whether repeating the request cannot create a second object; defaults to true for every method but POST. A
   * create that uses PUT on a collection path (createOrganizationTeam) must say false.
   */
  idempotent?: boolean;
}

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Methods whose repetition cannot create a second object: safe to retry after any transient failure. */
const IDEMPOTENT = new Set<HttpMethod>(["GET", "PUT", "PATCH", "DELETE"]);
const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);
/** Connection failures after which the server cannot have seen the request, so even a POST may be repeated. */
const NEVER_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT"]);

/**
 * The one transport of the provider: keep-alive connections, bearer auth, JSON, a per-attempt timeout and a single
 * retry policy (429, 5xx and connection errors; capped, jittered exponential backoff that honours Retry-After).
 * POST (and any request marked `idempotent: false`) is retried only when the API cannot have acted on it: a 429 or a
 * connection that was never established.
 */
export class HttpClient {
  readonly baseUrl: URL;
  private readonly token: string;
  private readonly timeoutMs: number;
  private readonly policy: RetryPolicy;
  private readonly userAgent: string;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly dispatcher: Dispatcher;

  constructor(options: ClientOptions) {
    this.baseUrl = new URL(options.baseUrl.replace(/\/+$/, ""));
    this.token = options.token;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.policy = { ...DEFAULT_RETRY_POLICY, ...withoutUndefined(options.retry ?? {}) };
    this.userAgent = options.userAgent ?? "pulumi-docs-platform";
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.dispatcher = new Agent({ keepAliveTimeout: 10_000, connections: 16 });
  }

  get<T = unknown>(path: string, query?: Query): Promise<T> {
    return this.request<T>("GET", path, { query });
  }
  post<T = unknown>(path: string, body?: unknown): Promise<T> {
    return this.request<T>("POST", path, { body });
  }
  put<T = unknown>(path: string, body?: unknown): Promise<T> {
    return this.request<T>("PUT", path, { body });
  }
  patch<T = unknown>(path: string, body?: unknown): Promise<T> {
    return this.request<T>("PATCH", path, { body });
  }
  /** Resolves when the object is gone, whether this call removed it (205) or it was already absent (204, 404). */
  async delete(path: string): Promise<void> {
    try {
      await this.request("DELETE", path);
    } catch (error) {
      if (error instanceof DocsApiError && error.status === 404) return;
      throw error;
    }
  }

  async request<T = unknown>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<T> {
    const displayPath = this.displayPath(path);
    for (let attempt = 1; ; attempt++) {
      let failure: DocsApiError;
      let retryable: boolean;
      try {
        return (await this.attempt(method, path, options, displayPath, attempt)) as T;
      } catch (error) {
        if (!(error instanceof DocsApiError)) throw error;
        failure = error;
        retryable = this.isRetryable(options.idempotent ?? IDEMPOTENT.has(method), error);
      }
      if (!retryable || attempt >= this.policy.maxAttempts) throw failure;
      await this.sleep(this.delayBefore(attempt + 1, failure));
    }
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }

  private async attempt(
    method: HttpMethod,
    path: string,
    options: RequestOptions,
    displayPath: string,
    attempt: number,
  ): Promise<unknown> {
    const url = this.urlFor(path, options.query);
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.token}`,
      accept: "application/json",
      "user-agent": this.userAgent,
    };
    let body: string | undefined;
    if (options.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.body);
    }
    const where = { method, path: displayPath, attempts: attempt };
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        method,
        headers,
        body,
        dispatcher: this.dispatcher,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw this.connectionFailure(error, where);
    }
    const text = await response.body.text().catch((error: unknown) => {
      throw this.connectionFailure(error, where);
    });
    const status = response.statusCode;
    if (status >= 200 && status < 300) {
      if (status === 204 || status === 205 || text.length === 0) return undefined;
      try {
        return JSON.parse(text);
      } catch {
        throw new DocsApiError({ ...where, status }, `the body is not JSON: ${redact(text.slice(0, 200), this.token)}`);
      }
    }
    throw errorForStatus({
      ...where,
      status,
      apiMessage: this.apiMessage(text),
      retryAfterMs: parseRetryAfter(headerValue(response.headers["retry-after"])),
    });
  }

  private isRetryable(idempotent: boolean, error: DocsApiError): boolean {
    if (error instanceof ConnectionError) {
      const code = errorCode(error.cause);
      return idempotent || (code !== undefined && NEVER_SENT.has(code));
    }
    if (error.status === undefined || !RETRYABLE_STATUS.has(error.status)) return false;
    return idempotent || error.status === 429;
  }

  /** Delay before the given attempt (2, 3, …): Retry-After when the server sent one, else jittered exponential. */
  private delayBefore(nextAttempt: number, failure: DocsApiError): number {
    const jitter = Math.random() * Math.min(250, this.policy.baseDelayMs);
    const retryAfter = failure.retryAfterMs;
    if (retryAfter !== undefined) return Math.min(retryAfter, this.policy.maxRetryAfterMs) + jitter;
    const ceiling = Math.min(this.policy.maxDelayMs, this.policy.baseDelayMs * 2 ** (nextAttempt - 2));
    return ceiling / 2 + (Math.random() * ceiling) / 2;
  }

  private connectionFailure(error: unknown, where: { method: string; path: string; attempts: number }): DocsApiError {
    if (error instanceof DocsApiError) return error;
    const name = (error as { name?: string } | undefined)?.name;
    if (name === "TimeoutError" || name === "AbortError" || errorCode(error) === "UND_ERR_HEADERS_TIMEOUT") {
      return new TimeoutError({ ...where, cause: error }, `no answer within ${this.timeoutMs} ms`);
    }
    const detail = errorCode(error) ?? (error instanceof Error ? error.message : String(error));
    return new ConnectionError({ ...where, cause: error }, `connection failed (${redact(detail, this.token)})`);
  }

  private apiMessage(text: string): string | undefined {
    if (!text) return undefined;
    try {
      const parsed = JSON.parse(text) as { error?: { message?: unknown }; message?: unknown };
      const message = parsed?.error?.message ?? parsed?.message;
      if (typeof message === "string") return redact(message, this.token);
    } catch {
      // Not the official error envelope: show the start of whatever came back.
    }
    return redact(text.slice(0, 300), this.token);
  }

  private urlFor(path: string, query?: Query): string {
    const url = new URL(this.baseUrl.href + (path.startsWith("/") ? path : `/${path}`));
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url.href;
  }

  /** The path as the API documents it (base path included, query excluded): what error messages show. */
  displayPath(path: string): string {
    const base = this.baseUrl.pathname.replace(/\/+$/, "");
    return `${base}${path.startsWith("/") ? path : `/${path}`}`;
  }
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function errorCode(error: unknown): string | undefined {
  let current = error as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; current && depth < 4; depth++) {
    if (typeof current.code === "string") return current.code;
    current = current.cause as typeof current;
  }
  return undefined;
}

/** Retry-After is either delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
