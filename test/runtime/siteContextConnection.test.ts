import { describe, expect, it } from "vitest";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { created, describeLifecycle, expectEachLimitRejected, type LimitCase, updateTo } from "../support/lifecycle";

const fixture = useEmulator();
const connectionsPath = (site: unknown) => `/orgs/${fixture.org()}/sites/${site}/context-connections`;
const TOKEN = "ghp-context-token-1";

let adoptSite: string | undefined;
/** The site of the inputs made last: the out-of-band row edits the connection it just created. */
let lastSite: string | undefined;

describeLifecycle(
  {
    kind: "SiteContextConnection",
    inputs: async () => {
      lastSite = await fixture.makeSite();
      return {
        organizationId: fixture.org(),
        siteId: lastSite,
        connector: "builtin:github-issues",
        setupSettings: { repository: "acme/support" },
        credentials: { token: TOKEN },
        usageSettings: { search: true, changeRequests: true, searchBoost: "x1.2" },
        filter: "label:docs",
        label: "Support issues",
      };
    },
    created: (state) =>
      expect(state).toMatchObject({
        connector: "builtin:github-issues",
        setupSettings: { repository: "acme/support" },
        credentials: { token: TOKEN },
        usageSettings: { search: true, changeRequests: true, searchBoost: "x1.2", sync: false },
        filter: "label:docs",
        label: "Support issues",
        status: "pending",
        ingestionAddress: null,
      }),
    updates: [
      updateTo("label", "Customer issues"),
      updateTo("filter", "", "filter emptied (every item)"),
      updateTo("usageSettings", { search: false, changeRequests: true, searchBoost: "x0.8", sync: true }),
      {
        name: "setupSettings (the setup sent whole, with the credentials the state keeps)",
        inputs: (_f, p) => ({ ...p, setupSettings: { repository: "acme/helpdesk" } }),
        expect: (state) => {
          expect(state.setupSettings).toEqual({ repository: "acme/helpdesk" });
          const sent = fixture.emulator.requests().findLast((r) => r.method === "PATCH");
          expect(sent?.requestBody).toEqual({
            connector: "builtin:github-issues",
            setupSettings: { repository: "acme/helpdesk", token: TOKEN },
          });
        },
      },
      {
        name: "credentials (a rotated token is sent with the setup, and kept in the state)",
        inputs: (_f, p) => ({ ...p, credentials: { token: "ghp-rotated" } }),
        expect: (state) => {
          expect(state.credentials).toEqual({ token: "ghp-rotated" });
          const sent = fixture.emulator.requests().findLast((r) => r.method === "PATCH");
          expect(sent?.requestBody).toEqual({
            connector: "builtin:github-issues",
            setupSettings: { repository: "acme/support", token: "ghp-rotated" },
          });
        },
      },
    ],
    replaces: [
      {
        property: "connector",
        inputs: (_f, p) => ({ ...p, connector: "builtin:github-discussions" }),
      },
      { property: "siteId", inputs: async (_f, p) => ({ ...p, siteId: await fixture.makeSite() }) },
      { property: "organizationId", inputs: (f, p) => ({ ...p, organizationId: f.emulator.secondOrganizationId }) },
    ],
    outOfBand: {
      change: async (id) => {
        const body = { filter: "label:faq", label: "Edited in the app" };
        expect((await fixture.api("PATCH", `${connectionsPath(lastSite)}/${id}`, body)).status).toBe(200);
      },
      expect: (state) => expect(state).toMatchObject({ filter: "label:faq", label: "Edited in the app" }),
    },
    adopt: {
      existing: async () => {
        adoptSite = await fixture.makeSite();
        return fixture.apiCreate(connectionsPath(adoptSite), {
          connector: "builtin:website",
          setupSettings: { url: "https://status.acme.example/" },
        });
      },
      inputs: async () => ({
        organizationId: fixture.org(),
        siteId: adoptSite ?? (await fixture.makeSite()),
        connector: "builtin:website",
        setupSettings: { url: "https://status.acme.example/" },
        label: "Status page",
      }),
      expect: (state) =>
        expect(state).toMatchObject({
          connector: "builtin:website",
          setupSettings: { url: "https://status.acme.example/" },
          label: "Status page",
          credentials: null,
        }),
    },
  },
  fixture,
);

