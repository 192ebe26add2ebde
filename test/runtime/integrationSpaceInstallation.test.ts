import { describe, expect, it } from "vitest";
import { Operation } from "../../provider/framework/operation";
import { definitions } from "../../provider/registry";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { created, describeLifecycle, expectEachLimitRejected, type LimitCase } from "../support/lifecycle";

const fixture = useEmulator();
const SECRET = "space-token-9a7c13";
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: Error) => error,
  );
const install = (name: string, organization = fixture.org()) =>
  fixture.apiCreate(`/integrations/${name}/installations`, { organization });
const spacePath = (name: string, installation: string, space: string) =>
  `/integrations/${name}/installations/${installation}/spaces/${space}`;
const makeSpace = () => fixture.apiCreate(`/orgs/${fixture.org()}/spaces`, { title: "Handbook" });

/** The installation and space of the inputs made last: the out-of-band row edits the object it just created. */
let last: { installationId: string; spaceId: string } | undefined;
let adopted: { installationId: string; spaceId: string } | undefined;

describeLifecycle(
  {
    kind: "IntegrationSpaceInstallation",
    inputs: async () => {
      last = { installationId: await install("ticket-sync"), spaceId: await makeSpace() };
      return {
        organizationId: fixture.org(),
        ...last,
        integrationName: "ticket-sync",
        configuration: { project: "docs" },
        secrets: { apiToken: SECRET },
      };
    },
    created: (state) =>
      expect(state).toMatchObject({
        integrationName: "ticket-sync",
        configuration: { project: "docs" },
        secrets: { apiToken: SECRET },
        // The organization installation's status: the integration requires no account configuration.
        status: "active",
      }),
    updates: [
      {
        name: "configuration",
        inputs: (_f, p) => ({ ...p, configuration: { project: "partners" } }),
        expect: (state) => expect(state.configuration).toEqual({ project: "partners" }),
      },
      {
        name: "secrets",
        inputs: (_f, p) => ({ ...p, secrets: { apiToken: "rotated-secret" } }),
        expect: (state) => expect(state.secrets).toEqual({ apiToken: "rotated-secret" }),
      },
    ],
    replaces: [
      { property: "spaceId", inputs: async (_f, p) => ({ ...p, spaceId: await makeSpace() }) },
      {
        property: "installationId",
        inputs: async (_f, p) => ({ ...p, installationId: await install("ticket-sync") }),
      },
    ],
    outOfBand: {
      change: async () => {
        const path = spacePath("ticket-sync", last!.installationId, last!.spaceId);
        const body = { configuration: { project: "by-hand", apiToken: SECRET } };
        expect((await fixture.api("PATCH", path, body)).status).toBe(200);
      },
      expect: (state) => expect(state.configuration).toEqual({ project: "by-hand" }),
    },
    adopt: {
      missing: "Zz0NoSuchSpace/Zz0NoSuchInstallation",
      existing: async () => {
        adopted = { installationId: await install("ticket-sync"), spaceId: await makeSpace() };
        const path = `/integrations/ticket-sync/installations/${adopted.installationId}/spaces`;
        await fixture.apiCreate(path, { space: adopted.spaceId });
        return `${adopted.spaceId}/${adopted.installationId}`;
      },
      inputs: async () => ({
        organizationId: fixture.org(),
        ...(adopted ?? { installationId: await install("ticket-sync"), spaceId: await makeSpace() }),
        integrationName: "ticket-sync",
        configuration: { project: "adopted" },
      }),
      expect: (state) => expect(state.configuration).toEqual({ project: "adopted" }),
    },
  },
  fixture,
);

