import { Agent, type Dispatcher, request } from "undici";
import { checkedBaseUrl } from "./apiUrl";
import {
  ConnectionError,
  DocsApiError,
  errorForStatus,
  type OperationTraits,
  redact,
  TimeoutError,
  TokenRejectedError,
  UnauthorizedError,
  UnexpectedResponseError,
  UnknownValueError,
  UserTokenRequiredError,
} from "./errors";
import { HaltedError, haltableSleep, haltReason, onWire, processHalt } from "./halt";
import { type RateLimiter, RateLimitGate, readRateLimitHeaders, sharedRateLimiter, type WaitEvent } from "./rateLimit";
import { headerValue, oneLine, parseRetryAfter } from "./responseText";

export const DEFAULT_API_URL = "https://api.gitbook.com/v1";
/** What is read of one answer at most; the API's largest documented bodies are a few hundred KB. */
export const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
export interface RetryPolicy {
  /** Attempts in all, the first included; waits for the rate limit do not count. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After on a 503 longer than this is cut to it, so a misbehaving server cannot park a deployment. */
  maxRetryAfterMs: number;
  /**
   * Rate-limit waits per request, holds for a spent budget and 429s each counted on their own, so that a server that
   * never relents ends the call.
   */
  maxRateLimitWaits: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 200,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 60_000,
  maxRateLimitWaits: 10,
};

export interface ClientOptions {
  /** API base including the version, such as https://api.gitbook.com/v1. */
  baseUrl: string;
  token: string;
  /** Per attempt. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** The longest rate-limit wait accepted (DOCS_API_MAX_WAIT_SECONDS); a longer one fails with RateLimitedError. */
  maxWaitSeconds?: number;
  /** Called once per rate-limit wait of LONG_WAIT_MS or more, before waiting. */
  onWait?: (event: WaitEvent) => void;
  userAgent?: string;
  /**
   * A value callers may hold before it is known (Pulumi's unknown-value placeholder at preview): a request whose path,
   * query or body contains it fails with UnknownValueError before it is sent.
   */
  placeholder?: string;
  /**
   * Once aborted, no request is sent and every wait ends (./halt.ts); defaults to the process-wide signal, which the
   * provider aborts when its engine is gone.
   */
  halt?: AbortSignal;
  /** Test seams: how to wait, and what time it is (epoch ms). */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions extends OperationTraits {
  query?: Query;
  body?: unknown;
  /**
   * Whether repeating the request leaves the API as one request would; defaults to true for every method but POST.
   * A POST that sets a state rather than making an object (publish, move) says true, so a lost answer is retried; a
   * create that uses PUT on a collection path (createOrganizationTeam) must say false.
   */
  idempotent?: boolean;
}

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Methods whose repetition cannot create a second object: safe to retry after any transient failure. */
const IDEMPOTENT = new Set<HttpMethod>(["GET", "PUT", "PATCH", "DELETE"]);
const RETRYABLE_STATUS: ReadonlySet<number | undefined> = new Set([500, 502, 503, 504]);
/** Connection failures after which the server cannot have seen the request, so even a POST may be repeated. */
const NEVER_SENT: ReadonlySet<string | undefined> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "UND_ERR_CONNECT_TIMEOUT",
]);
const DEFAULT_MAX_WAIT_SECONDS = 120;

type Where = { method: string; path: string; attempts: number };

/**
 * The one transport of the provider: keep-alive connections, bearer auth, JSON, a per-attempt timeout and a single
 * retry policy. 5xx and connection errors spend attempts (capped, jittered exponential backoff that honours
 * Retry-After); POST (and any request marked `idempotent: false`) is repeated only when the API cannot have acted on
 * it. The rate limit is not a failure: a spent budget holds requests until the window resets, a 429 waits for it,
 * and neither spends an attempt — only a wait beyond `maxWaitSeconds` fails.
 */
