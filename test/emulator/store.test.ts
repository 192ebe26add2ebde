import { describe, expect, it } from "vitest";
import { BadRequestError } from "../../emulator/errors";
import type { CollectionRec, SpaceRec } from "../../emulator/families/content/records";
import type { OpenApiSpecRec } from "../../emulator/families/openapi/records";
import type { SamlRec } from "../../emulator/families/saml/records";
import type { SiteSpaceRec } from "../../emulator/families/siteStructure/records";
import type { TeamRec } from "../../emulator/families/teams/records";
import { type ContentItem, Store } from "../../emulator/store";

/**
 * The emulator's store without HTTP in between: the invariants it owns (cascading deletes, moves and transfers
 * across tables, lookups) as the routes rely on them. The clock is driven by the test.
 */
const T0 = Date.parse("2026-03-01T12:00:00.000Z");

function storeAt(start = T0) {
  const time = { now: start };
  const store = new Store(() => time.now);
  const { organizationId: org, secondOrganizationId: org2, spaceIds, userIds } = store.fixtures;
  let made = 0;
  const collection = (title: string, parentId?: string, orgId = org): CollectionRec => {
    const rec: CollectionRec = {
      id: `c${++made}`,
      orgId,
      title,
      parentId,
      defaultLevel: "inherit",
      createdAt: store.now(),
      position: store.tables.nextPosition(),
    };
    store.tables.collections.set(rec.id, rec);
    return rec;
  };
  const team = (title: string, members: string[], orgId = org): TeamRec => {
    const rec: TeamRec = {
      id: `t${++made}`,
      orgId,
      title,
      createdAt: store.now(),
      members: new Map(members.map((m) => [m, "member" as const])),
    };
    store.tables.teams.set(rec.id, rec);
    return rec;
  };
  return { store, time, org, org2, spaceIds, userIds, collection, team };
}

const space = (store: Store, id: string | undefined) => store.spaces.get(id as string);
const ids = (items: ContentItem[]) => items.map((item) => `${item.kind}:${item.rec.id}`);

describe("tables", () => {
  it("reset brings back the fixtures with the same ids, and empties every table", () => {
    const { store, collection, team, org } = storeAt();
    const before = { orgs: [...store.orgs.keys()], spaces: [...store.spaces.keys()], users: [...store.users.keys()] };
    collection("Extra");
    team("Extra", []);
    store.tables.spaces.delete(before.spaces[0] as string);
    store.reset();
    expect([...store.orgs.keys()]).toEqual(before.orgs);
    expect([...store.spaces.keys()]).toEqual(before.spaces);
    expect([...store.users.keys()]).toEqual(before.users);
    expect(store.collections.size).toBe(0);
    expect(store.teams.size).toBe(0);
    expect(store.membersOf(org)).toHaveLength(3);
    // Positions start again: the fixtures get the same ones.
    expect(store.tables.nextPosition()).toBe(6);
  });

  it("positions only grow, ids are new and 20 alphanumerics, and now() reads the clock", () => {
    const { store, time } = storeAt();
    const first = store.tables.nextPosition();
    expect(store.tables.nextPosition()).toBe(first + 1);
    const id = store.tables.newId();
    expect(id).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(store.spaces.has(id) || store.orgs.has(id)).toBe(false);
    expect(store.now()).toBe("2026-03-01T12:00:00.000Z");
    time.now += 1500;
    expect(store.now()).toBe("2026-03-01T12:00:01.500Z");
  });
});

