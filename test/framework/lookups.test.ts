import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Connection } from "../../provider/framework/connection";
import {
  getCollection,
  getIntegration,
  getOpenApiSpec,
  getOrganizationMember,
  getOrganizations,
  getSamlProvider,
  getSite,
  getSiteSection,
  getSiteSpace,
  getSiteSpaceOutput,
  getSpace,
  getSpaceOutput,
  getTeam,
  LookupError,
} from "../../provider/lookups";
import { useEmulator } from "../support/emulator";

/**
 * The lookups a program calls, against the emulator's fixtures and objects made out of band: exactly one match is
 * the result; none or several fail naming the lookup, the criteria and the candidates.
 */
const emu = useEmulator();
beforeEach(() => {
  process.env.DOCS_ORGANIZATION_ID = emu.org();
});
afterEach(() => {
  delete process.env.DOCS_ORGANIZATION_ID;
  delete process.env.GLOBEX_TOKEN;
});

describe("getSpace", () => {
  it("finds a space by title, in a collection or anywhere, with one listing", async () => {
    const collection = await emu.apiCreate(`/orgs/${emu.org()}/collections`, { title: "Products" });
    const inCollection = await emu.apiCreate(`/orgs/${emu.org()}/spaces`, { title: "Guide", parent: collection });
    const topLevel = await emu.apiCreate(`/orgs/${emu.org()}/spaces`, { title: "Guide" });
    emu.emulator.clearRequests();

    expect(await getSpace({ title: "Guide", collectionId: collection })).toEqual({
      id: inCollection,
      title: "Guide",
      organizationId: emu.org(),
      collectionId: collection,
      visibility: "private",
    });
    expect(emu.calls()).toEqual([`GET /v1/orgs/${emu.org()}/spaces`]);
    expect((await getSpace({ title: "Guide", collectionId: null })).id).toBe(topLevel);
    expect((await getSpace({ title: "API Reference" })).id).toBe(emu.emulator.spaceIds[1]);
  });

  it("fails on several matches naming each and how to choose, and on none naming the candidates", async () => {
    const collection = await emu.apiCreate(`/orgs/${emu.org()}/collections`, { title: "Products" });
    const first = await emu.apiCreate(`/orgs/${emu.org()}/spaces`, { title: "Guide", parent: collection });
    const second = await emu.apiCreate(`/orgs/${emu.org()}/spaces`, { title: "Guide" });
    await expect(getSpace({ title: "Guide" })).rejects.toThrow(
      `getSpace: 2 spaces titled "Guide" in organization "${emu.org()}": "Guide" (${first}, in collection ${collection}), ` +
        `"Guide" (${second}, top level); pass collectionId to choose among them.`,
    );
    const missing = getSpace({ title: "Guides", collectionId: collection });
    await expect(missing).rejects.toBeInstanceOf(LookupError);
    await expect(missing).rejects.toThrow(
      `getSpace: no space titled "Guides" in collection "${collection}" in organization "${emu.org()}"; it has ` +
        `"Guide" (${first}, in collection ${collection}).`,
    );
  });

  it("as an Output, over Inputs", async () => {
    await pulumi.runtime.setMocks({ newResource: (args) => ({ id: args.name, state: args.inputs }), call: () => ({}) });
    const space = getSpaceOutput({ title: Promise.resolve("Changelog") });
    const id = await new Promise((resolve) => space.id.apply(resolve));
    expect(id).toBe(emu.emulator.spaceIds[2]);
  });
});

describe("getOrganizationMember", () => {
  it("finds a member by email, ignoring case", async () => {
    expect(await getOrganizationMember({ email: "Grace@Example.com" })).toEqual({
      id: emu.emulator.userIds[1],
      email: "grace@example.com",
      displayName: "Grace Hopper",
      role: "create",
      organizationId: emu.org(),
    });
  });

  it("fails on an email outside the organization, listing the members", async () => {
    await expect(getOrganizationMember({ email: "margaret@globex.example.com" })).rejects.toThrow(
      `getOrganizationMember: no member with email "margaret@globex.example.com" in organization "${emu.org()}"; it has ` +
        `"ada@example.com" (${emu.emulator.userIds[0]}), "grace@example.com" (${emu.emulator.userIds[1]}), ` +
        `"linus@example.com" (${emu.emulator.userIds[2]}).`,
    );
  });
});

