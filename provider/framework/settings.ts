import { createHash } from "node:crypto";
import { DEFAULT_API_URL, HttpClient, type WaitEvent } from "../client";
import { PACKAGE } from "./typeTokens";
import { UNKNOWN } from "./unknown";

/**
 * Where the API is and how to authenticate, resolved at call time inside the provider process (and by lookups in the
 * program's, from its own config: resolveConnection). Stack config (`docs:apiUrl`, secret `docs:apiToken`) wins over
 * the environment (`DOCS_API_URL`, `DOCS_API_TOKEN`); neither is ever captured by the serialized provider, so the
 * token never reaches the state.
 */
export interface StackConfig {
  apiUrl?: string;
  apiToken?: string;
  /** The default for every resource's `organizationId` (see ./defaults.ts). */
  organizationId?: string;
  /** `docs:preflight`: verify references against the API in check (see ./preflight.ts). */
  preflight?: string;
  /**
   * The `pulumi:providers:docs` resource these settings are the inputs of, on the plugin route; undefined for the
   * stack's own settings (the dynamic route, the plugin's default provider). Messages name the settings after it.
   */
  provider?: string;
}

/**
 * The stack's `docs:` settings, as the engine passes them to `configure`: the configuration of the provider process,
 * like its environment (which the same functions read), not something an operation accumulates.
 */
let stackConfig: StackConfig = {};

/** The namespace of the stack config keys: the package's name (./typeTokens.ts says why both routes share it). */
export const CONFIG_NAMESPACE = PACKAGE;

export const CONFIG_KEYS = {
  apiUrl: `${CONFIG_NAMESPACE}:apiUrl`,
  apiToken: `${CONFIG_NAMESPACE}:apiToken`,
  organizationId: `${CONFIG_NAMESPACE}:organizationId`,
  preflight: `${CONFIG_NAMESPACE}:preflight`,
} as const;
export const ENV_KEYS = {
  apiUrl: "DOCS_API_URL",
  apiToken: "DOCS_API_TOKEN",
  timeoutMs: "DOCS_API_TIMEOUT_MS",
  maxAttempts: "DOCS_API_MAX_ATTEMPTS",
  maxWaitSeconds: "DOCS_API_MAX_WAIT_SECONDS",
  organizationId: "DOCS_ORGANIZATION_ID",
  preflight: "DOCS_PREFLIGHT",
} as const;

/** An environment variable's name, as POSIX shells accept them: what a connection's `tokenEnv` must be. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function setStackConfig(config: StackConfig): void {
  stackConfig = { ...config };
}

/** Counts a long rate-limit wait into the current wait period, told where waits are reported once it is over. */
export function reportWait(event: WaitEvent): void {
  waitPeriods.add(event);
}

/** Tells the wait period under way now, without waiting for its end (tests: in a process, the period ends with its waits). */
export function flushWaits(): void {
  waitPeriods.flush();
}

/** A setting that stack config or the environment gives. */
type StackSettingName = keyof typeof CONFIG_KEYS;

/** How messages name a setting: its stack config key, or an explicit provider's input of that name. */
export function settingName(name: StackSettingName): string {
  const { provider } = stackConfig;
  return provider === undefined ? CONFIG_KEYS[name] : `the ${name} input of provider "${provider}"`;
}

/** Where a setting's value came from, when it came from config: `stack config docs:apiUrl`, or the provider's input. */
function configSource(name: StackSettingName): string {
  return stackConfig.provider === undefined ? `stack config ${CONFIG_KEYS[name]}` : settingName(name);
}

/** How to set a setting, as a fix in a message: the config command, or the explicit provider's input. */
export function settingFix(name: StackSettingName, placeholder: string): string {
  const { provider } = stackConfig;
  if (provider !== undefined) return `\`${name}: ${placeholder}\` in the inputs of provider "${provider}"`;
  const secret = name === "apiToken" ? "--secret " : "";
  return `\`pulumi config set ${secret}${CONFIG_KEYS[name]} ${placeholder}\``;
}

export class MissingCredentialsError extends Error {
  constructor() {
    super(
      `No API token: set it with ${settingFix("apiToken", "<token>")} or the ${ENV_KEYS.apiToken} environment variable.`,
    );
    this.name = "MissingCredentialsError";
  }
}

/** An environment setting that is set but not a number of the kind it needs: a typo is reported, never ignored. */
export class InvalidSettingError extends Error {
  constructor(name: string, value: string, expected: string) {
    super(`${name} must be ${expected}, not "${value}"; unset it to use the default.`);
    this.name = "InvalidSettingError";
  }
}

/**
 * Requests that waited for the rate limit over one period: from the first long wait until the last one that began
 * before it ended is over. When the budget of a window is spent every request sent until it resets waits, so a refresh
 * throttled for a minute holds hundreds of them: they are told in one line, not one each.
 */
export interface WaitPeriod {
  requests: number;
  longestMs: number;
  /** Why they waited: the budget was spent, the API answered 429, or both. */
  reasons: readonly WaitEvent["reason"][];
  /** The window's budget, when an answer said it. */
  limit?: number;
  /** When the last wait ended, ISO 8601. */
  endedAt: string;
}

