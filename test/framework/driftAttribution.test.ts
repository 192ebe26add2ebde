import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ApiAuditEvent, HttpClient } from "../../provider/client";
import { AUDIT_PAGES, DriftAttribution, isOn } from "../../provider/framework/driftAttribution";
import { redirectNotices } from "../../provider/framework/notices";
import { ENV_KEYS, setStackConfig } from "../../provider/framework/settings";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";

/** With preflight on, a refresh that finds drift says who last changed the object, when and from where. */
const fixture = useEmulator();
let stderr: string[] = [];
const lines = () => stderr.join("").split("\n").filter(Boolean);
const auditListings = () => fixture.calls().filter((call) => call.includes("/audit-events"));
const inTheApp = { "x-emulator-actor": "grace@example.com", "x-emulator-source": "ui" };

beforeEach(() => {
  process.env[ENV_KEYS.preflight] = "true";
  stderr = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    stderr.push(String(chunk));
    return true;
  });
});
afterEach(() => {
  delete process.env[ENV_KEYS.preflight];
  setStackConfig({});
  vi.restoreAllMocks();
});

async function declaredSite(title: string) {
  const sites = lifecycle("Site");
  const inputs = (await sites.check({}, { organizationId: fixture.org(), title })).inputs!;
  const made = await sites.create(inputs);
  return { id: made.id, outs: made.outs as Record<string, unknown> };
}

describe("drift attribution at refresh, with preflight on", () => {
  it("names the member, the source, the time and the action of the newest event on a changed object", async () => {
    const site = await declaredSite("Product docs");
    const edit = await fixture.call(
      "PATCH",
      `/orgs/${fixture.org()}/sites/${site.id}`,
      { title: "Edited" },
      {
        headers: inTheApp,
      },
    );
    expect(edit.status).toBe(200);
    fixture.emulator.clearRequests();
    const refreshed = await lifecycle("Site").read(site.id, site.outs);
    expect(refreshed.props?.title).toBe("Edited");
    const told = lines().filter((line) => line.includes(site.id));
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(
      new RegExp(
        `Site ${site.id} differs \\(title\\): last changed by grace@example\\.com from ui at \\S+Z \\(site\\.updated\\)`,
      ),
    );
    expect(auditListings()).toEqual([`GET /v1/orgs/${fixture.org()}/audit-events`]);
  });

  it("lists the trail once for every drifted resource of the operation, and not at all without drift", async () => {
    const a = await declaredSite("Site A");
    const b = await declaredSite("Site B");
    const untouched = await declaredSite("Site C");
    // Hand edits before the refresh: its reads share one listing of the sites, taken once (./listings.ts).
    for (const site of [a, b]) {
      await fixture.call(
        "PATCH",
        `/orgs/${fixture.org()}/sites/${site.id}`,
        { title: "Edited" },
        { headers: inTheApp },
      );
    }
    fixture.emulator.clearRequests();
    await lifecycle("Site").read(untouched.id, untouched.outs);
    expect(auditListings()).toEqual([]);
    for (const site of [a, b]) await lifecycle("Site").read(site.id, site.outs);
    expect(auditListings()).toHaveLength(1);
    expect(lines().filter((line) => line.includes("last changed by grace@example.com"))).toHaveLength(2);
  });

  it("says who removed an object the refresh finds gone", async () => {
    const site = await declaredSite("Gone soon");
    await fixture.call("DELETE", `/orgs/${fixture.org()}/sites/${site.id}`, undefined, { headers: inTheApp });
    const refreshed = await lifecycle("Site").read(site.id, site.outs);
    expect(refreshed.id).toBe("");
    expect(lines().join("\n")).toMatch(
      new RegExp(`Site ${site.id} is gone: last changed by grace@example\\.com from ui`),
    );
  });

  it("says so once and still refreshes when the trail cannot be read", async () => {
    const a = await declaredSite("Site A");
    const b = await declaredSite("Site B");
    for (const site of [a, b]) {
      await fixture.call(
        "PATCH",
        `/orgs/${fixture.org()}/sites/${site.id}`,
        { title: "Edited" },
        { headers: inTheApp },
      );
    }
    fixture.emulator.injectFault({ method: "GET", path: "/audit-events$", count: 5, status: 403 });
    for (const site of [a, b]) expect((await lifecycle("Site").read(site.id, site.outs)).props?.title).toBe("Edited");
    expect(lines().filter((line) => line.includes("Drift is not attributed"))).toHaveLength(1);
    expect(lines().filter((line) => line.includes("last changed by"))).toEqual([]);
  });

  it("tells a change with no event on the object as outside the recorded window", async () => {
    // A space the emulator seeded: made before any audit event, as an object older than the trail's window.
    const space = fixture.space(0);
    const state = { organizationId: fixture.org(), title: "What the state remembered", __declared: ["title"] };
    const refreshed = await lifecycle("Space").read(space, state);
    expect(refreshed.props?.title).not.toBe(state.title);
    expect(lines()).toContain(
      `info: Space ${space} differs (title): changed outside the recorded window (no event on it in its audit trail)`,
    );
  });

  it("says nothing of a grant when no organization is known (its state names none, no default is set)", async () => {
    const space = fixture.space(0);
    const linus = fixture.user(2);
    const grant = await fixture.call("POST", `/spaces/${space}/permissions`, { role: "edit", users: [linus] });
    expect(grant.status).toBeLessThan(300);
    fixture.emulator.clearRequests();
    const stale = { spaceId: space, userId: linus, role: "read", __declared: ["spaceId", "userId", "role"] };
    const refreshed = await lifecycle("SpacePermission").read(`${space}/${linus}`, stale);
    expect(refreshed.props?.role).toBe("edit");
    expect(auditListings()).toEqual([]);
    expect(lines()).toEqual([]);
  });

  it("is silent, and lists nothing, with preflight off", async () => {
    delete process.env[ENV_KEYS.preflight];
    const site = await declaredSite("Quiet");
    await fixture.call("PATCH", `/orgs/${fixture.org()}/sites/${site.id}`, { title: "Edited" }, { headers: inTheApp });
    fixture.emulator.clearRequests();
    await lifecycle("Site").read(site.id, site.outs);
    expect(auditListings()).toEqual([]);
    expect(lines().filter((line) => line.includes("last changed by"))).toEqual([]);
  });
});

