import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Operation } from "../../provider/framework/operation";
import { definitions } from "../../provider/registry";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { created, describeLifecycle, expectEachLimitRejected, type LimitCase, updateTo } from "../support/lifecycle";

const fixture = useEmulator();
const API_KEY = "tickets-key-7d2e91";
const installationPath = (name: string, id: string) => `/integrations/${name}/installations/${id}`;
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: Error) => error,
  );
/** What the emulator stores: the whole configuration, keys the program does not manage included. */
const stored = (id: string) => fixture.emulator.store.integrationInstallations.get(id)?.configuration;

describeLifecycle(
  {
    kind: "IntegrationInstallation",
    inputs: () => ({
      organizationId: fixture.org(),
      integrationName: "ticket-sync",
      configuration: { workspace: "acme" },
      secrets: { apiKey: API_KEY },
    }),
    created: (state) =>
      expect(state).toMatchObject({
        integrationName: "ticket-sync",
        spaceSelection: "selected",
        siteSelection: "selected",
        configuration: { workspace: "acme" },
        secrets: { apiKey: API_KEY },
        status: "active",
      }),
    updates: [
      updateTo("siteSelection", "all"),
      updateTo("spaceSelection", "all"),
      updateTo("configuration", { workspace: "globex" }),
      updateTo("secrets", { apiKey: "tickets-key-rotated" }),
    ],
    replaces: [
      {
        property: "integrationName",
        inputs: (_f, p) => ({
          ...p,
          integrationName: "analytics-pulse",
          configuration: { trackingId: "G-1" },
          secrets: {},
        }),
      },
      { property: "organizationId", inputs: (f, p) => ({ ...p, organizationId: f.emulator.secondOrganizationId }) },
    ],
    outOfBand: {
      change: async (id) => {
        const body = { configuration: { workspace: "by-hand", apiKey: API_KEY }, site_selection: "all" };
        expect((await fixture.api("PATCH", installationPath("ticket-sync", id), body)).status).toBe(200);
      },
      expect: (state) => expect(state).toMatchObject({ configuration: { workspace: "by-hand" }, siteSelection: "all" }),
    },
    adopt: {
      existing: () => fixture.apiCreate("/integrations/ticket-sync/installations", { organization: fixture.org() }),
      inputs: () => ({
        organizationId: fixture.org(),
        integrationName: "ticket-sync",
        configuration: { workspace: "adopted" },
      }),
      expect: (state) => expect(state).toMatchObject({ configuration: { workspace: "adopted" } }),
    },
  },
  fixture,
);