describe("members", () => {
  it("finds a member by user id or by email in any case, within the organization only", () => {
    const { store, org, org2, userIds } = storeAt();
    const [ada, grace] = userIds as [string, string];
    expect(store.member(org, ada)?.role).toBe("admin");
    expect(store.member(org2, grace)).toBeUndefined();
    expect(store.findMember(org, grace)?.userId).toBe(grace);
    expect(store.findMember(org, "GRACE@Example.com")?.userId).toBe(grace);
    expect(store.findMember(org2, "grace@example.com")).toBeUndefined();
    expect(store.findMember(org, "nobody@example.com")).toBeUndefined();
    expect(store.membersOf(org).map((m) => m.userId)).toEqual(userIds);
    expect(store.membersOf(org2)).toHaveLength(2);
  });

  it("counts the teams of a member in one organization", () => {
    const { store, org, org2, userIds, team } = storeAt();
    const [ada, grace] = userIds as [string, string];
    team("A", [ada, grace]);
    team("B", [ada]);
    team("Elsewhere", [ada], org2);
    expect(store.teamCountForMember(org, ada)).toBe(2);
    expect(store.teamCountForMember(org, grace)).toBe(1);
    expect(store.teamCountForMember(org2, grace)).toBe(0);
  });
});

describe("spaces and collections", () => {
  it("a deleted space is not live", () => {
    const { store, spaceIds } = storeAt();
    const id = spaceIds[0] as string;
    expect(store.liveSpace(id)?.id).toBe(id);
    (space(store, id) as { deletedAt?: string }).deletedAt = store.now();
    expect(store.liveSpace(id)).toBeUndefined();
    expect(store.liveSpace("missing")).toBeUndefined();
  });

  it("deleting a collection deletes its subtree and soft-deletes the spaces in it, nothing else", () => {
    const { store, time, spaceIds, collection } = storeAt();
    const root = collection("Root");
    const child = collection("Child", root.id);
    const grandchild = collection("Grandchild", child.id);
    const sibling = collection("Sibling");
    const [inRoot, inGrandchild, outside, alreadyDeleted] = spaceIds as [string, string, string, string];
    (space(store, inRoot) as { parentId?: string }).parentId = root.id;
    (space(store, inGrandchild) as { parentId?: string }).parentId = grandchild.id;
    Object.assign(space(store, alreadyDeleted) as object, {
      parentId: child.id,
      deletedAt: "2020-01-01T00:00:00.000Z",
    });
    expect(store.collectionSubtree(root.id).map((c) => c.id)).toEqual([root.id, child.id, grandchild.id]);
    expect(store.collectionChildren(root.id).map((c) => c.id)).toEqual([child.id]);
    time.now += 60_000;
    expect(store.deleteCollection(root.id)).toBe(true);
    expect([...store.collections.keys()]).toEqual([sibling.id]);
    expect(space(store, inRoot)?.deletedAt).toBe("2026-03-01T12:01:00.000Z");
    expect(space(store, inGrandchild)?.deletedAt).toBe("2026-03-01T12:01:00.000Z");
    expect(space(store, outside)?.deletedAt).toBeUndefined();
    expect(space(store, alreadyDeleted)?.deletedAt).toBe("2020-01-01T00:00:00.000Z");
    expect(store.deleteCollection(root.id)).toBe(false);
    expect(store.collectionSubtree("missing")).toEqual([]);
  });

  it("lists a parent's collections and live spaces by position, per organization", () => {
    const { store, org, org2, spaceIds, collection } = storeAt();
    const parent = collection("Parent");
    const [s1, s2, s3] = spaceIds as [string, string, string];
    const c1 = collection("C1", parent.id);
    for (const id of [s1, s2, s3]) (space(store, id) as { parentId?: string }).parentId = parent.id;
    (space(store, s2) as { deletedAt?: string }).deletedAt = store.now();
    collection("Other org", parent.id, org2);
    // Fixture spaces were created before the collections: lower positions come first.
    expect(ids(store.contentChildren(org, parent.id))).toEqual([`space:${s1}`, `space:${s3}`, `collection:${c1.id}`]);
    expect(ids(store.contentChildren(org, undefined))).toEqual([`space:${spaceIds[3]}`, `collection:${parent.id}`]);
  });

  it("moves an item to the end, before or after a sibling, renumbering the level", () => {
    const { store, time, org, collection } = storeAt();
    const a = collection("A");
    const b = collection("B");
    const c = collection("C");
    const top = () => ids(store.contentChildren(org, undefined)).filter((id) => id.startsWith("collection"));
    store.moveInContentTree({ kind: "collection", rec: a }, undefined, undefined);
    expect(top()).toEqual([`collection:${b.id}`, `collection:${c.id}`, `collection:${a.id}`]);
    store.moveInContentTree({ kind: "collection", rec: a }, undefined, { before: { kind: "collection", id: b.id } });
    expect(top()).toEqual([`collection:${a.id}`, `collection:${b.id}`, `collection:${c.id}`]);
    store.moveInContentTree({ kind: "collection", rec: a }, undefined, { after: { kind: "collection", id: c.id } });
    expect(top()).toEqual([`collection:${b.id}`, `collection:${c.id}`, `collection:${a.id}`]);
    store.moveInContentTree({ kind: "collection", rec: c }, a.id, undefined);
    expect(c.parentId).toBe(a.id);
    expect(ids(store.contentChildren(org, a.id))).toEqual([`collection:${c.id}`]);
    // A moved space is updated; a moved collection has no such field.
    const moved = store.createSpace(org, "Moved");
    time.now += 5000;
    store.moveInContentTree({ kind: "space", rec: moved }, a.id, { before: { kind: "collection", id: c.id } });
    expect(ids(store.contentChildren(org, a.id))).toEqual([`space:${moved.id}`, `collection:${c.id}`]);
    expect(moved.updatedAt).toBe("2026-03-01T12:00:05.000Z");
  });

  it("refuses a sibling that is not an item of the target parent, naming the field, and changes nothing", () => {
    const { store, org, collection } = storeAt();
    const a = collection("A");
    const b = collection("B");
    const nested = collection("Nested", b.id);
    const before = ids(store.contentChildren(org, undefined));
    const moveA = (placement: Parameters<Store["moveInContentTree"]>[2]) => () =>
      store.moveInContentTree({ kind: "collection", rec: a }, undefined, placement);
    expect(moveA({ before: { kind: "collection", id: nested.id } })).toThrow(
      new BadRequestError(`position.before: collection "${nested.id}" is not an item of the target parent`),
    );
    expect(moveA({ after: { kind: "space", id: b.id } })).toThrow(
      `position.after: space "${b.id}" is not an item of the target parent`,
    );
    expect(moveA({ after: { kind: "collection", id: a.id } })).toThrow(/position\.after/);
    expect(ids(store.contentChildren(org, undefined))).toEqual(before);
  });

  it("creates an empty space with the API's defaults, its title cut to 50 characters", () => {
    const { store, org } = storeAt();
    const created = store.createSpace(org, "x".repeat(60));
    expect(created).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      orgId: org,
      title: "x".repeat(50),
      emoji: "1f4c4",
      visibility: "private",
      createdAt: "2026-03-01T12:00:00.000Z",
      updatedAt: "2026-03-01T12:00:00.000Z",
      revision: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      defaultLevel: "inherit",
      editMode: "live",
      position: expect.any(Number),
    });
    expect(store.spaces.get(created.id)).toBe(created);
    expect(created.revision).not.toBe(created.id);
  });

  it("transfers a collection with its subtree and spaces to the other organization's top level", () => {
    const { store, time, org, org2, spaceIds, collection } = storeAt();
    const parent = collection("Parent");
    const moving = collection("Moving", parent.id);
    const child = collection("Child", moving.id);
    const [inChild, inParent] = spaceIds as [string, string];
    (space(store, inChild) as { parentId?: string }).parentId = child.id;
    (space(store, inParent) as { parentId?: string }).parentId = parent.id;
    const position = moving.position;
    time.now += 1000;
    store.transferCollection(moving, org2);
    expect([moving.orgId, child.orgId, parent.orgId]).toEqual([org2, org2, org]);
    expect(moving.parentId).toBeUndefined();
    expect(child.parentId).toBe(moving.id);
    expect(moving.position).toBeGreaterThan(position);
    expect(space(store, inChild)).toMatchObject({ orgId: org2, updatedAt: "2026-03-01T12:00:01.000Z" });
    expect(space(store, inParent)?.orgId).toBe(org);
    expect(space(store, inParent)?.updatedAt).not.toBe("2026-03-01T12:00:01.000Z");
  });
});

