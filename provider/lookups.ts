/**
 * Lookups: functions a program calls to find existing objects by what people know them by (a title, an email, a
 * collection path) instead of ids copied from `curl`, as pulumi-aws's `getX`/`getXOutput` do. They run in the
 * program's process, during `preview` too (they only read), with the stack's settings: the token from
 * `DOCS_API_TOKEN` or secret stack config `docs:apiToken`, the URL from `docs:apiUrl`/`DOCS_API_URL`, the
 * organization from `docs:organizationId`/`DOCS_ORGANIZATION_ID`, or from a `Connection` passed as `connection`.
 * Each lists the organization's objects (every page) once per call and fails naming the lookup, the criteria and the
 * candidates unless exactly one object matches.
 */
import * as pulumi from "@pulumi/pulumi";
import type { ApiCollection, ApiOrganizationMember, ApiSite, ApiSpace, ApiTeam, HttpClient } from "./client";
import type { Connection } from "./connection";
import {
  CONFIG_KEYS,
  defaultOrganizationId,
  ENV_KEYS,
  resolveConnection,
  type StackConfigReader,
  type TokenSource,
} from "./framework/connection";
import type { KindDefinition } from "./framework/kind";
import { Listings } from "./framework/listings";
import { collectionKind } from "./resources/collection";
import { organizationMemberKind } from "./resources/organizationMember";
import { siteKind } from "./resources/site";
import { spaceKind } from "./resources/space";
import { teamKind } from "./resources/team";
import { currentOperation } from "./runtime";

/** Options of every lookup. */
export interface LookupOptions {
  /** The organization, API and token to look in instead of the stack-wide settings. */
  connection?: Connection;
}

/** Every argument of a lookup may be a plain value, a promise or an Output in its `...Output` form. */
export type LookupInputs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

interface InOrganization {
  /** The organization to look in; default: the connection's, then `docs:organizationId` / `DOCS_ORGANIZATION_ID`. */
  organizationId?: string;
}

export interface GetSpaceArgs extends InOrganization {
  /** The space's title, exactly. */
  title: string;
  /** Only spaces directly in this collection; `null` for the top level. Default: anywhere. */
  collectionId?: string | null;
}
export interface GetSpaceResult {
  id: string;
  title: string;
  organizationId: string;
  /** The collection the space is in, or `null` at the top level. */
  collectionId: string | null;
  visibility: string | null;
}

export interface GetOrganizationMemberArgs extends InOrganization {
  /** The member's email address (case-insensitive). */
  email: string;
}
export interface GetOrganizationMemberResult {
  /** The user id: what `userId` inputs take. */
  id: string;
  email: string;
  displayName: string | null;
  role: string | null;
  organizationId: string;
}

export interface GetTeamArgs extends InOrganization {
  title: string;
}
export interface GetTeamResult {
  id: string;
  title: string;
  organizationId: string;
}

export interface GetSiteArgs extends InOrganization {
  title: string;
}
export interface GetSiteResult {
  id: string;
  title: string;
  organizationId: string;
  visibility: string;
  published: boolean;
  hostname: string | null;
}

export interface GetCollectionArgs extends InOrganization {
  /** The collection's title, at any depth. Give `title` or `path`. */
  title?: string;
  /** Titles from the top level down, joined by `/`: `"Products/API"`. */
  path?: string;
}
export interface GetCollectionResult {
  id: string;
  title: string;
  organizationId: string;
  /** The collection it is nested in, or `null` at the top level. */
  parentId: string | null;
  /** Its titles from the top level down, joined by `/`. */
  path: string;
}

/** A lookup that did not find exactly one object. */
export class LookupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LookupError";
  }
}

/** The space with this title (in this collection), in the organization. */
export async function getSpace(args: GetSpaceArgs, opts: LookupOptions = {}): Promise<GetSpaceResult> {
  const { client, organizationId } = await settings("getSpace", args, opts);
  const spaces = await listed<ApiSpace>(spaceKind, client, organizationId);
  const inScope = spaces.filter((s) => args.collectionId === undefined || (s.parent ?? null) === args.collectionId);
  const where =
    args.collectionId === undefined
      ? ""
      : args.collectionId === null
        ? " at the top level"
        : ` in collection "${args.collectionId}"`;
  const space = single(
    { lookup: "getSpace", noun: "space", criteria: `titled "${args.title}"${where}`, organizationId },
    inScope.filter((s) => s.title === args.title),
    (s) => s.id,
    inScope.map((s) => ({ id: s.id, name: s.title, detail: s.parent ? `in collection ${s.parent}` : "top level" })),
    "pass collectionId to choose among them",
  );
  return {
    id: space.id,
    title: space.title,
    organizationId,
    collectionId: space.parent ?? null,
    visibility: space.visibility ?? null,
  };
}

