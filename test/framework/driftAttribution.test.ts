import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ENV_KEYS, setStackConfig } from "../../provider/framework/connection";
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