describe("teams and SAML providers", () => {
  it("lists an organization's teams; deleting a team clears it as a SAML provider's default team", () => {
    const { store, org, org2, team } = storeAt();
    const a = team("A", []);
    const b = team("B", []);
    team("Elsewhere", [], org2);
    expect(store.teamsOf(org).map((t) => t.id)).toEqual([a.id, b.id]);
    const saml = (id: string, defaultTeamId?: string): SamlRec => ({
      id,
      orgId: org,
      label: id,
      entityID: "urn:x",
      certificate: "cert",
      defaultTeamId,
      defaultRole: "read",
      createdAt: store.now(),
    });
    store.tables.samlProviders.set("s1", saml("s1", a.id));
    store.tables.samlProviders.set("s2", saml("s2", b.id));
    expect(store.remove("teams", a.id)).toBe(true);
    expect(store.samlProviders.get("s1")?.defaultTeamId).toBeUndefined();
    expect(store.samlProviders.get("s2")?.defaultTeamId).toBe(b.id);
    expect(store.remove("teams", a.id)).toBe(false);
    expect(store.remove("samlProviders", "s1")).toBe(true);
    expect(store.remove("samlProviders", "s1")).toBe(false);
    expect([...store.samlProviders.keys()]).toEqual(["s2"]);
  });
});

