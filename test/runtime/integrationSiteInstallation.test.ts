import { describe, expect, it } from "vitest";
import { Operation } from "../../provider/framework/operation";
import { definitions } from "../../provider/registry";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { created, describeLifecycle, expectEachLimitRejected, type LimitCase } from "../support/lifecycle";

const fixture = useEmulator();
const SECRET = "gate-signing-3e9f41";
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: Error) => error,
  );
const install = (name: string, organization = fixture.org()) =>
  fixture.apiCreate(`/integrations/${name}/installations`, { organization });
const sitePath = (name: string, installation: string, site: string) =>
  `/integrations/${name}/installations/${installation}/sites/${site}`;

/** The installation and site of the inputs made last: the out-of-band row edits the object it just created. */
let last: { installationId: string; siteId: string } | undefined;
let adopted: { installationId: string; siteId: string } | undefined;

describeLifecycle(
  {
    kind: "IntegrationSiteInstallation",
    inputs: async () => {
      last = { installationId: await install("visitor-gate"), siteId: await fixture.makeSite() };
      return {
        organizationId: fixture.org(),
        ...last,
        integrationName: "visitor-gate",
        configuration: { audience: "docs" },
        secrets: { signingSecret: SECRET },
      };
    },
    created: (state) =>
      expect(state).toMatchObject({
        integrationName: "visitor-gate",
        configuration: { audience: "docs" },
        secrets: { signingSecret: SECRET },
        // The organization installation's status: the integration requires no account configuration.
        status: "active",
      }),
    updates: [
      {
        name: "configuration",
        inputs: (_f, p) => ({ ...p, configuration: { audience: "partners" } }),
        expect: (state) => expect(state.configuration).toEqual({ audience: "partners" }),
      },
      {
        name: "secrets",
        inputs: (_f, p) => ({ ...p, secrets: { signingSecret: "rotated-secret" } }),
        expect: (state) => expect(state.secrets).toEqual({ signingSecret: "rotated-secret" }),
      },
    ],
    replaces: [
      { property: "siteId", inputs: async (_f, p) => ({ ...p, siteId: await fixture.makeSite() }) },
      {
        property: "installationId",
        inputs: async (_f, p) => ({ ...p, installationId: await install("visitor-gate") }),
      },
    ],
    outOfBand: {
      change: async () => {
        const path = sitePath("visitor-gate", last!.installationId, last!.siteId);
        const body = { configuration: { audience: "by-hand", signingSecret: SECRET } };
        expect((await fixture.api("PATCH", path, body)).status).toBe(200);
      },
      expect: (state) => expect(state.configuration).toEqual({ audience: "by-hand" }),
    },
    adopt: {
      missing: "Zz0NoSuchSite/Zz0NoSuchInstallation",
      existing: async () => {
        adopted = { installationId: await install("visitor-gate"), siteId: await fixture.makeSite() };
        const path = `/integrations/visitor-gate/installations/${adopted.installationId}/sites`;
        await fixture.apiCreate(path, { siteId: adopted.siteId });
        return `${adopted.siteId}/${adopted.installationId}`;
      },
      inputs: async () => ({
        organizationId: fixture.org(),
        ...(adopted ?? { installationId: await install("visitor-gate"), siteId: await fixture.makeSite() }),
        integrationName: "visitor-gate",
        configuration: { audience: "adopted" },
      }),
      expect: (state) => expect(state.configuration).toEqual({ audience: "adopted" }),
    },
  },
  fixture,
);

