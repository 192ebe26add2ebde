import { describe, expect, it } from "vitest";
import { MAX_AUDIT_EVENTS } from "../../emulator/store";
import { useEmulator } from "../support/emulator";

const h = useEmulator({ provider: false });
const events = (query = "") => h.call("GET", `/orgs/${h.org()}/audit-events${query}`);

describe("the audit trail", () => {
  it("records each accepted write with the token's user, source api, the target and the action, newest first", async () => {
    const since = new Date().toISOString();
    const site = await h.makeSite({ title: "Audited" });
    expect((await h.call("PATCH", `/orgs/${h.org()}/sites/${site}`, { title: "Audited 2" })).status).toBe(200);
    const listed = await events(`?from=${encodeURIComponent(since)}&limit=100`);
    expect(listed.status).toBe(200);
    const ada = h.user(0);
    expect(listed.body.items.map((e: { action: string }) => e.action)).toEqual(["site.updated", "site.created"]);
    expect(listed.body.items[0]).toMatchObject({
      object: "audit-event",
      actor: { type: "user", id: ada, label: "ada@example.com" },
      source: "api",
      target: { type: "site", id: site },
    });
    expect(Date.parse(listed.body.items[0].occurredAt)).toBeGreaterThanOrEqual(Date.parse(since));
  });

  it("records nothing for a refused write or a read", async () => {
    const before = (await h.listAll(`/orgs/${h.org()}/audit-events`, 100)).length;
    expect((await h.call("PATCH", `/orgs/${h.org()}/sites/nope`, { title: "x" })).status).toBe(404);
    expect((await h.call("GET", `/orgs/${h.org()}/sites`)).status).toBe(200);
    expect((await h.listAll(`/orgs/${h.org()}/audit-events`, 100)).length).toBe(before);
  });

  it("makes an edit count as another member's in the app through X-Emulator-Actor and X-Emulator-Source", async () => {
    const site = await h.makeSite({ title: "By hand" });
    const headers = { "x-emulator-actor": "grace@example.com", "x-emulator-source": "ui" };
    expect((await h.call("PATCH", `/orgs/${h.org()}/sites/${site}`, { title: "By Grace" }, { headers })).status).toBe(
      200,
    );
    const [event] = (await events(`?target=${site}&action=site.updated`)).body.items;
    expect(event).toMatchObject({ actor: { id: h.user(1), label: "grace@example.com" }, source: "ui" });
    const stranger = { "x-emulator-actor": "margaret@globex.example.com" };
    const refused = await h.call("PATCH", `/orgs/${h.org()}/sites/${site}`, { title: "No" }, { headers: stranger });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain("is not a member of organization");
  });

  it("names a grant <content>/<grantee> and an object addressed without its organization by its own id", async () => {
    const space = h.space(0);
    const user = h.user(2);
    expect((await h.call("POST", `/spaces/${space}/permissions`, { role: "read", users: [user] })).status).toBe(204);
    expect((await h.call("PATCH", `/spaces/${space}/permissions/users/${user}`, { role: "edit" })).status).toBe(204);
    const [grant] = (await events(`?target=${space}/${user}`)).body.items;
    expect(grant).toMatchObject({ action: "space-permission-user.updated", target: { id: `${space}/${user}` } });
    const collection = await h.makeCollection("Audited");
    expect((await h.call("DELETE", `/collections/${collection}`)).status).toBe(205);
    const [removed] = (await events(`?target=${collection}`)).body.items;
    expect(removed).toMatchObject({ action: "collection.deleted", target: { type: "collection" } });
  });

  it("filters by time, actor and action, pages by cursor up to 100 a page, and refuses bad filters", async () => {
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await events(`?from=${encodeURIComponent(future)}`)).body.items).toEqual([]);
    expect((await events(`?to=${encodeURIComponent("2000-01-01T00:00:00Z")}`)).body.items).toEqual([]);
    const site = await h.makeSite({ title: "Filtered" });
    const headers = { "x-emulator-actor": h.user(1) };
    expect((await h.call("PATCH", `/orgs/${h.org()}/sites/${site}`, { title: "Filtered 2" }, { headers })).status).toBe(
      200,
    );
    const byGrace = (await events(`?actor=${h.user(1)}`)).body.items;
    expect(byGrace).toHaveLength(1);
    expect(byGrace.length).toBeGreaterThan(0);
    expect(byGrace.every((e: { actor: { id: string } }) => e.actor.id === h.user(1))).toBe(true);
    const first = await events("?limit=1");
    expect(first.body.items).toHaveLength(1);
    const second = await events(`?limit=1&page=${first.body.next.page}`);
    expect(second.body.items[0].id).not.toBe(first.body.items[0].id);
    expect((await events("?limit=101")).status).toBe(400);
    expect((await events("?from=yesterday")).status).toBe(400);
  });

  it("keeps the newest MAX_AUDIT_EVENTS events, so that a long-running emulator stays bounded", () => {
    const { store } = h.emulator;
    const event = (i: number) => ({
      id: `e${i}`,
      orgId: h.org(),
      occurredAt: new Date(i).toISOString(),
      action: "site.updated",
      actor: { type: "user" as const, id: h.user(0), label: "ada@example.com" },
      source: "api" as const,
      target: { type: "site", id: "s" },
    });
    for (let i = 0; i <= MAX_AUDIT_EVENTS; i++) store.recordAuditEvent(event(i));
    expect(store.auditEvents.size).toBe(MAX_AUDIT_EVENTS);
    expect(store.auditEvents.has("e0")).toBe(false);
    expect(store.auditEvents.has(`e${MAX_AUDIT_EVENTS}`)).toBe(true);
  });
});