describe("OpenAPI specs", () => {
  function specs() {
    const fixture = storeAt();
    const spec = (id: string, slug: string, orgId = fixture.org): OpenApiSpecRec => {
      const rec: OpenApiSpecRec = { id, orgId, slug, createdAt: "t", updatedAt: "t" };
      fixture.store.tables.openApiSpecs.set(id, rec);
      return rec;
    };
    return { ...fixture, spec };
  }

  it("finds a spec by slug within its organization", () => {
    const { store, org, org2, spec } = specs();
    const mine = spec("o1", "petstore");
    spec("o2", "petstore", org2);
    expect(store.openApiStore.openApiSpecBySlug(org, "petstore")).toBe(mine);
    expect(store.openApiStore.openApiSpecBySlug(org2, "petstore")?.id).toBe("o2");
    expect(store.openApiStore.openApiSpecBySlug(org, "other")).toBeUndefined();
  });

  it("a job's success records the latest version and clears the errors; a failure records the error", () => {
    const { store, spec } = specs();
    const petstore = spec("o1", "petstore");
    petstore.job = { acceptedAtMs: 0, source: { url: "https://x.test/a.json" }, versionId: "v1" };
    petstore.lastProcessErrorCode = "FETCH_ERROR";
    petstore.lastProcessedErrors = [{ message: "earlier" }];
    store.openApiStore.finishOpenApiJob(petstore, "at-1", { format: "json", parsed: { openapi: "3.1.0" } });
    expect(store.openApiVersions.get("v1")).toEqual({
      id: "v1",
      specId: "o1",
      createdAt: "at-1",
      source: { url: "https://x.test/a.json" },
      format: "json",
      parsed: { openapi: "3.1.0" },
    });
    expect(petstore).toMatchObject({ lastVersionId: "v1", lastProcessedAt: "at-1", job: undefined });
    expect(petstore.lastProcessErrorCode).toBeUndefined();
    expect(petstore.lastProcessedErrors).toBeUndefined();

    petstore.job = { acceptedAtMs: 1, source: { text: "{" }, versionId: "v2" };
    store.openApiStore.finishOpenApiJob(petstore, "at-2", { code: "PARSE_ERROR", message: "unexpected end" });
    expect(store.openApiVersions.has("v2")).toBe(false);
    expect(petstore).toMatchObject({
      lastVersionId: "v1",
      lastProcessedAt: "at-2",
      lastProcessErrorCode: "PARSE_ERROR",
      lastProcessedErrors: [{ message: "unexpected end", code: "PARSE_ERROR" }],
      job: undefined,
    });

    // Without a job in flight there is nothing to finish.
    store.openApiStore.finishOpenApiJob(petstore, "at-3", { format: "yaml" });
    expect(petstore.lastProcessedAt).toBe("at-2");
    expect(store.openApiStore.versionsOf("o1").map((v) => v.id)).toEqual(["v1"]);
  });

  it("deleting a spec deletes its versions only", () => {
    const { store, spec } = specs();
    const a = spec("o1", "a");
    const b = spec("o2", "b");
    for (const [rec, versionId] of [
      [a, "va1"],
      [a, "va2"],
      [b, "vb1"],
    ] as const) {
      rec.job = { acceptedAtMs: 0, source: { text: "{}" }, versionId };
      store.openApiStore.finishOpenApiJob(rec, "at", { format: "json" });
    }
    expect(store.openApiStore.versionsOf("o1").map((v) => v.id)).toEqual(["va1", "va2"]);
    expect(store.openApiStore.deleteOpenApiSpec("o1")).toBe(true);
    expect([...store.openApiVersions.keys()]).toEqual(["vb1"]);
    expect(store.openApiSpecs.has("o1")).toBe(false);
    expect(store.openApiStore.deleteOpenApiSpec("o1")).toBe(false);
  });
});