describe("getTeam and getSite", () => {
  it("find by title; a missing one names what exists, duplicates name both", async () => {
    const writers = await emu.apiCreate(`/orgs/${emu.org()}/teams`, { title: "Writers" }, "PUT");
    const site = await emu.apiCreate(`/orgs/${emu.org()}/sites`, { title: "Docs" });
    expect(await getTeam({ title: "Writers" })).toEqual({ id: writers, title: "Writers", organizationId: emu.org() });
    expect(await getSite({ title: "Docs" })).toMatchObject({ id: site, title: "Docs", organizationId: emu.org() });
    await expect(getTeam({ title: "Editors" })).rejects.toThrow(
      `getTeam: no team titled "Editors" in organization "${emu.org()}"; it has "Writers" (${writers}).`,
    );
    const again = await emu.apiCreate(`/orgs/${emu.org()}/sites`, { title: "Docs" });
    await expect(getSite({ title: "Docs" })).rejects.toThrow(
      `getSite: 2 sites titled "Docs" in organization "${emu.org()}": "Docs" (${site}), "Docs" (${again}).`,
    );
    await expect(getSite({ title: "Docs", organizationId: emu.emulator.secondOrganizationId })).rejects.toThrow(
      `getSite: no site titled "Docs" in organization "${emu.emulator.secondOrganizationId}"; it has no sites.`,
    );
  });
});

describe("the API's filters", () => {
  it("list sites and teams by title and members by search, one request each, and match exactly", async () => {
    const docs = await emu.apiCreate(`/orgs/${emu.org()}/sites`, { title: "Docs" });
    await emu.apiCreate(`/orgs/${emu.org()}/sites`, { title: "Docs archive" });
    const writers = await emu.apiCreate(`/orgs/${emu.org()}/teams`, { title: "Writers" }, "PUT");
    await emu.apiCreate(`/orgs/${emu.org()}/teams`, { title: "Writers guild" }, "PUT");
    emu.emulator.clearRequests();
    // The filters match substrings ("Docs archive", "Writers guild"): the lookup keeps only the exact title.
    expect((await getSite({ title: "Docs" })).id).toBe(docs);
    expect((await getTeam({ title: "Writers" })).id).toBe(writers);
    expect((await getOrganizationMember({ email: "ada@example.com" })).id).toBe(emu.emulator.userIds[0]);
    const queries = emu.emulator.requests().map((r) => [r.path.split("/").at(-1), r.query]);
    expect(queries).toEqual([
      ["sites", expect.objectContaining({ title: "Docs" })],
      ["teams", expect.objectContaining({ title: "Writers" })],
      ["members", expect.objectContaining({ search: "ada@example.com" })],
    ]);
  });

  it("list everything once more only when nothing matched, to name the candidates", async () => {
    const docs = await emu.apiCreate(`/orgs/${emu.org()}/sites`, { title: "Docs" });
    emu.emulator.clearRequests();
    await expect(getSite({ title: "Handbook" })).rejects.toThrow(`it has "Docs" (${docs}).`);
    expect(emu.emulator.requests().map((r) => r.query.title ?? "(all)")).toEqual(["Handbook", "(all)"]);
  });
});

