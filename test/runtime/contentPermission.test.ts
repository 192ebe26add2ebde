import { describe, expect, it } from "vitest";
import type { Props } from "../../provider/framework/kind";
import { UNKNOWN } from "../../provider/framework/unknown";
import { lifecycle } from "../../provider/runtime";
import type { EmulatorFixture } from "../support/emulator";
import { useEmulator } from "../support/emulator";
import {
  checked,
  created,
  describeLifecycle,
  expectEachLimitRejected,
  type LimitCase,
  updateTo,
} from "../support/lifecycle";

const fixture = useEmulator();

/** Each target kind: how to make its target, its id inputs, and the API path of its grants. */
interface Target {
  kind: string;
  make(f: EmulatorFixture): Promise<Props>;
  base(ids: Props): string;
}

const targets: Target[] = [
  {
    kind: "SpacePermission",
    make: async (f) => ({ spaceId: await f.apiCreate(`/orgs/${fixture.org()}/spaces`, { title: "Handbook" }) }),
    base: (ids) => `/spaces/${ids.spaceId}/permissions`,
  },
  {
    kind: "CollectionPermission",
    make: async (f) => ({ collectionId: await f.makeCollection("Guides") }),
    base: (ids) => `/collections/${ids.collectionId}/permissions`,
  },
  {
    kind: "SitePermission",
    make: async (f) => ({
      organizationId: fixture.org(),
      siteId: await f.makeSite(),
    }),
    base: (ids) => `/orgs/${ids.organizationId}/sites/${ids.siteId}/permissions`,
  },
];

for (const target of targets) {
  describeLifecycle(
    {
      kind: target.kind,
      inputs: async (f) => ({ ...(await target.make(f)), teamId: await fixture.makeTeam("Writers"), role: "edit" }),
      created: (state) => expect(state).toMatchObject({ role: "edit", userId: null }),
      updates: [updateTo("role", "read"), updateTo("role", "admin", "role: admin")],
      replaces: [
        { property: "teamId", inputs: async (_f, prev) => ({ ...prev, teamId: await fixture.makeTeam("Other") }) },
        { property: "userId", inputs: (_f, prev) => ({ ...prev, teamId: undefined, userId: fixture.user(1) }) },
      ],
      outOfBand: {
        change: async (id, f) => {
          const [, teamId] = id.split("/");
          const grants = await findBase(f, id);
          expect((await f.api("PATCH", `${grants}/teams/${teamId}`, { role: "comment" })).status).toBe(204);
        },
        expect: (state) => expect(state.role).toBe("comment"),
      },
      adopt: {
        existing: async (f) => {
          const ids = await target.make(f);
          await f.api("POST", target.base(ids), { role: "read", users: [fixture.user(2)] });
          adopted.set(target.kind, ids);
          return `${Object.values(ids).at(-1)}/${fixture.user(2)}`;
        },
        missing: "nothing/nobody",
        inputs: () => ({
          ...(adopted.get(target.kind) ?? { ...placeholder(target.kind) }),
          userId: fixture.user(2),
          role: "read",
        }),
        expect: (state) => expect(state).toMatchObject({ userId: fixture.user(2), role: "read", teamId: null }),
      },
    },
    fixture,
  );
}

/** The target ids the adopt row created, for its inputs (the table makes the object before the inputs). */
const adopted = new Map<string, Props>();
const placeholder = (kind: string) =>
  kind === "SitePermission"
    ? { organizationId: fixture.org(), siteId: "nothing" }
    : kind === "SpacePermission"
      ? { spaceId: "nothing" }
      : { collectionId: "nothing" };

/** The grants path of a grant id's target, found by trying each target kind's path. */
async function findBase(f: EmulatorFixture, id: string): Promise<string> {
  const [targetId] = id.split("/");
  for (const path of [
    `/spaces/${targetId}/permissions`,
    `/collections/${targetId}/permissions`,
    `/orgs/${fixture.org()}/sites/${targetId}/permissions`,
  ]) {
    if ((await f.api("GET", `${path}/teams`)).status === 200) return path;
  }
  throw new Error(`no target ${targetId}`);
}

