import { describe, expect, it } from "vitest";
import { type CallOptions, useEmulator } from "../support/emulator";

const h = useEmulator({ provider: false });
const SECRET = "tickets-emulator-key-61b2";

const INTEGRATION_TOKEN = "integrations-test-token";
const asIntegration: CallOptions = { noAuth: true, headers: { authorization: `Bearer ${INTEGRATION_TOKEN}` } };
const installationsOf = (name: string) => `/integrations/${name}/installations`;
async function install(name: string, organization = h.org()): Promise<string> {
  const res = await h.call("POST", installationsOf(name), { organization });
  expect(res.status, res.text).toBe(201);
  expect(res.headers.get("location")).toBe(res.body.urls.location);
  return res.body.id;
}

describe("the emulator's integration installations", () => {
  it("answers 404 to an unknown integration and to another integration's installation", async () => {
    const unknown = await h.call("POST", installationsOf("no-such-thing"), { organization: h.org() });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('Integration \\"no-such-thing\\" not found');
    const id = await install("ticket-sync");
    expect((await h.call("GET", `${installationsOf("visitor-gate")}/${id}`)).status).toBe(404);
    expect((await h.call("POST", installationsOf("ticket-sync"), { organization: "no-such-org" })).status).toBe(404);
  });

  it("checks a configuration against the integration's schema, naming the key and never the value", async () => {
    const id = await install("analytics-pulse");
    const path = `${installationsOf("analytics-pulse")}/${id}`;
    expect((await h.call("GET", path)).body.status).toBe("pending");
    const missing = await h.call("PATCH", path, { configuration: { region: "eu" } });
    expect([missing.status, missing.body.error.message]).toEqual([400, "configuration.trackingId: is required"]);
    const wrongType = await h.call("PATCH", path, { configuration: { trackingId: SECRET, sampleRate: SECRET } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.message).toBe("configuration.sampleRate: must be a number (Sample rate)");
    expect(wrongType.text).not.toContain(SECRET);
    const outOfEnum = await h.call("PATCH", path, { configuration: { trackingId: "G-1", region: SECRET } });
    expect(outOfEnum.body.error.message).toBe("configuration.region: must be one of eu, us");
    expect(outOfEnum.text).not.toContain(SECRET);
    // Undeclared keys are the integration's own: kept. The configuration sent replaces the stored one.
    const ok = await h.call("PATCH", path, { configuration: { trackingId: "G-1", ownKey: 1 } });
    expect([ok.status, ok.body.status, ok.body.configuration]).toEqual([
      200,
      "active",
      { trackingId: "G-1", ownKey: 1 },
    ]);
    const replaced = await h.call("PATCH", path, { configuration: { trackingId: "G-2" } });
    expect(replaced.body.configuration).toEqual({ trackingId: "G-2" });
  });

  it("lists the organization's installations with their integration, filtered by search", async () => {
    const tickets = await install("ticket-sync");
    const gate = await install("visitor-gate");
    await install("ticket-sync", h.emulator.secondOrganizationId);
    const all = await h.call("GET", `/orgs/${h.org()}/installations`);
    expect(all.body.items.map((item: { installation: { id: string } }) => item.installation.id)).toEqual([
      tickets,
      gate,
    ]);
    expect(all.body.items[0].integration).toMatchObject({ name: "ticket-sync", title: "Ticket Sync" });
    const searched = await h.call("GET", `/orgs/${h.org()}/installations?search=gate`);
    expect(searched.body.items.map((item: { installation: { id: string } }) => item.installation.id)).toEqual([gate]);
  });

  it("installs on sites and spaces of the installation's organization only, for integrations with that schema", async () => {
    const tickets = await install("ticket-sync");
    const sites = `${installationsOf("ticket-sync")}/${tickets}/sites`;
    const spaces = `${installationsOf("ticket-sync")}/${tickets}/spaces`;
    const site = await h.makeSite();
    const created = await h.call("POST", sites, { siteId: site });
    expect([created.status, created.body.site, created.body.installation]).toEqual([201, site, tickets]);
    // A second install answers the same installation.
    expect((await h.call("POST", sites, { siteId: site })).body.site).toBe(site);
    expect((await h.call("GET", sites)).body.items).toHaveLength(1);
    const otherOrgSite = await h.apiCreate(`/orgs/${h.emulator.secondOrganizationId}/sites`, { title: "Other" });
    expect((await h.call("POST", sites, { siteId: otherOrgSite })).status).toBe(404);
    const space = await h.apiCreate(`/orgs/${h.org()}/spaces`, { title: "Handbook" });
    const onSpace = await h.call("POST", spaces, { space });
    expect([onSpace.status, onSpace.body.space]).toEqual([201, space]);
    // analytics-pulse has a site schema and no space schema.
    const analytics = await install("analytics-pulse");
    const analyticsSpaces = `${installationsOf("analytics-pulse")}/${analytics}/spaces`;
    const refused = await h.call("POST", analyticsSpaces, { space });
    expect([refused.status, refused.body.error.message]).toEqual([
      400,
      'space: integration "analytics-pulse" cannot be installed on spaces',
    ]);
    const badSite = await h.call("PATCH", `${sites}/${site}`, { configuration: { project: 5 } });
    expect([badSite.status, badSite.body.error.message]).toEqual([
      400,
      "configuration.project: must be a string (Project)",
    ]);
  });

  it("removes site and space installations with their installation, their site, and hides them with their space", async () => {
    const tickets = await install("ticket-sync");
    const base = `${installationsOf("ticket-sync")}/${tickets}`;
    const [kept, dropped] = [await h.makeSite(), await h.makeSite()];
    for (const siteId of [kept, dropped]) await h.call("POST", `${base}/sites`, { siteId });
    expect((await h.call("DELETE", `/orgs/${h.org()}/sites/${dropped}`)).status).toBe(205);
    expect((await h.call("GET", `${base}/sites`)).body.items.map((item: { site: string }) => item.site)).toEqual([
      kept,
    ]);

    const space = await h.apiCreate(`/orgs/${h.org()}/spaces`, { title: "Handbook" });
    await h.call("POST", `${base}/spaces`, { space });
    expect((await h.call("DELETE", `/spaces/${space}`)).status).toBe(205);
    expect((await h.call("GET", `${base}/spaces`)).body.items).toEqual([]);
    expect((await h.call("GET", `${base}/spaces/${space}`)).status).toBe(404);
    expect((await h.call("POST", `/spaces/${space}/restore`)).status).toBe(200);
    expect((await h.call("GET", `${base}/spaces`)).body.items).toHaveLength(1);

    expect((await h.call("DELETE", base)).status).toBe(205);
    expect((await h.call("DELETE", base)).status).toBe(204);
    expect(h.emulator.store.integrationSiteInstallations.size).toBe(0);
    expect(h.emulator.store.integrationSpaceInstallations.size).toBe(0);
  });

  it("refuses the uninstall to an integration's token, as the document's security says", async () => {
    const tickets = await install("ticket-sync");
    h.emulator.typeToken(INTEGRATION_TOKEN, "integration");
    const path = `${installationsOf("ticket-sync")}/${tickets}`;
    expect((await h.call("DELETE", path, undefined, asIntegration)).status).toBe(401);
    expect((await h.call("GET", path, undefined, asIntegration)).status).toBe(200);
  });
});
