import { describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator";

const h = useEmulator({ provider: false });

async function install(target: Record<string, unknown>, provider = "github") {
  const res = await h.call("POST", "/git/installations", { provider, target });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe("Git Sync installations", () => {
  it("installs on a space, configures it (each PATCH queues a sync) and shows it as the space's gitSync", async () => {
    const created = await install({ type: "space", spaceId: h.space(0) });
    expect(created).toMatchObject({
      object: "git-sync-installation",
      provider: "github",
      providerConfiguration: {},
      target: { type: "space", spaceId: h.space(0) },
      status: "pending",
    });
    const patched = await h.call("PATCH", `/git/installations/${created.id}`, {
      provider: "github",
      providerConfiguration: { repositoryId: 1001, branch: "refs/heads/main" },
      projectDirectory: "docs",
      priority: "gitbook",
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({
      providerConfiguration: { repositoryId: 1001, branch: "refs/heads/main" },
      projectDirectory: "docs",
      priority: "gitbook",
      status: "active",
    });
    expect(h.emulator.store.gitSyncStore.installation(created.id)?.syncs).toBe(1);
    const space = (await h.call("GET", `/spaces/${h.space(0)}`)).body;
    expect(space.gitSync).toEqual({
      installationId: created.id,
      installationProvider: "github",
      installationStatus: "active",
    });
  });

  it("one installation per target: a second is a 409; a site's is listed under the site", async () => {
    const site = await h.makeSite();
    const first = await install({ type: "site", siteId: site });
    const second = await h.call("POST", "/git/installations", {
      provider: "gitlab",
      target: { type: "site", siteId: site },
    });
    expect(second.status).toBe(409);
    const listed = await h.call("GET", `/orgs/${h.org()}/sites/${site}/spaces/git/installations`);
    expect(listed.body.items.map((item: { id: string }) => item.id)).toEqual([first.id]);
    expect((await h.call("GET", `/orgs/${h.org()}/sites/${site}`)).body.gitSync.installationId).toBe(first.id);
  });

  it("refuses an unknown repository naming the field, another provider, and an unknown target", async () => {
    const { id } = await install({ type: "space", spaceId: h.space(1) });
    const unknown = await h.call("PATCH", `/git/installations/${id}`, {
      provider: "github",
      providerConfiguration: { repositoryId: 999 },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain("providerConfiguration.repositoryId");
    const other = await h.call("PATCH", `/git/installations/${id}`, { provider: "gitlab", providerConfiguration: {} });
    expect(other.status).toBe(400);
    expect(other.body.error.message).toContain("provider");
    const badBranch = await h.call("PATCH", `/git/installations/${id}`, {
      provider: "github",
      providerConfiguration: { branch: "main" },
    });
    expect(badBranch.status).toBe(400);
    const gone = await h.call("POST", "/git/installations", {
      provider: "github",
      target: { type: "space", spaceId: "nope" },
    });
    expect(gone.status).toBe(404);
  });

  it("GitLab is unauthenticated until an access token is set, which is never echoed back", async () => {
    const { id } = await install({ type: "space", spaceId: h.space(2) }, "gitlab");
    const withProject = await h.call("PATCH", `/git/installations/${id}`, {
      provider: "gitlab",
      providerConfiguration: { projectId: 2001 },
    });
    expect(withProject.body.status).toBe("unauthenticated");
    const withToken = await h.call("PATCH", `/git/installations/${id}`, {
      provider: "gitlab",
      providerConfiguration: { accessToken: "glpat-secret" },
    });
    expect(withToken.body.status).toBe("active");
    expect(withToken.text).not.toContain("glpat-secret");
    expect(withToken.body.providerConfiguration).toEqual({ projectId: 2001 });
  });

  it("uninstall answers 205, then 404 (never 204); deleting the site takes its installation with it", async () => {
    const { id } = await install({ type: "space", spaceId: h.space(0) });
    expect((await h.call("DELETE", `/git/installations/${id}`)).status).toBe(205);
    expect((await h.call("DELETE", `/git/installations/${id}`)).status).toBe(404);
    const site = await h.makeSite();
    const onSite = await install({ type: "site", siteId: site });
    expect((await h.call("DELETE", `/orgs/${h.org()}/sites/${site}`)).status).toBeLessThan(300);
    expect((await h.call("GET", `/git/installations/${onSite.id}`)).status).toBe(404);
  });
});