/** How rate-limit waits are reported: one Pulumi log line per wait period, never naming the token. */
export type WaitReporter = (period: WaitPeriod) => void;

let waitReporter: WaitReporter = logWait;

/**
 * Gathers long waits into periods (`WaitPeriod`) and tells each once its last wait is over: the timer it sets ends no
 * later than the waits themselves, so it keeps no process alive longer than they do.
 */
export class WaitPeriods {
  private current:
    | { period: Omit<WaitPeriod, "endedAt">; endMs: number; timer: ReturnType<typeof setTimeout> }
    | undefined;

  constructor(
    private readonly tell: (period: WaitPeriod) => void,
    // Read at each call, not bound once: a test's fake clock applies.
    private readonly now: () => number = () => Date.now(),
  ) {}

  add(event: WaitEvent): void {
    // When the wait ends, as the rate-limit gate computed it (its clock plus the wait).
    const endMs = Date.parse(event.resetAt);
    const current = this.current;
    if (current === undefined) {
      const period = { requests: 1, longestMs: event.waitMs, reasons: [event.reason], limit: event.limit };
      this.current = { period, endMs, timer: this.schedule(endMs) };
      return;
    }
    const { period } = current;
    period.requests++;
    period.longestMs = Math.max(period.longestMs, event.waitMs);
    if (!period.reasons.includes(event.reason)) period.reasons = [...period.reasons, event.reason].sort();
    period.limit ??= event.limit;
    // Stryker disable next-line EqualityOperator: rescheduling at the same end tells the period at the same moment
    if (endMs > current.endMs) {
      clearTimeout(current.timer);
      current.endMs = endMs;
      current.timer = this.schedule(endMs);
    }
  }

  /** Tells the period under way, if any, now. */
  flush(): void {
    const current = this.current;
    if (current === undefined) return;
    clearTimeout(current.timer);
    this.current = undefined;
    const { limit, ...period } = current.period;
    this.tell({ ...period, ...(limit === undefined ? {} : { limit }), endedAt: new Date(current.endMs).toISOString() });
  }

  private schedule(endMs: number): ReturnType<typeof setTimeout> {
    // Capped at what setTimeout takes (about 24 days), beyond which it would fire at once.
    return setTimeout(() => this.flush(), Math.min(Math.max(0, endMs - this.now()), 2 ** 31 - 1));
  }
}

const waitPeriods = new WaitPeriods((period) => waitReporter(period));

/** Replaces how long waits are reported (tests; a caller with a resource to attach the line to). */
export function setWaitReporter(reporter: WaitReporter | undefined): void {
  waitReporter = reporter ?? logWait;
}

/**
 * Reads a setting's stack config. The provider process has the config the engine passed to `configure`; lookups run
 * in the program's process and read the program's own config instead.
 */
export type StackConfigReader = (name: StackSettingName) => string | undefined;

const configured: StackConfigReader = (name) => stackConfig[name];

/** The settings the provider process was configured with: what the plugin's functions read, as its resources do. */
export const providerStackConfig: StackConfigReader = configured;

/** A setting and where it came from: stack config wins over the environment; blank is unset. */
function stackSetting(
  name: StackSettingName,
  config: StackConfigReader,
): { value: string; from: "config" | "env" } | undefined {
  const fromConfig = nonEmpty(config(name));
  if (fromConfig !== undefined) return { value: fromConfig, from: "config" };
  const fromEnv = nonEmpty(process.env[ENV_KEYS[name]]);
  return fromEnv === undefined ? undefined : { value: fromEnv, from: "env" };
}

/** The API URL in use and the setting it came from, for messages about a connection that failed. */
export function apiUrlSetting(config: StackConfigReader = configured): { url: string; source: string } {
  const given = stackSetting("apiUrl", config);
  if (given?.from === "config") return { url: given.value, source: configSource("apiUrl") };
  if (given?.from === "env") return { url: given.value, source: `the ${ENV_KEYS.apiUrl} environment variable` };
  return { url: DEFAULT_API_URL, source: `the default (neither ${CONFIG_KEYS.apiUrl} nor ${ENV_KEYS.apiUrl} is set)` };
}

/** Where the token in use comes from (it wins in this order), or undefined when none is set. */
export function apiTokenSource(): "config" | "env" | undefined {
  return stackSetting("apiToken", configured)?.from;
}

/** What a connection names; what it leaves out comes from the stack-wide settings. */
export interface ConnectionSettings {
  apiUrl?: string | undefined;
  /** The environment variable holding the token, read in the process that resolves the connection. */
  tokenEnv?: string | undefined;
  token?: string | undefined;
}

/** Where a connection's token was to come from, for the error that says it is missing. */
export type TokenSource = { from: "token" } | { from: "tokenEnv"; variable: string } | { from: "stack" };

/**
 * The API URL and token of a connection: a resource's in the provider's process, a lookup's in the program's (with
 * the program's config), or none, the stack-wide settings. Its own token wins, then its `tokenEnv`, then the stack's
 * token; its URL, then the stack's. `missingToken` puts a missing token in the caller's words.
 */
