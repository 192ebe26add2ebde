import { describe, expect, it } from "vitest";
import type { Props } from "../../provider/framework/kind";
import { UNKNOWN } from "../../provider/framework/unknown";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { created, describeLifecycle, expectEachLimitRejected, type LimitCase, updateTo } from "../support/lifecycle";

const fixture = useEmulator();
const email = (i: number) => fixture.emulator.store.users.get(fixture.user(i))!.email;
const provider = () => lifecycle("Team");

/** The team's members as the API lists them: user id → role. */
async function apiMembers(teamId: string): Promise<Record<string, string>> {
  const answer = await fixture.api("GET", `/orgs/${fixture.org()}/teams/${teamId}/members`);
  expect(answer.status).toBe(200);
  const items = (answer.body as { items: { organization: { user: { id: string } }; team: { role: string } }[] }).items;
  return Object.fromEntries(items.map((i) => [i.organization.user.id, i.team.role]));
}

const bulkPuts = () =>
  fixture.emulator.requests().filter((r) => r.method === "PUT" && /\/teams\/[^/]+\/members$/.test(r.path));

describeLifecycle(
  {
    kind: "Team",
    inputs: () => ({
      organizationId: fixture.org(),
      title: "Writers",
      members: [{ user: fixture.user(0) }, { user: email(1), role: "owner" }],
    }),
    created: (state) => {
      expect(state).toMatchObject({ organizationId: fixture.org(), title: "Writers" });
      // Grace was declared by email: the state keeps her email although the API reports her user id.
      expect(state.members).toEqual([
        { user: fixture.user(0), role: "member" },
        { user: email(1), role: "owner" },
      ]);
    },
    updates: [
      updateTo("title", "Editors"),
      {
        name: "members (add, remove and change a role in one request)",
        inputs: (_f, prev) => ({ ...prev, members: [{ user: email(1) }, { user: fixture.user(2), role: "owner" }] }),
        expect: async (state) => {
          expect(state.members).toEqual([
            { user: email(1), role: "member" },
            { user: fixture.user(2), role: "owner" },
          ]);
          const teamId = bulkPuts()[0]!.path.split("/")[5]!;
          expect(await apiMembers(teamId)).toEqual({ [fixture.user(1)]: "member", [fixture.user(2)]: "owner" });
          // One request for the change; user ids (not the declared email) key `memberships`.
          expect(bulkPuts()).toHaveLength(2);
          expect(bulkPuts()[1]!.requestBody).toEqual({
            add: [fixture.user(2)],
            remove: [fixture.user(0)],
            memberships: { [fixture.user(1)]: { role: "member" }, [fixture.user(2)]: { role: "owner" } },
          });
        },
      },
      updateTo("members", [], "members (emptied)"),
    ],
    replaces: [
      {
        property: "organizationId",
        inputs: (f, prev) => ({ ...prev, organizationId: f.emulator.secondOrganizationId }),
      },
    ],
    outOfBand: {
      change: async (id) => {
        expect(
          (await fixture.api("PUT", `/orgs/${fixture.org()}/teams/${id}/members/${fixture.user(2)}`, {})).status,
        ).toBe(204);
      },
      expect: (state) => expect(state.members).toContainEqual({ user: fixture.user(2), role: "member" }),
    },
    adopt: {
      existing: () => fixture.makeTeam("Legacy", [fixture.user(0)]),
      inputs: () => ({ organizationId: fixture.org(), title: "Adopted", members: [{ user: email(0) }] }),
      expect: (state) => {
        expect(state).toMatchObject({ title: "Adopted", members: [{ user: email(0), role: "member" }] });
        // Ada is already the only member: adoption renames the team and leaves its membership alone.
        expect(bulkPuts()).toEqual([]);
      },
    },
  },
  fixture,
);

describe("Team members", () => {
  it("leaves membership alone when members is omitted, and never spends a request listing them", async () => {
    const { id, state, inputs } = await created("Team", { organizationId: fixture.org(), title: "Loose" });
    expect(state.members).toEqual([]);
    expect(bulkPuts()).toEqual([]);
    await fixture.api("PUT", `/orgs/${fixture.org()}/teams/${id}/members/${fixture.user(1)}`, { role: "owner" });
    fixture.emulator.clearRequests();
    const read = await provider().read(id, state);
    expect(fixture.calls()).toEqual([`GET /v1/orgs/${fixture.org()}/teams`]);
    expect(read.props).toMatchObject({ members: [] });
    expect((await provider().diff(id, read.props as Props, inputs)).changes).toBe(false);
    fixture.emulator.clearRequests();
    const { outs } = await provider().update(id, read.props as Props, { ...inputs, title: "Renamed" });
    expect(fixture.calls()).toEqual([`PATCH /v1/orgs/${fixture.org()}/teams/${id}`]);
    expect(outs).toMatchObject({ title: "Renamed", members: [] });
    expect(await apiMembers(id)).toEqual({ [fixture.user(1)]: "owner" });
  });

  it("resolves a new member declared by email through the organization's members", async () => {
    const { id, state } = await created("Team", {
      organizationId: fixture.org(),
      title: "Newcomers",
      members: [{ user: email(2), role: "owner" }],
    });
    expect(state.members).toEqual([{ user: email(2), role: "owner" }]);
    expect(bulkPuts().map((r) => r.requestBody)).toEqual([
      { add: [fixture.user(2)], memberships: { [fixture.user(2)]: { role: "owner" } } },
    ]);
    expect(fixture.emulator.counters()["GET /v1/orgs/{organizationId}/members"]).toBe(1);
    expect(await apiMembers(id)).toEqual({ [fixture.user(2)]: "owner" });
  });

  it("compares members regardless of order and of the case of emails", async () => {
    const members = [{ user: fixture.user(0) }, { user: email(1).toUpperCase(), role: "owner" }];
    const { id, state, inputs } = await created("Team", { organizationId: fixture.org(), title: "Order", members });
    const read = await provider().read(id, state);
    expect(read.props).toEqual(state);
    const reversed = { ...inputs, members: [...(inputs.members as Props[])].reverse() };
    expect((await provider().diff(id, read.props as Props, reversed)).changes).toBe(false);
  });

  it("sees a changed role as drift and puts it back", async () => {
    const { id, state, inputs } = await created("Team", {
      organizationId: fixture.org(),
      title: "Roles",
      members: [{ user: fixture.user(0), role: "owner" }],
    });
    await fixture.api("PUT", `/orgs/${fixture.org()}/teams/${id}/members/${fixture.user(0)}`, { role: "member" });
    const read = await provider().read(id, state);
    expect((await provider().diff(id, read.props as Props, inputs)).changes).toBe(true);
    await provider().update(id, read.props as Props, inputs);
    expect(await apiMembers(id)).toEqual({ [fixture.user(0)]: "owner" });
  });

  it("fails with the API's answer naming a user outside the organization, and removes the new team", async () => {
    const inputs = {
      organizationId: fixture.org(),
      title: "Strangers",
      members: [{ user: "nobody@elsewhere.example" }],
    };
    await expect(created("Team", inputs)).rejects.toThrow(
      /Team create: PUT \/v1\/orgs\/[^/]+\/teams\/[^/]+\/members failed with 400.*nobody@elsewhere\.example/,
    );
    expect((await fixture.api("GET", `/orgs/${fixture.org()}/teams`)).body).toMatchObject({ items: [] });
  });
});