/** The organization member with this email (what `userId` inputs take is its `id`). */
export async function getOrganizationMember(
  args: GetOrganizationMemberArgs,
  opts: LookupOptions = {},
): Promise<GetOrganizationMemberResult> {
  const { client, organizationId } = await settings("getOrganizationMember", args, opts);
  const members = await listed<ApiOrganizationMember>(organizationMemberKind, client, organizationId);
  const email = args.email.trim().toLowerCase();
  const member = single(
    { lookup: "getOrganizationMember", noun: "member", criteria: `with email "${args.email}"`, organizationId },
    members.filter((m) => m.user.email?.toLowerCase() === email),
    (m) => m.user.id,
    members.map((m) => ({ id: m.user.id, name: m.user.email ?? m.user.displayName ?? "(no email)" })),
  );
  return {
    id: member.user.id,
    email: member.user.email ?? args.email,
    displayName: member.user.displayName ?? null,
    role: member.role ?? null,
    organizationId,
  };
}

/** The team with this title. */
export async function getTeam(args: GetTeamArgs, opts: LookupOptions = {}): Promise<GetTeamResult> {
  const { client, organizationId } = await settings("getTeam", args, opts);
  const teams = await listed<ApiTeam>(teamKind, client, organizationId);
  const team = single(
    { lookup: "getTeam", noun: "team", criteria: `titled "${args.title}"`, organizationId },
    teams.filter((t) => t.title === args.title),
    (t) => t.id,
    teams.map((t) => ({ id: t.id, name: t.title })),
  );
  return { id: team.id, title: team.title, organizationId };
}

/** The site with this title. */
export async function getSite(args: GetSiteArgs, opts: LookupOptions = {}): Promise<GetSiteResult> {
  const { client, organizationId } = await settings("getSite", args, opts);
  const sites = await listed<ApiSite>(siteKind, client, organizationId);
  const site = single(
    { lookup: "getSite", noun: "site", criteria: `titled "${args.title}"`, organizationId },
    sites.filter((s) => s.title === args.title),
    (s) => s.id,
    sites.map((s) => ({ id: s.id, name: s.title })),
  );
  return {
    id: site.id,
    title: site.title,
    organizationId,
    visibility: site.visibility,
    published: site.published,
    hostname: site.hostname ?? null,
  };
}

/** The collection with this title (at any depth) or at this path of titles (`"Products/API"`). */
export async function getCollection(args: GetCollectionArgs, opts: LookupOptions = {}): Promise<GetCollectionResult> {
  if ((args.title === undefined) === (args.path === undefined)) {
    throw new LookupError("getCollection: give either title or path (titles joined by `/`), not both or neither.");
  }
  const { client, organizationId } = await settings("getCollection", args, opts);
  const collections = await listed<ApiCollection>(collectionKind, client, organizationId);
  const byId = new Map(collections.map((c) => [c.id, c]));
  const pathOf = (id: string): string => {
    const titles: string[] = [];
    const seen = new Set<string>();
    for (let c = byId.get(id); c && !seen.has(c.id); c = c.parent ? byId.get(c.parent) : undefined) {
      seen.add(c.id);
      titles.unshift(c.title);
    }
    return titles.join("/");
  };
  const wantedPath = args.path
    ?.split("/")
    .map((t) => t.trim())
    .filter(Boolean)
    .join("/");
  const matches = collections.filter((c) =>
    wantedPath === undefined ? c.title === args.title : pathOf(c.id) === wantedPath,
  );
  const criteria = wantedPath === undefined ? `titled "${args.title}"` : `at path "${wantedPath}"`;
  const collection = single(
    { lookup: "getCollection", noun: "collection", criteria, organizationId },
    matches,
    (c) => c.id,
    collections.map((c) => ({ id: c.id, name: pathOf(c.id) })),
    wantedPath === undefined ? "pass path (titles from the top level, joined by `/`) to choose among them" : undefined,
  );
  return {
    id: collection.id,
    title: collection.title,
    organizationId,
    parentId: collection.parent ?? null,
    path: pathOf(collection.id),
  };
}

/** `getSpace` for Inputs: waits for them and gives the result as an Output. */
export function getSpaceOutput(args: LookupInputs<GetSpaceArgs>, opts: LookupOptions = {}) {
  return asOutput(args, opts, getSpace);
}
export function getOrganizationMemberOutput(args: LookupInputs<GetOrganizationMemberArgs>, opts: LookupOptions = {}) {
  return asOutput(args, opts, getOrganizationMember);
}
export function getTeamOutput(args: LookupInputs<GetTeamArgs>, opts: LookupOptions = {}) {
  return asOutput(args, opts, getTeam);
}
export function getSiteOutput(args: LookupInputs<GetSiteArgs>, opts: LookupOptions = {}) {
  return asOutput(args, opts, getSite);
}
export function getCollectionOutput(args: LookupInputs<GetCollectionArgs>, opts: LookupOptions = {}) {
  return asOutput(args, opts, getCollection);
}

