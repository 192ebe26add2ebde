import { MemberRole, type Site, SiteVisibility } from "@gitbook/api";
import { describe, expect, it } from "vitest";
import { allPages, expectApiError, expectDeleted, expectUnauthorized, locationOf, useOfficialClient } from "./helpers";

const f = useOfficialClient();

async function createSite(title = "Docs"): Promise<Site> {
  const created = await f.api.orgs.createSite(f.org(), { title });
  expect(created.status).toBe(201);
  return created.data;
}

describe("sites through the official client", () => {
  it("creates, gets, lists over several pages, updates and deletes", async () => {
    const created = await f.api.orgs.createSite(f.org(), { title: "Docs", visibility: SiteVisibility.Unlisted });
    expect(created.status).toBe(201);
    const site = created.data;
    expect(site).toMatchObject({ object: "site", title: "Docs", visibility: "unlisted", published: false });
    expect(locationOf(created)).toBe(`${f.emu.url}/orgs/${f.org()}/sites/${site.id}`);
    expect((await f.api.orgs.getSiteById(f.org(), site.id)).data).toEqual(site);

    for (const title of ["API", "Guides", "Changelog", "Status"]) await createSite(title);
    const { items, pages } = await allPages((page) => f.api.orgs.listSites(f.org(), { limit: 2, page }));
    expect(pages).toBe(3);
    expect(items.map((s) => s.title).sort()).toEqual(["API", "Changelog", "Docs", "Guides", "Status"]);
    const filtered = await f.api.orgs.listSites(f.org(), { title: "guide", published: false });
    expect(filtered.data.items.map((s) => s.title)).toEqual(["Guides"]);

    const updated = await f.api.orgs.updateSiteById(f.org(), site.id, {
      title: "Developer docs",
      visibility: SiteVisibility.Public,
      basename: "dev",
      defaultLevel: MemberRole.Read,
      adaptiveContent: { enabled: true },
    });
    expect(updated.status).toBe(200);
    expect(updated.data).toMatchObject({
      title: "Developer docs",
      visibility: SiteVisibility.Public,
      basename: "dev",
      defaultLevel: MemberRole.Read,
      adaptiveContent: { enabled: true },
    });
    const proxied = await f.api.orgs.updateSiteById(f.org(), site.id, { proxy: "example.com/docs" });
    expect(proxied.data.proxy).toMatchObject({ origin: "example.com/docs" });
    const unproxied = await f.api.orgs.updateSiteById(f.org(), site.id, { proxy: null });
    expect(unproxied.data).not.toHaveProperty("proxy");

    await expectDeleted(() => f.api.orgs.deleteSiteById(f.org(), site.id));
    await expectApiError(f.api.orgs.getSiteById(f.org(), site.id), 404, /not found/i);
  });

  it("publishes and unpublishes", async () => {
    const site = await createSite();
    const published = await f.api.orgs.publishSite(f.org(), site.id);
    expect(published.status).toBe(200);
    // The document allows a Stripe checkout instead of the site when the plan needs an upgrade.
    expect(published.data).toMatchObject({ object: "site", id: site.id, published: true });
    expect((published.data as Site).urls.published).toMatch(/^https?:\/\//);
    expect((await f.api.orgs.listSites(f.org(), { published: true })).data.items.map((s) => s.id)).toEqual([site.id]);
    const unpublished = await f.api.orgs.unpublishSite(f.org(), site.id);
    expect(unpublished.status).toBe(200);
    expect(unpublished.data).toMatchObject({ id: site.id, published: false });
    await expectApiError(f.api.orgs.publishSite(f.org(), "unknownSite"), 404, /unknownSite/);
  });

  it("fails on an unknown id with 404", async () => {
    await expectApiError(f.api.orgs.getSiteById(f.org(), "unknownSite"), 404, /unknownSite/);
    await expectApiError(f.api.orgs.updateSiteById(f.org(), "unknownSite", { title: "Docs" }), 404, /unknownSite/);
    await expectApiError(f.api.orgs.listSites("unknownOrg"), 404, /unknownOrg/);
  });

  it("fails on bad input with 400 naming the field", async () => {
    await expectApiError(f.api.orgs.createSite(f.org(), { title: "x" }), 400, /title/);
    const site = await createSite();
    await expectApiError(f.api.orgs.updateSiteById(f.org(), site.id, { basename: "" }), 400, /basename/);
    await expectApiError(
      f.api.orgs.updateSiteById(f.org(), site.id, { proxy: "https://example.com/docs" }),
      400,
      /proxy/,
    );
    // @ts-expect-error: a visibility the document does not allow for sites
    await expectApiError(f.api.orgs.updateSiteById(f.org(), site.id, { visibility: "private" }), 400, /visibility/);
    // @ts-expect-error: limit is a number of at most 1000
    await expectApiError(f.api.orgs.listSites(f.org(), { limit: "lots" }), 400, /limit/);
  });

  it("fails without a valid token with 401", async () => {
    await expectUnauthorized(f, (api) => api.orgs.listSites(f.org()));
    await expectUnauthorized(f, (api) => api.orgs.createSite(f.org(), { title: "Docs" }));
    expect(f.emu.store.sites.size).toBe(0);
  });
});

describe("share links through the official client", () => {
  it("creates, lists over several pages, updates and deletes", async () => {
    const site = await createSite();
    const created = await f.api.orgs.createSiteShareLink(f.org(), site.id, { name: "Partners" });
    expect(created.status).toBe(201);
    const link = created.data;
    expect(link).toMatchObject({ object: "share-link", name: "Partners", active: true });
    expect(locationOf(created)).toBe(`${f.emu.url}/orgs/${f.org()}/sites/${site.id}/share-links/${link.id}`);
    for (const name of ["Press", "Auditors"]) {
      expect((await f.api.orgs.createSiteShareLink(f.org(), site.id, { name })).status).toBe(201);
    }
    const { items, pages } = await allPages((page) =>
      f.api.orgs.listSiteShareLinks(f.org(), site.id, { limit: 2, page }),
    );
    expect(pages).toBe(2);
    expect(items.map((l) => l.name).sort()).toEqual(["Auditors", "Partners", "Press"]);

    const updated = await f.api.orgs.updateSiteShareLinkById(f.org(), site.id, link.id, {
      active: false,
      name: "Old partners",
    });
    expect(updated.status).toBe(200);
    expect(updated.data).toMatchObject({ id: link.id, active: false, name: "Old partners" });

    await expectDeleted(() => f.api.orgs.deleteSiteShareLinkById(f.org(), site.id, link.id));
    const after = await f.api.orgs.listSiteShareLinks(f.org(), site.id);
    expect(after.data.items.map((l) => l.id)).not.toContain(link.id);
  });

  it("fails on an unknown id with 404 and on bad input with 400", async () => {
    const site = await createSite();
    await expectApiError(
      f.api.orgs.updateSiteShareLinkById(f.org(), site.id, "unknownLink", { active: false }),
      404,
      /unknownLink/,
    );
    await expectApiError(f.api.orgs.createSiteShareLink(f.org(), "unknownSite", { name: "x" }), 404, /unknownSite/);
    await expectApiError(f.api.orgs.createSiteShareLink(f.org(), site.id, { name: "n".repeat(51) }), 400, /name/);
    // @ts-expect-error: name is required
    await expectApiError(f.api.orgs.createSiteShareLink(f.org(), site.id, {}), 400, /name/);
  });
});

describe("site adaptive schema through the official client", () => {
  const jsonSchema = {
    type: "object" as const,
    properties: {
      isBetaUser: { type: "boolean" as const, description: "Whether the visitor is in the beta program" },
      unsigned: {
        type: "object" as const,
        description: "Unsigned claims of the site visitor." as const,
        properties: { language: { type: "string" as const, description: "Preferred language" } },
        additionalProperties: false as const,
      },
    },
    additionalProperties: false as const,
  };

  it("answers 404 before a schema is written, then replaces it and reads it back", async () => {
    const site = await createSite();
    await expectApiError(f.api.orgs.getSiteAdaptiveSchema(f.org(), site.id), 404, /No visitor attributes schema/);

    const updated = await f.api.orgs.updateSiteAdaptiveSchema(f.org(), site.id, { jsonSchema });
    expect(updated.status).toBe(200);
    expect(updated.data.jsonSchema).toEqual(jsonSchema);
    expect((await f.api.orgs.getSiteAdaptiveSchema(f.org(), site.id)).data.jsonSchema).toEqual(jsonSchema);

    const conditions = await f.api.orgs.listSiteAdaptiveTemplateConditions(f.org(), site.id);
    expect(conditions.status).toBe(200);
    expect(conditions.data.items.length).toBeGreaterThan(0);
    for (const c of conditions.data.items)
      expect(c).toEqual({ description: expect.any(String), condition: expect.any(String) });
  });

  it("fails on an unknown site with 404 and on a schema the document does not allow with 400", async () => {
    await expectApiError(f.api.orgs.getSiteAdaptiveSchema(f.org(), "unknownSite"), 404, /unknownSite/);
    const site = await createSite();
    // The document requires additionalProperties false (the client's types do too, hence the cast).
    const open = { ...jsonSchema, additionalProperties: true } as unknown as typeof jsonSchema;
    await expectApiError(
      f.api.orgs.updateSiteAdaptiveSchema(f.org(), site.id, { jsonSchema: open }),
      400,
      /additionalProperties/,
    );
  });
});
