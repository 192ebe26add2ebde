import { MemberRole } from "@gitbook/api";
import { describe, expect, it } from "vitest";
import { allPages, expectApiError, expectDeleted, expectUnauthorized, locationOf, useOfficialClient } from "./helpers";

const f = useOfficialClient();

describe("collections through the official client", () => {
  it("creates, gets, lists over several pages, updates, moves and deletes", async () => {
    const created = await f.api.orgs.createCollection(f.org(), { title: "Handbook" });
    expect(created.status).toBe(201);
    const handbook = created.data;
    expect(handbook).toMatchObject({ object: "collection", title: "Handbook", organization: f.org() });
    expect(locationOf(created)).toBe(`${f.emu.url}/collections/${handbook.id}`);

    const got = await f.api.collections.getCollectionById(handbook.id);
    expect(got.status).toBe(200);
    expect(got.data).toEqual(handbook);

    for (const title of ["Guides", "Policies", "Runbooks", "Archive"]) {
      expect((await f.api.orgs.createCollection(f.org(), { title })).status).toBe(201);
    }
    const { items, pages } = await allPages((page) =>
      f.api.orgs.listCollectionsInOrganizationById(f.org(), { limit: 2, page }),
    );
    expect(pages).toBe(3);
    expect(items.map((c) => c.title).sort()).toEqual(["Archive", "Guides", "Handbook", "Policies", "Runbooks"]);

    const updated = await f.api.collections.updateCollectionById(handbook.id, {
      title: "Company handbook",
      description: "How we work",
      defaultLevel: MemberRole.Read,
    });
    expect(updated.status).toBe(200);
    expect(updated.data).toMatchObject({ title: "Company handbook", description: "How we work", defaultLevel: "read" });

    const guides = items.find((c) => c.title === "Guides")!;
    const moved = await f.api.collections.moveCollection(guides.id, { parent: handbook.id });
    expect(moved.status).toBe(200);
    expect(moved.data.parent).toBe(handbook.id);
    const top = await f.api.collections.moveCollection(guides.id, { parent: null });
    expect(top.data).not.toHaveProperty("parent");

    await expectDeleted(() => f.api.collections.deleteCollectionById(handbook.id));
    await expectApiError(f.api.collections.getCollectionById(handbook.id), 404, /not found/i);
  });

  it("lists the spaces of a collection", async () => {
    const { data: collection } = await f.api.orgs.createCollection(f.org(), { title: "Specs" });
    const spaces = await f.api.collections.listSpacesInCollectionById(collection.id);
    expect(spaces.status).toBe(200);
    expect(spaces.data.items).toEqual([]);
  });

  it("fails on an unknown id with 404", async () => {
    await expectApiError(f.api.collections.getCollectionById("unknownCollection"), 404, /unknownCollection/);
    await expectApiError(
      f.api.collections.updateCollectionById("unknownCollection", { title: "x" }),
      404,
      /not found/i,
    );
    await expectApiError(f.api.orgs.createCollection("unknownOrg", { title: "x" }), 404, /unknownOrg/);
  });

  it("fails on bad input with 400 naming the field", async () => {
    await expectApiError(f.api.orgs.createCollection(f.org(), { title: "x".repeat(51) }), 400, /title/);
    const { data } = await f.api.orgs.createCollection(f.org(), { title: "Ok" });
    await expectApiError(
      f.api.collections.updateCollectionById(data.id, { description: "d".repeat(101) }),
      400,
      /description/,
    );
    await expectApiError(
      // @ts-expect-error: a role the document does not allow
      f.api.collections.updateCollectionById(data.id, { defaultLevel: "owner" }),
      400,
      /defaultLevel/,
    );
  });

  it("fails without a valid token with 401", async () => {
    await expectUnauthorized(f, (api) => api.orgs.listCollectionsInOrganizationById(f.org()));
    await expectUnauthorized(f, (api) => api.orgs.createCollection(f.org(), { title: "Nope" }));
    expect(f.emu.store.collections.size).toBe(0);
  });
});
