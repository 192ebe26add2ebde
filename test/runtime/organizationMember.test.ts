import { describe, expect, it } from "vitest";
import type { Props } from "../../provider/framework/kind";
import { UNKNOWN } from "../../provider/framework/unknown";
import { lifecycle, startOperation } from "../../provider/runtime";
import { type Json, useEmulator } from "../support/emulator";
import {
  checked,
  created,
  describeLifecycle,
  expectEachLimitRejected,
  type LimitCase,
  updateTo,
} from "../support/lifecycle";
import { captureLog } from "../support/log";

const fixture = useEmulator();
const provider = () => lifecycle("OrganizationMember");

const member = async (userId: string, organizationId = fixture.org()): Promise<{ status: number; body: Json }> =>
  fixture.api("GET", `/orgs/${organizationId}/members/${userId}`);

const logged = captureLog();

describeLifecycle(
  {
    kind: "OrganizationMember",
    inputs: () => ({ organizationId: fixture.org(), userId: fixture.user(2), role: "edit" }),
    created: (state) =>
      expect(state).toMatchObject({
        organizationId: fixture.org(),
        userId: fixture.user(2),
        role: "edit",
        sso: false,
        removeOnDelete: false,
        email: "linus@example.com",
      }),
    updates: [
      updateTo("role", "admin"),
      updateTo("role", null, "role to guest (null)"),
      {
        name: "sso",
        inputs: (_f, prev) => ({ ...prev, sso: true }),
        expect: async (state) => {
          expect(state.sso).toBe(true);
          expect((await member(fixture.user(2))).body.sso).toBe(true);
        },
      },
      {
        name: "removeOnDelete (stored, nothing written)",
        inputs: (_f, prev) => ({ ...prev, removeOnDelete: true }),
        expect: (state) => {
          expect(state.removeOnDelete).toBe(true);
          expect(fixture.writes().at(-1)?.method).toBe("PATCH");
        },
      },
    ],
    replaces: [
      { property: "userId", inputs: (_f, prev) => ({ ...prev, userId: fixture.user(1) }) },
      {
        property: "organizationId",
        inputs: (f, prev) => ({ ...prev, organizationId: f.emulator.secondOrganizationId, userId: fixture.user(0) }),
      },
    ],
    outOfBand: {
      change: async (id) => {
        const userId = id.split("/")[1];
        expect(
          (await fixture.api("PATCH", `/orgs/${fixture.org()}/members/${userId}`, { role: "comment" })).status,
        ).toBe(200);
      },
      expect: (state) => expect(state.role).toBe("comment"),
    },
    adopt: {
      missing: "does-not-exist/nobody",
      existing: async () => `${fixture.org()}/${fixture.user(1)}`,
      inputs: () => ({ organizationId: fixture.org(), userId: fixture.user(1), role: "review" }),
      expect: (state) => expect(state).toMatchObject({ userId: fixture.user(1), role: "review" }),
    },
    deleteKeepsObject: "without removeOnDelete the member stays",
  },
  fixture,
);

