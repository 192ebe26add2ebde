/**
 * Lookups: functions a program calls to find existing objects by what people know them by (a title, an email, a
 * collection path) instead of ids copied from `curl`, as pulumi-aws's `getX`/`getXOutput` do. They run in the
 * program's process, during `preview` too (they only read), with the stack's settings: the token from
 * `DOCS_API_TOKEN` or secret stack config `docs:apiToken`, the URL from `docs:apiUrl`/`DOCS_API_URL`, the
 * organization from `docs:organizationId`/`DOCS_ORGANIZATION_ID`, or from a `Connection` passed as `connection`.
 * Each lists the organization's objects (every page) once per call, filtered by the API where it can filter (sites
 * and teams by title, members by email), and fails naming the lookup, the criteria and the candidates unless exactly
 * one object matches. The API's filters match substrings, so the match itself stays exact; only a failed lookup lists
 * everything, to name the candidates.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import {
  type ApiCollection,
  type ApiIntegrationConfiguration,
  type ApiOrganizationMember,
  type ApiSamlProvider,
  type ApiSite,
  type ApiSpace,
  type ApiTeam,
  flattenPages,
  getIntegration as getIntegrationByName,
  getOpenApiSpec as getOpenApiSpecBySlug,
  getPageByPath,
  getSiteObjects,
  type HttpClient,
  isNotFound,
  listAll,
  listIntegrations,
  listOpenApiSpecs,
  listPages,
  OrganizationMemberSchema,
  OrganizationSchema,
  objectsOfType,
  organizationMembersPath,
  SiteSchema,
  SiteSectionSchema,
  SiteSpaceSchema,
  siteStructurePath,
  sitesPath,
  TeamSchema,
  teamsPath,
} from "./client";
import type { Connection } from "./framework/connection";
import type { KindDefinition } from "./framework/kind";
import { Listings } from "./framework/listings";
import {
  CONFIG_KEYS,
  defaultOrganizationId,
  ENV_KEYS,
  resolveConnection,
  type StackConfigReader,
  type TokenSource,
} from "./framework/settings";
import { collectionKind } from "./resources/collection";
import { organizationMemberKind } from "./resources/organizationMember";
import { samlProviderKind } from "./resources/samlProvider";
import { siteKind } from "./resources/site";
import { spaceKind } from "./resources/space";
import { teamKind } from "./resources/team";
import { currentOperation } from "./runtime";

/** Options of every lookup. */
export interface LookupOptions {
  /** The organization, API and token to look in instead of the stack-wide settings. */
  connection?: Connection;
}

/**
 * How the provider plugin runs a lookup (its `Invoke`): with the settings its `configure` received, which are the
 * stack config of its default provider or an explicit provider's inputs, where a program reads its own stack config.
 */
