/**
 * The model-based test's commands and invariants (./convergence.test.ts runs them with fast-check, and
 * ./regressions.test.ts replays shrunk cases). The model is the declared program (./program.ts) and whether the API
 * may have drifted from the state since the last refresh; the real system is the emulator and a stand-in of the engine
 * (../support/engine.ts) over the provider's runtime.
 */
import fc from "fast-check";
import { expect } from "vitest";
import type { FaultSpec, RunningEmulator } from "../../emulator";
import type { Props } from "../../provider/framework/kind";
import { definitions } from "../../provider/registry";
import { CENSUS_KINDS, type Census, census } from "../support/census";
import { callApi, type Json } from "../support/emulator";
import { Engine, type Resource, type RunResult } from "../support/engine";
import type { RouteName } from "../support/routes";
import {
  closed,
  declaring,
  type Fixtures,
  removesUnderStructure,
  render,
  type Selection,
  SLOT_NAMES,
  variantCount,
  without,
} from "./program";

export interface Model {
  selection: Record<string, number>;
  /**
   * The API may differ from the state since the last refresh: objects were edited or deleted by hand, or a run failed
   * under faults (a lost answer to a delete the API carried out leaves the object in the state). `up` alone does not
   * see it (no --refresh), as with Pulumi.
   */
  drift: boolean;
}

export interface Real {
  emulator: RunningEmulator;
  /** The route the engine drives the kinds through. */
  route: RouteName;
  fixtures: Fixtures;
  engine: Engine;
  /** The organization's objects before the program ran. */
  baseline: Census;
  /** Faults waiting for the next run of the engine: injected for the run, and what it leaves of them waits on. */
  pendingFaults: FaultSpec[];
  /** One line per command, with what it did: printed with a failing case. */
  log: string[];
  steps: number;
  /** How many times the invariants were checked. */
  checks: number;
  /**
   * Objects a create left behind after its answer was lost, which the provider's error says it could not settle (see
   * UNRESOLVED_CREATE): the census leaves them out.
   */
  excused: Set<string>;
  /**
   * Spaces the translations' runs made: a Translation's delete leaves its space in place (as documented), so they
   * stay in the organization after the program stops declaring it.
   */
  translatedSpaces: Set<string>;
  /**
   * Whether the log also holds each run's engine steps and the API's exchanges (a failing case's replay sets it:
   * ./convergence.test.ts prints the shrunk case traced).
   */
  trace: boolean;
  /** The request log's last entry before the run being traced. */
  traceMark: number;
}

export type Command = fc.AsyncCommand<Model, Real, boolean>;

export function newModel(): Model {
  return { selection: {}, drift: false };
}

export async function newReal(
  emulator: RunningEmulator,
  route: RouteName,
  baseline?: Census,
  trace = false,
): Promise<Real> {
  emulator.reset();
  const fixtures: Fixtures = {
    org: emulator.organizationId,
    users: [emulator.userIds[1] as string, emulator.userIds[2] as string],
    spaces: [emulator.spaceIds[0] as string, emulator.spaceIds[1] as string],
  };
  return {
    emulator,
    route,
    fixtures,
    engine: new Engine({ url: emulator.url, token: emulator.token, maxAttempts: 3, route }),
    baseline: baseline ?? (await census(emulator)),
    pendingFaults: [],
    log: [],
    steps: 0,
    checks: 0,
    excused: new Set(),
    translatedSpaces: new Set(),
    trace,
    traceMark: 0,
  };
}

const describe = (result: RunResult) =>
  result.ok ? `ok (${result.steps.length} steps)` : `failed: ${result.error?.message.split("\n")[0]}`;

const lastRequest = (real: Real) => real.emulator.requests().at(-1)?.seq ?? 0;

/** Marks where a traced run's exchanges begin (what came before, edits by hand included, is not the run's). */
function markRun(real: Real): void {
  if (real.trace) real.traceMark = lastRequest(real);
}

/** Logs a run's outcome; traced, also its steps and its exchanges with the API (faults named). */
function logRun(real: Real, line: string, result: RunResult): void {
  real.log.push(line);
  if (!real.trace) return;
  for (const step of result.steps) real.log.push(`    step: ${step.op} ${step.name}${step.id ? ` ${step.id}` : ""}`);
  for (const entry of real.emulator.requests().filter((request) => request.seq > real.traceMark)) {
    const body = entry.requestBody === undefined ? "" : ` ${JSON.stringify(entry.requestBody).slice(0, 160)}`;
    const handled = entry.handledStatus === undefined ? "" : ` (the API answered ${entry.handledStatus})`;
    const fault = entry.fault ? ` [fault ${JSON.stringify(entry.fault)}]` : "";
    real.log.push(`    ${entry.method} ${entry.path}${body} -> ${entry.status}${handled}${fault}`);
  }
  real.traceMark = lastRequest(real);
}