describe("DriftAttribution's words and its one listing, on a stand-in client", () => {
  type Told = { severity: string; message: string; about?: string };
  let told: Told[] = [];
  let restore: () => void = () => {};
  beforeEach(() => {
    told = [];
    restore = redirectNotices((severity, message, about) => told.push({ severity, message, about }));
  });
  afterEach(() => restore());

  const event = (target: string, at: string, actor: Partial<ApiAuditEvent["actor"]> = {}): ApiAuditEvent => ({
    id: `e-${target}-${at}`,
    occurredAt: at,
    action: "site.updated",
    actor: { type: "user", id: "u1", label: "grace@example.com", ...actor },
    source: "ui",
    target: { type: "site", id: target },
  });
  /** A client whose every audit page holds `events` and, when `endless`, a cursor to one page more. */
  function client(events: ApiAuditEvent[], endless = false) {
    const requests: unknown[] = [];
    let page = 0;
    const stub = {
      displayPath: (path: string) => path,
      request: async (_method: string, path: string) => {
        requests.push(path);
        page++;
        return { items: events, next: endless ? { page: `p${page}` } : null };
      },
    };
    return { http: stub as unknown as HttpClient, requests };
  }
  const subject = { kind: "Site", id: "s1" };

  it("names every changed field, the newest event on the object only, as an info under the resource", async () => {
    const { http, requests } = client([
      event("other", "2026-01-03T00:00:00Z", { label: "ada@example.com" }),
      event("s1", "2026-01-02T00:00:00Z"),
      event("s1", "2026-01-01T00:00:00Z", { label: "linus@example.com" }),
    ]);
    const attribution = new DriftAttribution();
    await attribution.tell(http, "o", subject, { changed: ["title", "visibility"] });
    await attribution.tell(http, "o", { kind: "Site", id: "s2" }, "gone");
    expect(told).toEqual([
      {
        severity: "info",
        message:
          "Site s1 differs (title, visibility): last changed by grace@example.com from ui at 2026-01-02T00:00:00Z (site.updated)",
        about: undefined,
      },
      {
        severity: "info",
        message: "Site s2 is gone: changed outside the recorded window (no event on it in its audit trail)",
        about: undefined,
      },
    ]);
    expect(requests).toHaveLength(1);
  });

  it("names an actor without a label by its type and id, and a cut trail by the events it read", async () => {
    const { http, requests } = client([event("s1", "2026-01-02T00:00:00Z", { label: undefined, type: "integration" })]);
    await new DriftAttribution().tell(http, "o", subject, { changed: ["title"] });
    const cut = client([event("x", "2026-01-02T00:00:00Z")], true);
    await new DriftAttribution().tell(cut.http, "o", subject, { changed: ["title"] });
    expect(told.map((notice) => notice.message)).toEqual([
      "Site s1 differs (title): last changed by integration u1 from ui at 2026-01-02T00:00:00Z (site.updated)",
      `Site s1 differs (title): changed outside the recorded window (no event on it in the organization's newest ${AUDIT_PAGES} audit events)`,
    ]);
    expect(requests).toHaveLength(1);
    expect(cut.requests).toHaveLength(AUDIT_PAGES);
  });

  it("reads the trail with each resource's own client: another token's trail is not served", async () => {
    const first = client([event("s1", "2026-01-02T00:00:00Z")]);
    const second = client([event("s1", "2026-01-02T00:00:00Z", { label: "ada@example.com" })]);
    const attribution = new DriftAttribution();
    for (const { http } of [first, first, second]) await attribution.tell(http, "o", subject, { changed: ["title"] });
    expect([first.requests.length, second.requests.length]).toEqual([1, 1]);
    expect(told.at(-1)?.message).toContain("last changed by ada@example.com");
  });

  it("tells an unreadable trail once, under the stack, whatever the number of organizations", async () => {
    const refusing = {
      displayPath: (path: string) => path,
      request: async () => {
        throw new Error("403 Forbidden");
      },
    } as unknown as HttpClient;
    const attribution = new DriftAttribution();
    for (const organization of ["o1", "o2"]) await attribution.tell(refusing, organization, subject, "gone");
    expect(told).toEqual([
      {
        severity: "info",
        message: "Drift is not attributed: the audit trail of organization o1 could not be read (403 Forbidden).",
        about: "stack",
      },
    ]);
  });

  it("matches an event on the object's id, or on the last part of a composite id, and nothing for no id", () => {
    const on = (target: string, id: string) => isOn(event(target, "2026-01-01T00:00:00Z"), id);
    expect(on("s1", "s1")).toBe(true);
    expect(on("u1", "org/u1")).toBe(true);
    expect(on("u1", "org/u12")).toBe(false);
    expect(on("u1", "u12")).toBe(false);
    expect(on("1", "org/u1")).toBe(false);
    expect(on("", "")).toBe(false);
    expect(on("s1", "s2")).toBe(false);
  });
});