export interface ProviderLookupOptions extends LookupOptions {
  stackConfig: StackConfigReader;
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

interface InSite extends InOrganization {
  siteId: string;
}

export interface GetSiteSectionArgs extends InSite {
  /** The section's title, exactly. Give `title` or `path`. */
  title?: string;
  /** The section's path (its URL segment), unique in the site. */
  path?: string;
}
export interface GetSiteSectionResult {
  id: string;
  title: string;
  path: string;
  organizationId: string;
  siteId: string;
  /** The group the section is in, or `null` at the top level. */
  groupId: string | null;
  /** Its site spaces, in navigation order. */
  siteSpaceIds: string[];
}

export interface GetSiteSpaceArgs extends InSite {
  /** The title the site space shows, exactly. Give `title` or `path`. */
  title?: string;
  /** Its path (URL segment), unique within its section or the site's top level. */
  path?: string;
  /** Only site spaces of this section; `null` for the site's top level (a site without sections). Default: anywhere. */
  sectionId?: string | null;
}
export interface GetSiteSpaceResult {
  id: string;
  title: string | null;
  path: string;
  spaceId: string;
  organizationId: string;
  siteId: string;
  sectionId: string | null;
}

export interface GetPageArgs extends InOrganization {
  /** The page's path in the space: its slugs from the top down, joined by `/` (`"getting-started/quickstart"`). */
  path: string;
  /** The space to look in. Give spaceId, or siteId and siteSpaceId. */
  spaceId?: string;
  /** With siteSpaceId: the site whose site space shows the space. */
  siteId?: string;
  /** The site space whose space to look in (a SiteSpace's id, or a SiteSection's `siteSpaceId`). */
  siteSpaceId?: string;
}
export interface GetPageResult {
  /** What a SiteSection's or SiteSpace's `pageId` takes. */
  id: string;
  title: string;
  path: string;
  /** `document`, `group`, `link` or `computed`. */
  type: string | null;
  /** The space the page is in. */
  spaceId: string;
  organizationId: string;
}

export interface GetSamlProviderArgs extends InOrganization {
  label: string;
}
export interface GetSamlProviderResult {
  id: string;
  label: string;
  organizationId: string;
}

export interface GetOpenApiSpecArgs extends InOrganization {
  slug: string;
}
export interface GetOpenApiSpecResult {
  id: string;
  slug: string;
  organizationId: string;
  /** `pending`, `progress` or `complete`. */
  processingState: string;
  sourceUrl: string | null;
}

export interface GetIntegrationArgs {
  /** The integration's name in the catalogue (what an installation's `integrationName` takes): `"googleanalytics"`. */
  name: string;
}
export interface GetIntegrationResult {
  name: string;
  title: string;
  description: string | null;
  /** Where it can be installed: `all`, `site`, `space` or `organization`. */
  target: string;
  categories: string[];
  /** The permissions it requests (`site:script:inject`, …). */
  scopes: string[];
  /** Its configuration schema per level; null where it has none (it cannot be installed there, or needs nothing). */
  configurations: {
    account: IntegrationConfigurationLevel | null;
    site: IntegrationConfigurationLevel | null;
    space: IntegrationConfigurationLevel | null;
  };
}

/** An integration's configuration at one level: its keys, or the component it configures itself with. */
export interface IntegrationConfigurationLevel {
  keys: Record<string, IntegrationConfigurationKey>;
  /** Set when the integration renders its own configuration form (a ContentKit component): its keys are not listed. */
  componentId: string | null;
}

export interface IntegrationConfigurationKey {
  /** `string`, `number`, `boolean`, or `button` (an action in the app, not a value). */
  type: string;
  title: string | null;
  description: string | null;
  /** The only values a string key takes, when the integration lists them. */
  allowedValues: string[] | null;
  required: boolean;
}

export interface GetOrganizationsArgs {
  /** Only organizations with this title, exactly. */
  title?: string;
}
export interface OrganizationSummary {
  id: string;
  title: string;
}
export interface GetOrganizationsResult {
  /** Every organization the token reaches, in the API's order. */
  organizations: OrganizationSummary[];
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
  const email = args.email.trim().toLowerCase();
  const path = organizationMembersPath(organizationId);
  const found = await listAll(client, path, { search: email }, OrganizationMemberSchema);
  const matches = found.filter((m) => m.user.email?.toLowerCase() === email);
  const named = (m: ApiOrganizationMember) => ({
    id: m.user.id,
    name: m.user.email ?? m.user.displayName ?? "(no email)",
  });
  const everyMember = async () =>
    (await listed<ApiOrganizationMember>(organizationMemberKind, client, organizationId)).map(named);
  const member = single(
    { lookup: "getOrganizationMember", noun: "member", criteria: `with email "${args.email}"`, organizationId },
    matches,
    (m) => m.user.id,
    await candidatesIfNeeded(matches, everyMember, () => matches.map(named)),
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
  const filtered = await listAll(client, teamsPath(organizationId), { title: args.title }, TeamSchema);
  const matches = filtered.filter((t) => t.title === args.title);
  const everyTeam = async () => (await listed<ApiTeam>(teamKind, client, organizationId)).map(titled);
  const team = single(
    { lookup: "getTeam", noun: "team", criteria: `titled "${args.title}"`, organizationId },
    matches,
    (t) => t.id,
    await candidatesIfNeeded(matches, everyTeam, () => matches.map(titled)),
  );
  return { id: team.id, title: team.title, organizationId };
}

/** The site with this title. */
export async function getSite(args: GetSiteArgs, opts: LookupOptions = {}): Promise<GetSiteResult> {
  const { client, organizationId } = await settings("getSite", args, opts);
  const filtered = await listAll(client, sitesPath(organizationId), { title: args.title }, SiteSchema);
  const matches = filtered.filter((s) => s.title === args.title);
  const everySite = async () => (await listed<ApiSite>(siteKind, client, organizationId)).map(titled);
  const site = single(
    { lookup: "getSite", noun: "site", criteria: `titled "${args.title}"`, organizationId },
    matches,
    (s) => s.id,
    await candidatesIfNeeded(matches, everySite, () => matches.map(titled)),
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

/** The section of a site with this title or path, from the site's structure (one request). */
export async function getSiteSection(
  args: GetSiteSectionArgs,
  opts: LookupOptions = {},
): Promise<GetSiteSectionResult> {
  const criteria = titleOrPath("getSiteSection", args);
  const { client, organizationId } = await settings("getSiteSection", args, opts);
  const sections = await inStructure(client, organizationId, args.siteId, "site-section", SiteSectionSchema);
  const section = single(
    { lookup: "getSiteSection", noun: "section", criteria: `${criteria} in site "${args.siteId}"`, organizationId },
    sections.filter((s) => (args.path === undefined ? s.title === args.title : s.path === args.path)),
    (s) => s.id,
    sections.map((s) => ({ id: s.id, name: s.title, detail: `path ${s.path}` })),
  );
  return {
    id: section.id,
    title: section.title,
    path: section.path,
    organizationId,
    siteId: args.siteId,
    groupId: section.sectionGroup ?? null,
    siteSpaceIds: section.siteSpaces.map((ss) => ss.id),
  };
}

/** The site space of a site with this title or path (in this section), from the site's structure (one request). */
export async function getSiteSpace(args: GetSiteSpaceArgs, opts: LookupOptions = {}): Promise<GetSiteSpaceResult> {
  const criteria = titleOrPath("getSiteSpace", args);
  const { client, organizationId } = await settings("getSiteSpace", args, opts);
  const all = await inStructure(client, organizationId, args.siteId, "site-space", SiteSpaceSchema);
  const inScope = all.filter((ss) => args.sectionId === undefined || (ss.section ?? null) === args.sectionId);
  const where =
    args.sectionId === undefined
      ? ""
      : args.sectionId === null
        ? " at the top level"
        : ` in section "${args.sectionId}"`;
  const siteSpace = single(
    {
      lookup: "getSiteSpace",
      noun: "site space",
      criteria: `${criteria}${where} of site "${args.siteId}"`,
      organizationId,
    },
    inScope.filter((ss) => (args.path === undefined ? ss.title === args.title : ss.path === args.path)),
    (ss) => ss.id,
    inScope.map((ss) => ({
      id: ss.id,
      name: ss.title ?? ss.path,
      detail: ss.section ? `path ${ss.path} in section ${ss.section}` : `path ${ss.path}`,
    })),
    "pass sectionId to choose among them",
  );
  return {
    id: siteSpace.id,
    title: siteSpace.title ?? null,
    path: siteSpace.path,
    spaceId: siteSpace.space.id,
    organizationId,
    siteId: args.siteId,
    sectionId: siteSpace.section ?? null,
  };
}

/**
 * A page of a space by its path (getPageByPath: one request), in a space or in the space a site space shows (one
 * more, the site's structure). A path naming no page lists the space's pages (listPages) to name the candidates.
 */
export async function getPage(args: GetPageArgs, opts: LookupOptions = {}): Promise<GetPageResult> {
  const bySiteSpace = args.siteId !== undefined || args.siteSpaceId !== undefined;
  if ((args.spaceId !== undefined) === bySiteSpace || (bySiteSpace && !(args.siteId && args.siteSpaceId))) {
    throw new LookupError("getPage: give either spaceId, or siteId and siteSpaceId, not both or neither.");
  }
  const { client, organizationId } = await settings("getPage", args, opts);
  const spaceId = args.spaceId ?? (await spaceOfSiteSpace(client, organizationId, args.siteId!, args.siteSpaceId!));
  const wanted = args.path.replace(/^\/+|\/+$/g, "");
  const about = { lookup: "getPage", noun: "page", organizationId };
  try {
    const page = await getPageByPath(client, spaceId, wanted);
    return {
      id: page.id,
      title: page.title,
      path: page.path ?? wanted,
      type: page.type ?? null,
      spaceId,
      organizationId,
    };
  } catch (error) {
    if (!isNotFound(error)) throw error;
    const pages = flattenPages(await listPages(client, spaceId)).filter((page) => page.path !== undefined);
    return single(
      { ...about, criteria: `at path "${wanted}" in space "${spaceId}"` },
      [],
      () => "",
      pages.map((page) => ({ id: page.id, name: page.path ?? page.title, detail: page.title })),
    );
  }
}

async function spaceOfSiteSpace(client: HttpClient, organizationId: string, siteId: string, siteSpaceId: string) {
  const all = await inStructure(client, organizationId, siteId, "site-space", SiteSpaceSchema);
  const siteSpace = single(
    { lookup: "getPage", noun: "site space", criteria: `"${siteSpaceId}" of site "${siteId}"`, organizationId },
    all.filter((ss) => ss.id === siteSpaceId),
    (ss) => ss.id,
    all.map((ss) => ({ id: ss.id, name: ss.title ?? ss.path, detail: `path ${ss.path}` })),
  );
  return siteSpace.space.id;
}

/** The SAML provider with this label (labels need not be unique: several fail, naming each). */
export async function getSamlProvider(
  args: GetSamlProviderArgs,
  opts: LookupOptions = {},
): Promise<GetSamlProviderResult> {
  const { client, organizationId } = await settings("getSamlProvider", args, opts);
  const providers = await listed<ApiSamlProvider>(samlProviderKind, client, organizationId);
  const provider = single(
    { lookup: "getSamlProvider", noun: "SAML provider", criteria: `labelled "${args.label}"`, organizationId },
    providers.filter((p) => p.label === args.label),
    (p) => p.id,
    providers.map((p) => ({ id: p.id, name: p.label })),
  );
  return { id: provider.id, label: provider.label, organizationId };
}

/** The OpenAPI spec with this slug: one request at its address; a missing slug lists the specs to name them. */
export async function getOpenApiSpec(
  args: GetOpenApiSpecArgs,
  opts: LookupOptions = {},
): Promise<GetOpenApiSpecResult> {
  const { client, organizationId } = await settings("getOpenApiSpec", args, opts);
  try {
    const spec = await getOpenApiSpecBySlug(client, organizationId, args.slug);
    return {
      id: spec.id,
      slug: spec.slug,
      organizationId,
      processingState: spec.processingState,
      sourceUrl: spec.sourceURL ?? null,
    };
  } catch (error) {
    if (!isNotFound(error)) throw error;
    const specs = await listOpenApiSpecs(client, organizationId);
    return single(
      { lookup: "getOpenApiSpec", noun: "OpenAPI spec", criteria: `with slug "${args.slug}"`, organizationId },
      [],
      () => "",
      specs.map((spec) => ({ id: spec.id, name: spec.slug })),
    );
  }
}

/**
 * An integration of the catalogue, by name: one request at its address; an unknown name lists the catalogue to name
 * the candidates. The catalogue is the API's, not an organization's: no organization setting is needed.
 */
export async function getIntegration(
  args: GetIntegrationArgs,
  opts: LookupOptions = {},
): Promise<GetIntegrationResult> {
  const client = clientOf("getIntegration", opts, await connectionToken(opts));
  try {
    const integration = await getIntegrationByName(client, args.name);
    return {
      name: integration.name,
      title: integration.title,
      description: integration.description ?? null,
      target: integration.target,
      categories: integration.categories,
      scopes: integration.scopes,
      configurations: {
        account: configurationLevel(integration.configurations?.account),
        site: configurationLevel(integration.configurations?.site),
        space: configurationLevel(integration.configurations?.space),
      },
    };
  } catch (error) {
    if (!isNotFound(error)) throw error;
    const catalogue = await listIntegrations(client);
    const candidates = catalogue.map((integration) => ({ id: integration.name, name: integration.title }));
    const there = candidates.length === 0 ? "it lists no integrations" : `it lists ${listedCandidates(candidates)}`;
    throw new LookupError(`getIntegration: no integration named "${args.name}" in the catalogue; ${there}.`);
  }
}

function configurationLevel(schema: ApiIntegrationConfiguration | undefined): IntegrationConfigurationLevel | null {
  if (!schema) return null;
  const required = new Set(schema.required ?? []);
  const keys = Object.entries(schema.properties ?? {}).map(([key, property]) => [
    key,
    {
      type: property.type,
      title: property.title ?? null,
      description: property.description ?? null,
      allowedValues: property.enum ?? null,
      required: required.has(key),
    },
  ]);
  return { keys: Object.fromEntries(keys), componentId: schema.componentId ?? null };
}

/**
 * The organizations the token reaches (`GET /orgs`), e.g. to check in a program that it runs against the intended
 * one. No organization setting is needed.
 */
export async function getOrganizations(
  args: GetOrganizationsArgs = {},
  opts: LookupOptions = {},
): Promise<GetOrganizationsResult> {
  const client = clientOf("getOrganizations", opts, await connectionToken(opts));
  const all = await listAll(client, "/orgs", {}, OrganizationSchema);
  const kept = all.filter((o) => args.title === undefined || o.title === args.title);
  return { organizations: kept.map((o) => ({ id: o.id, title: o.title })) };
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
export function getSiteSectionOutput(args: LookupInputs<GetSiteSectionArgs>, opts: LookupOptions = {}) {
  return asOutput(args, opts, getSiteSection);
}
export function getSiteSpaceOutput(args: LookupInputs<GetSiteSpaceArgs>, opts: LookupOptions = {}) {
  return asOutput(args, opts, getSiteSpace);
}
export function getPageOutput(args: LookupInputs<GetPageArgs>, opts: LookupOptions = {}) {
  return asOutput(args, opts, getPage);
}
export function getSamlProviderOutput(args: LookupInputs<GetSamlProviderArgs>, opts: LookupOptions = {}) {
  return asOutput(args, opts, getSamlProvider);
}
export function getOpenApiSpecOutput(args: LookupInputs<GetOpenApiSpecArgs>, opts: LookupOptions = {}) {
  return asOutput(args, opts, getOpenApiSpec);
}
export function getIntegrationOutput(args: LookupInputs<GetIntegrationArgs>, opts: LookupOptions = {}) {
  return asOutput(args, opts, getIntegration);
}
export function getOrganizationsOutput(args: LookupInputs<GetOrganizationsArgs> = {}, opts: LookupOptions = {}) {
  return asOutput(args, opts, getOrganizations);
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
  const organizationId =
    args.organizationId ?? opts.connection?.organizationId ?? defaultOrganizationId(configOf(opts));
  if (!organizationId) {
    throw new LookupError(
      `${lookup}: no organization: pass organizationId, a connection with one, or set ` +
        `\`pulumi config set ${CONFIG_KEYS.organizationId} <id>\` or ${ENV_KEYS.organizationId}.`,
    );
  }
  return { client: clientOf(lookup, opts, await connectionToken(opts)), organizationId };
}

/** The connection's token when it has one (a known Output, also at preview). */
function connectionToken(opts: LookupOptions): Promise<string | undefined> {
  const token = opts.connection?.token;
  return token === undefined ? Promise.resolve(undefined) : knownValue(token);
}

/** The client of the connection, else of the stack's settings. */
function clientOf(lookup: string, opts: LookupOptions, token: string | undefined): HttpClient {
  const connection = opts.connection;
  const { apiUrl, token: resolved } = resolveConnection(
    { apiUrl: connection?.apiUrl, tokenEnv: connection?.tokenEnv, token },
    (source) => new LookupError(`${lookup}: no API token: ${missingToken(source)}.`),
    configOf(opts),
  );
  return currentOperation().connections.clientFor(apiUrl, resolved);
}

/** `title "…"` or `with path "…"`, after checking that exactly one of them is given. */
function titleOrPath(lookup: string, args: { title?: string; path?: string }): string {
  if ((args.title === undefined) === (args.path === undefined)) {
    throw new LookupError(`${lookup}: give either title or path, not both or neither.`);
  }
  return args.path === undefined ? `titled "${args.title}"` : `with path "${args.path}"`;
}

/**
 * Every object of one kind in a site's structure, at any depth: the structure holds the site's sections (with their
 * site spaces) and groups in one request, where their own listings take one each.
 */
async function inStructure<S extends z.ZodType>(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  object: string,
  schema: S,
): Promise<z.infer<S>[]> {
  const objects = await getSiteObjects(client, organizationId, siteId);
  return objectsOfType(objects, object, schema, client.displayPath(siteStructurePath(organizationId, siteId)));
}

const titled = (item: { id: string; title: string }): Candidate => ({ id: item.id, name: item.title });

/**
 * The candidates a failed lookup names: with no match, every object (the one listing only the error path makes);
 * with several, the matches themselves. Exactly one match needs none.
 */
async function candidatesIfNeeded<T>(
  matches: readonly T[],
  everything: () => Promise<Candidate[]>,
  ofMatches: () => Candidate[],
): Promise<Candidate[]> {
  if (matches.length === 1) return [];
  return matches.length === 0 ? everything() : ofMatches();
}

/** Stack config as the program's process has it (read raw), which wins over the environment, as in the provider. */
const programConfig: StackConfigReader = (name) => pulumi.runtime.getConfig(CONFIG_KEYS[name]);

/** The stack config a lookup reads: the provider's, when the plugin runs it, else the program's. */
function configOf(opts: LookupOptions | ProviderLookupOptions): StackConfigReader {
  return "stackConfig" in opts ? opts.stackConfig : programConfig;
}

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

/** Candidates as a failed lookup names them: by name, the first 20, then how many more. */
function listedCandidates(items: Candidate[]): string {
  return (
    [...items]
      .sort((a, b) => a.name.localeCompare(b.name, "en"))
      .slice(0, 20)
      .map((c) => `"${c.name}" (${c.id}${c.detail ? `, ${c.detail}` : ""})`)
      .join(", ") + (items.length > 20 ? `, and ${items.length - 20} more` : "")
  );
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
  const listed = listedCandidates;
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
