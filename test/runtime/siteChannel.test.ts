import { describe, expect, it } from "vitest";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { created, describeLifecycle, expectEachLimitRejected, type LimitCase, updateTo } from "../support/lifecycle";

const fixture = useEmulator();
const channelsPath = (site: unknown) => `/orgs/${fixture.org()}/sites/${site}/channels`;

let adoptSite: string | undefined;
/** The site of the inputs made last: the out-of-band row edits the channel it just created. */
let lastSite: string | undefined;

describeLifecycle(
  {
    kind: "SiteChannel",
    inputs: async () => {
      lastSite = await fixture.makeSite();
      return {
        organizationId: fixture.org(),
        siteId: lastSite,
        type: "builtin:slack",
        role: "support",
        allowedChannels: ["help", "support-*"],
      };
    },
    created: (state) =>
      expect(state).toMatchObject({
        type: "builtin:slack",
        role: "support",
        allowedChannels: ["help", "support-*"],
        status: "active",
      }),
    updates: [
      updateTo("role", "collaborator"),
      {
        name: "allowedChannels (the setup sent whole, with its type)",
        inputs: (_f, p) => ({ ...p, allowedChannels: ["docs"] }),
        expect: (state) => {
          expect(state.allowedChannels).toEqual(["docs"]);
          const sent = fixture.emulator.requests().findLast((r) => r.method === "PATCH");
          expect(sent?.requestBody).toEqual({ type: "builtin:slack", setupSettings: { allowedChannels: ["docs"] } });
        },
      },
      updateTo("allowedChannels", [], "allowedChannels emptied (all channels)"),
    ],
    replaces: [
      {
        property: "type",
        inputs: (_f, p) => ({ ...p, type: "builtin:discord" }),
      },
      { property: "siteId", inputs: async (_f, p) => ({ ...p, siteId: await fixture.makeSite() }) },
      { property: "organizationId", inputs: (f, p) => ({ ...p, organizationId: f.emulator.secondOrganizationId }) },
    ],
    outOfBand: {
      change: async (id) => {
        const body = { type: "builtin:slack", setupSettings: { allowedChannels: ["random"] } };
        expect((await fixture.api("PATCH", `${channelsPath(lastSite)}/${id}`, body)).status).toBe(200);
      },
      expect: (state) => expect(state.allowedChannels).toEqual(["random"]),
    },
    adopt: {
      existing: async () => {
        adoptSite = await fixture.makeSite();
        return fixture.apiCreate(channelsPath(adoptSite), {
          type: "builtin:github",
          setupSettings: { allowedRepositories: ["acme/old"] },
        });
      },
      inputs: async () => ({
        organizationId: fixture.org(),
        siteId: adoptSite ?? (await fixture.makeSite()),
        type: "builtin:github",
        allowedRepositories: ["acme/docs", "acme/*"],
      }),
      expect: (state) =>
        expect(state).toMatchObject({ type: "builtin:github", allowedRepositories: ["acme/docs", "acme/*"] }),
    },
  },
  fixture,
);

describe("SiteChannel behaviour", () => {
  it("sends the type's empty allow-list on create when none is declared, and no role", async () => {
    const site = await fixture.makeSite();
    const { state } = await created("SiteChannel", {
      organizationId: fixture.org(),
      siteId: site,
      type: "builtin:linear",
    });
    const post = fixture.emulator.requests().find((r) => r.method === "POST" && r.path.endsWith("/channels"));
    expect(post?.requestBody).toEqual({ type: "builtin:linear", setupSettings: { allowedTeams: [] } });
    expect(state).toMatchObject({ allowedTeams: [], role: "support" });
    expect(state.allowedChannels).toBeUndefined();
  });

  it("compares an allow-list as a set: the same entries in another order are no change", async () => {
    const site = await fixture.makeSite();
    const { state, inputs } = await created("SiteChannel", {
      organizationId: fixture.org(),
      siteId: site,
      type: "builtin:discord",
      allowedChannels: ["a", "b"],
    });
    const diff = await lifecycle("SiteChannel").diff("id", state, { ...inputs, allowedChannels: ["b", "a"] });
    expect(diff.changes).toBe(false);
  });

  it("reads every channel of a site from one listing in a refresh", async () => {
    const siteId = await fixture.makeSite();
    const channels = [];
    for (const type of ["builtin:slack", "builtin:linear", "builtin:github"])
      channels.push(await created("SiteChannel", { organizationId: fixture.org(), siteId, type }));
    fixture.emulator.clearRequests();
    const reads = await Promise.all(channels.map(({ id, state }) => lifecycle("SiteChannel").read(id, state)));
    expect(reads.map((read) => read.props?.type)).toEqual(["builtin:slack", "builtin:linear", "builtin:github"]);
    expect(fixture.emulator.counters()["GET /v1/orgs/{organizationId}/sites/{siteId}/channels"]).toBe(1);
  });
});

describe("SiteChannel limits", () => {
  const valid = { organizationId: "org", siteId: "site", type: "builtin:slack" };
  const cases: LimitCase[] = [
    [{ type: "builtin:teams" }, "type", /builtin:slack/],
    [{ role: "owner" }, "role", /collaborator.*support/],
    [{ allowedChannels: ["#general"] }, "allowedChannels.0", /channel name or pattern such as `general`/],
    [{ allowedChannels: ["help", "help"] }, "allowedChannels", /twice/],
    [{ allowedTeams: ["DOC"] }, "allowedTeams", /not an allow-list of a builtin:slack channel.*allowedChannels/],
    [
      { type: "builtin:github", allowedRepositories: ["https://github.com/acme/docs"] },
      "allowedRepositories.0",
      /owner\/repository/,
    ],
    [{ type: "builtin:linear", allowedTeams: ["DOC TEAM"] }, "allowedTeams.0", /Linear team key/],
  ];
  it("rejects each value out of the API's limits at check, before any request", async () => {
    await expectEachLimitRejected("SiteChannel", valid, cases);
    expect(fixture.calls()).toEqual([]);
  });
});
