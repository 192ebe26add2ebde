import { describe, expect, it, vi } from "vitest";
import type { Props } from "../../provider/framework/kind";
import { lifecycle, startOperation } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { created } from "../support/lifecycle";

/**
 * A `Site` read in a refresh starts the listings under its site that the operation already read under an earlier
 * site, so its sections and share links find them under way instead of each holding an engine slot for the request.
 */
const fixture = useEmulator();

interface Managed {
  kind: string;
  id: string;
  state: Props;
}

/** A site with a section and a share link, as `up` leaves them. */
async function siteWithChildren(title: string) {
  const site = await created("Site", { organizationId: fixture.org(), title });
  const siteId = site.id;
  const section = await created("SiteSection", {
    organizationId: fixture.org(),
    siteId,
    spaceId: fixture.space(0),
    title: `${title} guides`,
  });
  const link = await created("SiteShareLink", { organizationId: fixture.org(), siteId, name: `${title} link` });
  const managed = (kind: string, r: { id: string; state: Props }): Managed => ({ kind, id: r.id, state: r.state });
  return {
    siteId,
    site: managed("Site", site),
    section: managed("SiteSection", section),
    link: managed("SiteShareLink", link),
  };
}

async function read(resource: Managed) {
  const result = await lifecycle(resource.kind).read(resource.id, resource.state);
  expect(result.props).toEqual(resource.state);
}

/** The GETs under one site, as `<last path segment>`, in the order the emulator received them. */
const readsUnder = (siteId: string) =>
  fixture.emulator
    .requests()
    .filter((r) => r.method === "GET" && r.path.includes(`/sites/${siteId}/`))
    .map((r) => r.path.slice(r.path.lastIndexOf("/") + 1));

describe("Site read prefetches its children's listings", () => {
  it("starts the structure and share-link listings once an earlier site's children needed them, before they ask", async () => {
    const first = await siteWithChildren("First");
    const second = await siteWithChildren("Second");
    startOperation();
    fixture.emulator.clearRequests();

    await read(first.site);
    // Nothing has told this process yet that the stack manages anything under sites.
    expect(readsUnder(first.siteId)).toEqual([]);
    await read(first.section);
    await read(first.link);
    expect(readsUnder(first.siteId)).toEqual(["structure", "share-links"]);

    await read(second.site);
    // Sent by the Site read alone: no child of the second site has been read yet.
    await vi.waitFor(() => expect(readsUnder(second.siteId).sort()).toEqual(["share-links", "structure"]));
    await read(second.section);
    await read(second.link);
    expect(readsUnder(second.siteId).sort()).toEqual(["share-links", "structure"]);
  });

  it("as the engine orders a refresh, every site first: the first child's read starts its listing under every site", async () => {
    const sites = [await siteWithChildren("First"), await siteWithChildren("Second"), await siteWithChildren("Third")];
    startOperation();
    fixture.emulator.clearRequests();

    for (const { site } of sites) await read(site);
    // Nothing has told this process yet that the stack manages anything under sites.
    expect(fixture.emulator.counters()).toEqual({ "GET /v1/orgs/{organizationId}/sites": 1 });

    await read(sites[1]!.link);
    await vi.waitFor(() => {
      for (const { siteId } of sites) expect(readsUnder(siteId)).toEqual(["share-links"]);
    });
    // The structure listing was never needed: a beat later it is still not sent.
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const { siteId } of sites) expect(readsUnder(siteId)).toEqual(["share-links"]);

    await read(sites[2]!.section);
    for (const { link, section } of sites) {
      await read(link);
      await read(section);
    }
    for (const { siteId } of sites) expect(readsUnder(siteId).sort()).toEqual(["share-links", "structure"]);
    expect(fixture.emulator.requests()).toHaveLength(1 + 2 * sites.length);
  });

  it("leaves a failed prefetch to the child's own read, which lists again", async () => {
    const first = await siteWithChildren("First");
    const second = await siteWithChildren("Second");
    startOperation();
    await read(first.site);
    await read(first.link);
    // Answers the prefetch with a client error the transport does not retry, then lets the next listing through.
    fixture.emulator.injectFault({
      method: "GET",
      path: `/sites/${second.siteId}/share-links$`,
      count: 1,
      status: 400,
    });
    fixture.emulator.clearRequests();
    await read(second.site);
    await vi.waitFor(() => expect(readsUnder(second.siteId)).toEqual(["share-links"]));
    await read(second.link);
    expect(
      fixture.emulator
        .requests()
        .filter((r) => r.path.endsWith(`/sites/${second.siteId}/share-links`))
        .map((r) => r.status),
    ).toEqual([400, 200]);
  });
});
