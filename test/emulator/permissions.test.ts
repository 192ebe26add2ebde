import { describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator";

const h = useEmulator({ provider: false });

describe("content permissions", () => {
  it("grants, lists, changes and removes a team's and a user's role on a space", async () => {
    const space = h.space(0);
    const team = (await h.call("PUT", `/orgs/${h.org()}/teams`, { title: "Writers" })).body.id;
    const base = `/spaces/${space}/permissions`;
    expect((await h.call("POST", base, { role: "edit", teams: [team], users: [h.user(1)] })).status).toBe(204);
    expect((await h.call("GET", `${base}/teams`)).body.items).toEqual([
      expect.objectContaining({ permission: "edit", team: expect.objectContaining({ id: team }) }),
    ]);
    expect((await h.call("PATCH", `${base}/users/${h.user(1)}`, { role: "read" })).status).toBe(204);
    expect((await h.call("GET", `${base}/users`)).body.items).toEqual([
      expect.objectContaining({ permission: "read", user: expect.objectContaining({ id: h.user(1) }) }),
    ]);
    expect((await h.call("DELETE", `${base}/teams/${team}`)).status).toBe(205);
    expect((await h.call("DELETE", `${base}/teams/${team}`)).status).toBe(204);
    expect((await h.call("PATCH", `${base}/teams/${team}`, { role: "read" })).status).toBe(404);
    // null (a guest) removes a space's grant: its listings report roles only.
    expect((await h.call("POST", base, { role: null, users: [h.user(1)] })).status).toBe(204);
    expect((await h.call("GET", `${base}/users`)).body.items).toEqual([]);
  });

  it("rejects unknown grantees, a missing role and an empty body with a 400 naming the field; changes nothing", async () => {
    const col = (await h.call("POST", `/orgs/${h.org()}/collections`, { title: "C" })).body.id;
    const base = `/collections/${col}/permissions`;
    const foreignTeam = (await h.call("PUT", `/orgs/${h.emulator.secondOrganizationId}/teams`, { title: "B" })).body.id;
    const cases: [unknown, RegExp][] = [
      [{ role: "read", users: [h.user(1), "nobody"] }, /^users\.1: user "nobody" not found/],
      [{ role: "read", teams: [foreignTeam] }, /^teams\.0: team .* not found in organization/],
      [{ users: [h.user(1)] }, /^role: /],
      [{ role: "read" }, /^teams: one of teams and users is required/],
      [{ role: "read", users: [] }, /^users: /],
    ];
    for (const [body, message] of cases) {
      const res = await h.call("POST", base, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    expect((await h.call("GET", `${base}/users`)).body.items).toEqual([]);
  });

  it("keeps a guest (null) override on a site, and a grant to a deleted team is no longer listed", async () => {
    const site = (await h.call("POST", `/orgs/${h.org()}/sites`, { title: "Docs" })).body.id;
    const base = `/orgs/${h.org()}/sites/${site}/permissions`;
    const team = (await h.call("PUT", `/orgs/${h.org()}/teams`, { title: "Ops" })).body.id;
    expect((await h.call("POST", base, { role: null, teams: [team] })).status).toBe(204);
    expect((await h.call("GET", `${base}/teams`)).body.items).toEqual([expect.objectContaining({ permission: null })]);
    expect((await h.call("PATCH", `${base}/teams/${team}`, { role: null })).status).toBe(400);
    expect((await h.call("DELETE", `/orgs/${h.org()}/teams/${team}`)).status).toBe(205);
    expect((await h.call("GET", `${base}/teams`)).body.items).toEqual([]);
  });
});
