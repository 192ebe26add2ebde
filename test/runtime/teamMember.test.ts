import { describe, expect, it } from "vitest";
import type { Props } from "../../provider/framework/kind";
import { UNKNOWN } from "../../provider/framework/unknown";
import { lifecycle, startOperation } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { created, describeLifecycle, expectEachLimitRejected, type LimitCase } from "../support/lifecycle";

const fixture = useEmulator();
const provider = () => lifecycle("TeamMember");

async function roles(teamId: string): Promise<Record<string, string>> {
  const answer = await fixture.api("GET", `/orgs/${fixture.org()}/teams/${teamId}/members`);
  const items = (answer.body as { items: { organization: { user: { id: string } }; team: { role: string } }[] }).items;
  return Object.fromEntries(items.map((i) => [i.organization.user.id, i.team.role]));
}

/** The team made by the adoption row's `existing`, which its `inputs` must name. */
let adoptedTeam = "none-yet";

describeLifecycle(
  {
    kind: "TeamMember",
    inputs: async () => ({
      organizationId: fixture.org(),
      teamId: await fixture.makeTeam("Ops"),
      userId: fixture.user(1),
      role: "owner",
    }),
    created: (state) =>
      expect(state).toMatchObject({ organizationId: fixture.org(), userId: fixture.user(1), role: "owner" }),
    updates: [
      {
        name: "role",
        inputs: (_f, prev) => ({ ...prev, role: "member" }),
        expect: async (state) => {
          expect(state.role).toBe("member");
          expect(await roles(state.teamId as string)).toEqual({ [fixture.user(1)]: "member" });
        },
      },
    ],
    replaces: [
      { property: "teamId", inputs: async (_f, prev) => ({ ...prev, teamId: await fixture.makeTeam("Other") }) },
      { property: "userId", inputs: (_f, prev) => ({ ...prev, userId: fixture.user(2) }) },
      {
        property: "organizationId",
        inputs: (f, prev) => ({ ...prev, organizationId: f.emulator.secondOrganizationId }),
      },
    ],
    outOfBand: {
      change: async (id) => {
        const [teamId, userId] = id.split("/");
        const answer = await fixture.api("PUT", `/orgs/${fixture.org()}/teams/${teamId}/members/${userId}`, {
          role: "member",
        });
        expect(answer.status).toBe(204);
      },
      expect: (state) => expect(state.role).toBe("member"),
    },
    adopt: {
      missing: "does-not-exist/nobody",
      existing: async () => {
        adoptedTeam = await fixture.makeTeam("Legacy", [fixture.user(0)]);
        return `${adoptedTeam}/${fixture.user(0)}`;
      },
      inputs: () => ({ organizationId: fixture.org(), teamId: adoptedTeam, userId: fixture.user(0), role: "owner" }),
      expect: (state) => expect(state).toMatchObject({ teamId: adoptedTeam, userId: fixture.user(0), role: "owner" }),
    },
  },
  fixture,
);

describe("TeamMember", () => {
  it("is identified by <teamId>/<userId>, and deleting it removes only that member", async () => {
    const teamId = await fixture.makeTeam("Pair", [fixture.user(0)]);
    const { id, state } = await created("TeamMember", {
      organizationId: fixture.org(),
      teamId,
      userId: fixture.user(2),
    });
    expect(id).toBe(`${teamId}/${fixture.user(2)}`);
    await provider().delete(id, state);
    expect(await roles(teamId)).toEqual({ [fixture.user(0)]: "member" });
  });

  it("leaves the role to the API when it is omitted, and does not manage it", async () => {
    const teamId = await fixture.makeTeam("Plain");
    const { id, state, inputs } = await created("TeamMember", {
      organizationId: fixture.org(),
      teamId,
      userId: fixture.user(1),
    });
    expect(state.role).toBe("member");
    const put = fixture.emulator
      .requests()
      .find((r) => r.method === "PUT" && r.path.endsWith(`/members/${fixture.user(1)}`));
    expect(put?.requestBody).toEqual({});
    await fixture.api("PUT", `/orgs/${fixture.org()}/teams/${teamId}/members/${fixture.user(1)}`, { role: "owner" });
    const read = await provider().read(id, state);
    expect(read.props).toMatchObject({ role: "owner" });
    expect((await provider().diff(id, read.props as Props, inputs)).changes).toBe(false);
  });

  it("deletes before replacing, since the old and the new membership may be the same pair", async () => {
    const olds = { organizationId: "o1", teamId: "t1", userId: "u1", role: "member" };
    const diff = await provider().diff("t1/u1", olds, { ...olds, organizationId: "o2" });
    expect(diff).toMatchObject({ replaces: ["organizationId"], deleteBeforeReplace: true });
  });

  it("is gone when its team is deleted", async () => {
    const teamId = await fixture.makeTeam("Doomed");
    const { id, state } = await created("TeamMember", {
      organizationId: fixture.org(),
      teamId,
      userId: fixture.user(0),
    });
    expect((await fixture.api("DELETE", `/orgs/${fixture.org()}/teams/${teamId}`)).status).toBe(205);
    expect((await provider().read(id, state)).id).toBe("");
    await provider().delete(id, state);
  });

  it("reads the members of one team from one listing during a refresh", async () => {
    const teamId = await fixture.makeTeam("Shared", [fixture.user(0), fixture.user(1), fixture.user(2)]);
    startOperation();
    fixture.emulator.clearRequests();
    for (const i of [0, 1, 2]) {
      const known = { organizationId: fixture.org(), teamId, userId: fixture.user(i), role: "member" };
      expect((await provider().read(`${teamId}/${fixture.user(i)}`, known)).props).toMatchObject(known);
    }
    expect(fixture.emulator.counters()["GET /v1/orgs/{organizationId}/teams/{teamId}/members"]).toBe(1);
  });

  it("fails adoption of an importId that is not <teamId>/<userId>, naming the format", async () => {
    const teamId = await fixture.makeTeam("Strict", [fixture.user(0)]);
    const inputs = { organizationId: fixture.org(), teamId, userId: fixture.user(0), importId: fixture.user(0) };
    await expect(provider().create(inputs)).rejects.toThrow(
      /importId ".+" names no existing TeamMember.*<teamId>\/<userId>/,
    );
  });
});

describe("TeamMember check", () => {
  const check = (news: Record<string, unknown>) => provider().check({}, news);
  const base = () => ({ organizationId: fixture.org(), teamId: "t1", userId: "u1" });

  it("rejects each limit with the property and the rule, without calling the API", async () => {
    const cases: LimitCase[] = [
      [{ teamId: "" }, "teamId", /must be an id/],
      [{ userId: "" }, "userId", /must be an id/],
      [{ userId: "ada@example.com" }, "userId", /must be a user id, not an email/],
      [{ role: "admin" }, "role", /must be one of "owner", "member"/],
      [{ organizationId: "" }, "organizationId", /must be an id/],
      [{ user: "u1" }, "user", /unknown property user/],
    ];
    await expectEachLimitRejected("TeamMember", base(), cases);
    expect(fixture.emulator.requests()).toEqual([]);
  });

  it("accepts the shortest ids and both roles", async () => {
    for (const role of ["owner", "member", undefined]) {
      expect((await check({ organizationId: "o", teamId: "t", userId: "u", role })).failures).toBeUndefined();
    }
  });

  it("lets unknown values through during preview", async () => {
    expect((await check({ organizationId: UNKNOWN, teamId: UNKNOWN, userId: UNKNOWN })).failures).toBeUndefined();
  });
});