describe("IntegrationInstallation behaviour", () => {
  it("keeps keys the integration wrote itself: neither drift nor shown, and kept by a change", async () => {
    const { id, state } = await created("IntegrationInstallation", {
      organizationId: fixture.org(),
      integrationName: "ticket-sync",
      configuration: { workspace: "acme" },
    });
    // The integration stores a token of its own in the same configuration.
    fixture.emulator.store.tables.integrationInstallations.get(id)!.configuration.oauthToken = "written-by-integration";
    const read = await lifecycle("IntegrationInstallation").read(id, state);
    expect(read.props?.configuration).toEqual({ workspace: "acme" });
    expect(read.props?.secrets).toEqual({});

    // The emulator replaces the configuration it is sent: the update sends the current one with the declared keys.
    const news = { ...state, configuration: { workspace: "globex" } };
    const updated = await lifecycle("IntegrationInstallation").update(id, state, news);
    expect(updated.outs.configuration).toEqual({ workspace: "globex" });
    expect(stored(id)).toEqual({ workspace: "globex", oauthToken: "written-by-integration" });
  });

  it("keeps the secrets secret in the state and out of errors, even when the API's answer quotes them", async () => {
    const { definition } = lifecycle("IntegrationInstallation");
    expect(definition.secretOutputs).toEqual(["secrets"]);
    fixture.emulator.injectFault({
      method: "PATCH",
      path: "/installations/",
      count: 1,
      status: 400,
      body: { error: { code: 400, message: `configuration.apiKey: "${API_KEY}" was refused by the service` } },
    });
    const error = await failure(
      lifecycle("IntegrationInstallation").create({
        organizationId: fixture.org(),
        integrationName: "ticket-sync",
        secrets: { apiKey: API_KEY },
      }),
    );
    expect(error.message).toMatch(/^IntegrationInstallation create: PATCH \S+ failed with 400 Bad Request: /);
    expect(error.message).toContain('configuration.apiKey: "[secret]" was refused');
    expect(error.message).not.toContain(API_KEY);
    // The failed configuration undid the install.
    expect(fixture.emulator.store.integrationInstallations.size).toBe(0);
  });

  it("fails at up on an unknown integration, naming integrationName and the API's answer", async () => {
    const error = await failure(
      lifecycle("IntegrationInstallation").create({ organizationId: fixture.org(), integrationName: "no-such-thing" }),
    );
    expect(error.message).toMatch(
      /^IntegrationInstallation create: integrationName "no-such-thing": no such integration \(POST \S+\/integrations\/no-such-thing\/installations failed with 404 Not Found: Integration "no-such-thing" not found\)/,
    );
    expect(error.message).toContain(
      "check the name in the integration's URL, https://app.gitbook.com/integrations/<name>",
    );
  });

  it("fails at up on a configuration the integration's schema rejects, naming the key and not the value", async () => {
    const error = await failure(
      lifecycle("IntegrationInstallation").create({
        organizationId: fixture.org(),
        integrationName: "analytics-pulse",
        configuration: { trackingId: "G-1", region: "mars" },
        secrets: {},
      }),
    );
    expect(error.message).toMatch(
      /^IntegrationInstallation create: PATCH \S+ failed with 400 Bad Request: configuration\.region: must be one of eu, us/,
    );
    expect(error.message).not.toContain("mars");
    expect(error.message).toMatch(/the new IntegrationInstallation "\w+" \("analytics-pulse"\) was removed again/);
    expect(fixture.emulator.store.integrationInstallations.size).toBe(0);
  });

  it("an install that fails otherwise than with a 404 is passed on as it is, not as an unknown name", async () => {
    fixture.emulator.injectFault({ method: "POST", path: "/installations$", count: 1, status: 400 });
    const error = await failure(
      lifecycle("IntegrationInstallation").create({ organizationId: fixture.org(), integrationName: "ticket-sync" }),
    );
    expect(error.message).toContain("400");
    expect(error.message).not.toContain("no such integration");
  });

  it("sends no PATCH on create when nothing but the name is declared, and only the changed selection later", async () => {
    const { id, state, inputs } = await created("IntegrationInstallation", {
      organizationId: fixture.org(),
      integrationName: "ticket-sync",
    });
    expect(fixture.emulator.requests().filter((r) => r.method === "PATCH")).toEqual([]);
    fixture.emulator.clearRequests();
    await lifecycle("IntegrationInstallation").update(id, state, { ...inputs, spaceSelection: "all" });
    const patches = fixture.emulator.requests().filter((r) => r.method === "PATCH");
    expect(patches.map((r) => r.requestBody)).toEqual([{ space_selection: "all" }]);
  });

  it("reads a declared key the installation no longer holds as absent, and sends no PATCH when all hold their values", async () => {
    const { id, state, inputs } = await created("IntegrationInstallation", {
      organizationId: fixture.org(),
      integrationName: "ticket-sync",
      configuration: { workspace: "acme" },
      secrets: { apiKey: API_KEY },
    });
    delete fixture.emulator.store.tables.integrationInstallations.get(id)!.configuration.workspace;
    const read = await lifecycle("IntegrationInstallation").read(id, state);
    expect(Object.keys(read.props?.configuration as object)).toEqual([]);
    expect(Object.keys(read.props?.secrets as object)).toEqual(["apiKey"]);

    fixture.emulator.store.tables.integrationInstallations.get(id)!.configuration.workspace = "acme";
    fixture.emulator.clearRequests();
    await lifecycle("IntegrationInstallation").update(id, state, inputs);
    expect(fixture.emulator.requests().filter((r) => r.method === "PATCH")).toEqual([]);
  });

  it("sends the installation's GET again when its connection drops: a GET changes nothing", async () => {
    const { id, state, inputs } = await created("IntegrationInstallation", {
      organizationId: fixture.org(),
      integrationName: "ticket-sync",
    });
    fixture.emulator.injectFault({ method: "GET", path: `/installations/${id}$`, drop: true });
    fixture.emulator.clearRequests();
    await lifecycle("IntegrationInstallation").update(id, state, { ...inputs, siteSelection: "all" });
    const path = `/v1${installationPath("ticket-sync", id)}`;
    expect(fixture.calls()).toEqual([`GET ${path}`, `GET ${path}`, `PATCH ${path}`]);
  });

  it("reads every installation of an organization from one listing in a refresh", async () => {
    const installations = [];
    for (const integrationName of ["ticket-sync", "visitor-gate"])
      installations.push(await created("IntegrationInstallation", { organizationId: fixture.org(), integrationName }));
    fixture.emulator.clearRequests();
    const reads = await Promise.all(
      installations.map(({ id, state }) => lifecycle("IntegrationInstallation").read(id, state)),
    );
    expect(reads.map((read) => read.props?.integrationName)).toEqual(["ticket-sync", "visitor-gate"]);
    expect(fixture.calls()).toEqual([`GET /v1/orgs/${fixture.org()}/installations`]);
  });

  it("fails at preview when two resources install one integration in one organization", async () => {
    const check = (organizationId: string, siteSelection: string) =>
      lifecycle("IntegrationInstallation").check({}, { organizationId, integrationName: "ticket-sync", siteSelection });
    expect((await check("org-a", "all")).failures).toBeUndefined();
    expect((await check("org-b", "all")).failures).toBeUndefined();
    expect((await check("org-a", "selected")).failures?.[0]?.reason).toMatch(
      /another IntegrationInstallation of this program/,
    );
    expect(fixture.emulator.requests()).toEqual([]);
  });
});

