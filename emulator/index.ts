/**
 * In-process emulator of the GitBook v1 management API (the subset the providers manage).
 *
 *   const emu = await startEmulator();
 *   fetch(`${emu.url}/orgs`, { headers: { Authorization: `Bearer ${emu.token}` } });
 *   await emu.close();
 */
import { type EmulatorOptions, EmulatorServer, type Exchange, type FaultSpec, type RequestLogEntry } from "./server";
import type { Store } from "./store";

export type { ActiveFault, EmulatorOptions, Exchange, FaultSpec, RequestLogEntry } from "./server";
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
  /** Clears the request log and the counters. */
  clearRequests(): void;
  /** Requests per operation, e.g. "GET /v1/collections/{collectionId}" → 3 (unmatched paths by raw path). */
  counters(): Record<string, number>;
  injectFault(f: FaultSpec): void;
  clearFaults(): void;
  /** Back to the fixtures; also clears faults, the request log and the counters. */
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
    counters: () => server.counters(),
    injectFault: (f) => {
      server.injectFault(f);
    },
    clearFaults: () => server.clearFaults(),
    reset: () => server.reset(),
    close: () => server.close(),
  };
}

export type { Exchange as EmulatorExchange };