export function resolveConnection(
  connection: ConnectionSettings | undefined,
  missingToken: (source: TokenSource) => Error,
  config: StackConfigReader = configured,
): { apiUrl: string; token: string } {
  const { source, token } = tokenOf(connection, config);
  if (!token) throw missingToken(source);
  return { apiUrl: connection?.apiUrl ?? apiUrlSetting(config).url, token };
}

function tokenOf(
  connection: ConnectionSettings | undefined,
  config: StackConfigReader,
): { source: TokenSource; token: string | undefined } {
  if (connection?.token !== undefined) return { source: { from: "token" }, token: connection.token };
  if (connection?.tokenEnv !== undefined) {
    const variable = connection.tokenEnv;
    return { source: { from: "tokenEnv", variable }, token: nonEmpty(process.env[variable]) };
  }
  return { source: { from: "stack" }, token: stackSetting("apiToken", config)?.value };
}

/**
 * The clients of one operation (./operation.ts owns them), one per API and token, kept by a hash of the token: the
 * stack-wide settings and every per-resource connection (./connection.ts) share clients by API and token.
 * Rate limits are shared wider, by every client of the process (../client/rateLimit.ts).
 */
export class Connections {
  private readonly clients = new Map<string, HttpClient>();

  /** The client of the stack-wide settings: stack config, then environment. */
  apiClient(): HttpClient {
    const { apiUrl, token } = resolveConnection(undefined, () => new MissingCredentialsError());
    return this.clientFor(apiUrl, token);
  }

  clientFor(baseUrl: string, token: string): HttpClient {
    const key = `${baseUrl} ${createHash("sha256").update(token).digest("hex")}`;
    let client = this.clients.get(key);
    if (!client) {
      client = new HttpClient({
        baseUrl,
        token,
        timeoutMs: setting(ENV_KEYS.timeoutMs, 1, "a whole number of milliseconds, 1 or more"),
        retry: { maxAttempts: setting(ENV_KEYS.maxAttempts, 1, "a whole number of attempts, 1 or more") },
        maxWaitSeconds: setting(ENV_KEYS.maxWaitSeconds, 0, "a whole number of seconds, 0 or more"),
        onWait: reportWait,
        // Preview's checks hold unknown outputs as this string: never let one into a request path or body.
        placeholder: UNKNOWN,
      });
      this.clients.set(key, client);
    }
    return client;
  }

  /** Closes every client, and with them what they learned (a rejected token). */
  close(): void {
    for (const client of this.clients.values()) void client.close();
    this.clients.clear();
  }
}

/** What a wait period is reported as: how many requests waited, the longest wait, why and until when. */
export function waitLine(period: WaitPeriod): string {
  const seconds = Math.ceil(period.longestMs / 1000);
  const why = period.reasons
    .map((reason) =>
      reason === "limit-reached"
        ? `its budget${period.limit === undefined ? "" : ` of ${period.limit} requests`} was spent`
        : "the API answered 429 Too Many Requests",
    )
    .join(", and ");
  const requests = period.requests === 1 ? "1 request" : `${period.requests} requests`;
  return `${requests} waited up to ${seconds} s for the rate limit (${why}), until ${period.endedAt}.`;
}

/** The default reporter: one `pulumi.log.info` line per wait period. */
export function logWait(period: WaitPeriod): void {
  const line = waitLine(period);
  const toStderr = () => process.stderr.write(`${line}\n`);
  try {
    // Loaded on first use, when a wait happens: the client itself never imports Pulumi.
    const pulumi = require("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
    pulumi.log.info(line).catch(toStderr);
  } catch {
    toStderr();
  }
}

/**
 * The organization a resource belongs to when its program leaves `organizationId` out, as `aws:region` works: stack
 * config `docs:organizationId` wins over `DOCS_ORGANIZATION_ID`, as for the API URL. Undefined when neither is set.
 */
export function defaultOrganizationId(config: StackConfigReader = configured): string | undefined {
  return stackSetting("organizationId", config)?.value;
}

/**
 * Whether preflight is on: stack config `docs:preflight` wins over `DOCS_PREFLIGHT`; `true`/`1`/`yes`/`on` turn it
 * on, anything else set is a typo reported as such. Off by default (see README, "Preflight").
 */
export function preflightSetting(): boolean {
  const given = stackSetting("preflight", configured);
  if (given === undefined) return false;
  const normalized = given.value.toLowerCase();
  if (["true", "1", "yes", "on"].includes(normalized)) return true;
  if (["false", "0", "no", "off"].includes(normalized)) return false;
  const name = given.from === "config" ? settingName("preflight") : ENV_KEYS.preflight;
  throw new InvalidSettingError(name, given.value, "true or false");
}

/** A setting's value, trimmed; undefined when it is unset or blank. */
export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

/** A whole number from the environment, or undefined (the client's default) when unset or blank. */
function setting(name: string, minimum: number, expected: string): number | undefined {
  const value = nonEmpty(process.env[name]);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < minimum) throw new InvalidSettingError(name, value, expected);
  return n;
}
