/**
 * The code the serialized providers load at call time (`require("pulumi-docs-platform/runtime")`), in the provider
 * process. Its module scope is that process's cache: one HTTP client per API and token, one set of shared listings.
 * It must keep accepting every state shape older versions wrote, since `__provider` texts never change.
 */
import type * as pulumi from "@pulumi/pulumi";
import { adoptionNotices, resetAdoptions } from "./framework/adoptions";
import { resetCompanions, warnAtExit } from "./framework/companions";
import { apiClient, CONFIG_KEYS, forgetClients, setStackConfig } from "./framework/connection";
import { resetCrossResource } from "./framework/crossResource";
import { dropHostEchoes } from "./framework/hostEcho";
import type { ResourceContext } from "./framework/kind";
import { Lifecycle } from "./framework/lifecycle";
import { Listings } from "./framework/listings";
import { noticeAtExit } from "./framework/notices";
import { resetPreflight } from "./framework/preflight";
import { clientOf, type ResourceConnection } from "./framework/resourceConnection";
import { type AnyKind, definitions } from "./registry";

const byName = new Map<string, AnyKind>(definitions.map((definition) => [definition.kind, definition]));

const listings = new Listings();
/** Listings of resources with their own connection (./framework/resourceConnection.ts), one set per client. */
const connectedListings = new Map<object, Listings>();
// biome-ignore lint/suspicious/noExplicitAny: kinds have different input and state types.
const lifecycles = new Map<string, Lifecycle<any, any>>();

function context(connection?: ResourceConnection): ResourceContext {
  if (connection === undefined) return { client: apiClient(), listings };
  const client = clientOf(connection);
  let own = connectedListings.get(client);
  if (!own) {
    own = new Listings();
    connectedListings.set(client, own);
  }
  return { client, listings: own };
}

export function lifecycle(kind: string) {
  let found = lifecycles.get(kind);
  if (!found) {
    const definition = byName.get(kind);
    if (!definition) throw new Error(`pulumi-docs-platform: unknown resource kind "${kind}"; upgrade the package?`);
    found = new Lifecycle(definition, context);
    lifecycles.set(kind, found);
  }
  return found;
}

export function configure(req: pulumi.dynamic.ConfigureRequest): void {
  // Only the provider host configures a provider: this is its process, whose console.error the host writes to.
  dropHostEchoes();
  noticeAtExit(adoptionNotices);
  warnAtExit();
  setStackConfig({
    apiUrl: req.config.get(CONFIG_KEYS.apiUrl),
    apiToken: req.config.get(CONFIG_KEYS.apiToken),
    organizationId: req.config.get(CONFIG_KEYS.organizationId),
    preflight: req.config.get(CONFIG_KEYS.preflight),
  });
}

/**
 * A listing shared with every read of this process: a walk of the organization (`docs-platform import`) enumerates
 * objects through it, so the reads that follow cost no further request.
 */
export function sharedListing<T>(path: string, load: (client: ReturnType<typeof apiClient>) => Promise<T[]>) {
  return listings.get(path, () => load(apiClient()));
}

/** Forgets shared listings and clients; tests use it between out-of-band changes. */
export function resetCaches(): void {
  listings.clear();
  connectedListings.clear();
  forgetClients();
  resetPreflight();
  resetCrossResource();
  resetCompanions();
  resetAdoptions();
}

export const kinds = [...byName.keys()];