/**
 * Runs one engine run with the pending faults injected. What is left of them stays pending for the next run (a fault
 * waits for the next matching requests, which an `up` with nothing to change does not send); meanwhile they are off,
 * so that the invariants and the edits by hand read the API as it is.
 */
async function withFaults(real: Real, run: () => Promise<RunResult>): Promise<{ result: RunResult; faulted: boolean }> {
  const faulted = real.pendingFaults.length > 0;
  for (const fault of real.pendingFaults) real.emulator.injectFault(fault);
  try {
    return { result: await run(), faulted };
  } finally {
    const admin = new URL("/__admin/faults", real.emulator.url);
    const left = (await (await fetch(admin)).json()) as (FaultSpec & { id: number; remaining: number })[];
    real.pendingFaults = left.map(({ id: _id, remaining, ...spec }) => ({ ...spec, count: remaining }));
    real.emulator.clearFaults();
    noteTranslatedSpaces(real);
  }
}

/** Records the spaces the state's translations made (see Real.translatedSpaces). */
function noteTranslatedSpaces(real: Real): void {
  for (const resource of real.engine.state.values()) {
    const space = resource.kind === "Translation" ? resource.outs.resultSpaceId : undefined;
    if (typeof space === "string") real.translatedSpaces.add(space);
  }
}

/**
 * Creates whose answer was lost and that the provider could not settle, which its error says: looking for what the
 * create made failed too (the provider cannot know whether the API made the object, and asks the user to look for it
 * and adopt it with importId), or removing the object it found failed too (the error names it, to adopt or delete).
 * No state can record such an object, so a later `up` makes another: a limitation the model reports instead of
 * failing on. The object the error names, or else the one of its kind that appeared meanwhile (and a section's own
 * site space), is excused from the census; and the user, as the error asks, deletes it by hand (adopting it would
 * do as well), so that it does not stand in the way of what follows (a SiteStructure must order every section).
 */
const UNRESOLVED_CREATE = /^(\w+) create: .*looking for it failed too/s;
const UNREMOVED_CREATE = /removing the new (\w+) "([^"]+)".* failed too/s;
/** Several objects the create may have made (an earlier unresolved create left one): the error names each. */
const SEVERAL_FOUND = /^(\w+) create: the response was lost .*? exist \(made since [^)]*\): (.*?)\. Set importId/s;

