import type * as pulumi from "@pulumi/pulumi";
import {
  collectionsPath,
  DocsApiError,
  type HttpClient,
  listCollections,
  listOrganizationMembers,
  listSamlProviders,
  listSiteSections,
  listSites,
  listSpaces,
  listTeams,
  NotFoundError,
  organizationMembersPath,
  organizationPath,
  samlProvidersPath,
  siteSectionsPath,
  sitesPath,
  spacesPath,
  teamsPath,
  UnauthorizedError,
} from "../client";
import { expectAdoption } from "./adoptions";
import { apiClient, apiTokenSource, apiUrlSetting, CONFIG_KEYS, ENV_KEYS, preflightSetting } from "./connection";
import { credentialFix } from "./explain";
import type { Props } from "./kind";
import { clientOf, connectionOf, type ResourceConnection } from "./resourceConnection";
import { containsUnknown } from "./unknown";

/**
 * Preflight: with `docs:preflight` / `DOCS_PREFLIGHT` on, `check` verifies against the API what only the API knows,
 * so `pulumi preview` on a pull request fails on what `pulumi up` would: the token, the organization, every id the
 * inputs refer to, every `importId`. The engine runs check one resource at a time in one provider process, so each
 * listing is fetched once per organization (or site) and kind and shared by every later check; an id missing from a
 * cached listing reloads it once, since the object may have been created since (during `up`).
 */

/** What an id input refers to: the listing that holds every valid id, and how to name it in a message. */
interface Reference {
  noun: string;
  /** The listing's path under the base URL, for the message telling how to list valid ids. */
  path: (org: string, props: Props) => string | undefined;
  load: (client: HttpClient, org: string, props: Props) => Promise<string[]>;
}

const ids = <T extends { id: string }>(items: T[]) => items.map((item) => item.id);
const REFERENCES: Record<string, Reference> = {
  spaces: { noun: "space", path: spacesPath, load: async (c, org) => ids(await listSpaces(c, org)) },
  members: {
    noun: "member of the organization",
    path: organizationMembersPath,
    load: async (c, org) => (await listOrganizationMembers(c, org)).map((member) => member.user.id),
  },
  teams: { noun: "team", path: teamsPath, load: async (c, org) => ids(await listTeams(c, org)) },
  sites: { noun: "site", path: sitesPath, load: async (c, org) => ids(await listSites(c, org)) },
  collections: {
    noun: "collection",
    path: collectionsPath,
    load: async (c, org) => ids(await listCollections(c, org)),
  },
  saml: {
    noun: "SAML provider",
    path: samlProvidersPath,
    load: async (c, org) => ids(await listSamlProviders(c, org)),
  },
  sections: {
    noun: "section of the site",
    path: (org, props) =>
      typeof props.siteId === "string" && !containsUnknown(props.siteId)
        ? siteSectionsPath(org, props.siteId)
        : undefined,
    load: async (c, org, props) => ids(await listSiteSections(c, org, String(props.siteId))),
  },
};

/**
 * The id inputs of every kind and what they refer to. An input of the same name means the same thing in every kind
 * (the schemas' words); `parentId` is a collection's parent collection.
 */
const ID_INPUTS: Record<string, keyof typeof REFERENCES> = {
  spaceId: "spaces",
  userId: "members",
  teamId: "teams",
  defaultTeamId: "teams",
  siteId: "sites",
  defaultSiteId: "sites",
  parentId: "collections",
  collectionId: "collections",
  samlProviderId: "saml",
  sectionId: "sections",
  sectionIds: "sections",
};

/** Listings loaded by preflight in this process, by path. */
const listings = new Map<string, Promise<Set<string>>>();
let organizationsSeen = new Map<string, Promise<void>>();

/** Forgets what preflight has loaded (tests). */
export function resetPreflight(): void {
  listings.clear();
  organizationsSeen = new Map();
}

export { preflightSetting as preflightEnabled };

