import { DocsApiError, type HttpClient, NotFoundError, organizationPath, UnauthorizedError } from "../client";
import type { Adoptions } from "./adoptions";
import { clientOf, connectionOf, type ResourceConnection } from "./connection";
import { referableIds } from "./enumerate";
import { credentialFix } from "./explain";
import type { KindDefinition, Props } from "./kind";
import type { CheckFailure, ReadResult } from "./lifecycleResults";
import { Listings } from "./listings";
import { referencesOf } from "./references";
import {
  apiTokenSource,
  apiUrlSetting,
  type Connections,
  ENV_KEYS,
  preflightSetting,
  settingFix,
  settingName,
} from "./settings";
import { containsUnknown } from "./unknown";

/**
 * Preflight: with `docs:preflight` / `DOCS_PREFLIGHT` on, `check` verifies against the API what only the API knows,
 * so `pulumi preview` on a pull request fails on what `pulumi up` would: the token, the organization, every id the
 * inputs refer to (`idRef("<Kind>")`, checked against that kind's listing facet), every `importId`. The engine runs
 * check one resource at a time in one provider process, so each listing is fetched once per organization (or site)
 * and kind and shared by every later check; an id missing from a cached listing reloads it once, since the object may
 * have been created since (during `up`). Its ids are kept for the whole operation, not in the reads' `Listings`,
 * which expire after seconds: a preview whose checks span half a minute would list the same parent again.
 */

/** What preflight has loaded in one operation (./operation.ts owns it): listings by path, organizations verified. */
export class PreflightCache {
  private readonly listings = new Map<string, Promise<Set<string>>>();
  private readonly organizations = new Map<string, Promise<void>>();
  private readonly objects = new Map<string, Promise<unknown>>();

  /** Whether the listing at `path` holds `id`; a miss in a cached listing reloads it once. */
  async exists(path: string, id: string, load: () => Promise<string[]>): Promise<boolean> {
    const cached = this.listings.get(path);
    const listing = cached ?? this.remember(path, load);
    if ((await listing).has(id)) return true;
    if (!cached) return false;
    return (await this.remember(path, load)).has(id);
  }

  /** One verification per organization and operation: a failed one is not asked again either. */
  organization(org: string, verify: () => Promise<void>): Promise<void> {
    let seen = this.organizations.get(org);
    if (!seen) {
      seen = verify();
      this.organizations.set(org, seen);
    }
    return seen;
  }

  /**
   * The object at `path`, loaded once per operation (an integration's definition): every later check shares it, a
   * failed load included, so a missing object costs one request however many resources name it.
   */
  object<T>(path: string, load: () => Promise<T>): Promise<T> {
    let loaded = this.objects.get(path) as Promise<T> | undefined;
    if (!loaded) {
      loaded = load();
      this.objects.set(path, loaded);
    }
    return loaded;
  }

  private remember(path: string, load: () => Promise<string[]>): Promise<Set<string>> {
    const listing = load().then((found) => new Set(found));
    this.listings.set(path, listing);
    listing.catch(() => this.listings.delete(path));
    return listing;
  }
}

/** What preflight uses of the operation: its cache, its clients, its tally of adoptions and the kinds referred to. */
export interface PreflightScope {
  preflight: PreflightCache;
  connections: Connections;
  adoptions: Adoptions;
  definition(kind: string): KindDefinition | undefined;
}

export { preflightSetting as preflightEnabled };

/** What the adoption preview needs of a kind's lifecycle. */
export interface Adoptable {
  definition: Pick<KindDefinition, "kind" | "idFormat" | "inputs" | "preflightChecks">;
  lookup(id: string, parents: Props): Promise<ReadResult>;
  changedProperties(olds: Props, news: Props): string[];
}

/**
 * Preflight of one resource's checked inputs: its references, then its importId, read as adoption will read it.
 * Returns the failures, and for an adoption the notice naming the object and the fields adoption will change.
 */
