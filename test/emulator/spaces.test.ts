import { beforeEach, describe, expect, it } from "vitest";
import { useEmulator } from "../support/emulator";

const DAY = 24 * 3600 * 1000;
/** The emulator's clock, advanced by hand: the 7-day restore window is deterministic. */
let now = Date.parse("2026-01-01T00:00:00Z");
const h = useEmulator({ provider: false, clock: () => now });

beforeEach(() => {
  now = Date.parse("2026-01-01T00:00:00Z");
});

async function createSpace(body: Record<string, unknown>): Promise<string> {
  const res = await h.call("POST", `/orgs/${h.org()}/spaces`, body);
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

describe("spaces CRUD", () => {
  it("creates a space in a collection with the official fields, and answers with its Location", async () => {
    const parent = (await h.call("POST", `/orgs/${h.org()}/collections`, { title: "Guides" })).body.id;
    const res = await h.call("POST", `/orgs/${h.org()}/spaces`, {
      title: "Handbook",
      emoji: "1f4d8",
      parent,
      language: "fr",
      editMode: "locked",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: "space",
      title: "Handbook",
      emoji: "1f4d8",
      parent,
      language: "fr",
      editMode: "locked",
      organization: h.org(),
      visibility: "private",
    });
    expect(res.headers.get("location")).toBe(`${h.emulator.url}/spaces/${res.body.id}`);
    const listed = await h.call("GET", `/collections/${parent}/spaces`);
    expect(listed.body.items.map((s: { id: string }) => s.id)).toEqual([res.body.id]);
  });

  it("rejects each limit and a parent of another organization with a 400 naming the field", async () => {
    const other = (await h.call("POST", `/orgs/${h.emulator.secondOrganizationId}/collections`, { title: "B" })).body
      .id;
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ title: "x".repeat(51) }, /^title: must be at most 50 characters/],
      [{ emoji: "x".repeat(51) }, /^emoji: must be at most 50 characters/],
      [{ language: "xx" }, /^language: must be one of/],
      [{ editMode: "open" }, /^editMode: must be one of/],
      [{ parent: other }, /^parent: collection .* not found in organization/],
      [{ template: "x" }, /template/],
    ];
    for (const [body, message] of cases) {
      const res = await h.call("POST", `/orgs/${h.org()}/spaces`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
  });

  it("patches fields; an icon replaces the emoji, an emoji the icon, and null removes both", async () => {
    const id = await createSpace({ title: "S", emoji: "1f4d8" });
    const patched = await h.call("PATCH", `/spaces/${id}`, {
      title: "T",
      defaultLevel: "read",
      language: "de",
      icon: "https://cdn.example/icon.png",
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ title: "T", defaultLevel: "read", language: "de" });
    expect(patched.body.emoji).toBe("");
    expect(patched.body.urls.icon).toBe("https://cdn.example/icon.png");
    const emoji = await h.call("PATCH", `/spaces/${id}`, { emoji: "1f389" });
    expect(emoji.body.emoji).toBe("1f389");
    expect(emoji.body.urls.icon).toBeUndefined();
    const removed = await h.call("PATCH", `/spaces/${id}`, { emoji: null, icon: null });
    expect(removed.body.emoji).toBe("");
    expect((await h.call("PATCH", `/spaces/${id}`, { emoji: "1f389", icon: "https://x.example/i.png" })).status).toBe(
      400,
    );
    // The official body has no minProperties: an empty PATCH changes nothing.
    expect((await h.call("PATCH", `/spaces/${id}`, {})).body.title).toBe("T");
  });

  it("deletes a space (205, then 404 and 204) and restores it within 7 days, not after", async () => {
    const id = await createSpace({ title: "Gone" });
    expect((await h.call("DELETE", `/spaces/${id}`)).status).toBe(205);
    expect((await h.call("GET", `/spaces/${id}`)).status).toBe(404);
    expect((await h.call("DELETE", `/spaces/${id}`)).status).toBe(204);
    now += 7 * DAY - 1000;
    const restored = await h.call("POST", `/spaces/${id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ id, title: "Gone" });
    expect(restored.body.deletedAt).toBeUndefined();
    expect((await h.call("GET", `/spaces/${id}`)).status).toBe(200);

    expect((await h.call("DELETE", `/spaces/${id}`)).status).toBe(205);
    now += 7 * DAY + 1000;
    expect((await h.call("POST", `/spaces/${id}/restore`)).status).toBe(404);
    expect((await h.call("POST", `/spaces/${await createSpace({ title: "Live" })}/restore`)).status).toBe(404);
  });
});