describe("IntegrationInstallation state from the API's answer", () => {
  /** The state an update with nothing to change records from the installation's GET, with `fields` changed. */
  async function stateFrom(fields: Record<string, unknown>) {
    const id = await fixture.apiCreate("/integrations/ticket-sync/installations", { organization: fixture.org() });
    const answer = (await fixture.api("GET", installationPath("ticket-sync", id))).body as Record<string, unknown>;
    fixture.emulator.injectFault({
      method: "GET",
      path: `/installations/${id}$`,
      status: 200,
      body: { ...answer, ...fields },
    });
    const inputs = { organizationId: fixture.org(), integrationName: "ticket-sync" };
    const operation = new Operation(definitions);
    try {
      const kind = definitions.find((definition) => definition.kind === "IntegrationInstallation")!;
      return await kind.update!(operation.context(), id, inputs, inputs, new Set());
    } finally {
      operation.close();
    }
  }

  it("records the counts, external ids and URLs the API reports", async () => {
    const urls = { location: "https://api.example/i/1", app: "https://app.example/i/1", publicEndpoint: "https://x/1" };
    const answer = {
      status: "pending",
      spaces: 3,
      externalIds: ["crm-1"],
      urls: { ...urls, publicContentEndpoint: "https://x/2" },
    };
    expect(await stateFrom(answer)).toEqual({
      organizationId: fixture.org(),
      integrationName: "ticket-sync",
      spaceSelection: "selected",
      siteSelection: "selected",
      configuration: {},
      secrets: {},
      status: "pending",
      spaces: 3,
      externalIds: ["crm-1"],
      urls,
    });
  });
});

describe("IntegrationInstallation with an integration's token", () => {
  const INTEGRATION_TOKEN = "integration-token-of-installations";
  let savedToken: string | undefined;
  beforeAll(() => fixture.emulator.typeToken(INTEGRATION_TOKEN, "integration"));
  beforeEach(() => {
    savedToken = process.env.DOCS_API_TOKEN;
  });
  afterEach(() => {
    process.env.DOCS_API_TOKEN = savedToken;
  });

  it("reads, but its delete fails naming the user token and the fix", async () => {
    const { id, state } = await created("IntegrationInstallation", {
      organizationId: fixture.org(),
      integrationName: "ticket-sync",
    });
    process.env.DOCS_API_TOKEN = INTEGRATION_TOKEN;
    const read = await lifecycle("IntegrationInstallation").read(id, state);
    expect(read.props).toMatchObject({ integrationName: "ticket-sync" });
    const error = await failure(lifecycle("IntegrationInstallation").delete(id, state));
    expect(error.name).toBe("UserTokenRequiredError");
    expect(error.message).toContain("failed with 401 Unauthorized");
    expect(error.message).toContain("Use a personal API token of an organization admin");
    expect(fixture.emulator.store.integrationInstallations.has(id)).toBe(true);
  });
});

describe("IntegrationInstallation limits", () => {
  const valid = { organizationId: "org", integrationName: "ticket-sync" };
  const cases: LimitCase[] = [
    [{ integrationName: "" }, "integrationName", [/at least 1/, /letters, digits/]],
    [{ integrationName: "x".repeat(101) }, "integrationName", /at most 100/],
    [{ integrationName: "ticket sync" }, "integrationName", /letters, digits/],
    [{ integrationName: ".." }, "integrationName", /not `\.` or `\.\.`/],
    [{ integrationName: "." }, "integrationName", /not `\.` or `\.\.`/],
    [{ spaceSelection: "some" }, "spaceSelection", /all.*selected/],
    [{ siteSelection: "some" }, "siteSelection", /all.*selected/],
    [{ configuration: { nested: { a: 1 } } }, "configuration.nested", /./],
    [{ configuration: { "": "x" } }, "configuration.", /at least 1/],
    [{ secrets: { apiKey: 5 } }, "secrets.apiKey", /string/, "hidden"],
    [
      { configuration: { apiKey: "a" }, secrets: { apiKey: "b" } },
      "secrets.apiKey",
      /declared in `configuration` too/,
      "hidden",
    ],
  ];
  it("rejects each malformed value at check, before any request", async () => {
    await expectEachLimitRejected("IntegrationInstallation", valid, cases);
    expect(fixture.calls()).toEqual([]);
  });
});
