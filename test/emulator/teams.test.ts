import { describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator";

const h = useEmulator({ provider: false });

const teamsPath = () => `/orgs/${h.org()}/teams`;
const [ADA, GRACE, LINUS] = [0, 1, 2];

async function createTeam(body: Record<string, unknown> = { title: "Writers" }): Promise<string> {
  const res = await h.call("PUT", teamsPath(), body);
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

async function memberIds(team: string): Promise<[string, string][]> {
  const items = await h.listAll(`${teamsPath()}/${team}/members`);
  return items.map((m) => [m.organization.id, m.team.role]);
}

describe("teams", () => {
  it("creates (PUT → 201), lists, reads, renames and deletes a team", async () => {
    const res = await h.call("PUT", teamsPath(), { title: "Writers", members: [h.user(ADA), "grace@example.com"] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object: "team", title: "Writers", members: 2, spaces: 0 });
    const id = res.body.id;
    expect((await h.call("GET", `${teamsPath()}/${id}`)).body.title).toBe("Writers");
    const renamed = await h.call("PATCH", `${teamsPath()}/${id}`, { title: "Editors" });
    expect(renamed.body.title).toBe("Editors");
    await createTeam({ title: "Reviewers" });
    expect((await h.listAll(`${teamsPath()}?title=edit`)).map((t) => t.id)).toEqual([id]);
    expect((await h.listAll(teamsPath())).length).toBe(2);
    expect((await h.call("DELETE", `${teamsPath()}/${id}`)).status).toBe(205);
    expect((await h.call("GET", `${teamsPath()}/${id}`)).status).toBe(404);
    expect((await h.call("DELETE", `${teamsPath()}/${id}`)).status).toBe(204);
  });

  it("validates team fields", async () => {
    expect((await h.call("PUT", teamsPath(), { title: "" })).body.error.message).toBe("title: must not be empty");
    expect((await h.call("PUT", teamsPath(), { title: "t".repeat(65) })).body.error.message).toBe(
      "title: must be at most 64 characters",
    );
    const unknown = await h.call("PUT", teamsPath(), { title: "x", members: ["nobody@example.com"] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/^members\[0\]: no member/);
    const id = await createTeam();
    expect((await h.call("PATCH", `${teamsPath()}/${id}`, {})).body.error.message).toBe("title: is required");
    expect(h.emulator.store.teams.size).toBe(1);
  });

  it("does not find a team through another organization", async () => {
    const id = await createTeam();
    expect((await h.call("GET", `/orgs/${h.emulator.secondOrganizationId}/teams/${id}`)).status).toBe(404);
  });
});

describe("team members", () => {
  it("bulk-adds by id or email, sets roles, and removal wins over addition", async () => {
    const team = await createTeam();
    const res = await h.call("PUT", `${teamsPath()}/${team}/members`, {
      add: [h.user(ADA), "GRACE@example.com", h.user(LINUS)],
      remove: ["linus@example.com"],
      memberships: { [h.user(GRACE)]: { role: "owner" } },
    });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(await memberIds(team)).toEqual([
      [h.user(ADA), "member"],
      [h.user(GRACE), "owner"],
    ]);
    const teamObj = await h.call("GET", `${teamsPath()}/${team}`);
    expect(teamObj.body.members).toBe(2);
    const member = await h.call("GET", `/orgs/${h.org()}/members/${h.user(GRACE)}`);
    expect(member.body.teams).toBe(1);
    expect((await h.listAll(`${teamsPath()}?owner=${h.user(GRACE)}`)).map((t) => t.id)).toEqual([team]);
    const memberTeams = await h.listAll(`/orgs/${h.org()}/members/${h.user(GRACE)}/teams`);
    expect(memberTeams.map((x) => [x.team.id, x.member.role])).toEqual([[team, "owner"]]);

    const remove = await h.call("PUT", `${teamsPath()}/${team}/members`, { remove: [h.user(ADA)] });
    expect(remove.status).toBe(204);
    expect(await memberIds(team)).toEqual([[h.user(GRACE), "owner"]]);
  });

  it("rejects unknown users and bad roles without changing anything", async () => {
    const team = await createTeam({ title: "T", members: [h.user(ADA)] });
    const cases: [unknown, RegExp][] = [
      [{ add: [h.user(GRACE), "ghost@example.com"] }, /^add\[1\]: no member/],
      [{ remove: ["nope"] }, /^remove\[0\]: no member/],
      [{ memberships: { nope: { role: "owner" } } }, /^memberships\.nope: no member/],
      [{ memberships: { [h.user(GRACE)]: { role: "admin" } } }, /role: must be one of owner, member/],
      [{ add: "x" }, /^add: must be an array/],
    ];
    for (const [body, message] of cases) {
      const res = await h.call("PUT", `${teamsPath()}/${team}/members`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    expect(await memberIds(team)).toEqual([[h.user(ADA), "member"]]);
    // a member of another organization only is unknown here
    const margaretOnlyInB = [...h.emulator.store.members.values()].find(
      (m) => m.orgId === h.emulator.secondOrganizationId && !h.emulator.userIds.includes(m.userId),
    )!;
    expect((await h.call("PUT", `${teamsPath()}/${team}/members`, { add: [margaretOnlyInB.userId] })).status).toBe(400);
  });

  it("adds or updates one member and removes one member", async () => {
    const team = await createTeam();
    const path = `${teamsPath()}/${team}/members/${h.user(LINUS)}`;
    expect((await h.call("PUT", path)).status).toBe(204);
    expect(await memberIds(team)).toEqual([[h.user(LINUS), "member"]]);
    expect((await h.call("PUT", path, { role: "owner" })).status).toBe(204);
    expect(await memberIds(team)).toEqual([[h.user(LINUS), "owner"]]);
    expect((await h.call("PUT", path, {})).status).toBe(204);
    expect(await memberIds(team)).toEqual([[h.user(LINUS), "owner"]]);
    expect((await h.call("PUT", path, { role: "boss" })).status).toBe(400);
    expect((await h.call("PUT", `${teamsPath()}/${team}/members/nobody`)).status).toBe(404);
    expect((await h.call("DELETE", path)).status).toBe(205);
    expect((await h.call("DELETE", path)).status).toBe(204);
    expect(await memberIds(team)).toEqual([]);
    expect((await h.call("GET", `${teamsPath()}/nope/members`)).status).toBe(404);
  });
});
