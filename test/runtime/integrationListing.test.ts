import { describe, expect, it } from "vitest";
import { Operation } from "../../provider/framework/operation";
import { definitions } from "../../provider/registry";
import { useEmulator } from "../support/emulator";

/*
 * The integration kinds' listing facets (what `docs-platform import` and `unmanaged` read): the organization's
 * installations, and those of one site or space, found through each installation's sites or spaces.
 */
const fixture = useEmulator();
const definition = (kind: string) => definitions.find((candidate) => candidate.kind === kind)!;
const install = (name: string) =>
  fixture.apiCreate(`/integrations/${name}/installations`, { organization: fixture.org() });
const makeSpace = () => fixture.apiCreate(`/orgs/${fixture.org()}/spaces`, { title: "Handbook" });

async function listed(kind: string, ids: Record<string, string>, title = "Docs") {
  const operation = new Operation(definitions);
  try {
    return await definition(kind).listing!.list(operation.context(), {
      ids: { organizationId: fixture.org(), ...ids },
      title,
    });
  } finally {
    operation.close();
  }
}

describe("IntegrationInstallation listing", () => {
  it("lists each installation of the organization, titled by its integration, known by its integration's name", async () => {
    const analytics = await install("googleanalytics");
    const gate = await install("visitor-gate");
    const items = await listed("IntegrationInstallation", {});
    expect(items.map(({ id, title, known }) => ({ id, title, known }))).toEqual([
      {
        id: analytics,
        title: "Google Analytics",
        known: { organizationId: fixture.org(), integrationName: "googleanalytics" },
      },
      { id: gate, title: "Visitor Gate", known: { organizationId: fixture.org(), integrationName: "visitor-gate" } },
    ]);
    expect(items.map((item) => (item as { item?: { id: string } }).item?.id)).toEqual([analytics, gate]);
  });
});

describe("IntegrationSiteInstallation listing", () => {
  it("lists only the installations on the site, under it, with the ids that make the pair", async () => {
    const site = await fixture.makeSite();
    const other = await fixture.makeSite();
    const gate = await install("visitor-gate");
    const analytics = await install("googleanalytics");
    await install("ticket-sync");
    await fixture.apiCreate(`/integrations/visitor-gate/installations/${gate}/sites`, { siteId: site });
    await fixture.apiCreate(`/integrations/googleanalytics/installations/${analytics}/sites`, { siteId: other });
    const items = await listed("IntegrationSiteInstallation", { siteId: site }, "Docs");
    expect(items).toEqual([
      {
        id: `${site}/${gate}`,
        title: "Visitor Gate",
        known: { organizationId: fixture.org(), siteId: site, installationId: gate, integrationName: "visitor-gate" },
        under: 'site "Docs"',
      },
    ]);
    expect(await listed("IntegrationSiteInstallation", { siteId: await fixture.makeSite() })).toEqual([]);
  });
});

describe("IntegrationSpaceInstallation listing", () => {
  it("lists only the installations on the space, under it, with the ids that make the pair", async () => {
    const space = await makeSpace();
    const other = await makeSpace();
    const sync = await install("ticket-sync");
    const elsewhere = await install("ticket-sync");
    await install("visitor-gate");
    await fixture.apiCreate(`/integrations/ticket-sync/installations/${sync}/spaces`, { space });
    await fixture.apiCreate(`/integrations/ticket-sync/installations/${elsewhere}/spaces`, { space: other });
    const items = await listed("IntegrationSpaceInstallation", { spaceId: space }, "Handbook");
    expect(items).toEqual([
      {
        id: `${space}/${sync}`,
        title: "Ticket Sync",
        known: { organizationId: fixture.org(), spaceId: space, installationId: sync, integrationName: "ticket-sync" },
        under: 'space "Handbook"',
      },
    ]);
    expect(await listed("IntegrationSpaceInstallation", { spaceId: await makeSpace() })).toEqual([]);
  });
});

/** What a lost create finds: the candidates the kind offers for the inputs, as `up` would look after a timeout. */
async function found(kind: string, inputs: Record<string, unknown>, since: Date) {
  const operation = new Operation(definitions);
  try {
    return await definition(kind).findCreated!(operation.context(), inputs, since);
  } finally {
    operation.close();
  }
}

describe("the integration kinds' lost creates", () => {
  const longAgo = new Date("2000-01-01T00:00:00Z");
  const later = new Date("2999-01-01T00:00:00Z");

  it("IntegrationInstallation: finds the organization's installations of that integration made since, titled", async () => {
    await install("googleanalytics");
    const sync = await install("ticket-sync");
    const inputs = { organizationId: fixture.org(), integrationName: "ticket-sync" };
    expect(await found("IntegrationInstallation", inputs, longAgo)).toEqual([{ id: sync, title: "Ticket Sync" }]);
    expect(await found("IntegrationInstallation", inputs, later)).toEqual([]);
  });

  it("IntegrationSiteInstallation: finds the pair only when the installation is on that site", async () => {
    const [site, other] = [await fixture.makeSite(), await fixture.makeSite()];
    const gate = await install("visitor-gate");
    await fixture.apiCreate(`/integrations/visitor-gate/installations/${gate}/sites`, { siteId: other });
    const inputs = (siteId: string) => ({
      organizationId: fixture.org(),
      siteId,
      installationId: gate,
      integrationName: "visitor-gate",
    });
    expect(await found("IntegrationSiteInstallation", inputs(site), longAgo)).toEqual([]);
    expect(await found("IntegrationSiteInstallation", inputs(other), longAgo)).toEqual([
      { id: `${other}/${gate}`, title: "visitor-gate" },
    ]);
  });

  it("IntegrationSpaceInstallation: finds the pair only when the installation is on that space", async () => {
    const [space, other] = [await makeSpace(), await makeSpace()];
    const sync = await install("ticket-sync");
    await fixture.apiCreate(`/integrations/ticket-sync/installations/${sync}/spaces`, { space: other });
    const inputs = (spaceId: string) => ({
      organizationId: fixture.org(),
      spaceId,
      installationId: sync,
      integrationName: "ticket-sync",
    });
    expect(await found("IntegrationSpaceInstallation", inputs(space), longAgo)).toEqual([]);
    expect(await found("IntegrationSpaceInstallation", inputs(other), longAgo)).toEqual([
      { id: `${other}/${sync}`, title: "ticket-sync" },
    ]);
  });
});
