import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Operation } from "../../provider/framework/operation";
import { definitions } from "../../provider/registry";
import { lifecycle } from "../../provider/runtime";
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
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: Error) => error,
  );

const onSpace = (index = 0) => ({
  organizationId: fixture.org(),
  provider: "github",
  spaceId: fixture.space(index),
  repositoryId: 1001,
  branch: "main",
});
const definition = definitions.find((kind) => kind.kind === "GitSyncInstallation")!;
async function inOperation<T>(work: (operation: Operation) => Promise<T>): Promise<T> {
  const operation = new Operation(definitions);
  try {
    return await work(operation);
  } finally {
    operation.close();
  }
}
const patches = () => fixture.calls().filter((call) => call.startsWith("PATCH"));
/** The requests by route, ids left as placeholders. */
const routes = () => fixture.emulator.requests().map((r) => `${r.method} ${r.route}`);

describeLifecycle(
  {
    kind: "GitSyncInstallation",
    inputs: () => ({ ...onSpace(), projectDirectory: "docs", priority: "gitbook" }),
    created: (state) =>
      expect(state).toMatchObject({
        provider: "github",
        spaceId: fixture.space(0),
        siteId: null,
        repositoryId: 1001,
        branch: "refs/heads/main",
        projectDirectory: "docs",
        priority: "gitbook",
        status: "active",
      }),
    updates: [
      updateTo("branch", "refs/heads/release", "branch"),
      updateTo("repositoryId", 1002),
      updateTo("projectDirectory", "content"),
      updateTo("commitMessageTemplate", "docs: {{change_request.subject}}"),
      updateTo("previewExternalBranches", true),
      updateTo("priority", "git"),
      updateTo("agentInstructions", ["agents", "claude"]),
    ],
    replaces: [
      { property: "spaceId", inputs: (f, p) => ({ ...p, spaceId: f.space(1) }) },
      {
        property: "provider",
        inputs: (_f, p) => ({ ...p, provider: "gitlab", repositoryId: undefined, projectId: 2001 }),
      },
    ],
    outOfBand: {
      change: async (id) => {
        const body = { provider: "github", providerConfiguration: { branch: "refs/heads/by-hand" } };
        expect((await fixture.api("PATCH", `/git/installations/${id}`, body)).status).toBe(200);
      },
      expect: (state) => expect(state.branch).toBe("refs/heads/by-hand"),
    },
    adopt: {
      existing: () =>
        fixture.apiCreate("/git/installations", {
          provider: "github",
          target: { type: "space", spaceId: fixture.space(0) },
        }),
      inputs: () => onSpace(),
      expect: (state) => expect(state).toMatchObject({ repositoryId: 1001, branch: "refs/heads/main" }),
    },
  },
  fixture,
);

