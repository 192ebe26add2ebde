import { describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator";

const h = useEmulator({ provider: false });
const collectionsPath = () => `/orgs/${h.org()}/collections`;

async function createCollection(body: Record<string, unknown>, org = h.org()): Promise<string> {
  const res = await h.call("POST", `/orgs/${org}/collections`, body);
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

describe("collections CRUD", () => {
  it("creates, reads, updates and deletes a collection", async () => {
    const res = await h.call("POST", collectionsPath(), { title: "Guides" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: "collection",
      title: "Guides",
      organization: h.org(),
      defaultLevel: "inherit",
    });
    expect(res.body.id).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(res.headers.get("location")).toBe(`${h.emulator.url}/collections/${res.body.id}`);
    expect(res.body.urls.location).toBe(res.headers.get("location"));
    const id = res.body.id;

    const got = await h.call("GET", `/collections/${id}`);
    expect(got.body).toEqual(res.body);

    const patched = await h.call("PATCH", `/collections/${id}`, {
      title: "Handbooks",
      description: "All the handbooks",
      defaultLevel: "read",
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ title: "Handbooks", description: "All the handbooks", defaultLevel: "read" });
    const nullLevel = await h.call("PATCH", `/collections/${id}`, { defaultLevel: null });
    expect(nullLevel.body.defaultLevel).toBeNull();
    expect(nullLevel.body.title).toBe("Handbooks");

    expect((await h.call("DELETE", `/collections/${id}`)).status).toBe(205);
    expect((await h.call("GET", `/collections/${id}`)).status).toBe(404);
    expect((await h.call("DELETE", `/collections/${id}`)).status).toBe(204);
    expect((await h.call("PATCH", `/collections/${id}`, { title: "x" })).status).toBe(404);
  });

  it("creates a nested collection and filters nested ones out with nested=false", async () => {
    const parent = await createCollection({ title: "Parent" });
    const child = await createCollection({ title: "Child", parent });
    const got = await h.call("GET", `/collections/${child}`);
    expect(got.body.parent).toBe(parent);
    const all = await h.listAll(collectionsPath());
    expect(all.map((c) => c.id)).toEqual([parent, child]);
    const top = await h.listAll(`${collectionsPath()}?nested=false`);
    expect(top.map((c) => c.id)).toEqual([parent]);
    expect((await h.call("GET", `${collectionsPath()}?nested=maybe`)).status).toBe(400);
  });

  it("lists collections per organization", async () => {
    const a = await createCollection({ title: "In A" });
    const b = await createCollection({ title: "In B" }, h.emulator.secondOrganizationId);
    expect((await h.listAll(collectionsPath())).map((c) => c.id)).toEqual([a]);
    expect((await h.listAll(`/orgs/${h.emulator.secondOrganizationId}/collections`)).map((c) => c.id)).toEqual([b]);
  });
});

describe("collection limits", () => {
  it("rejects a title over 50 characters on create and update", async () => {
    const create = await h.call("POST", collectionsPath(), { title: "x".repeat(51) });
    expect(create.status).toBe(400);
    expect(create.body).toEqual({ error: { code: 400, message: "title: must be at most 50 characters" } });
    expect((await h.call("POST", collectionsPath(), { title: "x".repeat(50) })).status).toBe(201);
    const id = await createCollection({ title: "ok" });
    const update = await h.call("PATCH", `/collections/${id}`, { title: "y".repeat(51) });
    expect(update.status).toBe(400);
    expect(update.body.error.message).toBe("title: must be at most 50 characters");
    expect((await h.call("GET", `/collections/${id}`)).body.title).toBe("ok");
  });

  it("counts characters, not UTF-16 units", async () => {
    expect((await h.call("POST", collectionsPath(), { title: "📚".repeat(50) })).status).toBe(201);
    expect((await h.call("POST", collectionsPath(), { title: "📚".repeat(51) })).status).toBe(400);
  });

  it("rejects a description over 100 characters", async () => {
    const id = await createCollection({ title: "ok" });
    const res = await h.call("PATCH", `/collections/${id}`, { description: "d".repeat(101) });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe("description: must be at most 100 characters");
    expect((await h.call("PATCH", `/collections/${id}`, { description: "d".repeat(100) })).status).toBe(200);
  });

  it("rejects wrong types, unknown roles, unknown fields and an unknown parent", async () => {
    const id = await createCollection({ title: "ok" });
    const cases: [string, string, unknown, RegExp][] = [
      ["POST", collectionsPath(), { title: 5 }, /^title: must be a string/],
      ["PATCH", `/collections/${id}`, { defaultLevel: "owner" }, /^defaultLevel: must be null or one of/],
      ["PATCH", `/collections/${id}`, { parent: "x" }, /^parent: unknown field/],
      ["PATCH", `/collections/${id}`, undefined, /^body:/],
      ["POST", collectionsPath(), { parent: "missing" }, /^parent: collection "missing" not found/],
      ["POST", collectionsPath(), { description: "no" }, /^description: unknown field/],
    ];
    for (const [method, path, body, message] of cases) {
      const res = await h.call(method, path, body);
      expect(res.status, `${method} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
  });

  it("rejects a parent from another organization", async () => {
    const other = await createCollection({ title: "B" }, h.emulator.secondOrganizationId);
    const res = await h.call("POST", collectionsPath(), { title: "A", parent: other });
    expect(res.status).toBe(400);
  });
});

describe("collection move", () => {
  it("moves a collection under another one and back to the top level", async () => {
    const a = await createCollection({ title: "A" });
    const b = await createCollection({ title: "B" });
    const moved = await h.call("POST", `/collections/${b}/move`, { parent: a });
    expect(moved.status).toBe(200);
    expect(moved.body.parent).toBe(a);
    const top = await h.call("POST", `/collections/${b}/move`, { parent: null });
    expect(top.status).toBe(200);
    expect(top.body).not.toHaveProperty("parent");
  });

  it("rejects moving a collection into itself or a descendant", async () => {
    const a = await createCollection({ title: "A" });
    const b = await createCollection({ title: "B", parent: a });
    const c = await createCollection({ title: "C", parent: b });
    const self = await h.call("POST", `/collections/${a}/move`, { parent: a });
    expect(self.status).toBe(400);
    expect(self.body.error.message).toMatch(/^parent: cannot move/);
    const descendant = await h.call("POST", `/collections/${a}/move`, { parent: c });
    expect(descendant.status).toBe(400);
    expect((await h.call("GET", `/collections/${a}`)).body).not.toHaveProperty("parent");
  });

  it("answers 404 for an unknown parent and 400 for an empty body or a bad position", async () => {
    const a = await createCollection({ title: "A" });
    expect((await h.call("POST", `/collections/${a}/move`, { parent: "nope" })).status).toBe(404);
    const empty = await h.call("POST", `/collections/${a}/move`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe("body: must have at least 1 property");
    const bad = await h.call("POST", `/collections/${a}/move`, { position: { before: { type: "page", page: "x" } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^position\.before\.type/);
    const notSibling = await h.call("POST", `/collections/${a}/move`, {
      position: { before: { type: "collection", collection: "zzz" } },
    });
    expect(notSibling.status).toBe(400);
  });

  it("orders items with position pointers", async () => {
    const parent = await createCollection({ title: "P" });
    const x = await createCollection({ title: "X", parent });
    const y = await createCollection({ title: "Y", parent });
    const [s1] = h.emulator.spaceIds;
    const moveSpace = await h.call("POST", `/spaces/${s1}/move`, {
      parent,
      position: { before: { type: "collection", collection: x } },
    });
    expect(moveSpace.status).toBe(200);
    expect(moveSpace.body.parent).toBe(parent);
    const store = h.emulator.store;
    const order = () =>
      [
        ...[...store.collections.values()].filter((c) => c.parentId === parent),
        ...[...store.spaces.values()].filter((s) => s.parentId === parent),
      ]
        .sort((p, q) => p.position - q.position)
        .map((r) => r.id);
    expect(order()).toEqual([s1, x, y]);
    await h.call("POST", `/collections/${x}/move`, { position: { after: { type: "collection", collection: y } } });
    expect(order()).toEqual([s1, y, x]);
    const spaces = await h.call("GET", `/collections/${parent}/spaces`);
    expect(spaces.body.items.map((s: { id: string }) => s.id)).toEqual([s1]);
  });
});

describe("collection transfer", () => {
  it("transfers a collection with its descendants and their spaces", async () => {
    const a = await createCollection({ title: "A" });
    const b = await createCollection({ title: "B", parent: a });
    const c = await createCollection({ title: "C", parent: b });
    const space = h.space(0);
    expect((await h.call("POST", `/spaces/${space}/move`, { parent: b })).status).toBe(200);

    const res = await h.call("POST", `/collections/${a}/transfer`, { organization: h.emulator.secondOrganizationId });
    expect(res.status).toBe(200);
    expect(res.body.organization).toBe(h.emulator.secondOrganizationId);
    for (const id of [b, c]) {
      expect((await h.call("GET", `/collections/${id}`)).body.organization).toBe(h.emulator.secondOrganizationId);
    }
    expect((await h.call("GET", `/spaces/${space}`)).body.organization).toBe(h.emulator.secondOrganizationId);
    expect(await h.listAll(collectionsPath())).toEqual([]);
    expect((await h.listAll(`/orgs/${h.emulator.secondOrganizationId}/collections`)).map((x) => x.id).sort()).toEqual(
      [a, b, c].sort(),
    );
  });

  it("detaches a nested collection from its old parent", async () => {
    const a = await createCollection({ title: "A" });
    const b = await createCollection({ title: "B", parent: a });
    const res = await h.call("POST", `/collections/${b}/transfer`, { organization: h.emulator.secondOrganizationId });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty("parent");
    expect((await h.call("GET", `/collections/${a}`)).body.organization).toBe(h.org());
  });

  it("answers 404 for an unknown organization, 409 for the same organization, 400 without one", async () => {
    const a = await createCollection({ title: "A" });
    const unknown = await h.call("POST", `/collections/${a}/transfer`, { organization: "nope" });
    expect(unknown.status).toBe(404);
    const same = await h.call("POST", `/collections/${a}/transfer`, { organization: h.org() });
    expect(same.status).toBe(409);
    expect(same.body.error.code).toBe(409);
    const missing = await h.call("POST", `/collections/${a}/transfer`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe("organization: is required");
    expect(
      (await h.call("POST", `/collections/zzz/transfer`, { organization: h.emulator.secondOrganizationId })).status,
    ).toBe(404);
  });
});

describe("collection delete cascade", () => {
  it("deletes descendant collections and the spaces they hold", async () => {
    const a = await createCollection({ title: "A" });
    const b = await createCollection({ title: "B", parent: a });
    const c = await createCollection({ title: "C", parent: b });
    const keep = await createCollection({ title: "Keep" });
    const space = h.space(1);
    await h.call("POST", `/spaces/${space}/move`, { parent: c });
    expect((await h.call("DELETE", `/collections/${a}`)).status).toBe(205);
    for (const id of [a, b, c]) expect((await h.call("GET", `/collections/${id}`)).status).toBe(404);
    expect((await h.call("GET", `/collections/${keep}`)).status).toBe(200);
    expect((await h.call("GET", `/spaces/${space}`)).status).toBe(404);
    const spaces = await h.listAll(`/orgs/${h.org()}/spaces`);
    expect(spaces.map((s) => s.id)).not.toContain(space);
  });

  it("deleting a child leaves the parent", async () => {
    const a = await createCollection({ title: "A" });
    const b = await createCollection({ title: "B", parent: a });
    expect((await h.call("DELETE", `/collections/${b}`)).status).toBe(205);
    expect((await h.call("GET", `/collections/${a}`)).status).toBe(200);
  });
});