describe("OrganizationMember", () => {
  it("takes over the membership on create, writing nothing when the role already matches", async () => {
    const { id, state } = await created("OrganizationMember", {
      organizationId: fixture.org(),
      userId: fixture.user(1),
      role: "create",
    });
    expect(id).toBe(`${fixture.org()}/${fixture.user(1)}`);
    expect(state).toMatchObject({ role: "create", email: "grace@example.com" });
    expect(fixture.writes()).toEqual([]);
  });

  it("fails create clearly when the user is not a member, adding nobody", async () => {
    // Grace is a member of organization A only.
    const globex = fixture.emulator.secondOrganizationId;
    const inputs = await checked("OrganizationMember", {
      organizationId: globex,
      userId: fixture.user(1),
      role: "read",
    });
    await expect(provider().create(inputs)).rejects.toThrow(
      `OrganizationMember "${globex}/${fixture.user(1)}": the user is not a member of the organization. Members join by ` +
        "invitation or SSO; invite them first (or fix userId), then run `pulumi up` again.",
    );
    expect(fixture.writes()).toEqual([]);
    expect((await member(fixture.user(1), globex)).status).toBe(404);
  });

  it("resets nothing on delete by default, and says so", async () => {
    const { id, state } = await created("OrganizationMember", {
      organizationId: fixture.org(),
      userId: fixture.user(2),
      role: "admin",
    });
    fixture.emulator.clearRequests();
    await provider().delete(id, state);
    expect(fixture.emulator.requests()).toEqual([]);
    expect((await member(fixture.user(2))).body.role).toBe("admin");
    expect(logged).toEqual([
      `info: OrganizationMember "${id}": linus@example.com stays a member of the organization with role "admin" ` +
        "(removeOnDelete is false: nothing is reset).",
    ]);
  });

  it("removes the member on delete with removeOnDelete: true, with their team memberships and grants", async () => {
    const teamId = await fixture.makeTeam("Ops", [fixture.user(2)]);
    const spaceId = fixture.space(0);
    await fixture.api("POST", `/spaces/${spaceId}/permissions`, { users: [fixture.user(2)], role: "edit" });
    const { id, state } = await created("OrganizationMember", {
      organizationId: fixture.org(),
      userId: fixture.user(2),
      removeOnDelete: true,
    });
    await provider().delete(id, state);
    expect((await member(fixture.user(2))).status).toBe(404);
    const teamMembers = await fixture.api("GET", `/orgs/${fixture.org()}/teams/${teamId}/members`);
    expect((teamMembers.body as Json).items).toEqual([]);
    const grants = await fixture.api("GET", `/spaces/${spaceId}/permissions/users`);
    expect((grants.body as Json).items).toEqual([]);
    expect(logged.at(-1)).toBe(
      `warn: OrganizationMember "${id}": linus@example.com was removed from the organization (removeOnDelete: true), ` +
        "with their team memberships and grants; they need a new invitation to come back.",
    );
    expect((await provider().read(id, state)).id).toBe("");
    // A second delete finds nobody to remove (204) and still succeeds.
    await provider().delete(id, state);
  });

  it("reports a removal request when the API only forwards it to the administrators (202)", async () => {
    const { id, state } = await created("OrganizationMember", {
      organizationId: fixture.org(),
      userId: fixture.user(2),
      removeOnDelete: true,
    });
    fixture.emulator.injectFault({ method: "DELETE", path: `/members/${fixture.user(2)}$`, status: 202, body: "" });
    await provider().delete(id, state);
    expect((await member(fixture.user(2))).status).toBe(200);
    expect(logged.at(-1)).toMatch(/sent a removal request for linus@example.com to the organization's administrators/);
  });

  it("refuses at preview a replace that would remove the old user, unless allowReplace", async () => {
    const olds = { organizationId: fixture.org(), userId: fixture.user(2), removeOnDelete: true };
    const moved = await provider().check(olds, { ...olds, userId: fixture.user(1) });
    expect(moved.failures).toEqual([
      { property: "userId", reason: expect.stringMatching(/removes the old user from the organization/) },
    ]);
    startOperation();
    expect(
      (await provider().check(olds, { ...olds, userId: fixture.user(1), allowReplace: true })).failures,
    ).toBeUndefined();
    startOperation();
    const kept = { ...olds, removeOnDelete: false };
    expect((await provider().check(kept, { ...kept, userId: fixture.user(1) })).failures).toBeUndefined();
  });

  it("refuses an importId naming another membership than organizationId/userId", async () => {
    const inputs = await checked("OrganizationMember", {
      organizationId: fixture.org(),
      userId: fixture.user(2),
      importId: `${fixture.org()}/${fixture.user(1)}`,
    });
    await expect(provider().create(inputs)).rejects.toThrow(/importId names userId/);
    expect(fixture.writes()).toEqual([]);
  });

  it("sees an SSO login granted by hand as a change of the state, but manages it only when declared", async () => {
    const { id, state, inputs } = await created("OrganizationMember", {
      organizationId: fixture.org(),
      userId: fixture.user(2),
    });
    await fixture.api("POST", `/orgs/${fixture.org()}/members/${fixture.user(2)}/sso`);
    const read = await provider().read(id, state);
    expect(read.props).toMatchObject({ sso: true });
    expect((await provider().diff(id, read.props as Props, inputs)).changes).toBe(false);
  });
});

describe("OrganizationMember check", () => {
  const base = () => ({ organizationId: fixture.org(), userId: fixture.user(2) });

  it("rejects each limit with the property and the rule, without calling the API", async () => {
    const cases: LimitCase[] = [
      [{ organizationId: "" }, "organizationId", /must be an id/],
      [{ userId: "ada@example.com" }, "userId", /must be an id/],
      [{ role: "owner" }, "role", /must be one of/],
      [{ sso: false }, "sso", /true/],
      [{ removeOnDelete: "yes" }, "removeOnDelete", /boolean/],
      [{ email: "ada@example.com" }, "email", /unknown property email/],
    ];
    await expectEachLimitRejected("OrganizationMember", base(), cases);
    expect(fixture.emulator.requests()).toEqual([]);
  });

  it("fails at preview for a second OrganizationMember of the same user and organization", async () => {
    const check = (news: Props) => provider().check({}, news);
    expect((await check({ ...base(), role: "read" })).failures).toBeUndefined();
    expect((await check({ ...base(), userId: fixture.user(1), role: "admin" })).failures).toBeUndefined();
    expect((await check({ ...base(), role: "admin" })).failures).toEqual([
      { property: "organizationId", reason: expect.stringMatching(/already declares organizationId ".+", userId/) },
    ]);
    expect((await check({ ...base(), userId: UNKNOWN, role: "admin" })).failures).toBeUndefined();
  });
});
