import { MemberRole, type OrganizationTeam, TeamMemberRole } from "@gitbook/api";
import { describe, expect, it } from "vitest";
import { allPages, expectApiError, expectDeleted, expectUnauthorized, locationOf, useOfficialClient } from "./helpers";

const f = useOfficialClient();
const user = (i: number) => f.emu.userIds[i]!;

const certificate = `-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2VydGlmaWNhdGU=\n-----END CERTIFICATE-----`;

async function createTeam(title: string, members?: string[]): Promise<OrganizationTeam> {
  const created = await f.api.orgs.createOrganizationTeam(f.org(), { title, ...(members ? { members } : {}) });
  expect(created.status).toBe(201);
  return created.data;
}

describe("SAML providers through the official client", () => {
  it("creates, gets, lists over several pages, updates and deletes", async () => {
    const team = await createTeam("Engineering");
    const created = await f.api.orgs.createOrganizationSamlProvider(f.org(), {
      label: "Okta",
      entityID: "https://idp.example.com/entity",
      certificate,
      ssoURL: "https://idp.example.com/sso",
      defaultTeam: team.id,
      defaultRole: MemberRole.Read,
    });
    expect(created.status).toBe(201);
    const provider = created.data;
    expect(provider).toMatchObject({
      object: "saml-provider",
      label: "Okta",
      entityID: "https://idp.example.com/entity",
      ssoURL: "https://idp.example.com/sso",
      defaultTeam: { id: team.id, title: "Engineering" },
      defaultRole: MemberRole.Read,
    });
    expect(locationOf(created)).toBe(provider.urls.location);
    expect((await f.api.orgs.getOrganizationSamlProviderById(f.org(), provider.id)).data).toEqual(provider);

    for (const label of ["Azure AD", "Google"]) {
      expect((await f.api.orgs.createOrganizationSamlProvider(f.org(), { label })).status).toBe(201);
    }
    const { items, pages } = await allPages((page) =>
      f.api.orgs.listSamlProvidersInOrganizationById(f.org(), { limit: 2, page }),
    );
    expect(pages).toBe(2);
    expect(items.map((p) => p.label).sort()).toEqual(["Azure AD", "Google", "Okta"]);
    const logins = await f.api.orgs.listSsoProviderLoginsInOrganization(f.org());
    expect(logins.status).toBe(200);
    for (const login of logins.data.items)
      expect(login).toEqual({ id: expect.any(String), label: expect.any(String), startURL: expect.any(String) });

    const updated = await f.api.orgs.updateOrganizationSamlProvider(f.org(), provider.id, {
      label: "Okta (prod)",
      defaultRole: null,
    });
    expect(updated.status).toBe(200);
    expect(updated.data).toMatchObject({ id: provider.id, label: "Okta (prod)", defaultRole: null });

    await expectDeleted(() => f.api.orgs.deleteOrganizationSamlProvider(f.org(), provider.id));
    await expectApiError(f.api.orgs.getOrganizationSamlProviderById(f.org(), provider.id), 404, /not found/i);
  });

  it("fails on an unknown id with 404, bad input with 400 and a missing token with 401", async () => {
    await expectApiError(f.api.orgs.getOrganizationSamlProviderById(f.org(), "unknownSaml"), 404, /unknownSaml/);
    await expectApiError(
      f.api.orgs.updateOrganizationSamlProvider(f.org(), "unknownSaml", { label: "x" }),
      404,
      /unknownSaml/,
    );
    await expectApiError(f.api.orgs.createOrganizationSamlProvider(f.org(), { label: "l".repeat(31) }), 400, /label/);
    await expectApiError(
      f.api.orgs.createOrganizationSamlProvider(f.org(), { label: "Okta", ssoURL: "not a url" }),
      400,
      /ssoURL/,
    );
    await expectApiError(
      f.api.orgs.createOrganizationSamlProvider(f.org(), { label: "Okta", defaultTeam: "unknownTeam" }),
      400,
      /defaultTeam/,
    );
    await expectUnauthorized(f, (api) => api.orgs.createOrganizationSamlProvider(f.org(), { label: "Okta" }));
  });
});