describe("content permissions", () => {
  it("reads many grants on one target with one listing request per grantee type", async () => {
    const { spaceId } = (await targets[0]!.make(fixture)) as { spaceId: string };
    const teams = [await fixture.makeTeam("A"), await fixture.makeTeam("B"), await fixture.makeTeam("C")];
    const grants = [];
    for (const teamId of teams) grants.push(await created("SpacePermission", { spaceId, teamId, role: "read" }));
    grants.push(await created("SpacePermission", { spaceId, userId: fixture.user(1), role: "comment" }));
    fixture.emulator.clearRequests();
    for (const g of grants) expect((await lifecycle("SpacePermission").read(g.id, g.state)).props).toEqual(g.state);
    expect(fixture.calls()).toEqual([
      `GET /v1/spaces/${spaceId}/permissions/teams`,
      `GET /v1/spaces/${spaceId}/permissions/users`,
    ]);
  });

  it("sees a grant removed by hand as gone, and a role changed by hand as drift", async () => {
    const { spaceId } = (await targets[0]!.make(fixture)) as { spaceId: string };
    const teamId = await fixture.makeTeam("Writers");
    const team = await created("SpacePermission", { spaceId, teamId, role: "edit" });
    const person = await created("SpacePermission", { spaceId, userId: fixture.user(1), role: "edit" });
    expect((await fixture.api("DELETE", `/spaces/${spaceId}/permissions/teams/${teamId}`)).status).toBe(205);
    expect(
      (await fixture.api("PATCH", `/spaces/${spaceId}/permissions/users/${fixture.user(1)}`, { role: "read" })).status,
    ).toBe(204);
    const provider = lifecycle("SpacePermission");
    expect((await provider.read(team.id, team.state)).id).toBe("");
    const read = await provider.read(person.id, person.state);
    expect(read.props).toMatchObject({ role: "read" });
    expect((await provider.diff(person.id, read.props as Props, person.inputs)).changes).toBe(true);
  });

  it("adopts a grant with the declared role with no write", async () => {
    const ids = await targets[2]!.make(fixture);
    await fixture.api("POST", targets[2]!.base(ids), { role: "admin", teams: [await fixture.makeTeam("Ops")] });
    const teamId = (await fixture.api("GET", `${targets[2]!.base(ids)}/teams`)).body as {
      items: { team: { id: string } }[];
    };
    const team = teamId.items[0]!.team.id;
    fixture.emulator.clearRequests();
    const inputs = await checked("SitePermission", {
      ...ids,
      teamId: team,
      role: "admin",
      importId: `${ids.siteId}/${team}`,
    });
    expect((await lifecycle("SitePermission").create(inputs)).id).toBe(`${ids.siteId}/${team}`);
    expect(fixture.calls().filter((c) => !c.startsWith("GET "))).toEqual([]);
  });

  it("grants a site's guest access (null) with the grant call, reads it back as guest, and moves to a role by PATCH", async () => {
    const ids = await targets[2]!.make(fixture);
    const base = targets[2]!.base(ids);
    const { id, state, inputs } = await created("SitePermission", { ...ids, userId: fixture.user(1), role: "guest" });
    expect(state.role).toBe("guest");
    expect(fixture.lastRequestBody("POST", /\/permissions$/)).toEqual({ role: null, users: [fixture.user(1)] });
    const { outs } = await lifecycle("SitePermission").update(id, state, { ...inputs, role: "read" });
    expect(outs.role).toBe("read");
    expect(fixture.lastRequestBody("PATCH", /\/permissions\/users\/[^/]+$/)).toEqual({ role: "read" });
    fixture.emulator.clearRequests();
    const back = await lifecycle("SitePermission").update(id, outs, { ...inputs, role: "guest" });
    expect(back.outs.role).toBe("guest");
    // The grant's PATCH takes a role only: back to guest is the grant call again.
    expect(fixture.calls().filter((c) => !c.startsWith("GET "))).toEqual([`POST /v1${base}`]);
  });

  it.each(targets.slice(0, 2).map((target) => [target.kind, target] as const))(
    "%s: changes a user's role in place, with the user grant's PATCH",
    async (kind, target) => {
      const ids = await target.make(fixture);
      const { id, state, inputs } = await created(kind, { ...ids, userId: fixture.user(1), role: "edit" });
      fixture.emulator.clearRequests();
      const { outs } = await lifecycle(kind).update(id, state, { ...inputs, role: "read" });
      expect(outs).toMatchObject({ role: "read", userId: fixture.user(1) });
      expect(fixture.calls().filter((c) => !c.startsWith("GET "))).toEqual([
        `PATCH /v1${target.base(ids)}/users/${fixture.user(1)}`,
      ]);
      expect(fixture.lastRequestBody("PATCH", /\/permissions\/users\/[^/]+$/)).toEqual({ role: "read" });
      expect((await lifecycle(kind).read(id, outs)).props).toMatchObject({ role: "read" });
    },
  );

  it("refuses guest on spaces and collections, whose grants the API reports with a role only", async () => {
    await expectEachLimitRejected("SpacePermission", { spaceId: "s1", teamId: "t1", role: "read" }, [
      [{ role: "guest" }, "role", /must be one of/],
    ]);
    await expectEachLimitRejected("CollectionPermission", { collectionId: "c1", teamId: "t1", role: "read" }, [
      [{ role: "guest" }, "role", /must be one of/],
    ]);
  });

  it("rejects teamId with userId, neither, and each limit offline", async () => {
    const cases: LimitCase[] = [
      [{ userId: fixture.user(1) }, "userId", /exactly one of teamId and userId/],
      [{ teamId: undefined }, "teamId", /exactly one of teamId and userId/],
      [{ role: "owner" }, "role", /must be one of/],
      [{ teamId: "../x" }, "teamId", /must be an id/],
      [{ spaceId: "a/b" }, "spaceId", /must be an id/],
    ];
    await expectEachLimitRejected("SpacePermission", { spaceId: "s1", teamId: "t1", role: "read" }, cases);
    const unknownGrantee = await lifecycle("SpacePermission").check(
      {},
      { spaceId: "s1", teamId: UNKNOWN, role: "read" },
    );
    expect(unknownGrantee.failures).toBeUndefined();
    expect(fixture.emulator.requests()).toEqual([]);
  });
});