describe("IntegrationSiteInstallation behaviour", () => {
  it("sends the GET again when its connection drops: a GET changes nothing", async () => {
    const installationId = await install("visitor-gate");
    const siteId = await fixture.makeSite();
    const inputs = { organizationId: fixture.org(), siteId, installationId, integrationName: "visitor-gate" };
    const { id, state } = await created("IntegrationSiteInstallation", inputs);
    const path = sitePath("visitor-gate", installationId, siteId);
    fixture.emulator.injectFault({ method: "GET", path: `${path}$`, drop: true });
    fixture.emulator.clearRequests();
    await lifecycle("IntegrationSiteInstallation").update(id, state, {
      ...inputs,
      configuration: { audience: "docs" },
    });
    expect(fixture.calls()).toEqual([`GET /v1${path}`, `GET /v1${path}`, `PATCH /v1${path}`]);
  });

  it("keeps the secrets out of errors, even when the API's answer quotes them, and undoes the install", async () => {
    const installationId = await install("visitor-gate");
    const siteId = await fixture.makeSite();
    fixture.emulator.injectFault({
      method: "PATCH",
      path: "/sites/",
      count: 1,
      status: 400,
      body: { error: { code: 400, message: `configuration.signingSecret: "${SECRET}" is too weak` } },
    });
    const error = await failure(
      lifecycle("IntegrationSiteInstallation").create({
        organizationId: fixture.org(),
        siteId,
        installationId,
        integrationName: "visitor-gate",
        secrets: { signingSecret: SECRET },
      }),
    );
    expect(error.message).toContain('configuration.signingSecret: "[secret]" is too weak');
    expect(error.message).not.toContain(SECRET);
    expect(fixture.emulator.store.integrationSiteInstallations.size).toBe(0);
  });

  it("fails at up on a configuration the integration's site schema rejects, naming the key", async () => {
    const error = await failure(
      lifecycle("IntegrationSiteInstallation").create({
        organizationId: fixture.org(),
        siteId: await fixture.makeSite(),
        installationId: await install("analytics-pulse"),
        integrationName: "analytics-pulse",
        configuration: { cookieBanner: "yes" },
      }),
    );
    expect(error.message).toMatch(
      /^IntegrationSiteInstallation create: PATCH \S+ failed with 400 Bad Request: configuration\.cookieBanner: must be a boolean/,
    );
    // The install the refused configuration followed is undone, and the error says so.
    expect(error.message).toMatch(/the new IntegrationSiteInstallation "\w+\/\w+" \("\S+"\) was removed again/);
    expect(fixture.emulator.store.tables.integrationSiteInstallations.size).toBe(0);
  });

  it("keeps keys the integration wrote itself through a change", async () => {
    const { id, state } = await created("IntegrationSiteInstallation", {
      organizationId: fixture.org(),
      siteId: await fixture.makeSite(),
      installationId: await install("analytics-pulse"),
      integrationName: "analytics-pulse",
      configuration: { trackingId: "G-1" },
    });
    const key = `${state.installationId}/${state.siteId}`;
    fixture.emulator.store.tables.integrationSiteInstallations.get(key)!.configuration.sessionKey = "by-integration";
    const read = await lifecycle("IntegrationSiteInstallation").read(id, state);
    expect(read.props?.configuration).toEqual({ trackingId: "G-1" });
    await lifecycle("IntegrationSiteInstallation").update(id, state, {
      ...state,
      configuration: { trackingId: "G-2" },
    });
    expect(fixture.emulator.store.integrationSiteInstallations.get(key)?.configuration).toEqual({
      trackingId: "G-2",
      sessionKey: "by-integration",
    });
  });

  it("reads every site of an installation from one listing, and is gone once the installation is uninstalled", async () => {
    const installationId = await install("ticket-sync");
    const made = [];
    for (let i = 0; i < 3; i++)
      made.push(
        await created("IntegrationSiteInstallation", {
          organizationId: fixture.org(),
          siteId: await fixture.makeSite(),
          installationId,
          integrationName: "ticket-sync",
        }),
      );
    fixture.emulator.clearRequests();
    const reads = await Promise.all(
      made.map(({ id, state }) => lifecycle("IntegrationSiteInstallation").read(id, state)),
    );
    expect(reads.map((read) => read.id)).toEqual(made.map(({ id }) => id));
    expect(fixture.calls()).toEqual([`GET /v1/integrations/ticket-sync/installations/${installationId}/sites`]);

    expect((await fixture.api("DELETE", `/integrations/ticket-sync/installations/${installationId}`)).status).toBe(205);
    // A new operation: the one above keeps the listing it read.
    const operation = new Operation(definitions);
    try {
      const gone = await lifecycle("IntegrationSiteInstallation", operation).read(made[0]!.id, made[0]!.state);
      expect(gone.id).toBe("");
    } finally {
      operation.close();
    }
  });
});

describe("IntegrationSiteInstallation limits", () => {
  const valid = { organizationId: "org", siteId: "site", installationId: "inst", integrationName: "ticket-sync" };
  const cases: LimitCase[] = [
    [{ integrationName: ".." }, "integrationName", /not `\.` or `\.\.`/],
    [{ integrationName: "a/b" }, "integrationName", /letters, digits/],
    [{ configuration: { list: [1] } }, "configuration.list", /./],
    [{ secrets: { key: "" }, configuration: { key: "x" } }, "secrets.key", /declared in `configuration` too/, "hidden"],
  ];
  it("rejects each malformed value at check, before any request", async () => {
    await expectEachLimitRejected("IntegrationSiteInstallation", valid, cases);
    expect(fixture.calls()).toEqual([]);
  });
});