describe("GitSyncInstallation behaviour", () => {
  it("installs, then sends the declared settings in one PATCH; an unchanged program sends none", async () => {
    fixture.emulator.clearRequests();
    const { id, state, inputs } = await created("GitSyncInstallation", onSpace());
    expect(fixture.calls()).toEqual(["POST /v1/git/installations", `PATCH /v1/git/installations/${id}`]);
    expect(fixture.lastRequestBody("POST", /installations$/)).toEqual({
      provider: "github",
      target: { type: "space", spaceId: fixture.space(0) },
    });
    expect(fixture.lastRequestBody("PATCH", /installations\//)).toEqual({
      provider: "github",
      providerConfiguration: { repositoryId: 1001, branch: "refs/heads/main" },
    });
    const provider = lifecycle("GitSyncInstallation");
    expect((await provider.diff(id, state, inputs)).changes).toBe(false);
    fixture.emulator.clearRequests();
    const { outs } = await provider.update(id, state, { ...inputs, priority: "git" });
    // Only the change, with the provider and its (empty) configuration the document requires in every PATCH.
    expect(fixture.lastRequestBody("PATCH", /installations\//)).toEqual({
      provider: "github",
      providerConfiguration: {},
      priority: "git",
    });
    expect(patches()).toHaveLength(1);
    expect(outs.priority).toBe("git");
    expect(fixture.emulator.store.gitSyncStore.installation(id)?.syncs).toBe(2);
  });

  it("syncs a site too, and reads it back", async () => {
    const siteId = await fixture.makeSite();
    const { id, state } = await created("GitSyncInstallation", {
      organizationId: fixture.org(),
      provider: "github",
      siteId,
      repositoryId: 1002,
    });
    expect(state).toMatchObject({ siteId, spaceId: null, status: "active" });
    const found = await lifecycle("GitSyncInstallation").read(id, state);
    expect(found.props).toMatchObject({ siteId, repositoryId: 1002 });
  });

  it("GitLab: the access token is sent, kept secret in the state as declared, never read back", async () => {
    const inputs = {
      organizationId: fixture.org(),
      provider: "gitlab",
      spaceId: fixture.space(1),
      projectId: 2001,
      accessToken: "glpat-a-secret-token",
    };
    const { id, state } = await created("GitSyncInstallation", inputs);
    expect(fixture.lastRequestBody("PATCH", /installations\//)).toEqual({
      provider: "gitlab",
      providerConfiguration: { projectId: 2001, accessToken: "glpat-a-secret-token" },
    });
    expect(state).toMatchObject({ projectId: 2001, accessToken: "glpat-a-secret-token", status: "active" });
    expect(lifecycle("GitSyncInstallation").definition.secretOutputs).toContain("accessToken");
    const refreshed = await lifecycle("GitSyncInstallation").read(id, state);
    expect(refreshed.props?.accessToken).toBe("glpat-a-secret-token");
  });

  it("installs without a PATCH when no setting is declared; a self-hosted GitLab's URL is read back", async () => {
    fixture.emulator.clearRequests();
    const bare = await created("GitSyncInstallation", {
      organizationId: fixture.org(),
      provider: "github",
      spaceId: fixture.space(2),
    });
    expect(fixture.calls()).toEqual(["POST /v1/git/installations"]);
    expect(bare.state).toMatchObject({ repositoryId: null, branch: null, priority: null, status: "pending" });
    const selfHosted = await created("GitSyncInstallation", {
      organizationId: fixture.org(),
      provider: "gitlab",
      spaceId: fixture.space(1),
      customInstanceURL: "https://gitlab.acme.example",
    });
    expect(selfHosted.state).toMatchObject({
      customInstanceURL: "https://gitlab.acme.example",
      projectId: null,
      status: "unauthenticated",
    });
  });

  it("a repository the provider cannot reach fails at up naming the field and the API's answer; nothing is left", async () => {
    const error = await failure(created("GitSyncInstallation", { ...onSpace(), repositoryId: 4242 }));
    expect(error.message).toContain("repositoryId 4242: github refused the configuration");
    expect(error.message).toContain("providerConfiguration.repositoryId");
    expect(error.message).toContain("check the repositoryId, that the branch exists");
    expect(error.message).toContain('("github") was removed again');
    // The install the failed configuration followed is undone: the space is not left synced.
    expect(fixture.emulator.store.gitSyncStore.of({ type: "space", spaceId: fixture.space(0) })).toBeUndefined();
  });

  it("GitLab's refusal names projectId; a failure that is no refusal is passed on as it is", async () => {
    const refused = await failure(
      created("GitSyncInstallation", {
        organizationId: fixture.org(),
        provider: "gitlab",
        spaceId: fixture.space(1),
        projectId: 9999,
      }),
    );
    expect(refused.message).toContain("projectId 9999: gitlab refused the configuration");
    const { id, state, inputs } = await created("GitSyncInstallation", onSpace(0));
    expect((await fixture.api("DELETE", `/git/installations/${id}`)).status).toBe(205);
    const gone = await failure(lifecycle("GitSyncInstallation").update(id, state, { ...inputs, priority: "git" }));
    expect(gone.message).toContain("404");
    expect(gone.message).not.toContain("refused the configuration");
  });

  it("reads a space synced through a site as the space's (no siteId), and lists no legacy GitHub integration", async () => {
    const { id, state } = await created("GitSyncInstallation", onSpace(0));
    const record = fixture.emulator.store.tables.gitSyncInstallations.get(id)!;
    Object.assign(record.target, { siteId: await fixture.makeSite() });
    const read = await lifecycle("GitSyncInstallation").read(id, state);
    expect(read.props).toMatchObject({ spaceId: fixture.space(0), siteId: null });
    Object.assign(record, { provider: "github-legacy" });
    const listed = await inOperation((operation) =>
      definition.listing!.list(operation.context(), { ids: { organizationId: fixture.org() }, title: "Org" }),
    );
    expect(listed).toEqual([]);
  });

  it("rejects each malformed value at preview, with no request", async () => {
    const cases: LimitCase[] = [
      [{ spaceId: undefined }, "spaceId", /declare exactly one of spaceId and siteId/],
      [{ siteId: "someSite" }, "spaceId", /declare exactly one of spaceId and siteId/],
      [{ provider: "bitbucket" }, "provider", /must be one of "github", "gitlab"/],
      [{ projectId: 2001 }, "projectId", /is not a setting of github's Git Sync/],
      [{ accessToken: "t" }, "accessToken", /is not a setting of github's Git Sync/, "hidden"],
      [{ customInstanceURL: "https://gitlab.acme.example" }, "customInstanceURL", /is not a setting of github's/],
      [{ branch: "refs/tags/v1" }, "branch", /must be a branch \(refs\/heads\/…\)/],
      [{ repositoryId: -1 }, "repositoryId", /too small|must be greater than 0/i],
      [{ priority: "both" }, "priority", /must be one of "git", "gitbook"/],
    ];
    await expectEachLimitRejected("GitSyncInstallation", onSpace(), cases);
    const gitlab = { ...onSpace(), provider: "gitlab", repositoryId: undefined };
    await expectEachLimitRejected("GitSyncInstallation", gitlab, [
      [{ repositoryId: 1001 }, "repositoryId", /is not a setting of gitlab's Git Sync/],
      [{ customInstanceURL: "ftp://gitlab.acme.example" }, "customInstanceURL", /.+/],
    ]);
    expect(fixture.emulator.requests()).toEqual([]);
  });
});

describe("GitSyncInstallation listing and lookup", () => {
  it("lists the installations the spaces and sites name, with their target, from the two listings only", async () => {
    const siteId = await fixture.makeSite({ title: "Docs" });
    const onSite = await created("GitSyncInstallation", {
      organizationId: fixture.org(),
      provider: "gitlab",
      siteId,
      projectId: 2001,
    });
    const onSpaceOne = await created("GitSyncInstallation", onSpace(1));
    fixture.emulator.clearRequests();
    const listed = await inOperation((operation) =>
      definition.listing!.list(operation.context(), { ids: { organizationId: fixture.org() }, title: "Org" }),
    );
    expect(fixture.calls().sort()).toEqual([
      `GET /v1/orgs/${fixture.org()}/sites`,
      `GET /v1/orgs/${fixture.org()}/spaces`,
    ]);
    const spaceTitle = fixture.emulator.store.spaces.get(fixture.space(1))!.title;
    expect(listed).toEqual([
      {
        id: onSpaceOne.id,
        title: spaceTitle,
        known: { organizationId: fixture.org(), provider: "github", spaceId: fixture.space(1) },
      },
      { id: onSite.id, title: "Docs", known: { organizationId: fixture.org(), provider: "gitlab", siteId } },
    ]);
  });

  it("finds what a lost create made by its target: the space's gitSync, or the site's own installation", async () => {
    const siteId = await fixture.makeSite();
    const onSite = await created("GitSyncInstallation", { organizationId: fixture.org(), provider: "github", siteId });
    const onSpaceZero = await created("GitSyncInstallation", onSpace(0));
    const find = (inputs: Record<string, unknown>) =>
      inOperation((operation) => definition.findCreated!(operation.context(), inputs as never, new Date(0)));
    expect(await find({ organizationId: fixture.org(), provider: "github", siteId })).toEqual([
      { id: onSite.id, title: siteId },
    ]);
    expect(await find(onSpace(0))).toEqual([{ id: onSpaceZero.id, title: fixture.space(0) }]);
    expect(await find(onSpace(2))).toEqual([]);
    const otherSite = await fixture.makeSite();
    expect(await find({ organizationId: fixture.org(), provider: "github", siteId: otherSite })).toEqual([]);
  });

  it("an importId naming an installation of another target fails the update, naming what differs", async () => {
    const { id, state } = await created("GitSyncInstallation", onSpace(0));
    const error = await failure(
      lifecycle("GitSyncInstallation").update(id, { ...state, spaceId: fixture.space(1) }, onSpace(0)),
    );
    expect(error.message).toContain(
      `importId names an installation of another provider or target (spaceId "${fixture.space(1)}"); declare its ` +
        "provider and target, or remove importId to install Git Sync anew.",
    );
  });
});

describe("GitSyncInstallation with a token that is not a user's", () => {
  const INTEGRATION_TOKEN = "integration-token-git-sync";
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env.DOCS_API_TOKEN;
    fixture.emulator.typeToken(INTEGRATION_TOKEN, "integration");
  });
  afterEach(() => {
    process.env.DOCS_API_TOKEN = saved;
  });

  it("fails with the fix (a personal token)", async () => {
    process.env.DOCS_API_TOKEN = INTEGRATION_TOKEN;
    const error = await failure(created("GitSyncInstallation", onSpace()));
    expect(error.name).toBe("UserTokenRequiredError");
    expect(error.message).toContain("POST /v1/git/installations failed with 401 Unauthorized");
    expect(error.message).toContain("Use a personal API token of an organization admin");
  });
});

describe("GitSyncInstallation: a repository by name", () => {
  const byName = (extra: Record<string, unknown>) => {
    const { repositoryId: _id, ...rest } = onSpace();
    return { ...rest, ...extra };
  };

  it("resolves repository through the installation's repository listing and keeps the name in the state", async () => {
    const { state } = await created("GitSyncInstallation", byName({ repository: "ACME/Docs" }));
    expect(state).toMatchObject({ repository: "ACME/Docs", repositoryId: 1001 });
    expect(routes()).toContain("GET /v1/git/installations/{installationId}/github/repos");
    const patch = fixture.emulator.requests().find((r) => r.method === "PATCH");
    expect(patch?.requestBody).toMatchObject({ providerConfiguration: { repositoryId: 1001 } });
  });

  it("fails at up naming what the installation can reach, and removes the installation it made", async () => {
    const error = await failure(
      lifecycle("GitSyncInstallation").create(
        await checked("GitSyncInstallation", byName({ repository: "acme/dcos" })),
      ),
    );
    expect(error.message).toContain('repository "acme/dcos": the github installation');
    expect(error.message).toContain("cannot reach it; it can reach acme/docs, acme/handbook");
    expect(error.message).toContain("listGitHubRepositoriesForGitSyncInstallation");
    expect(error.message).toContain("grant GitBook's GitHub app access to the repository");
    expect(routes()).toContain("DELETE /v1/git/installations/{installationId}");
    expect(fixture.calls().filter((call) => call.startsWith("PATCH"))).toEqual([]);
  });

  it("reads a repository switched by hand as no name (drift), and an update resolves the name again", async () => {
    const { id, state, inputs } = await created("GitSyncInstallation", byName({ repository: "acme/docs" }));
    const body = { provider: "github", providerConfiguration: { repositoryId: 1002 } };
    expect((await fixture.api("PATCH", `/git/installations/${id}`, body)).status).toBe(200);
    const read = await lifecycle("GitSyncInstallation").read(id, state);
    expect(read.props).toMatchObject({ repository: null, repositoryId: 1002 });
    const diff = await lifecycle("GitSyncInstallation").diff(id, read.props!, inputs);
    expect(diff.changes).toBe(true);
    const updated = await lifecycle("GitSyncInstallation").update(id, read.props!, inputs);
    expect(updated.outs).toMatchObject({ repository: "acme/docs", repositoryId: 1001 });
  });

  it("refuses at preview a name of the wrong shape, another provider's name, or a name beside its id", async () => {
    const check = async (extra: Record<string, unknown>) =>
      (await lifecycle("GitSyncInstallation").check({}, { ...byName({}), ...extra })).failures?.map((f) => f.reason);
    expect(await check({ repository: "https://github.com/acme/docs" })).toEqual([
      expect.stringContaining("must be `owner/repository`"),
    ]);
    expect(await check({ project: "acme/docs" })).toEqual([
      expect.stringContaining("is not a setting of github's Git Sync"),
    ]);
    expect(await check({ repository: "acme/docs", repositoryId: 1001 })).toEqual([
      expect.stringContaining("declare one of repository and repositoryId"),
    ]);
    expect(fixture.calls()).toEqual([]);
  });

  it("resolves a GitLab project by path", async () => {
    const { state } = await created("GitSyncInstallation", {
      organizationId: fixture.org(),
      provider: "gitlab",
      spaceId: fixture.space(0),
      project: "acme/platform-docs",
      accessToken: "glpat-example",
    });
    expect(state).toMatchObject({ project: "acme/platform-docs", projectId: 2001 });
    expect(routes()).toContain("GET /v1/git/installations/{installationId}/gitlab/projects");
  });
});