describe("one shape: stores composed over the tables, the only writers", () => {
  // Compile-time half (tsc fails on an unused directive): a table read through the Store cannot be written, so a
  // route that tries does not compile and every write goes through a store method.
  function routesCannotWriteTables(store: Store) {
    // @ts-expect-error the Store hands its tables out as ReadonlyMaps
    store.sites.delete("any");
  }

  it("the Store and every store it holds see the same tables", () => {
    const { store, org, spaceIds } = storeAt();
    expect(typeof routesCannotWriteTables).toBe("function");
    const site = store.siteStore.createSite(org, { title: "Docs", type: "basic", visibility: "public" }, []);
    expect(store.sites.get(site.id)).toBe(site);
    expect(store.tables.sites.get(site.id)).toBe(site);
    const rec = store.redirectStore.createRedirect(site, {
      source: "/old",
      draft: false,
      captureWildcard: false,
      permanent: false,
      destination: { kind: "external", url: "https://example.com" },
    });
    expect(store.redirects.get(rec.id)).toBe(rec);
    store.reset();
    expect(store.sites.size + store.redirects.size).toBe(0);
    expect(store.spaces.has(spaceIds[0] as string)).toBe(true);
  });
});

describe("sites (SiteStore)", () => {
  const docs = { title: "Docs", type: "basic", visibility: "public" };

  it("creates a site with one root site space per listed space; a space listed twice creates nothing", () => {
    const { store, org, spaceIds } = storeAt();
    const [a, b] = spaceIds.map((id) => store.spaces.get(id)!) as [SpaceRec, SpaceRec];
    expect(() => store.siteStore.createSite(org, docs, [a, b, a])).toThrow(
      new BadRequestError(`spaces[2]: space "${a.id}" is listed twice`),
    );
    expect(store.sites.size + store.siteSpaces.size).toBe(0);
    const site = store.siteStore.createSite(org, docs, [a, b]);
    expect(site).toMatchObject({ orgId: org, published: false, agentsContext: "excluded", defaultLevel: "inherit" });
    const root = store.siteStore.siteSpacesIn(site.id, undefined);
    expect(root.map((ss) => [ss.spaceId, ss.isDefault])).toEqual([
      [a.id, true],
      [b.id, false],
    ]);
  });

  it("a site's default site space is one of the level that shows first, and changes nothing when it is not", () => {
    const { store, org, spaceIds } = storeAt();
    const [a, b, c] = spaceIds.map((id) => store.spaces.get(id)!) as [SpaceRec, SpaceRec, SpaceRec];
    const site = store.siteStore.createSite(org, docs, [a]);
    const guides = store.siteStore.addSection(site, b, { title: "Guides" });
    const api = store.siteStore.addSection(site, c, { title: "API" });
    const [inApi] = store.siteStore.siteSpacesIn(site.id, api.id) as [SiteSpaceRec];
    expect(() => store.siteStore.updateSite(site, { title: "Renamed", defaultSiteSpace: inApi.id })).toThrow(
      new BadRequestError(`defaultSiteSpace: site space "${inApi.id}" must be in the default section of the site`),
    );
    expect([site.title, guides.isDefault, api.isDefault]).toEqual(["Docs", true, false]);
    store.siteStore.updateSite(site, { title: "Renamed", defaultSiteSection: api.id, defaultSiteSpace: inApi.id });
    expect([site.title, guides.isDefault, api.isDefault, inApi.isDefault]).toEqual(["Renamed", false, true, true]);
  });

  it("nests a group under another, never under itself or a descendant, and bumps it to the end only on a change", () => {
    const { store, org } = storeAt();
    const site = store.siteStore.createSite(org, docs, []);
    const outer = store.siteStore.addSectionGroup(site, { title: "Outer" }, []);
    const inner = store.siteStore.addSectionGroup(site, { title: "Inner", parentGroupId: outer.id }, []);
    const cycle = `parentSectionGroupId: cannot nest section group "${outer.id}" inside itself or one of its descendants`;
    expect(() => store.siteStructureStore.setGroupParent(outer, inner.id)).toThrow(new BadRequestError(cycle));
    expect(() => store.siteStructureStore.setGroupParent(outer, outer.id)).toThrow(cycle);
    expect(outer.parentGroupId).toBeUndefined();
    const position = inner.position;
    store.siteStructureStore.setGroupParent(inner, outer.id);
    expect(inner.position).toBe(position);
    store.siteStructureStore.setGroupParent(inner, undefined);
    expect(inner.parentGroupId).toBeUndefined();
    expect(inner.position).toBeGreaterThan(position);
  });

  it("a section's PATCH keeps paths unique, checks in order and changes nothing when a check fails", () => {
    const { store, org, spaceIds } = storeAt();
    const site = store.siteStore.createSite(org, docs, []);
    const [s1, s2] = spaceIds.map((id) => store.spaces.get(id)!) as [SpaceRec, SpaceRec];
    const first = store.siteStore.addSection(site, s1, { title: "Guides" });
    const second = store.siteStore.addSection(site, s2, { title: "Reference" });
    const foreign = store.siteStore.siteSpacesIn(site.id, first.id)[0]!;
    expect(() =>
      store.siteStore.updateSection(site, second, { title: "Changed", path: first.path, defaultSiteSpace: foreign.id }),
    ).toThrow(`defaultSiteSpace: site space "${foreign.id}" is not a site space of section "${second.id}"`);
    expect(() => store.siteStore.updateSection(site, second, { title: "Changed", path: first.path })).toThrow(
      new BadRequestError(`path: "${first.path}" is already used by site section "${first.id}"`),
    );
    expect(() => store.siteStore.updateSection(site, second, { siteSectionGroupId: "nope" })).toThrow(
      `siteSectionGroupId: site section group "nope" not found in site "${site.id}"`,
    );
    expect(second).toMatchObject({ title: "Reference", path: "reference" });
    store.siteStore.updateSection(site, second, { path: second.path, condition: "visitor.claims.beta", icon: null });
    expect(second).toMatchObject({ path: "reference", condition: "visitor.claims.beta", icon: undefined });
  });

  it("a site space's PATCH keeps paths unique and a space shown once per level, and takes live spaces only", () => {
    const { store, org, org2, spaceIds } = storeAt();
    const [a, b, c] = spaceIds.map((id) => store.spaces.get(id)!) as [SpaceRec, SpaceRec, SpaceRec];
    const site = store.siteStore.createSite(org, docs, [a, b]);
    const [ssA, ssB] = store.siteStore.siteSpacesIn(site.id, undefined) as [SiteSpaceRec, SiteSpaceRec];
    expect(() => store.siteStore.updateSiteSpace(site, ssB, { path: ssA.path })).toThrow(
      new BadRequestError(`path: "${ssA.path}" is already used by site space "${ssA.id}"`),
    );
    expect(() => store.siteStore.updateSiteSpace(site, ssB, { spaceId: a.id })).toThrow(
      `spaceId: space "${a.id}" is already at this level of the site`,
    );
    const elsewhere = store.fixtures.secondOrganizationSpaceIds[0] as string;
    expect(() => store.siteStore.updateSiteSpace(site, ssB, { spaceId: elsewhere })).toThrow(
      `spaceId: space "${elsewhere}" not found in organization "${org}"`,
    );
    expect(store.spaces.get(elsewhere)?.orgId).toBe(org2);
    store.deleteSpace(c.id);
    expect(() => store.siteStore.updateSiteSpace(site, ssB, { spaceId: c.id })).toThrow(/not found/);
    expect(ssB.spaceId).toBe(b.id);
    store.siteStore.updateSiteSpace(site, ssB, { path: "renamed", hidden: true });
    expect(ssB).toMatchObject({ path: "renamed", hidden: true, spaceId: b.id });
  });

  it("makes a site's publishing auth on first use, and a new key on regeneration", () => {
    const { store, org } = storeAt();
    const site = store.siteStore.createSite(org, docs, []);
    expect(store.publishingAuths.has(site.id)).toBe(false);
    const auth = store.siteSettingsStore.publishingAuth(site);
    expect(store.siteSettingsStore.publishingAuth(site)).toBe(auth);
    const key = auth.privateKey;
    expect(store.siteSettingsStore.regeneratePublishingKey(site).privateKey).not.toBe(key);
    expect(store.siteSettingsStore.setAdaptiveSchema(site, { type: "object" })).toMatchObject({ siteId: site.id });
    store.siteSettingsStore.createShareLink(site, "Reviewers");
    store.siteStore.deleteSite(site.id);
    expect(store.publishingAuths.size + store.adaptiveSchemas.size + store.shareLinks.size).toBe(0);
  });
});