describe("getSiteSection and getSiteSpace", () => {
  async function siteWithSections() {
    const site = await emu.apiCreate(`/orgs/${emu.org()}/sites`, { title: "Docs" });
    const answer = async (body: object) =>
      (await emu.api("POST", `/orgs/${emu.org()}/sites/${site}/sections`, body)).body as {
        id: string;
        siteSpaces: { id: string }[];
      };
    const guides = await answer({ spaceId: emu.emulator.spaceIds[0], title: "Guides" });
    const api = await answer({ spaceId: emu.emulator.spaceIds[1], title: "API" });
    return { site, guides, api };
  }

  it("find a section by title or path, and a site space by title, path and section, from one structure read", async () => {
    const { site, guides, api } = await siteWithSections();
    emu.emulator.clearRequests();
    expect(await getSiteSection({ siteId: site, title: "API" })).toEqual({
      id: api.id,
      title: "API",
      path: "api",
      organizationId: emu.org(),
      siteId: site,
      groupId: null,
      siteSpaceIds: [api.siteSpaces[0]!.id],
    });
    expect(emu.calls()).toEqual([`GET /v1/orgs/${emu.org()}/sites/${site}/structure`]);
    expect((await getSiteSection({ siteId: site, path: "guides" })).id).toBe(guides.id);
    expect(await getSiteSpace({ siteId: site, path: "product-guide", sectionId: guides.id })).toMatchObject({
      id: guides.siteSpaces[0]!.id,
      spaceId: emu.emulator.spaceIds[0],
      sectionId: guides.id,
    });
    const output = getSiteSpaceOutput({ siteId: Promise.resolve(site), title: "API Reference" });
    expect(await new Promise((resolve) => output.id.apply(resolve))).toBe(api.siteSpaces[0]!.id);
  });

  it("fail naming the candidates, with how to choose among several", async () => {
    const { site, guides, api } = await siteWithSections();
    await expect(getSiteSection({ siteId: site, title: "Reference" })).rejects.toThrow(
      `getSiteSection: no section titled "Reference" in site "${site}" in organization "${emu.org()}"; it has ` +
        `"API" (${api.id}, path api), "Guides" (${guides.id}, path guides).`,
    );
    await emu.api("POST", `/orgs/${emu.org()}/sites/${site}/site-spaces`, {
      spaceId: emu.emulator.spaceIds[0],
      sectionId: api.id,
    });
    await expect(getSiteSpace({ siteId: site, title: "Product Guide" })).rejects.toThrow(
      /^getSiteSpace: 2 site spaces titled "Product Guide" of site "\w+" in organization "\w+": .*; pass sectionId to choose among them\.$/,
    );
    await expect(getSiteSection({ siteId: site })).rejects.toThrow("getSiteSection: give either title or path");
  });
});

describe("getSamlProvider, getOpenApiSpec and getOrganizations", () => {
  it("find a SAML provider by label", async () => {
    const okta = await emu.apiCreate(`/orgs/${emu.org()}/saml`, { label: "Okta" });
    expect(await getSamlProvider({ label: "Okta" })).toEqual({ id: okta, label: "Okta", organizationId: emu.org() });
    await expect(getSamlProvider({ label: "Azure" })).rejects.toThrow(
      `getSamlProvider: no SAML provider labelled "Azure" in organization "${emu.org()}"; it has "Okta" (${okta}).`,
    );
  });

  it("find an OpenAPI spec at its slug's address, listing the specs only when it is missing", async () => {
    const spec = await emu.apiCreate(`/orgs/${emu.org()}/openapi`, {
      slug: "petstore",
      source: { text: "openapi: 3.0.0\ninfo: {title: Pets, version: '1'}\npaths: {}\n" },
    });
    emu.emulator.clearRequests();
    expect(await getOpenApiSpec({ slug: "petstore" })).toMatchObject({ id: spec, slug: "petstore", sourceUrl: null });
    expect(emu.calls()).toEqual([`GET /v1/orgs/${emu.org()}/openapi/petstore`]);
    await expect(getOpenApiSpec({ slug: "billing" })).rejects.toThrow(
      `getOpenApiSpec: no OpenAPI spec with slug "billing" in organization "${emu.org()}"; it has "petstore" (${spec}).`,
    );
  });

  it("list the organizations the token reaches, needing no organization setting", async () => {
    delete process.env.DOCS_ORGANIZATION_ID;
    const { organizations } = await getOrganizations();
    expect(organizations.map((o) => o.id)).toEqual(
      expect.arrayContaining([emu.org(), emu.emulator.secondOrganizationId]),
    );
    const [first] = organizations;
    expect((await getOrganizations({ title: first!.title })).organizations).toEqual([first]);
  });
});

