import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Connection } from "../../provider/connection";
import {
  getCollection,
  getOrganizationMember,
  getSite,
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