/** What the adoption preview needs of a kind's lifecycle. */
export interface Adoptable {
  definition: { kind: string; idFormat: string };
  lookup(id: string, parents: Props): Promise<pulumi.dynamic.ReadResult>;
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
): Promise<{ failures: pulumi.dynamic.CheckFailure[]; adoption?: string; changed?: string[] }> {
  const { kind, idFormat } = lifecycle.definition;
  const failures = await verifyReferences(kind, inputs);
  if (failures.length > 0 || typeof importId !== "string" || containsUnknown(importId)) return { failures };
  // The object is found through its parents (a share link through its site): one the same update creates or adopts
  // has no id yet, so the object cannot be read before `up`.
  const pending = Object.keys(inputs).filter((key) => containsUnknown(inputs[key]));
  if (pending.length > 0) return { failures: [], adoption: `${adoptionSubject(importId, {})}; ${readAtUp(pending)}` };
  let found: pulumi.dynamic.ReadResult;
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

/** Why an adoption's object is read only at `up`: inputs it is found by are outputs of the same update. */
function readAtUp(pending: readonly string[]): string {
  return `${pending.join(", ")} ${pending.length === 1 ? "is" : "are"} not known until \`up\`, which reads the object then.`;
}

/** `importId "abc": adopts the existing object "Product docs"`: the object an importId names, by id and title. */
export function adoptionSubject(importId: string, props: Props): string {
  const title = typeof props.title === "string" ? ` "${props.title}"` : "";
  return `importId "${importId}": adopts the existing object${title} instead of creating one`;
}

/** The checked inputs' references that the API does not know, as check failures naming the field, id and fix. */
export async function verifyReferences(kind: string, inputs: Props): Promise<pulumi.dynamic.CheckFailure[]> {
  const org = typeof inputs.organizationId === "string" ? inputs.organizationId : undefined;
  if (org === undefined || containsUnknown(org)) return [];
  const client = clientOrFailure(kind, inputs);
  if ("failure" in client) return [client.failure];
  const orgFailure = await verifyOrganization(kind, client.client, org, connectionOf(inputs));
  if (orgFailure) return [orgFailure];
  const failures: pulumi.dynamic.CheckFailure[] = [];
  for (const [field, listing] of Object.entries(ID_INPUTS)) {
    const value = inputs[field];
    if (value === undefined || value === null || containsUnknown(value)) continue;
    const wanted = (Array.isArray(value) ? value : [value]).filter((id): id is string => typeof id === "string");
    const reference = REFERENCES[listing];
    const path = reference?.path(org, inputs);
    if (!reference || !path || wanted.length === 0) continue;
    for (const id of wanted) {
      let found: boolean;
      try {
        found = await exists(path, id, () => reference.load(client.client, org, inputs));
      } catch (error) {
        // A parent that does not exist (a section's site) is reported on its own field.
        if (!(error instanceof NotFoundError)) failures.push(requestFailure(kind, field, error));
        continue;
      }
      if (found) continue;
      failures.push({
        property: field,
        reason:
          `${kind}.${field}: preflight: no ${reference.noun} has the id "${id}" in organization "${org}". ` +
          `List the valid ids with \`${listCommand(path, connectionOf(inputs))}\`.`,
      });
    }
  }
  return failures;
}

/** A failure of the adoption read (importId of another kind or of nothing), in check's words. */
export function importIdFailure(kind: string, importId: string, idFormat: string): pulumi.dynamic.CheckFailure {
  return {
    property: "importId",
    reason:
      `${kind}.importId: preflight: "${importId}" names no existing ${kind} that these inputs can reach ` +
      `(format: ${idFormat}). Fix importId, or remove it to create a new ${kind}.`,
  };
}

/** A failed preflight request as a check failure naming the setting to fix. */
export function requestFailure(kind: string, property: string, error: unknown): pulumi.dynamic.CheckFailure {
  const message = error instanceof Error ? error.message : String(error);
  return { property, reason: `${kind}.${property}: preflight: ${message}` };
}

function clientOrFailure(
  kind: string,
  inputs: Props,
): { client: HttpClient } | { failure: pulumi.dynamic.CheckFailure } {
  const connection = connectionOf(inputs);
  if (connection !== undefined) {
    try {
      return { client: clientOf(connection) };
    } catch (error) {
      return { failure: requestFailure(kind, "", error) };
    }
  }
  if (apiTokenSource() === undefined) {
    return {
      failure: {
        property: "",
        reason:
          `${kind}: preflight (${CONFIG_KEYS.preflight} / ${ENV_KEYS.preflight}) needs an API token and none is set: ` +
          `\`pulumi config set --secret ${CONFIG_KEYS.apiToken} <token>\` or the ${ENV_KEYS.apiToken} environment ` +
          "variable (in CI, give the preview job the token), or turn preflight off.",
      },
    };
  }
  try {
    return { client: apiClient() };
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
) {
  let seen = organizationsSeen.get(org);
  if (!seen) {
    seen = client.get(organizationPath(org)).then(() => undefined);
    organizationsSeen.set(org, seen);
  }
  try {
    await seen;
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

/** Whether the listing at `path` holds `id`; a miss in a cached listing reloads it once. */
async function exists(path: string, id: string, load: () => Promise<string[]>) {
  const cached = listings.get(path);
  const listing = cached ?? remember(path, load);
  if ((await listing).has(id)) return true;
  if (!cached) return false;
  return (await remember(path, load)).has(id);
}

function remember(path: string, load: () => Promise<string[]>): Promise<Set<string>> {
  const listing = load().then((found) => new Set(found));
  listings.set(path, listing);
  listing.catch(() => listings.delete(path));
  return listing;
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
 * the end of the operation (`adoptionNotices`: one line for all, and one for each that changes its object). Offline
 * when preflight is off.
 */
export async function checkAgainstApi(
  lifecycle: Adoptable,
  olds: Props,
  inputs: Props,
  importId: unknown,
): Promise<pulumi.dynamic.CheckFailure[]> {
  const { kind } = lifecycle.definition;
  const creating = Object.keys(olds).length === 0;
  const adopting = creating && typeof importId === "string" && !containsUnknown(importId);
  if (!preflightSetting()) {
    if (adopting) expectAdoption(kind, importId, "unread");
    return [];
  }
  const result = await preflight(lifecycle, inputs, adopting ? importId : undefined);
  if (adopting && result.failures.length === 0) {
    const read = result.changed && { changed: result.changed, notice: `${kind} ${result.adoption}` };
    expectAdoption(kind, importId, read ?? "pending");
  }
  return result.failures;
}