export class HttpClient {
  readonly baseUrl: URL;
  private readonly token: string;
  readonly timeoutMs: number;
  readonly policy: RetryPolicy;
  /** The longest rate-limit wait accepted, in ms. */
  readonly maxWaitMs: number;
  readonly onWait: ((event: WaitEvent) => void) | undefined;
  private readonly userAgent: string;
  private readonly placeholder: string | undefined;
  /**
   * The first 401 this client got from an operation open to every token type (see `rejectsToken`): its token is
   * rejected, so no later request is sent with it.
   */
  private rejected: UnauthorizedError | undefined;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  private readonly halt: AbortSignal;
  private readonly limiter: RateLimiter;
  private readonly writeListeners: ((path: string) => void)[] = [];
  // No cap on connections: `pulumi up` runs 4 × cores operations at once, and the rate limiter is what bounds them.
  // Stryker disable next-line ObjectLiteral: how long an idle connection is kept changes reuse only, no answer
  private readonly dispatcher: Dispatcher = new Agent({ keepAliveTimeout: 10_000 });

  constructor(options: ClientOptions) {
    this.baseUrl = checkedBaseUrl(options.baseUrl);
    this.token = options.token;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.policy = { ...DEFAULT_RETRY_POLICY, ...withoutUndefined(options.retry ?? {}) };
    this.maxWaitMs = (options.maxWaitSeconds ?? DEFAULT_MAX_WAIT_SECONDS) * 1000;
    this.onWait = options.onWait;
    this.userAgent = options.userAgent ?? "pulumi-docs-platform";
    this.placeholder = options.placeholder;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.now = options.now ?? Date.now;
    this.halt = options.halt ?? processHalt;
    this.limiter = sharedRateLimiter(this.baseUrl, this.token);
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
  /**
   * Resolves when the object is gone: this call removed it (205), or it was already absent (204, as the official
   * document answers a DELETE of a missing object). A 404 is a NotFoundError like any other answer's: the framework,
   * not the transport, reads it as "already gone" (a resource's delete, a create's undo).
   */
  async delete(path: string, operation: OperationTraits = {}): Promise<void> {
    await this.request("DELETE", path, operation);
  }

  /**
   * Calls `listener` with the path of every request that can change the API (any method but GET) once it has ended,
   * answered or not (a write that failed may still have landed): what drops the listings it can have changed
   * (../framework/listings.ts).
   */
  observeWrites(listener: (path: string) => void): void {
    this.writeListeners.push(listener);
  }

  async request<T = unknown>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<T> {
    if (method === "GET") return this.send<T>(method, path, options);
    try {
      return await this.send<T>(method, path, options);
    } finally {
      for (const listener of this.writeListeners) listener(path);
    }
  }

  private async send<T>(method: HttpMethod, path: string, options: RequestOptions): Promise<T> {
    const displayPath = this.displayPath(path);
    if (this.carriesPlaceholder(path, options)) throw new UnknownValueError(method, displayPath);
    if (this.rejected) {
      const first = this.rejected;
      const summary = `the API rejected this token earlier (${first.method} ${first.path}: 401 Unauthorized)`;
      throw new TokenRejectedError({ method, path: displayPath, status: 401, attempts: 0 }, summary);
    }
    const idempotent = options.idempotent ?? IDEMPOTENT.has(method);
    const sleep = (ms: number) => haltableSleep(this.sleep, ms, this.halt, { method, path: displayPath });
    const gate = new RateLimitGate(this.limiter, {
      maxWaitMs: this.maxWaitMs,
      maxWaits: this.policy.maxRateLimitWaits,
      fallbackMs: this.policy.baseDelayMs,
      onWait: this.onWait,
      sleep,
      now: this.now,
      jitter: () => this.jitter(),
    });
    let sent = 0;
    let spent = 0;
    for (;;) {
      this.refuseWhenHalted(method, displayPath);
      await gate.beforeSending({ method, path: displayPath, attempts: sent });
      this.refuseWhenHalted(method, displayPath);
      sent++;
      let failure: DocsApiError;
      try {
        const where = { method, path: displayPath, attempts: sent };
        return (await this.attempt(method, path, options, idempotent, where)) as T;
      } catch (error) {
        // Stryker disable next-line ConditionalExpression: attempt() throws only DocsApiErrors, but for a body JSON cannot write, which the path below would throw unchanged too
        if (!(error instanceof DocsApiError)) throw error;
        failure = error;
      }
      if (rejectsToken(failure)) this.rejected ??= failure;
      if (failure.status === 429) {
        await gate.afterTooManyRequests(failure);
        continue;
      }
      spent++;
      if (!isRetryable(idempotent, failure) || spent >= this.policy.maxAttempts) throw failure;
      await sleep(this.delayBefore(spent + 1, failure));
    }
  }

  /** No request leaves once the process is halted: nobody would hear its answer. */
  private refuseWhenHalted(method: string, displayPath: string): void {
    if (this.halt.aborted) throw new HaltedError(method, displayPath, haltReason(this.halt));
  }

  private carriesPlaceholder(path: string, options: RequestOptions): boolean {
    const placeholder = this.placeholder;
    if (placeholder === undefined) return false;
    return [path, JSON.stringify(options.query ?? {}), JSON.stringify(options.body ?? null)].some((part) =>
      part.includes(placeholder),
    );
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }

  /**
   * One exchange. Its errors are built saying whether it may have acted (`outcomeUnknown`): only here is it known
   * whether the request could make an object twice, and an error is not changed once built.
   */
  private async attempt(
    method: HttpMethod,
    path: string,
    options: RequestOptions,
    idempotent: boolean,
    where: Where,
  ): Promise<unknown> {
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
    // On the wire from here until its body is read: what a halted process waits for before it exits.
    const { response, text } = await onWire(async () => {
      let response: Dispatcher.ResponseData;
      try {
        response = await request(this.urlFor(path, options.query), {
          method,
          headers,
          body,
          dispatcher: this.dispatcher,
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (error) {
        throw this.connectionFailure(error, where, idempotent);
      }
      this.limiter.observe(readRateLimitHeaders(response.headers));
      return { response, text: await this.readBody(response, { ...where, status: response.statusCode }, idempotent) };
    });
    const status = response.statusCode;
    const contentType = headerValue(response.headers["content-type"]);
    if (status >= 200 && status < 300) {
      if (status === 204 || status === 205 || text.length === 0) return undefined;
      try {
        return JSON.parse(text);
      } catch {
        const shown = redact(oneLine(text), this.token);
        const summary = `the body is not JSON (${contentType ?? "no content-type"}): ${shown}`;
        throw new UnexpectedResponseError({ ...where, status, outcomeUnknown: !idempotent }, summary);
      }
    }
    throw errorForStatus(
      {
        ...where,
        status,
        apiMessage: this.apiMessage(text),
        retryAfterMs: parseRetryAfter(headerValue(response.headers["retry-after"]), this.now()),
        outcomeUnknown: !idempotent && answerMayFollowAction(status),
      },
      options,
    );
  }

  /** The body as text, reading at most MAX_RESPONSE_BYTES: a larger answer is abandoned, not buffered. */
  private async readBody(
    response: Dispatcher.ResponseData,
    where: Where & { status: number },
    idempotent: boolean,
  ): Promise<string> {
    const tooLarge = () => {
      response.body.destroy();
      const unknown = { ...where, outcomeUnknown: !idempotent && answerMayFollowAction(where.status) };
      return new UnexpectedResponseError(unknown, `the body exceeds ${MAX_RESPONSE_BYTES / 1024 / 1024} MB`);
    };
    if (Number(headerValue(response.headers["content-length"])) > MAX_RESPONSE_BYTES) throw tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length;
        if (size > MAX_RESPONSE_BYTES) throw tooLarge();
        chunks.push(chunk as Buffer);
      }
    } catch (error) {
      throw this.connectionFailure(error, where, idempotent);
    }
    return Buffer.concat(chunks).toString("utf8");
  }

  /** Delay before the given attempt (2, 3, …): Retry-After when the server sent one, else jittered exponential. */
  private delayBefore(nextAttempt: number, failure: DocsApiError): number {
    const retryAfter = failure.retryAfterMs;
    if (retryAfter !== undefined) return Math.min(retryAfter, this.policy.maxRetryAfterMs) + this.jitter();
    const ceiling = Math.min(this.policy.maxDelayMs, this.policy.baseDelayMs * 2 ** (nextAttempt - 2));
    return ceiling / 2 + (Math.random() * ceiling) / 2;
  }

  private jitter(): number {
    return Math.random() * Math.min(250, this.policy.baseDelayMs);
  }

  private connectionFailure(error: unknown, at: Where, idempotent: boolean): DocsApiError {
    if (error instanceof DocsApiError) return error;
    const where = { ...at, outcomeUnknown: !idempotent && mayHaveBeenSent(error) };
    const name = (error as { name?: string } | undefined)?.name;
    if (name === "TimeoutError" || name === "AbortError" || errorCode(error) === "UND_ERR_HEADERS_TIMEOUT") {
      return new TimeoutError(
        { ...where, cause: error },
        `no answer from ${this.baseUrl.host} within ${this.timeoutMs} ms`,
      );
    }
    const code = errorCode(error);
    const message = redact(error instanceof Error ? error.message : String(error), this.token);
    const summary = code
      ? `connection error ${code} ${this.baseUrl.host}`
      : `connection to ${this.baseUrl.host} failed: ${message}`;
    return new ConnectionError({ ...where, cause: error }, summary);
  }

  /** The API's `error.message`; else the first line of whatever came back (an HTML error page's title). */
  private apiMessage(text: string): string | undefined {
    if (!text) return undefined;
    try {
      const parsed = JSON.parse(text) as { error?: { message?: unknown }; message?: unknown };
      // Stryker disable next-line OptionalChaining: a `null` body throws without them and reaches the same fallback below
      const message = parsed?.error?.message ?? parsed?.message;
      if (typeof message === "string") return redact(message, this.token);
    } catch {
      // Not the official error envelope.
    }
    return redact(oneLine(text), this.token);
  }

  private urlFor(path: string, query?: Query): string {
    // From the origin: the href of an API at the root of its host ends in `/`, which would double the path's.
    const url = new URL(`${this.baseUrl.origin}${this.displayPath(path)}`);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url.href;
  }

  /** The path as the API documents it (base path included, query excluded): what error messages show. */
  displayPath(path: string): string {
    // Stryker disable next-line Regex: checkedBaseUrl strips trailing slashes, so at most the root's one is left
    const base = this.baseUrl.pathname.replace(/\/+$/, "");
    return `${base}${path.startsWith("/") ? path : `/${path}`}`;
  }
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Whether a failure says the token itself is rejected, so that no later request is sent with it: any 401 but one from
 * an operation for user tokens only, which an integration or OAuth token valid for every other operation gets too.
 */
export function rejectsToken(error: DocsApiError): error is UnauthorizedError {
  return error instanceof UnauthorizedError && !(error instanceof UserTokenRequiredError);
}

/** Whether a failed attempt is repeated: any transient failure of an idempotent call, else only a request never sent. */
export function isRetryable(idempotent: boolean, error: DocsApiError): boolean {
  if (error instanceof ConnectionError) {
    const code = errorCode(error.cause);
    return idempotent || NEVER_SENT.has(code);
  }
  return idempotent && RETRYABLE_STATUS.has(error.status);
}

/** Whether the API may have acted on a request that failed this way: anything but a definite 4xx or never-sent. */
export function mayHaveActed(error: DocsApiError): boolean {
  if (error instanceof ConnectionError) return mayHaveBeenSent(error.cause);
  return error.status !== undefined && answerMayFollowAction(error.status);
}

function mayHaveBeenSent(connectionFailure: unknown): boolean {
  return !NEVER_SENT.has(errorCode(connectionFailure));
}

/**
 * A 2xx (carried out: when its body cannot be read, what it made is not known) or a 5xx (the server failed somewhere,
 * perhaps after acting); a 4xx is a definite refusal.
 */
function answerMayFollowAction(status: number): boolean {
  return status < 300 || status >= 500;
}

function errorCode(error: unknown): string | undefined {
  let current = error as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; current && depth < 4; depth++) {
    if (typeof current.code === "string") return current.code;
    current = current.cause as typeof current;
  }
  return undefined;
}
