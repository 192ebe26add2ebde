import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import type { Props } from "../../provider/framework/kind";
import { TEAMS_LISTED_ALONE } from "../../provider/resources/teamMembership";
import { lifecycle, startOperation } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";

/**
 * Request budgets of a fixed mixed program: the bench's own shape (bench/program/shape.js, 14 resources of 10 kinds
 * per unit), declared through the runtime's lifecycle calls as the engine would make them. Request counts are exact,
 * so a change that adds a request to any operation fails here.
 */
const require = createRequire(__filename);
const { declare } = require("../../bench/program/shape.js") as {
  declare: (kinds: Record<string, unknown>, options: Record<string, unknown>) => Declared[];
};

// Three units: six teams whose membership a refresh reads, more than TEAMS_LISTED_ALONE, so the refresh switches to
// the members' team listings.
const UNITS = 3;
const N = 14 * UNITS;

const fixture = useEmulator();

/** A resource the shape declared: its kind and its inputs, where `{ ref }` stands for an earlier resource's id. */
interface Declared {
  name: string;
  kind: string;
  props: Props;
  id: { ref: number };
}

interface Managed {
  name: string;
  kind: string;
  id: string;
  inputs: Props;
  state: Props;
}

/** Stand-ins for the package's classes: they record what the program declares instead of registering it. */
function recordingKinds() {
  let count = 0;
  const make = (kind: string) =>
    function (this: Declared, name: string, props: Props) {
      Object.assign(this, { name, kind, props, id: { ref: count++ } });
    };
  return new Proxy({}, { get: (_target, kind: string) => make(kind) });
}

function resolve(value: unknown, ids: string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => resolve(item, ids));
  if (value && typeof value === "object") {
    if ("ref" in value) return ids[(value as { ref: number }).ref];
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolve(item, ids)]));
  }
  return value;
}

/** Requests since the last reset: all of them, and the writes. */
function sent() {
  const calls = fixture.calls();
  return { all: calls, writes: calls.filter((call) => !call.startsWith("GET ")) };
}

/** Creates the program's resources in dependency order, noting each create's requests. */
async function upFromScratch() {
  const { emulator } = fixture;
  const options = { n: N, organizationId: emulator.organizationId, spaceIds: emulator.spaceIds };
  const declared = declare(recordingKinds(), { ...options, userIds: emulator.userIds, rename: false });
  const ids: string[] = [];
  const managed: Managed[] = [];
  const createRequests: Record<string, string[]> = {};
  for (const resource of declared) {
    const provider = lifecycle(resource.kind);
    const checkedInputs = await provider.check({}, resolve(resource.props, ids) as Props);
    expect(checkedInputs.failures ?? [], resource.name).toEqual([]);
    fixture.emulator.clearRequests();
    const result = await provider.create(checkedInputs.inputs as Props);
    // Unit 0's creates (every unit's are the same), `…` standing for ids.
    if (resource.name.startsWith("u0-")) {
      const requests = sent().all.map((call) => call.replace(/\/[A-Za-z0-9]{20}/g, "/…"));
      createRequests[`${resource.kind} ${resource.name.slice(3)}`] = requests;
    }
    ids.push(result.id);
    managed.push({
      name: resource.name,
      kind: resource.kind,
      id: result.id,
      inputs: checkedInputs.inputs as Props,
      state: result.outs as Props,
    });
  }
  return { managed, createRequests };
}

/** Runs `task` over the resources `parallel` at a time, as the engine does with `--parallel`. */
async function pooled<T>(items: T[], parallel: number, task: (item: T) => Promise<void>) {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await task(item);
    }),
  );
}