/**
 * A lookup over Inputs. The result holds no token, so it is not a secret even when the connection's token is (an
 * Output derived from a secret would otherwise be one).
 */
function asOutput<A, R>(
  args: LookupInputs<A>,
  opts: LookupOptions,
  lookup: (args: A, opts: LookupOptions) => Promise<R>,
): pulumi.Output<R> {
  const resolved = pulumi.output(args as pulumi.Input<Record<string, unknown>>) as unknown as pulumi.Output<A>;
  return pulumi.unsecret(resolved.apply((plain) => lookup(plain, opts)) as pulumi.Output<R>);
}

interface Settings {
  client: HttpClient;
  organizationId: string;
}

/**
 * The API objects of a kind listed under the organization, through the kind's own listing facet (the listing import
 * and preflight use): every page, once per call, never from an earlier call's listing.
 */
async function listed<Item>(
  definition: Pick<KindDefinition, "listing">,
  client: HttpClient,
  organizationId: string,
): Promise<Item[]> {
  const objects =
    (await definition.listing?.list(
      { client, listings: new Listings() },
      { ids: { organizationId }, title: organizationId },
    )) ?? [];
  return objects.map((object) => object.item as Item);
}

/** The client and organization of a lookup, from its arguments, its connection and the stack's settings. */
async function settings(lookup: string, args: InOrganization, opts: LookupOptions): Promise<Settings> {
  const connection = opts.connection;
  const organizationId = args.organizationId ?? connection?.organizationId ?? defaultOrganizationId(programConfig);
  if (!organizationId) {
    throw new LookupError(
      `${lookup}: no organization: pass organizationId, a connection with one, or set ` +
        `\`pulumi config set ${CONFIG_KEYS.organizationId} <id>\` or ${ENV_KEYS.organizationId}.`,
    );
  }
  const token = connection?.token === undefined ? undefined : await knownValue(connection.token);
  const { apiUrl, token: resolved } = resolveConnection(
    { apiUrl: connection?.apiUrl, tokenEnv: connection?.tokenEnv, token },
    (source) => new LookupError(`${lookup}: no API token: ${missingToken(source)}.`),
    programConfig,
  );
  return { client: currentOperation().connections.clientFor(apiUrl, resolved), organizationId };
}

/** Stack config as the program's process has it (read raw), which wins over the environment, as in the provider. */
const programConfig: StackConfigReader = (name) => pulumi.runtime.getConfig(CONFIG_KEYS[name]);

function missingToken(source: TokenSource): string {
  switch (source.from) {
    case "tokenEnv":
      return `the connection's ${source.variable} environment variable is not set`;
    case "token":
      return "the connection's token is empty";
    case "stack":
      return `set \`pulumi config set --secret ${CONFIG_KEYS.apiToken} <token>\` or ${ENV_KEYS.apiToken}`;
  }
}

/** The value of a known Output (a connection's secret token from stack config is known at preview too). */
function knownValue(output: pulumi.Output<string>): Promise<string> {
  return new Promise((resolve) => output.apply((value) => resolve(value)));
}

interface Candidate {
  id: string;
  name: string;
  detail?: string;
}

/** The one match, or an error naming the lookup, the criteria and the candidates. */
function single<T>(
  about: { lookup: string; noun: string; criteria: string; organizationId: string },
  matches: T[],
  idOf: (match: T) => string,
  candidates: Candidate[],
  narrow?: string,
): T {
  const [first] = matches;
  if (first !== undefined && matches.length === 1) return first;
  const { lookup, noun, criteria, organizationId } = about;
  const listed = (items: Candidate[]) =>
    [...items]
      .sort((a, b) => a.name.localeCompare(b.name, "en"))
      .slice(0, 20)
      .map((c) => `"${c.name}" (${c.id}${c.detail ? `, ${c.detail}` : ""})`)
      .join(", ") + (items.length > 20 ? `, and ${items.length - 20} more` : "");
  if (matches.length === 0) {
    const there = candidates.length === 0 ? `it has no ${noun}s` : `it has ${listed(candidates)}`;
    throw new LookupError(`${lookup}: no ${noun} ${criteria} in organization "${organizationId}"; ${there}.`);
  }
  const matchIds = new Set(matches.map(idOf));
  const ids = candidates.filter((c) => matchIds.has(c.id));
  throw new LookupError(
    `${lookup}: ${matches.length} ${noun}s ${criteria} in organization "${organizationId}": ${listed(ids)}` +
      `${narrow ? `; ${narrow}` : ""}.`,
  );
}