describe("Team errors", () => {
  const createPuts = () => fixture.calls().filter((call) => /^PUT \/v1\/orgs\/[^/]+\/teams$/.test(call));

  it("repeats the create PUT after a 5xx only once a lookup found no team it made, and after a 429", async () => {
    fixture.emulator.injectFault({ method: "PUT", path: "^/v1/orgs/[^/]+/teams$", count: 1, status: 503 });
    await created("Team", { organizationId: fixture.org(), title: "Once" });
    expect(fixture.calls().filter((call) => /\/teams$/.test(call))).toEqual([
      `PUT /v1/orgs/${fixture.org()}/teams`,
      `GET /v1/orgs/${fixture.org()}/teams`,
      `PUT /v1/orgs/${fixture.org()}/teams`,
    ]);
    fixture.emulator.clearRequests();
    fixture.emulator.injectFault({
      method: "PUT",
      path: "^/v1/orgs/[^/]+/teams$",
      count: 1,
      status: 429,
      retryAfter: "0",
    });
    await created("Team", { organizationId: fixture.org(), title: "Twice" });
    expect(createPuts()).toHaveLength(2);
  });

  it("reports the API's answer, not the cleanup's, when removing the half-made team fails too", async () => {
    fixture.emulator.injectFault({ method: "DELETE", path: "^/v1/orgs/[^/]+/teams/[^/]+$", count: 3, status: 500 });
    const inputs = {
      organizationId: fixture.org(),
      title: "Strangers",
      members: [{ user: "nobody@elsewhere.example" }],
    };
    await expect(created("Team", inputs)).rejects.toThrow(
      /Team create: PUT \/v1\/orgs\/[^/]+\/teams\/[^/]+\/members failed with 400.*nobody@elsewhere\.example/,
    );
  });
});

describe("Team check", () => {
  const check = (news: Record<string, unknown>) => provider().check({}, news);

  it("rejects each limit with the property and the rule, without calling the API", async () => {
    const cases: LimitCase[] = [
      [{ title: "" }, "title", /at least 1 character/],
      [{ title: "x".repeat(65) }, "title", /at most 64 characters/],
      [{ members: [{ user: "" }] }, "members.0.user", /at least 1 character/],
      [{ members: [{ user: "u1", role: "admin" }] }, "members.0.role", /must be one of "owner", "member"/],
      // The framework names the object holding an unknown key (the reason names the key).
      [{ members: [{ user: "u1", rank: "owner" }] }, "members.0", /unknown property rank/],
      [{ members: [{ user: "A@x.example" }, { user: "a@X.example" }] }, "members.1.user", /lists a user twice/],
      [{ members: "u1" }, "members", /must be an array/],
      [{ organizationId: "" }, "organizationId", /must be an id/],
    ];
    await expectEachLimitRejected("Team", { organizationId: fixture.org(), title: "ok" }, cases);
    expect(fixture.emulator.requests()).toEqual([]);
  });

  it("accepts values at the exact limits, and defaults a member's role to member", async () => {
    for (const title of ["x", "x".repeat(64)]) {
      expect((await check({ organizationId: fixture.org(), title })).failures).toBeUndefined();
    }
    const result = await check({
      organizationId: fixture.org(),
      title: "ok",
      members: [{ user: "u1" }, { user: "U1" }],
    });
    expect(result.failures).toBeUndefined();
    expect(result.inputs).toMatchObject({
      members: [
        { user: "u1", role: "member" },
        { user: "U1", role: "member" },
      ],
    });
    const { state } = await created("Team", { organizationId: fixture.org(), title: "x".repeat(64), members: [] });
    expect(state.title).toBe("x".repeat(64));
  });

  it("lets unknown values through during preview", async () => {
    const result = await check({
      organizationId: UNKNOWN,
      title: "ok",
      members: [{ user: UNKNOWN }, { user: UNKNOWN }],
    });
    expect(result.failures).toBeUndefined();
  });
});