// Each test creates the whole program through the emulator: on a loaded machine that takes longer than the default.
describe("request budgets of the bench's program shape", { timeout: 60_000 }, () => {
  it("create sends what each kind documents; preview, an unchanged up, a no-op update 0; refresh one listing per parent and kind", async () => {
    const { managed, createRequests } = await upFromScratch();
    expect(createRequests).toEqual({
      "Collection handbook": ["POST /v1/orgs/…/collections", "PATCH /v1/collections/…"],
      "Collection engineering": ["POST /v1/orgs/…/collections"],
      "Collection onboarding": ["POST /v1/orgs/…/collections"],
      "Site docs": ["POST /v1/orgs/…/sites"],
      "SiteSection guides": ["POST /v1/orgs/…/sites/…/sections"],
      "SiteSection api-reference": ["POST /v1/orgs/…/sites/…/sections"],
      // The declared sectionIds are an order: the group is read back once, and sorted only when the API's differs.
      "SiteSectionGroup product": ["POST /v1/orgs/…/sites/…/section-groups", "GET /v1/orgs/…/sites/…/structure"],
      "SiteShareLink review-link": ["POST /v1/orgs/…/sites/…/share-links"],
      // A new team has no members to list first: the bulk change, then the membership as the API reports it.
      "Team writers": ["PUT /v1/orgs/…/teams", "PUT /v1/orgs/…/teams/…/members", "GET /v1/orgs/…/teams/…/members"],
      "Team reviewers": ["PUT /v1/orgs/…/teams"],
      "SamlProvider okta": ["POST /v1/orgs/…/saml"],
      "TeamMember reviewer": ["PUT /v1/orgs/…/teams/…/members/…", "GET /v1/orgs/…/teams/…/members"],
      "SiteShareLink partner-link": ["POST /v1/orgs/…/sites/…/share-links"],
      // Created, then read until processed (the emulator processes at once).
      "OpenApiSpec petstore": ["POST /v1/orgs/…/openapi", "GET /v1/orgs/…/openapi/petstore-0"],
    });

    // preview and an unchanged up: check and diff of every resource, offline.
    fixture.emulator.clearRequests();
    for (const resource of managed) {
      const provider = lifecycle(resource.kind);
      const checkedInputs = await provider.check(resource.inputs, resource.inputs);
      const diff = await provider.diff(resource.id, resource.state, checkedInputs.inputs as Props);
      expect(diff.changes, resource.name).toBe(false);
      // The engine calls no update then; one that changes nothing sends nothing anyway.
      await provider.update(resource.id, resource.state, checkedInputs.inputs as Props);
    }
    expect(sent().all).toEqual([]);

    // refresh in a new provider process: every read at once, 8 at a time as `--parallel 8` sends them.
    startOperation();
    fixture.emulator.clearRequests();
    await pooled(managed, 8, async (resource) => {
      const read = await lifecycle(resource.kind).read(resource.id, resource.state);
      expect(read.id, resource.name).toBe(resource.id);
      expect(read.props, resource.name).toEqual(resource.state);
    });
    const counts = fixture.emulator.counters();
    // Organization level: one listing each of collections, sites, teams, SAML providers and OpenAPI specs. Per site:
    // its structure (sections with their site spaces, and section groups) and its share links. Team membership (the
    // writers' declared `members`, the reviewers' TeamMember): the first TEAMS_LISTED_ALONE teams listed alone, then
    // the organization's members and the team listing of each of the 3 members in a team, which cover all the rest.
    expect(counts).toEqual({
      "GET /v1/orgs/{organizationId}/collections": 1,
      "GET /v1/orgs/{organizationId}/sites": 1,
      "GET /v1/orgs/{organizationId}/teams": 1,
      "GET /v1/orgs/{organizationId}/saml": 1,
      "GET /v1/orgs/{organizationId}/openapi": 1,
      "GET /v1/orgs/{organizationId}/sites/{siteId}/structure": UNITS,
      "GET /v1/orgs/{organizationId}/sites/{siteId}/share-links": UNITS,
      "GET /v1/orgs/{organizationId}/teams/{teamId}/members": TEAMS_LISTED_ALONE,
      "GET /v1/orgs/{organizationId}/members": 1,
      "GET /v1/orgs/{organizationId}/members/{userId}/teams": 3,
    });
    expect(sent().all.length).toBe(5 + 2 * UNITS + TEAMS_LISTED_ALONE + 1 + 3);
  });

  it("adopting every kind with the inputs it has sends no write", async () => {
    const { managed } = await upFromScratch();
    startOperation();
    for (const resource of managed) {
      fixture.emulator.clearRequests();
      const result = await lifecycle(resource.kind).create({ ...resource.inputs, importId: resource.id });
      expect(result.id, resource.name).toBe(resource.id);
      expect(sent().writes, resource.name).toEqual([]);
    }
  });

  it("a refresh through the listings sees drift and deletions, and reads alone when a listing fails", async () => {
    const { managed } = await upFromScratch();
    const org = fixture.org();
    const find = (name: string) => {
      const found = managed.find((resource) => resource.name === name);
      if (!found) throw new Error(`${name} is not in the shape`);
      return found;
    };
    const renamedTeam = find("u0-reviewers");
    const deletedTeam = find("u1-reviewers");
    const renamedSaml = find("u0-okta");
    expect((await fixture.api("PATCH", `/orgs/${org}/teams/${renamedTeam.id}`, { title: "By hand" })).status).toBe(200);
    expect((await fixture.api("DELETE", `/orgs/${org}/teams/${deletedTeam.id}`)).status).toBeLessThan(300);
    expect((await fixture.api("PATCH", `/orgs/${org}/saml/${renamedSaml.id}`, { label: "By hand" })).status).toBe(200);
    // Membership changed by hand, in teams read alone and in teams read through the members' team listings.
    const [ada, grace, linus] = fixture.emulator.userIds as [string, string, string];
    const writers0 = find("u0-writers");
    const writers2 = find("u2-writers");
    const reviewers2 = find("u2-reviewers");
    expect((await fixture.api("DELETE", `/orgs/${org}/teams/${writers0.id}/members/${grace}`)).status).toBeLessThan(
      300,
    );
    expect((await fixture.api("PUT", `/orgs/${org}/teams/${writers2.id}/members/${linus}`, {})).status).toBeLessThan(
      300,
    );
    const promote = await fixture.api("PUT", `/orgs/${org}/teams/${reviewers2.id}/members/${linus}`, { role: "owner" });
    expect(promote.status).toBeLessThan(300);
    // The SAML listing fails on every attempt: each SAML provider is read alone instead.
    fixture.emulator.injectFault({ method: "GET", path: "/saml$", count: 3, status: 503 });
    startOperation();
    fixture.emulator.clearRequests();
    const reads = new Map<string, Awaited<ReturnType<ReturnType<typeof lifecycle>["read"]>>>();
    await pooled(managed, 8, async (resource) => {
      reads.set(resource.name, await lifecycle(resource.kind).read(resource.id, resource.state));
    });
    expect(reads.get("u0-reviewers")?.props).toMatchObject({ title: "By hand" });
    expect(reads.get("u1-reviewers")?.id).toBe("");
    expect(reads.get("u0-okta")?.props).toMatchObject({ label: "By hand" });
    expect(reads.get("u0-writers")?.props).toMatchObject({ members: [{ user: ada, role: "owner" }] });
    expect(reads.get("u2-writers")?.props).toMatchObject({
      members: [
        { user: ada, role: "owner" },
        { user: grace, role: "member" },
        { user: linus, role: "member" },
      ],
    });
    expect(reads.get("u2-reviewer")?.props).toMatchObject({ role: "owner" });
    const drifted = ["u0-reviewers", "u1-reviewers", "u0-okta", "u0-writers", "u2-writers", "u2-reviewer"];
    const unchanged = managed.filter((r) => !drifted.includes(r.name));
    // The deleted team's TeamMember is gone with it.
    for (const resource of unchanged.filter((r) => r.name !== "u1-reviewer")) {
      expect(reads.get(resource.name)?.props, resource.name).toEqual(resource.state);
    }
    expect(reads.get("u1-reviewer")?.id).toBe("");
    const counts = fixture.emulator.counters();
    expect(counts["GET /v1/orgs/{organizationId}/saml"]).toBe(3);
    expect(counts["GET /v1/orgs/{organizationId}/saml/{samlProviderId}"]).toBe(UNITS);
    expect(counts["GET /v1/orgs/{organizationId}/teams"]).toBe(1);
    expect(counts["GET /v1/orgs/{organizationId}/teams/{teamId}"]).toBeUndefined();
    // Six teams' membership is read (the deleted team's TeamMember's too): four alone, the rest by member.
    expect(counts["GET /v1/orgs/{organizationId}/teams/{teamId}/members"]).toBe(TEAMS_LISTED_ALONE);
    expect(counts["GET /v1/orgs/{organizationId}/members/{userId}/teams"]).toBe(3);
  });
});