export async function preflight(
  lifecycle: Adoptable,
  inputs: Props,
  importId: unknown,
  scope: PreflightScope,
): Promise<{ failures: CheckFailure[]; adoption?: string; changed?: string[] }> {
  const { kind, idFormat } = lifecycle.definition;
  const failures = await verifyReferences(lifecycle.definition, inputs, scope);
  if (failures.length > 0 || typeof importId !== "string" || containsUnknown(importId)) return { failures };
  // The object is found through its parents (a share link through its site): one the same update creates or adopts
  // has no id yet, so the object cannot be read before `up`.
  if (Object.values(inputs).some(containsUnknown)) return { failures: [] };
  let found: ReadResult;
  try {
    found = await lifecycle.lookup(importId, inputs);
  } catch (error) {
    return { failures: [requestFailure(kind, "importId", error)] };
  }
  if (!found.id) return { failures: [importIdFailure(kind, importId, idFormat)] };
  const changed = lifecycle.changedProperties(found.props ?? {}, inputs);
  const changes = changed.length === 0 ? "no change" : `will change ${changed.join(", ")}`;
  return { failures: [], adoption: `${adoptionSubject(importId, found.props ?? {})}; adoption ${changes}.`, changed };
}

/** `importId "abc": adopts the existing object "Product docs"`: the object an importId names, by id and title. */
export function adoptionSubject(importId: string, props: Props): string {
  const title = typeof props.title === "string" ? ` "${props.title}"` : "";
  return `importId "${importId}": adopts the existing object${title} instead of creating one`;
}

/** The checked inputs' references that the API does not know, as check failures naming the field, id and fix. */
export async function verifyReferences(
  definition: Pick<KindDefinition, "kind" | "inputs" | "preflightChecks">,
  inputs: Props,
  scope: PreflightScope,
): Promise<CheckFailure[]> {
  const { kind } = definition;
  const org = typeof inputs.organizationId === "string" ? inputs.organizationId : undefined;
  if (org === undefined || containsUnknown(org)) return [];
  const client = clientOrFailure(kind, inputs, scope.connections);
  if ("failure" in client) return [client.failure];
  const orgFailure = await verifyOrganization(kind, client.client, org, connectionOf(inputs), scope.preflight);
  if (orgFailure) return [orgFailure];
  const failures: CheckFailure[] = [];
  for (const reference of referencesOf(definition)) {
    const referred = scope.definition(reference.kind);
    const listing = referred?.listing;
    const value = inputs[reference.input];
    // An id not known yet (an object the same update creates) is `up`'s to check; null and absent name nothing.
    const wanted = (Array.isArray(value) ? value : [value]).filter(
      (id): id is string => typeof id === "string" && !containsUnknown(id),
    );
    // The referred kind's objects are listed under a parent these inputs name (a section under `siteId`).
    const parentInput = referred?.parent?.input;
    const parentId = parentInput === undefined ? undefined : inputs[parentInput];
    if (!listing || wanted.length === 0) continue;
    if (parentInput !== undefined && (typeof parentId !== "string" || containsUnknown(parentId))) continue;
    const parentIds: Props = { organizationId: org, ...(parentInput !== undefined ? { [parentInput]: parentId } : {}) };
    const path = listing.path(parentIds);
    // A listing of its own, never a cached one: a miss reloads it (PreflightCache.exists).
    const load = async () => [
      ...(await referableIds({ client: client.client, listings: new Listings() }, listing, parentIds)),
    ];
    for (const id of wanted) {
      let found: boolean;
      try {
        found = await scope.preflight.exists(path, id, load);
      } catch (error) {
        // A parent that does not exist (a section's site) is reported on its own field.
        if (!(error instanceof NotFoundError)) failures.push(requestFailure(kind, reference.input, error));
        continue;
      }
      if (found) continue;
      failures.push({
        property: reference.input,
        reason:
          `${kind}.${reference.input}: preflight: no ${listing.noun ?? nounOf(reference.kind)} has the id "${id}" ` +
          `in organization "${org}". List the valid ids with \`${listCommand(path, connectionOf(inputs))}\`.`,
      });
    }
  }
  if (failures.length > 0 || !definition.preflightChecks) return failures;
  const api = {
    client: client.client,
    exists: scope.preflight.exists.bind(scope.preflight),
    object: scope.preflight.object.bind(scope.preflight),
  };
  try {
    return await definition.preflightChecks(api, inputs);
  } catch (error) {
    return [requestFailure(kind, "", error)];
  }
}