async function excuseUnresolvedCreate(real: Real, result: RunResult): Promise<void> {
  const message = result.error?.message ?? "";
  const unremoved = message.match(UNREMOVED_CREATE);
  const several = message.match(SEVERAL_FOUND);
  const kind = unremoved?.[1] ?? several?.[1] ?? message.match(UNRESOLVED_CREATE)?.[1];
  if (!kind) return;
  if (kind === "SiteRedirect" && !unremoved && !several) return deleteUnrecordedRedirects(real);
  if (!CENSUS_KINDS.has(kind)) {
    if (unremoved?.[2]) await removeGrantByHand(real, kind, unremoved[2]);
    return;
  }
  const held = await census(real.emulator);
  const known = expectedCensus(real);
  const named = [...(several?.[2] ?? "").matchAll(/"(\w+)" \(/g)].map((match) => match[1] as string);
  const excused: string[] = unremoved?.[2] ? [unremoved[2]] : named.filter((id) => !known[kind]?.includes(id));
  const kinds = new Map<string, string>(excused.map((id) => [id, kind]));
  const appeared = (excusedKind: string) =>
    (held[excusedKind] ?? []).filter((id) => !known[excusedKind]?.includes(id) && !real.excused.has(id));
  const namesThem = unremoved !== null || several !== null;
  // What the excused object made of its own: a section's site space, a translation's space.
  const made = kind === "SiteSection" ? ["SiteSpace"] : kind === "Translation" ? ["Space"] : [];
  for (const excusedKind of [...(namesThem ? [] : [kind]), ...made]) {
    const unknown = appeared(excusedKind);
    expect(unknown.length, `at most one ${excusedKind} left by the unresolved create`).toBeLessThanOrEqual(1);
    excused.push(...unknown);
    for (const id of unknown) kinds.set(id, excusedKind);
  }
  for (const id of excused) real.excused.add(id);
  real.log.push(`  excused, as the error says: ${JSON.stringify(excused)}`);
  for (const [id, excusedKind] of kinds) await deleteByHand(real, excusedKind, id);
}

/**
 * The redirect an unresolved SiteRedirect create left (no census counts redirects): one in a site's list that no
 * SiteRedirect's state records and no SiteRedirects' list declares. The user deletes it, as the error asks; else the
 * next create of the same source answers 409.
 */
async function deleteUnrecordedRedirects(real: Real): Promise<void> {
  const org = `/orgs/${real.fixtures.org}`;
  const states = [...real.engine.state.values()];
  const recorded = new Set(states.filter((r) => r.kind === "SiteRedirect").map((r) => r.id));
  const declared = new Set(
    states
      .filter((r) => r.kind === "SiteRedirects")
      .flatMap((r) =>
        ((r.outs.redirects ?? []) as { source: string }[]).map((rule) => `${r.outs.siteId}${rule.source}`),
      ),
  );
  for (const site of await listed(real, `${org}/sites`)) {
    const under = `${org}/sites/${site.id}/redirects`;
    for (const item of await listed(real, under)) {
      if (recorded.has(item.id) || declared.has(`${site.id}${item.source}`)) continue;
      const answer = await callApi(real.emulator, "DELETE", `${under}/${item.id}`);
      expect(answer.status, `DELETE ${under}/${item.id}: ${answer.text}`).toBeLessThan(300);
      real.log.push(`  deleted by hand, as the error asks: DELETE ${under}/${item.id}`);
    }
  }
}

/** A membership or grant the error names as left behind (`<target>/<grantee>`): the user removes it by hand. */
async function removeGrantByHand(real: Real, kind: string, id: string): Promise<void> {
  const [target, grantee] = id.split("/");
  const byUser = real.fixtures.users.includes(grantee as string);
  const outs: Props =
    kind === "TeamMember"
      ? { teamId: target, userId: grantee }
      : { spaceId: target, collectionId: target, [byUser ? "userId" : "teamId"]: grantee };
  const call = handCall(real.fixtures.org, kind, id, outs, "delete");
  if (!call) return;
  const answer = await callApi(real.emulator, call.method, call.path);
  real.log.push(`  removed by hand, as the error asks: ${call.method} ${call.path} -> ${answer.status}`);
}

/** The paths under a site of the census kinds that live there. */
const UNDER_SITE: Readonly<Record<string, string>> = {
  SiteSection: "sections",
  SiteSectionGroup: "section-groups",
  SiteShareLink: "share-links",
  SiteSpace: "site-spaces",
  SiteMcpServer: "mcp-servers",
  SiteChannel: "channels",
  SiteContextConnection: "context-connections",
};

/** Deletes an object of a census kind through the API, wherever it is (a site's objects: under whichever site). */
async function deleteByHand(real: Real, kind: string, id: string): Promise<void> {
  const org = `/orgs/${real.fixtures.org}`;
  const top: Record<string, string> = {
    Collection: `/collections/${id}`,
    Space: `/spaces/${id}`,
    Team: `${org}/teams/${id}`,
    Site: `${org}/sites/${id}`,
    SamlProvider: `${org}/saml/${id}`,
    Translation: `${org}/translations/${id}`,
    GitSyncInstallation: `/git/installations/${id}`,
    IntegrationInstallation: `/integrations/ticket-sync/installations/${id}`,
  };
  const [target, installation] = id.split("/");
  if (kind === "IntegrationSiteInstallation" || kind === "IntegrationSpaceInstallation") {
    const where = kind === "IntegrationSiteInstallation" ? "sites" : "spaces";
    top[kind] = `/integrations/ticket-sync/installations/${installation}/${where}/${target}`;
  }
  if (kind === "OpenApiSpec") {
    const spec = (await listed(real, `${org}/openapi`)).find((item) => item.id === id);
    if (spec) top[kind] = `${org}/openapi/${spec.slug}`;
  }
  let path = top[kind];
  for (const site of path || !UNDER_SITE[kind] ? [] : await listed(real, `${org}/sites`)) {
    const under = `${org}/sites/${site.id}/${UNDER_SITE[kind]}`;
    if ((await listed(real, under)).some((item) => item.id === id)) path = `${under}/${id}`;
  }
  // None: gone already (a section's site space, with its section).
  if (!path) return;
  const answer = await callApi(real.emulator, "DELETE", path);
  expect(answer.status, `DELETE ${path}: ${answer.text}`).toBeLessThan(300);
  real.log.push(`  deleted by hand, as the error asks: DELETE ${path}`);
}

function mustSucceed(real: Real, what: string, result: RunResult): void {
  if (!result.ok) {
    throw new Error(`${what} failed with no fault and no drift: ${result.error?.message}\n${real.log.join("\n")}`, {
      cause: result.error,
    });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Invariants

const sorted = (ids: readonly string[]) => [...ids].sort();

/** The ids the organization should hold per census kind: the baseline plus what the state records. */
function expectedCensus(real: Real): Census {
  noteTranslatedSpaces(real);
  const expected: Census = Object.fromEntries(Object.entries(real.baseline).map(([kind, ids]) => [kind, [...ids]]));
  expected.Space?.push(...real.translatedSpaces);
  for (const resource of real.engine.state.values()) {
    expected[resource.kind]?.push(resource.id);
    const siteSpaceId = resource.kind === "SiteSection" ? resource.outs.siteSpaceId : undefined;
    if (typeof siteSpaceId === "string") expected.SiteSpace?.push(siteSpaceId);
  }
  return Object.fromEntries(Object.entries(expected).map(([kind, ids]) => [kind, sorted(ids)]));
}

async function listed(real: Real, path: string): Promise<Json[]> {
  const answer = await callApi(real.emulator, "GET", `${path}?limit=1000`);
  expect(answer.status, `GET ${path}: ${answer.text}`).toBe(200);
  return answer.body.items;
}

/** Memberships and grants of the objects the state holds, as `kind:target/grantee:role`. */
async function memberships(real: Real): Promise<string[]> {
  const found: string[] = [];
  const org = real.fixtures.org;
  for (const resource of real.engine.state.values()) {
    if (resource.kind === "Team") {
      for (const item of await listed(real, `/orgs/${org}/teams/${resource.id}/members`)) {
        found.push(`TeamMember:${resource.id}/${item.organization.user.id}`);
      }
    }
    const base =
      resource.kind === "Space"
        ? `/spaces/${resource.id}/permissions`
        : resource.kind === "Collection"
          ? `/collections/${resource.id}/permissions`
          : undefined;
    if (!base) continue;
    const kind = resource.kind === "Space" ? "SpacePermission" : "CollectionPermission";
    for (const item of await listed(real, `${base}/teams`)) found.push(`${kind}:${resource.id}/${item.team.id}`);
    for (const item of await listed(real, `${base}/users`)) found.push(`${kind}:${resource.id}/${item.user.id}`);
  }
  return sorted(found);
}

function declaredMemberships(real: Real): string[] {
  const kinds = new Set(["TeamMember", "SpacePermission", "CollectionPermission"]);
  return sorted([...real.engine.state.values()].filter((r) => kinds.has(r.kind)).map((r) => `${r.kind}:${r.id}`));
}

/**
 * Outputs documented as "as last read", which only a refresh or a write of the resource itself brings up to date: a
 * SiteStructure's `titles` (of the items it orders, renamed through their own resources).
 */
const AS_LAST_READ: Readonly<Record<string, readonly string[]>> = { SiteStructure: ["titles"] };

function comparable(resource: Resource | undefined): Props | undefined {
  if (!resource) return undefined;
  const outs = { ...resource.outs };
  for (const key of AS_LAST_READ[resource.kind] ?? []) delete outs[key];
  return outs;
}

/**
 * What must hold after an `up` that succeeded (and after a destroy, with an empty program): the state records exactly
 * the declared resources; the organization holds exactly their objects, memberships and grants (no duplicate, no
 * orphan); a refresh finds every object as the state records it; a preview then needs no change and sends nothing.
 */
export async function expectConverged(real: Real, selection: Selection): Promise<void> {
  real.checks++;
  const program = render(selection, real.fixtures);
  const context = () => real.log.join("\n");
  expect(sorted([...real.engine.state.keys()]), context()).toEqual(sorted(Object.keys(program)));
  expect(real.engine.condemned, context()).toEqual([]);
  const now = await census(real.emulator);
  const expected = expectedCensus(real);
  for (const [kind, ids] of Object.entries(expected)) {
    // An excused object a later create adopted (its lookup found it) is the state's again.
    const held = sorted((now[kind] ?? []).filter((id) => !real.excused.has(id) || ids.includes(id)));
    expect(held, `${kind}s held ${JSON.stringify(held)}, expected ${JSON.stringify(ids)}\n${context()}`).toEqual(ids);
  }
  const granted = await memberships(real);
  const declaredGrants = declaredMemberships(real);
  expect(
    granted,
    `memberships and grants ${JSON.stringify(granted)}, declared ${JSON.stringify(declaredGrants)}\n${context()}`,
  ).toEqual(declaredGrants);

  const probe = new Engine({ url: real.emulator.url, token: real.emulator.token, route: real.route });
  probe.state = new Map(structuredClone([...real.engine.state]));
  const refreshed = await probe.refresh();
  expect(refreshed.error, context()).toBeUndefined();
  for (const [name, resource] of real.engine.state) {
    const read = probe.state.get(name);
    const shown = `${name}: refresh read ${JSON.stringify(read && { id: read.id, outs: comparable(read) })}, the state holds ${JSON.stringify({ id: resource.id, outs: comparable(resource) })}`;
    expect({ name, id: read?.id, outs: comparable(read) }, `${shown}\n${context()}`).toEqual({
      name,
      id: resource.id,
      outs: comparable(resource),
    });
  }

  const before = real.emulator.requests().length;
  const preview = await real.engine.preview(program);
  expect(preview.error, context()).toBeUndefined();
  expect(preview.changes, `preview changes ${JSON.stringify(preview.changes)}\n${context()}`).toEqual([]);
  expect(real.emulator.requests().slice(before), "preview sends no request").toEqual([]);
}

// ---------------------------------------------------------------------------------------------------------------
// Commands

/** Declares a slot with a variant: adds it, or changes it (in place, by a replacement or a move). */
export class Declare implements Command {
  constructor(
    readonly slot: string,
    readonly variant: number,
  ) {}
  check(model: Readonly<Model>): boolean {
    return model.selection[this.slot] !== this.variant;
  }
  async run(model: Model, real: Real): Promise<void> {
    model.selection = declaring(model.selection, this.slot, this.variant);
    expect(closed(model.selection)).toBe(true);
    real.log.push(`${this.toString()} -> ${JSON.stringify(model.selection)}`);
  }
  toString(): string {
    return `declare(${JSON.stringify(this.slot)}, ${this.variant})`;
  }
}

/** Removes a slot from the program, with every slot that refers to it. */
export class Remove implements Command {
  constructor(readonly slot: string) {}
  check(model: Readonly<Model>): boolean {
    return model.selection[this.slot] !== undefined;
  }
  async run(model: Model, real: Real): Promise<void> {
    model.selection = without(model.selection, this.slot);
    real.log.push(`${this.toString()} -> ${JSON.stringify(model.selection)}`);
  }
  toString(): string {
    return `remove(${JSON.stringify(this.slot)})`;
  }
}

type HandAction = "edit" | "delete";

/** The API calls that edit or delete a resource's object by hand, per kind. */
function handCall(
  org: string,
  kind: string,
  id: string,
  outs: Props,
  action: HandAction,
): { method: string; path: string; body?: unknown } | undefined {
  const site = `/orgs/${org}/sites/${String(outs.siteId)}`;
  const paths: Record<string, [string, Record<string, unknown> | undefined] | undefined> = {
    Collection: [`/collections/${id}`, { title: "Edited by hand" }],
    Space: [`/spaces/${id}`, { title: "Edited by hand" }],
    Team: [`/orgs/${org}/teams/${id}`, { title: "Edited by hand" }],
    Site: [`/orgs/${org}/sites/${id}`, { title: "Edited by hand" }],
    SiteSection: [`${site}/sections/${id}`, { title: "Edited by hand" }],
    SiteSectionGroup: [`${site}/section-groups/${id}`, { title: "Edited by hand" }],
    SiteShareLink: [`${site}/share-links/${id}`, { active: false }],
    TeamMember: [`/orgs/${org}/teams/${String(outs.teamId)}/members/${String(outs.userId)}`, {}],
    SpacePermission: [
      `/spaces/${String(outs.spaceId)}/permissions/${outs.teamId ? `teams/${String(outs.teamId)}` : `users/${String(outs.userId)}`}`,
      { role: "admin" },
    ],
    CollectionPermission: [
      `/collections/${String(outs.collectionId)}/permissions/${outs.teamId ? `teams/${String(outs.teamId)}` : `users/${String(outs.userId)}`}`,
      { role: "admin" },
    ],
  };
  const integration = `/integrations/${String(outs.integrationName)}/installations/${String(outs.installationId)}`;
  Object.assign(paths, {
    OrganizationMember: [`/orgs/${org}/members/${String(outs.userId)}`, { role: "admin" }],
    SamlProvider: [`/orgs/${org}/saml/${id}`, { label: "Edited by hand" }],
    OpenApiSpec: [`/orgs/${org}/openapi/${String(outs.slug)}`, { visibility: "private" }],
    Translation: [`/orgs/${org}/translations/${id}`, undefined],
    GitSyncInstallation: [
      `/git/installations/${id}`,
      {
        provider: "github",
        providerConfiguration: { repositoryId: 1002, branch: "refs/heads/by-hand" },
        projectDirectory: "edited-by-hand",
      },
    ],
    IntegrationInstallation: [
      `/integrations/${String(outs.integrationName)}/installations/${id}`,
      { configuration: { workspace: "by-hand" } },
    ],
    IntegrationSiteInstallation: [
      `${integration}/sites/${String(outs.siteId)}`,
      { configuration: { project: "HAND" } },
    ],
    IntegrationSpaceInstallation: [
      `${integration}/spaces/${String(outs.spaceId)}`,
      { configuration: { project: "HAND" } },
    ],
    SiteMcpServer: [`${site}/mcp-servers/${id}`, { name: "Edited by hand" }],
    SiteChannel: [
      `${site}/channels/${id}`,
      {
        type: String(outs.type),
        setupSettings:
          outs.type === "builtin:github" ? { allowedRepositories: ["acme/by-hand"] } : { allowedChannels: ["by-hand"] },
        role: "support",
      },
    ],
    SiteContextConnection: [`${site}/context-connections/${id}`, { label: "Edited by hand", filter: "by-hand" }],
    SiteExternalLink: [`${site}/external-links/${id}`, { title: "Edited by hand" }],
    SiteRedirect: [`${site}/redirects/${id}`, { source: "/by-hand" }],
    SiteSpace: [`${site}/site-spaces/${id}`, { path: "by-hand" }],
    SiteSpaceCustomization: [
      `${site}/site-spaces/${String(outs.siteSpaceId)}/customization`,
      { title: "Edited by hand" },
    ],
    SitePermission: [
      `${site}/permissions/${outs.teamId ? `teams/${String(outs.teamId)}` : `users/${String(outs.userId)}`}`,
      { role: "admin" },
    ],
  });
  const found = paths[kind] ?? FIXED_ADDRESS[kind]?.(org, site) ?? listedAddress(org, kind, id, outs);
  if (!found) return undefined;
  const [path, edit] = found;
  if (kind === "TeamMember") return { method: "DELETE", path };
  // Settings and lists at a fixed address of their parent cannot be deleted: an edit stands for both.
  if (FIXED_ADDRESS[kind]) return { method: FIXED_ADDRESS_METHOD[kind] ?? "PUT", path, body: edit };
  // A member removed by hand can only come back by invitation, which no program makes: an edit stands for both.
  if (kind === "OrganizationMember") return { method: "PATCH", path, body: edit };
  if (action === "delete" || edit === undefined) return { method: "DELETE", path };
  return { method: "PATCH", path, body: edit };
}

/**
 * A kind with no edit above: its object deleted by hand at its listing's path and its id (the kind's listing facet),
 * as REST objects are, so a new kind is edited by hand from its facts alone. Kinds whose id is their parent's or a
 * pair have no such address.
 */
function listedAddress(org: string, kind: string, id: string, outs: Props): [string, undefined] | undefined {
  const definition = definitions.find((candidate) => candidate.kind === kind);
  if (!definition?.listing || (definition.id !== undefined && definition.id !== "own")) return undefined;
  return [`${definition.listing.path({ ...outs, organizationId: org })}/${id}`, undefined];
}

/** Kinds written at a fixed address of their parent: the path and the body of an edit by hand. */
const FIXED_ADDRESS: Readonly<Record<string, (org: string, site: string) => [string, Record<string, unknown>]>> = {
  OrganizationSettings: (org) => [`/orgs/${org}`, { title: "Edited by hand" }],
  OrganizationAgentInstructions: (org) => [
    `/orgs/${org}/agent-instructions`,
    { instructions: { object: "document", data: {}, nodes: [] } },
  ],
  TranslationGlossary: (org) => [
    `/orgs/${org}/translations-glossary`,
    { operations: [{ type: "insert", translations: { en: "by hand", fr: "à la main" } }] },
  ],
  SiteAdaptiveSchema: (_org, site) => [
    `${site}/adaptive-schema`,
    { jsonSchema: { type: "object", properties: {}, additionalProperties: false } },
  ],
  SiteAgentSettings: (_org, site) => [
    `${site}/agent-settings`,
    {
      scans: { topics: "auto" },
      findings: { changeRequests: "always" },
      editing: { customInstructions: { object: "document", data: {}, nodes: [] } },
    },
  ],
  SiteCustomization: (_org, site) => [`${site}/customization`, { styling: { theme: "muted" } }],
  // The official update requires the backend, which the app sends with every change.
  SiteVisitorAuth: (_org, site) => [
    `${site}/publishing/auth`,
    { backend: "custom", fallbackURL: "https://by-hand.example/" },
  ],
  SiteRedirects: (_org, site) => [
    `${site}/redirects`,
    { redirects: [{ source: "/by-hand", destination: { kind: "external", url: "https://by-hand.example/" } }] },
  ],
};
const FIXED_ADDRESS_METHOD: Readonly<Record<string, string>> = {
  OrganizationSettings: "PATCH",
  SiteVisitorAuth: "PATCH",
};

/** Whether the model edits a kind's objects by hand (test/model/slots.test.ts asks it of every kind). */
export function handEditable(kind: string): boolean {
  const outs = { siteId: "site", teamId: "team", userId: "user", spaceId: "space", collectionId: "collection" };
  return kind === "SiteStructure" || handCall("org", kind, "id", outs, "edit") !== undefined;
}

const STRUCTURE_ITEM_TYPES: Readonly<Record<string, string>> = {
  SiteSection: "site-section",
  SiteSectionGroup: "site-section-group",
  SiteExternalLink: "site-external-link",
};

/**
 * A site structure's edit by hand: its first top-level item moved to the end, as someone drags it in the app (both a
 * delete and an edit: the order is at its site's fixed address). Nothing to move with fewer than two items.
 */
function structureCall(real: Real, outs: Props): { method: string; path: string; body: unknown } | undefined {
  const order = Array.isArray(outs.order) ? (outs.order as string[]) : [];
  const typeOf = (id: string) => {
    const resource = [...real.engine.state.values()].find((candidate) => candidate.id === id);
    return { type: STRUCTURE_ITEM_TYPES[resource?.kind ?? ""] ?? "site-section", id };
  };
  const [first, last] = [order[0], order.at(-1)];
  if (order.length < 2 || !first || !last) return undefined;
  return {
    method: "PATCH",
    path: `/orgs/${real.fixtures.org}/sites/${String(outs.siteId)}/structure/sort`,
    body: { item: typeOf(first), position: { after: typeOf(last) } },
  };
}

/** Edits or deletes the object of a resource the state holds, straight through the API. */
export class ByHand implements Command {
  constructor(
    readonly slot: string,
    readonly action: HandAction,
  ) {}
  check(): boolean {
    return true;
  }
  async run(model: Model, real: Real): Promise<void> {
    const resource = real.engine.state.get(this.slot);
    const call =
      resource?.kind === "SiteStructure"
        ? structureCall(real, resource.outs)
        : resource && handCall(real.fixtures.org, resource.kind, resource.id, resource.outs, this.action);
    if (!resource || !call) {
      real.log.push(`${this.toString()}: nothing to do`);
      return;
    }
    let body = call.body;
    if (resource.kind === "SiteCustomization") {
      // The API has only the full replacement: what the site has, with the edit.
      const { updatedAt: _updatedAt, ...current } = (await callApi(real.emulator, "GET", call.path)).body;
      body = { ...current, styling: { ...current.styling, theme: "muted" } };
    }
    const answer = await callApi(real.emulator, call.method, call.path, body);
    real.log.push(`${this.toString()}: ${call.method} ${call.path} -> ${answer.status}`);
    // 404: an earlier edit by hand removed it already (or its parent).
    if (answer.status === 404) return;
    expect(answer.status, `${call.method} ${call.path}: ${answer.text}`).toBeLessThan(300);
    model.drift = true;
  }
  toString(): string {
    return `byHand(${JSON.stringify(this.slot)}, ${JSON.stringify(this.action)})`;
  }
}

export type FaultKind = "lost" | "429" | "503" | "reset";

/** Faults the next run of the engine meets: after `skip` requests (of `method`, if given), `count` of them fail. */
export class Fault implements Command {
  constructor(
    readonly kind: FaultKind,
    readonly method: string | undefined,
    readonly skip: number,
    readonly count: number,
  ) {}
  check(): boolean {
    return true;
  }
  async run(_model: Model, real: Real): Promise<void> {
    const match = { path: "^/v1/", ...(this.method ? { method: this.method } : {}) };
    // Faults apply first match first: a fault that only waits 0 ms lets the first `skip` requests through.
    if (this.skip > 0) real.pendingFaults.push({ ...match, count: this.skip, latencyMs: 0 });
    const effect: Partial<FaultSpec> =
      this.kind === "lost"
        ? { afterHandling: "drop" }
        : this.kind === "reset"
          ? { drop: true }
          : { status: Number(this.kind) };
    real.pendingFaults.push({ ...match, count: this.count, ...effect });
    real.log.push(this.toString());
  }
  toString(): string {
    return `fault(${JSON.stringify(this.kind)}, ${JSON.stringify(this.method)}, ${this.skip}, ${this.count})`;
  }
}

/**
 * `pulumi up` of the selection; in two runs where one would fail on SiteStructure's rule (./program.ts,
 * removesUnderStructure), as a user applies such a change.
 */
async function up(real: Real, selection: Selection): Promise<RunResult> {
  if (removesUnderStructure(selection, real.engine.state.keys())) {
    const { structureA: _structure, ...withoutStructure } = selection;
    markRun(real);
    const first = await real.engine.up(render(withoutStructure, real.fixtures));
    logRun(real, `  without the structure first: ${describe(first)}`, first);
    if (!first.ok) return first;
    real.steps += first.steps.length;
  }
  markRun(real);
  return real.engine.up(render(selection, real.fixtures));
}

/** `pulumi up`, or `pulumi up --refresh`. */
export class Up implements Command {
  constructor(readonly refresh: boolean) {}
  check(): boolean {
    return true;
  }
  async run(model: Model, real: Real): Promise<void> {
    const { result, faulted } = await withFaults(real, async () => {
      if (this.refresh) {
        markRun(real);
        const refreshed = await real.engine.refresh();
        if (!refreshed.ok) return refreshed;
        model.drift = false;
      }
      return up(real, model.selection);
    });
    real.steps += result.steps.length;
    logRun(real, `${this.toString()}${faulted ? " (faults)" : ""}: ${describe(result)}`, result);
    await excuseUnresolvedCreate(real, result);
    if (!faulted && !model.drift) mustSucceed(real, "up", result);
    if (!result.ok) model.drift = true;
    if (result.ok && !model.drift) await expectConverged(real, model.selection);
  }
  toString(): string {
    return `up(${this.refresh})`;
  }
}

export class Refresh implements Command {
  check(): boolean {
    return true;
  }
  async run(model: Model, real: Real): Promise<void> {
    const { result, faulted } = await withFaults(real, () => {
      markRun(real);
      return real.engine.refresh();
    });
    real.steps += result.steps.length;
    logRun(real, `${this.toString()}${faulted ? " (faults)" : ""}: ${describe(result)}`, result);
    if (!faulted) mustSucceed(real, "refresh", result);
    if (result.ok) model.drift = false;
  }
  toString(): string {
    return "refresh()";
  }
}

export class Destroy implements Command {
  check(): boolean {
    return true;
  }
  async run(model: Model, real: Real): Promise<void> {
    const { result, faulted } = await withFaults(real, () => {
      markRun(real);
      return real.engine.destroy();
    });
    real.steps += result.steps.length;
    logRun(real, `${this.toString()}${faulted ? " (faults)" : ""}: ${describe(result)}`, result);
    if (!faulted) mustSucceed(real, "destroy", result);
    if (!result.ok) model.drift = true;
    if (result.ok) await expectConverged(real, {});
  }
  toString(): string {
    return "destroy()";
  }
}

/**
 * After the commands, with faults off: a refresh where the API drifted, then an `up` must converge, and a destroy must
 * leave nothing the program made.
 */
export async function finish(model: Model, real: Real): Promise<void> {
  real.pendingFaults = [];
  if (model.drift) {
    markRun(real);
    const refreshed = await real.engine.refresh();
    logRun(real, `final refresh: ${describe(refreshed)}`, refreshed);
    mustSucceed(real, "the final refresh", refreshed);
  }
  const applied = await up(real, model.selection);
  logRun(real, `final up: ${describe(applied)}`, applied);
  mustSucceed(real, "the final up", applied);
  await expectConverged(real, model.selection);
  markRun(real);
  const destroyed = await real.engine.destroy();
  logRun(real, `final destroy: ${describe(destroyed)}`, destroyed);
  mustSucceed(real, "the final destroy", destroyed);
  await expectConverged(real, {});
  real.steps += applied.steps.length + destroyed.steps.length;
}

/** Every command the generator makes, weighted towards program changes and runs. */
export function commandArbitraries(): fc.Arbitrary<Command>[] {
  const slot = fc.constantFrom(...SLOT_NAMES);
  const declare = slot.chain((name) =>
    fc.integer({ min: 0, max: variantCount(name) - 1 }).map((variant) => new Declare(name, variant)),
  );
  const fault = fc
    .record({
      kind: fc.constantFrom<FaultKind>("lost", "429", "503", "reset"),
      method: fc.constantFrom(undefined, undefined, "GET", "POST", "PATCH", "PUT", "DELETE"),
      skip: fc.constantFrom(0, 0, 1, 2, 3, 5, 8),
      // Beyond the client's 3 attempts a request fails for good, and its operation with it; 8 is an outage.
      count: fc.constantFrom(1, 2, 3, 4, 8),
    })
    .map((f) => new Fault(f.kind, f.method, f.skip, f.count));
  const handEdit = fc
    .tuple(slot, fc.constantFrom<HandAction>("edit", "delete"))
    .map(([name, action]) => new ByHand(name, action));
  const up = fc.boolean().map((refresh) => new Up(refresh));
  // fc.commands picks uniformly among these: repeats weigh program changes and runs above the rest.
  return [
    ...Array<fc.Arbitrary<Command>>(6).fill(declare),
    slot.map((name) => new Remove(name)),
    handEdit,
    handEdit,
    fault,
    fault,
    up,
    up,
    up,
    fc.constant(new Refresh()),
    fc.constant(new Destroy()),
  ];
}

/** Runs a command list (a shrunk case) and the final checks, as the property does. */
export async function replay(
  emulator: RunningEmulator,
  commands: readonly Command[],
  route: RouteName = "dynamic",
  trace = false,
): Promise<Real> {
  const real = await newReal(emulator, route, undefined, trace);
  const model = newModel();
  for (const command of commands) if (command.check(model)) await command.run(model, real);
  await finish(model, real);
  return real;
}