describe("teams through the official client", () => {
  it("creates, gets, lists over several pages, updates and deletes", async () => {
    const created = await f.api.orgs.createOrganizationTeam(f.org(), { title: "Engineering", members: [user(0)] });
    expect(created.status).toBe(201);
    const team = created.data;
    expect(team).toMatchObject({ object: "team", title: "Engineering", members: 1 });
    expect((await f.api.orgs.getTeamInOrganizationById(f.org(), team.id)).data).toEqual(team);

    await createTeam("Design");
    await createTeam("Support");
    const { items, pages } = await allPages((page) =>
      f.api.orgs.listTeamsInOrganizationById(f.org(), { limit: 2, page }),
    );
    expect(pages).toBe(2);
    expect(items.map((t) => t.title).sort()).toEqual(["Design", "Engineering", "Support"]);
    const found = await f.api.orgs.listTeamsInOrganizationById(f.org(), { title: "sign" });
    expect(found.data.items.map((t) => t.title)).toEqual(["Design"]);

    const updated = await f.api.orgs.updateTeamInOrganizationById(f.org(), team.id, { title: "Platform engineering" });
    expect(updated.status).toBe(200);
    expect(updated.data).toMatchObject({ id: team.id, title: "Platform engineering" });

    await expectDeleted(() => f.api.orgs.removeTeamFromOrganizationById(f.org(), team.id));
    await expectApiError(f.api.orgs.getTeamInOrganizationById(f.org(), team.id), 404, /not found/i);
  });

  it("fails on an unknown id with 404, bad input with 400 and a missing token with 401", async () => {
    await expectApiError(f.api.orgs.getTeamInOrganizationById(f.org(), "unknownTeam"), 404, /unknownTeam/);
    await expectApiError(
      f.api.orgs.updateTeamInOrganizationById(f.org(), "unknownTeam", { title: "x" }),
      404,
      /unknownTeam/,
    );
    await expectApiError(f.api.orgs.createOrganizationTeam(f.org(), { title: "t".repeat(65) }), 400, /title/);
    await expectApiError(
      f.api.orgs.createOrganizationTeam(f.org(), { title: "Ops", members: ["nobody"] }),
      400,
      /nobody/,
    );
    const team = await createTeam("Ops");
    await expectApiError(f.api.orgs.updateTeamInOrganizationById(f.org(), team.id, { title: "" }), 400, /title/);
    await expectUnauthorized(f, (api) => api.orgs.listTeamsInOrganizationById(f.org()));
  });
});

describe("team members through the official client", () => {
  it("adds in bulk, lists over several pages, sets a role and removes", async () => {
    const team = await createTeam("Engineering");
    const bulk = await f.api.orgs.updateMembersInOrganizationTeam(f.org(), team.id, {
      add: [user(0), user(1), user(2)],
    });
    expect(bulk.status).toBe(204);
    const { items, pages } = await allPages((page) =>
      f.api.orgs.listTeamMembersInOrganizationById(f.org(), team.id, { limit: 2, page }),
    );
    expect(pages).toBe(2);
    expect(items.map((m) => m.organization.user.id).sort()).toEqual([user(0), user(1), user(2)].sort());
    for (const m of items) expect(m).toMatchObject({ team: { role: "member" }, permissions: { view: true } });
    expect((await f.api.orgs.getTeamInOrganizationById(f.org(), team.id)).data.members).toBe(3);

    const owner = await f.api.orgs.addMemberToOrganizationTeamById(f.org(), team.id, user(1), {
      role: TeamMemberRole.Owner,
    });
    expect(owner.status).toBe(204);
    const roles = await f.api.orgs.listTeamMembersInOrganizationById(f.org(), team.id);
    expect(roles.data.items.find((m) => m.organization.user.id === user(1))!.team.role).toBe("owner");
    const owned = await f.api.orgs.listTeamsInOrganizationById(f.org(), { owner: user(1) });
    expect(owned.data.items.map((t) => t.id)).toEqual([team.id]);

    const both = await f.api.orgs.updateMembersInOrganizationTeam(f.org(), team.id, {
      add: [user(2)],
      remove: [user(2)],
    });
    expect(both.status).toBe(204);
    await expectDeleted(() => f.api.orgs.deleteMemberFromOrganizationTeamById(f.org(), team.id, user(0)));
    const left = await f.api.orgs.listTeamMembersInOrganizationById(f.org(), team.id);
    expect(left.data.items.map((m) => m.organization.user.id)).toEqual([user(1)]);
  });

  it("fails on an unknown team or user with 404 and on bad input with 400", async () => {
    await expectApiError(f.api.orgs.listTeamMembersInOrganizationById(f.org(), "unknownTeam"), 404, /unknownTeam/);
    const team = await createTeam("Engineering");
    await expectApiError(
      f.api.orgs.addMemberToOrganizationTeamById(f.org(), team.id, "unknownUser", {}),
      404,
      /unknownUser/,
    );
    await expectApiError(
      f.api.orgs.updateMembersInOrganizationTeam(f.org(), team.id, { add: ["unknownUser"] }),
      400,
      /unknownUser/,
    );
    await expectApiError(
      // @ts-expect-error: a team role the document does not allow
      f.api.orgs.addMemberToOrganizationTeamById(f.org(), team.id, user(0), { role: "admin" }),
      400,
      /role/,
    );
  });
});