describe("SiteContextConnection behaviour", () => {
  it("never reads a credential back: the redacted value is neither state nor drift", async () => {
    const site = await fixture.makeSite();
    const { id, state, inputs } = await created("SiteContextConnection", {
      organizationId: fixture.org(),
      siteId: site,
      connector: "builtin:zendesk",
      setupSettings: { subdomain: "acme", email: "support@acme.example" },
      credentials: { apiToken: "zendesk-secret-token" },
    });
    const listed = (await fixture.api("GET", connectionsPath(site))).body as { items: { setupSettings: object }[] };
    expect(listed.items[0]?.setupSettings).toEqual({
      subdomain: "acme",
      email: "support@acme.example",
      apiToken: "********",
    });
    const read = await lifecycle("SiteContextConnection").read(id, state);
    expect(read.props).toMatchObject({
      setupSettings: { subdomain: "acme", email: "support@acme.example" },
      credentials: { apiToken: "zendesk-secret-token" },
    });
    const diff = await lifecycle("SiteContextConnection").diff(id, read.props!, inputs);
    expect(diff.changes).toBe(false);
  });

  it("sends no label on create (the API takes one only by update), then sets it in a second request", async () => {
    const site = await fixture.makeSite();
    fixture.emulator.clearRequests();
    const { state } = await created("SiteContextConnection", {
      organizationId: fixture.org(),
      siteId: site,
      connector: "builtin:email",
      label: "Support inbox",
    });
    const writes = fixture.emulator.requests().filter((r) => r.method !== "GET");
    expect(writes.map((r) => [r.method, r.requestBody])).toEqual([
      ["POST", { connector: "builtin:email" }],
      ["PATCH", { label: "Support inbox" }],
    ]);
    expect(state.label).toBe("Support inbox");
    expect(state.ingestionAddress).toMatch(/@/);
  });

  it("refuses a setup change whose credentials neither the program nor the state holds, naming them", async () => {
    const site = await fixture.makeSite();
    const id = await fixture.apiCreate(connectionsPath(site), {
      connector: "builtin:github-issues",
      setupSettings: { repository: "acme/old", token: "made-by-hand" },
    });
    const inputs = {
      organizationId: fixture.org(),
      siteId: site,
      connector: "builtin:github-issues",
      setupSettings: { repository: "acme/new" },
      importId: id,
    };
    await expect(created("SiteContextConnection", inputs)).rejects.toThrow(
      /builtin:github-issues needs credentials\.token, which the API never reads back.*config\.requireSecret/,
    );
  });

  it("reads every connection of a site from one listing in a refresh", async () => {
    const siteId = await fixture.makeSite();
    const connections = [];
    for (const connector of ["builtin:email", "builtin:api", "integration:ticket-sync"])
      connections.push(await created("SiteContextConnection", { organizationId: fixture.org(), siteId, connector }));
    fixture.emulator.clearRequests();
    const reads = await Promise.all(
      connections.map(({ id, state }) => lifecycle("SiteContextConnection").read(id, state)),
    );
    expect(reads.map((read) => read.props?.connector)).toEqual([
      "builtin:email",
      "builtin:api",
      "integration:ticket-sync",
    ]);
    expect(fixture.emulator.counters()["GET /v1/orgs/{organizationId}/sites/{siteId}/context-connections"]).toBe(1);
  });
});

describe("SiteContextConnection limits", () => {
  const valid = { organizationId: "org", siteId: "site", connector: "builtin:api" };
  const github = {
    connector: "builtin:github-issues",
    setupSettings: { repository: "acme/docs" },
    credentials: { token: "t" },
  };
  const cases: LimitCase[] = [
    [{ connector: "builtin:slack" }, "connector", /builtin:website.*integration:<name>/],
    [{ connector: "integration:a:b" }, "connector", /integration:<name>/],
    [{ label: "a".repeat(129) }, "label", /at most 128/],
    [{ filter: "a".repeat(1025) }, "filter", /at most 1024/],
    [
      { usageSettings: { search: true, changeRequests: true, searchBoost: "x2" } },
      "usageSettings.searchBoost",
      /x0\.8.*x1\.0.*x1\.2/,
    ],
    [
      { ...github, setupSettings: { repository: "acme/docs", token: "t" }, credentials: undefined },
      "setupSettings",
      /`token` is a credential: declare it in `credentials` \(a secret, never shown\)/,
      "hidden",
    ],
    [
      { ...github, credentials: { token: "t", repository: "acme/docs" } },
      "credentials",
      /`repository` is not a credential: declare it in `setupSettings`/,
      "hidden",
    ],
    [
      { ...github, setupSettings: { repository: "https://github.com/acme/docs" } },
      "setupSettings.repository",
      /owner\/repository/,
      "hidden",
    ],
    [{ ...github, setupSettings: {} }, "setupSettings.repository", /required for builtin:github-issues/, "hidden"],
    [
      { ...github, setupSettings: { repository: "a/b", url: "https://x.example/" } },
      "setupSettings.url",
      /not a setting of builtin:github-issues/,
      "hidden",
    ],
    [
      { ...github, credentials: { apiKey: "k" } },
      "credentials.apiKey",
      /not a credential of builtin:github-issues.*token/,
      "hidden",
    ],
    [
      { connector: "integration:ticket-sync", setupSettings: { url: "https://x.example/" } },
      "setupSettings",
      /integration's connector/,
      "hidden",
    ],
    [
      { connector: "builtin:youtube", setupSettings: { channelId: "docs" } },
      "setupSettings.channelId",
      /YouTube channel/,
      "hidden",
    ],
    [
      {
        connector: "builtin:jira",
        setupSettings: {
          baseUrl: "https://acme.atlassian.net",
          apiEmail: "a@acme.example",
          statusMapping: { done: "Done" },
        },
        credentials: { apiToken: "t" },
      },
      "setupSettings.statusMapping",
      /keys must be change-request statuses: draft, open, archived, merged/,
      "hidden",
    ],
  ];
  // Every failure of setupSettings leaves its value out (a credential may have been given there by mistake).
  it("rejects each value out of the API's limits at check, before any request", async () => {
    await expectEachLimitRejected("SiteContextConnection", valid, cases);
    expect(fixture.calls()).toEqual([]);
  });

  it("never quotes a credential in a failed check", async () => {
    const failures = await lifecycle("SiteContextConnection").check(
      {},
      { ...valid, ...github, setupSettings: { repository: "acme/docs", token: "ghp-leaked-in-plain-text" } },
    );
    expect(JSON.stringify(failures)).not.toContain("ghp-leaked-in-plain-text");
    expect(JSON.stringify(failures)).toContain("setupSettings");
  });
});