describe("redirects (RedirectStore)", () => {
  it("deletes a redirect of its own site only", () => {
    const { store, org } = storeAt();
    const fields = { title: "Docs", type: "basic", visibility: "public" };
    const [one, two] = [store.siteStore.createSite(org, fields, []), store.siteStore.createSite(org, fields, [])];
    const rec = store.redirectStore.createRedirect(one, {
      source: "/old",
      draft: false,
      captureWildcard: false,
      permanent: true,
      destination: { kind: "external", url: "https://example.com" },
    });
    expect(store.redirectStore.deleteRedirect(two, rec.id)).toBe(false);
    expect(store.redirectStore.deleteRedirect(one, rec.id)).toBe(true);
    expect(store.redirectStore.deleteRedirect(one, rec.id)).toBe(false);
  });
});

describe("content, teams and grants (Store)", () => {
  it("creates collections and spaces under a collection of their own organization only", () => {
    const { store, org, org2, collection } = storeAt();
    const theirs = collection("Theirs", undefined, org2);
    const refused = `parent: collection "${theirs.id}" not found in organization "${org}"`;
    expect(() => store.createCollection(org, { title: "X", parentId: theirs.id })).toThrow(
      new BadRequestError(refused),
    );
    expect(() => store.createSpace(org, "X", { parentId: theirs.id })).toThrow(refused);
    const mine = store.createCollection(org, { title: "Mine" });
    const space = store.createSpace(org, "Guide", { parentId: mine.id, emoji: "", language: "fr" });
    expect(space).toMatchObject({ parentId: mine.id, emoji: "", language: "fr", editMode: "live" });
    expect(store.contentChildren(org, mine.id).map((i) => i.rec.id)).toEqual([space.id]);
  });

  it("never moves a collection into itself or a descendant", () => {
    const { store, collection } = storeAt();
    const root = collection("Root");
    const child = collection("Child", root.id);
    const refused = `parent: cannot move collection "${root.id}" into itself or one of its descendant collections`;
    expect(() => store.moveCollection(root, child.id, undefined)).toThrow(`${refused} ("${child.id}")`);
    expect(() => store.moveCollection(root, root.id, undefined)).toThrow(`${refused} ("${root.id}")`);
    store.moveCollection(child, undefined, undefined);
    expect(child.parentId).toBeUndefined();
  });

  it("applies a bulk membership change with removals last, and keeps roles a plain add does not name", () => {
    const { store, org, userIds } = storeAt();
    const [ada, grace, linus] = userIds as [string, string, string];
    const team = store.createTeam(org, "Writers", [ada]);
    store.setTeamMember(team, ada, "owner");
    store.updateTeamMembers(team, { add: [ada, grace, linus], memberships: [[grace, "owner"]], remove: [linus] });
    expect([...team.members]).toEqual([
      [ada, "owner"],
      [grace, "owner"],
    ]);
    store.setTeamMember(team, linus, undefined);
    expect(team.members.get(linus)).toBe("member");
    expect(store.removeTeamMember(team, linus)).toBe(true);
    expect(store.removeTeamMember(team, linus)).toBe(false);
  });

  it("a null role removes a space's grant and is kept on a site", () => {
    const { store, org, spaceIds, team } = storeAt();
    const writers = team("Writers", []);
    const onSpace = {
      target: "space",
      targetId: spaceIds[0] as string,
      grantee: "team",
      granteeId: writers.id,
    } as const;
    store.permissionStore.setGrant(onSpace, "edit");
    expect(store.permissionStore.findGrant("space", onSpace.targetId, "team", writers.id)?.role).toBe("edit");
    store.permissionStore.setGrant(onSpace, null);
    expect(store.permissionStore.findGrant("space", onSpace.targetId, "team", writers.id)).toBeUndefined();
    const site = store.siteStore.createSite(org, { title: "Docs", type: "basic", visibility: "public" }, []);
    store.permissionStore.setGrant({ ...onSpace, target: "site", targetId: site.id }, null);
    expect(store.permissionStore.grantsOf("site", site.id, "team").map((g) => g.role)).toEqual([null]);
  });
});