describe("IntegrationSpaceInstallation behaviour", () => {
  it("sends the GET again when its connection drops: a GET changes nothing", async () => {
    const installationId = await install("ticket-sync");
    const spaceId = await makeSpace();
    const inputs = { organizationId: fixture.org(), spaceId, installationId, integrationName: "ticket-sync" };
    const { id, state } = await created("IntegrationSpaceInstallation", inputs);
    const path = spacePath("ticket-sync", installationId, spaceId);
    fixture.emulator.injectFault({ method: "GET", path: `${path}$`, drop: true });
    fixture.emulator.clearRequests();
    await lifecycle("IntegrationSpaceInstallation").update(id, state, {
      ...inputs,
      configuration: { project: "docs" },
    });
    expect(fixture.calls()).toEqual([`GET /v1${path}`, `GET /v1${path}`, `PATCH /v1${path}`]);
  });

  it("keeps the secrets out of errors, even when the API's answer quotes them, and undoes the install", async () => {
    const installationId = await install("ticket-sync");
    const spaceId = await makeSpace();
    fixture.emulator.injectFault({
      method: "PATCH",
      path: "/spaces/",
      count: 1,
      status: 400,
      body: { error: { code: 400, message: `configuration.apiToken: "${SECRET}" is too weak` } },
    });
    const error = await failure(
      lifecycle("IntegrationSpaceInstallation").create({
        organizationId: fixture.org(),
        spaceId,
        installationId,
        integrationName: "ticket-sync",
        secrets: { apiToken: SECRET },
      }),
    );
    expect(error.message).toContain('configuration.apiToken: "[secret]" is too weak');
    expect(error.message).not.toContain(SECRET);
    expect(fixture.emulator.store.integrationSpaceInstallations.size).toBe(0);
  });

  it("fails at up on a configuration the integration's space schema rejects, naming the key", async () => {
    const error = await failure(
      lifecycle("IntegrationSpaceInstallation").create({
        organizationId: fixture.org(),
        spaceId: await makeSpace(),
        installationId: await install("ticket-sync"),
        integrationName: "ticket-sync",
        configuration: { labels: "some" },
      }),
    );
    expect(error.message).toMatch(
      /^IntegrationSpaceInstallation create: PATCH \S+ failed with 400 Bad Request: configuration\.labels: must be one of none, all/,
    );
    // The install the refused configuration followed is undone, and the error says so.
    expect(error.message).toMatch(/the new IntegrationSpaceInstallation "\w+\/\w+" \("\S+"\) was removed again/);
    expect(fixture.emulator.store.tables.integrationSpaceInstallations.size).toBe(0);
  });

  it("keeps keys the integration wrote itself through a change", async () => {
    const { id, state } = await created("IntegrationSpaceInstallation", {
      organizationId: fixture.org(),
      spaceId: await makeSpace(),
      installationId: await install("ticket-sync"),
      integrationName: "ticket-sync",
      configuration: { project: "P-1" },
    });
    const key = `${state.installationId}/${state.spaceId}`;
    fixture.emulator.store.tables.integrationSpaceInstallations.get(key)!.configuration.sessionKey = "by-integration";
    const read = await lifecycle("IntegrationSpaceInstallation").read(id, state);
    expect(read.props?.configuration).toEqual({ project: "P-1" });
    await lifecycle("IntegrationSpaceInstallation").update(id, state, {
      ...state,
      configuration: { project: "P-2" },
    });
    expect(fixture.emulator.store.integrationSpaceInstallations.get(key)?.configuration).toEqual({
      project: "P-2",
      sessionKey: "by-integration",
    });
  });

  it("reads every space of an installation from one listing, and is gone once the installation is uninstalled", async () => {
    const installationId = await install("ticket-sync");
    const made = [];
    for (let i = 0; i < 3; i++)
      made.push(
        await created("IntegrationSpaceInstallation", {
          organizationId: fixture.org(),
          spaceId: await makeSpace(),
          installationId,
          integrationName: "ticket-sync",
        }),
      );
    fixture.emulator.clearRequests();
    const reads = await Promise.all(
      made.map(({ id, state }) => lifecycle("IntegrationSpaceInstallation").read(id, state)),
    );
    expect(reads.map((read) => read.id)).toEqual(made.map(({ id }) => id));
    expect(fixture.calls()).toEqual([`GET /v1/integrations/ticket-sync/installations/${installationId}/spaces`]);

    expect((await fixture.api("DELETE", `/integrations/ticket-sync/installations/${installationId}`)).status).toBe(205);
    // A new operation: the one above keeps the listing it read.
    const operation = new Operation(definitions);
    try {
      const gone = await lifecycle("IntegrationSpaceInstallation", operation).read(made[0]!.id, made[0]!.state);
      expect(gone.id).toBe("");
    } finally {
      operation.close();
    }
  });
});

describe("IntegrationSpaceInstallation limits", () => {
  const valid = { organizationId: "org", spaceId: "space", installationId: "inst", integrationName: "ticket-sync" };
  const cases: LimitCase[] = [
    [{ integrationName: ".." }, "integrationName", /not `\.` or `\.\.`/],
    [{ integrationName: "a/b" }, "integrationName", /letters, digits/],
    [{ configuration: { list: [1] } }, "configuration.list", /./],
    [{ secrets: { key: "" }, configuration: { key: "x" } }, "secrets.key", /declared in `configuration` too/, "hidden"],
  ];
  it("rejects each malformed value at check, before any request", async () => {
    await expectEachLimitRejected("IntegrationSpaceInstallation", valid, cases);
    expect(fixture.calls()).toEqual([]);
  });
});