describe("getIntegration", () => {
  it("finds an integration of the catalogue with one request, and names the catalogue for an unknown name", async () => {
    emu.emulator.clearRequests();
    expect(await getIntegration({ name: "ticket-sync" })).toEqual({
      name: "ticket-sync",
      title: "Ticket Sync",
      description: "Links a ticketing system's account: its API key is a credential.",
      target: "all",
      categories: ["collaboration"],
      scopes: ["space:content:read", "space:metadata:read"],
      configurations: {
        account: {
          keys: {
            workspace: { type: "string", title: "Workspace", description: null, allowedValues: null, required: false },
            apiKey: { type: "string", title: "API key", description: null, allowedValues: null, required: false },
          },
          componentId: null,
        },
        site: {
          keys: {
            project: { type: "string", title: "Project", description: null, allowedValues: null, required: false },
          },
          componentId: null,
        },
        space: {
          keys: {
            project: { type: "string", title: "Project", description: null, allowedValues: null, required: false },
            labels: {
              type: "string",
              title: "Labels",
              description: null,
              allowedValues: ["none", "all"],
              required: false,
            },
            apiToken: {
              type: "string",
              title: "API token of the space's project",
              description: null,
              allowedValues: null,
              required: false,
            },
          },
          componentId: null,
        },
      },
    });
    expect(emu.calls()).toEqual(["GET /v1/integrations/ticket-sync"]);
    // A level the integration has no schema for is null; a required key says so.
    const analytics = await getIntegration({ name: "googleanalytics" });
    expect(analytics.configurations.space).toBeNull();
    expect(analytics.configurations.site?.keys.tracking_id?.required).toBe(true);
    await expect(getIntegration({ name: "ticketsync" })).rejects.toThrow(
      'getIntegration: no integration named "ticketsync" in the catalogue; it lists "Analytics Pulse" ' +
        '(analytics-pulse), "Google Analytics" (googleanalytics), "Ticket Sync" (ticket-sync), "Visitor Gate" ' +
        "(visitor-gate).",
    );
  });
});

describe("getCollection", () => {
  it("finds by path of titles, or by title when it is unique", async () => {
    const products = await emu.apiCreate(`/orgs/${emu.org()}/collections`, { title: "Products" });
    const nested = await emu.apiCreate(`/orgs/${emu.org()}/collections`, { title: "API", parent: products });
    const top = await emu.apiCreate(`/orgs/${emu.org()}/collections`, { title: "API" });
    expect(await getCollection({ path: "Products / API" })).toEqual({
      id: nested,
      title: "API",
      organizationId: emu.org(),
      parentId: products,
      path: "Products/API",
    });
    expect((await getCollection({ path: "API" })).id).toBe(top);
    expect((await getCollection({ title: "Products" })).parentId).toBeNull();
    await expect(getCollection({ title: "API" })).rejects.toThrow(
      `getCollection: 2 collections titled "API" in organization "${emu.org()}": "API" (${top}), ` +
        `"Products/API" (${nested}); pass path (titles from the top level, joined by \`/\`) to choose among them.`,
    );
    await expect(getCollection({ path: "Products/Guides" })).rejects.toThrow(
      `getCollection: no collection at path "Products/Guides" in organization "${emu.org()}"; it has "API" (${top}), ` +
        `"Products" (${products}), "Products/API" (${nested}).`,
    );
    await expect(getCollection({})).rejects.toThrow("getCollection: give either title or path");
  });
});

describe("settings", () => {
  it("looks in a connection's organization with its token", async () => {
    const other = emu.emulator.secondOrganizationId;
    emu.emulator.scopeToken("globex-only", other);
    process.env.GLOBEX_TOKEN = "globex-only";
    const connection = new Connection({ organizationId: other, tokenEnv: "GLOBEX_TOKEN" });
    expect(await getSpace({ title: "Legacy Manual" }, { connection })).toMatchObject({ organizationId: other });
    const secret = new Connection({ organizationId: other, token: pulumi.secret("globex-only") });
    expect((await getOrganizationMember({ email: "margaret@globex.example.com" }, { connection: secret })).role).toBe(
      "edit",
    );
    delete process.env.GLOBEX_TOKEN;
    await expect(getSpace({ title: "Legacy Manual" }, { connection })).rejects.toThrow(
      "getSpace: no API token: the connection's GLOBEX_TOKEN environment variable is not set.",
    );
  });

  it("fails without an organization, naming the settings", async () => {
    delete process.env.DOCS_ORGANIZATION_ID;
    await expect(getTeam({ title: "Writers" })).rejects.toThrow(
      "getTeam: no organization: pass organizationId, a connection with one, or set " +
        "`pulumi config set docs:organizationId <id>` or DOCS_ORGANIZATION_ID.",
    );
  });
});