describe("OpenAPI processing (OpenApiStore)", () => {
  it("refuses a second spec with the same slug in an organization", () => {
    const { store, org, org2 } = storeAt();
    store.openApiStore.createOpenApiSpec(org, "petstore");
    store.openApiStore.createOpenApiSpec(org2, "petstore");
    expect(() => store.openApiStore.createOpenApiSpec(org, "petstore")).toThrow(
      new BadRequestError(`slug: an OpenAPI spec "petstore" already exists in organization "${org}"`),
    );
  });

  it("is pending for a step, in progress for another, then complete; a new source completes the running job", () => {
    const time = { now: T0 };
    const store = new Store(() => time.now, 100);
    const specs = store.openApiStore;
    const spec = specs.createOpenApiSpec(store.fixtures.organizationId, "petstore");
    specs.acceptSource(spec, { text: '{"openapi":"3.1.0"}' });
    expect(specs.processingState(spec)).toBe("pending");
    time.now += 100;
    expect(specs.processingState(spec)).toBe("progress");
    specs.acceptSource(spec, { url: "https://unreachable.invalid/spec.json" });
    expect(spec).toMatchObject({ lastProcessedAt: new Date(time.now).toISOString(), sourceURL: expect.any(String) });
    expect(specs.versionsOf(spec.id)).toHaveLength(1);
    time.now += 199;
    specs.settle(spec);
    expect(specs.processingState(spec)).toBe("progress");
    time.now += 1;
    specs.settle(spec);
    expect(specs.processingState(spec)).toBe("complete");
    expect(spec).toMatchObject({
      lastProcessErrorCode: "FETCH_ERROR",
      lastVersionId: specs.versionsOf(spec.id)[0]?.id,
    });
  });
});
