/**
 * In-process emulator of the GitBook v1 management API (the subset the providers manage).
 *
 *   const emu = await startEmulator();
 *   fetch(`${emu.url}/orgs`, { headers: { Authorization: `Bearer ${emu.token}` } });
 *   await emu.close();
 */
import {
  type ActiveFault,
  type EmulatorOptions,
  EmulatorServer,
  type Exchange,
  type FaultSpec,
  type RateLimit,
  type RequestLogEntry,
  type TokenType,
} from "./server";
import type { Store } from "./store";

export { parseRateLimit } from "./rateLimit";
export type {
  ActiveFault,
  AppliedFault,
  EmulatorOptions,
  Exchange,
  FaultSpec,
  RateLimit,
  RequestLogEntry,
  TokenType,
} from "./server";
export { allRoutes } from "./server";
export type { Store } from "./store";

export interface RunningEmulator {
  /** API base URL including /v1, e.g. http://127.0.0.1:PORT/v1 */
  url: string;
  /** e.g. http://127.0.0.1:PORT */
  origin: string;
  token: string;
  /** The token's main organization (fixtures: 3 members, 4 spaces, no collections, no sites). */
  organizationId: string;
  /** A second organization the token can reach (transfer target). */
  secondOrganizationId: string;
  /** Spaces of the main organization. */
  spaceIds: string[];
  /** Users who are members of the main organization (the first one is also a member of the second). */
  userIds: string[];
  store: Store;
  requests(): RequestLogEntry[];
  /** Clears the request log (and its dropped count) and the counters. */
  clearRequests(): void;
  /**
   * Entries the request log dropped since it was last cleared: it keeps the newest `requestLogLimit` (default 10,000),
   * so `requests()` misses the oldest once this is above 0.
   */
  droppedRequests(): number;
  /**
   * Requests per operation, e.g. "GET /v1/collections/{collectionId}" → 3 (unmatched paths by raw path, the first
   * 1,000 of them; later ones under "METHOD (other unmatched paths)").
   */
  counters(): Record<string, number>;
  /** Queues a fault (faults.ts); throws a 400 ApiError naming the field of an invalid spec. */
  injectFault(f: FaultSpec): ActiveFault;
  clearFaults(): void;
  /** The rate limiter's configuration, undefined when it is off. */
  rateLimit(): RateLimit | undefined;
  /** Turns the rate limiter on with `{limit, windowMs}` (windows start afresh) or off with undefined. */
  setRateLimit(limit: RateLimit | undefined): void;
  /**
   * Accepts another token, for one organization only (requests to `/v1/orgs/{other}/…` with it are answered 403):
   * how tests give one program two organizations with two tokens. Kept across resets.
   */
  scopeToken(token: string, organizationId: string): void;
  /**
   * Accepts a token (another one, or `token` itself) as one of `type`: the operations the official document admits
   * user tokens only to (SAML providers, a member's SSO flag) answer a non-user type 401 "This operation requires a
   * user token"; every other operation accepts it as it accepts `token`. Combines with `scopeToken`. Kept across
   * resets.
   */
  typeToken(token: string, type: TokenType): void;
  /** Back to the fixtures; also clears faults, the request log and the counters, and restarts rate-limit windows. */
  reset(): void;
  close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const server = new EmulatorServer(options);
  await server.listen();
  const fixtures = server.store.fixtures;
  return {
    url: server.env.apiBase,
    origin: server.env.origin,
    token: server.token,
    organizationId: fixtures.organizationId,
    secondOrganizationId: fixtures.secondOrganizationId,
    spaceIds: [...fixtures.spaceIds],
    userIds: [...fixtures.userIds],
    store: server.store,
    requests: () => server.requests(),
    clearRequests: () => server.clearRequests(),
    droppedRequests: () => server.requestLogState().dropped,
    counters: () => server.counters(),
    injectFault: (f) => server.injectFault(f),
    clearFaults: () => server.clearFaults(),
    rateLimit: () => server.rateLimit(),
    setRateLimit: (limit) => {
      server.setRateLimit(limit);
    },
    scopeToken: (token, organizationId) => server.scopeToken(token, organizationId),
    typeToken: (token, type) => server.typeToken(token, type),
    reset: () => server.reset(),
    close: () => server.close(),
  };
}

export type { Exchange as EmulatorExchange };