/** A kind's name in lower-case words: `Space` is "space", `SiteSpace` "site space". */
function nounOf(kind: string): string {
  return kind.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

/** A failure of the adoption read (importId of another kind or of nothing), in check's words. */
export function importIdFailure(kind: string, importId: string, idFormat: string): CheckFailure {
  return {
    property: "importId",
    reason:
      `${kind}.importId: preflight: "${importId}" names no existing ${kind} that these inputs can reach ` +
      `(format: ${idFormat}). Fix importId, or remove it to create a new ${kind}.`,
  };
}

/** A failed preflight request as a check failure naming the setting to fix. */
export function requestFailure(kind: string, property: string, error: unknown): CheckFailure {
  const message = error instanceof Error ? error.message : String(error);
  // A failure of the whole resource (its connection, a setting) names no property.
  return { property, reason: `${property === "" ? kind : `${kind}.${property}`}: preflight: ${message}` };
}

function clientOrFailure(
  kind: string,
  inputs: Props,
  connections: Connections,
): { client: HttpClient } | { failure: CheckFailure } {
  const connection = connectionOf(inputs);
  if (connection !== undefined) {
    try {
      return { client: clientOf(connections, connection) };
    } catch (error) {
      return { failure: requestFailure(kind, "", error) };
    }
  }
  if (apiTokenSource() === undefined) {
    return {
      failure: {
        property: "",
        reason:
          `${kind}: preflight (${settingName("preflight")} / ${ENV_KEYS.preflight}) needs an API token and none is ` +
          `set: ${settingFix("apiToken", "<token>")} or the ${ENV_KEYS.apiToken} environment ` +
          "variable (in CI, give the preview job the token), or turn preflight off.",
      },
    };
  }
  try {
    return { client: connections.apiClient() };
  } catch (error) {
    return { failure: requestFailure(kind, "", error) };
  }
}

/** One `GET /orgs/{id}` per organization and process: the token works and sees it. */
async function verifyOrganization(
  kind: string,
  client: HttpClient,
  org: string,
  connection: ResourceConnection | undefined,
  cache: PreflightCache,
) {
  try {
    await cache.organization(org, () => client.get(organizationPath(org)).then(() => undefined));
    return undefined;
  } catch (error) {
    if (error instanceof UnauthorizedError) {
      return {
        property: "",
        reason: `${kind}: preflight: the API rejected the token (${error.message}). ${credentialFix("check", "rejected")}`,
      };
    }
    if (error instanceof NotFoundError || (error instanceof DocsApiError && error.status === 403)) {
      return {
        property: "organizationId",
        reason:
          `${kind}.organizationId: preflight: the token cannot see organization "${org}" (${error.message}). ` +
          `List the organizations it sees with \`${listCommand("/orgs", connection)}\`.`,
      };
    }
    return requestFailure(kind, "organizationId", error);
  }
}

/** The `curl` listing `path` with the API and token this resource uses: its connection's, else the stack's. */
function listCommand(path: string, connection: ResourceConnection | undefined): string {
  const base = (connection?.apiUrl ?? apiUrlSetting().url).replace(/\/+$/, "");
  const token =
    connection?.tokenEnv !== undefined
      ? `$${connection.tokenEnv}`
      : connection?.token !== undefined
        ? "<this connection's token>"
        : `$${ENV_KEYS.apiToken}`;
  return `curl -H "Authorization: Bearer ${token}" ${base}${path}`;
}

/**
 * The hook `check` calls once its inputs passed the schema: preflight when it is on, and for a resource about to be
 * created with an importId (`olds` is empty until the resource is in the state) what its adoption will do, told at
 * the end of the operation (`Adoptions.notices`: one line for all, and one for each that changes its object). Offline
 * when preflight is off.
 */
export async function checkAgainstApi(
  lifecycle: Adoptable,
  olds: Props,
  inputs: Props,
  importId: unknown,
  scope: PreflightScope,
): Promise<CheckFailure[]> {
  const { kind } = lifecycle.definition;
  const creating = Object.keys(olds).length === 0;
  const adopting = creating && typeof importId === "string" && !containsUnknown(importId);
  if (!preflightSetting()) {
    if (adopting) scope.adoptions.announce(kind, importId, "unread");
    return [];
  }
  const result = await preflight(lifecycle, inputs, adopting ? importId : undefined, scope);
  if (adopting && result.failures.length === 0) {
    const read = result.changed && { changed: result.changed, notice: `${kind} ${result.adoption}` };
    scope.adoptions.announce(kind, importId, read ?? "pending");
  }
  return result.failures;
}
