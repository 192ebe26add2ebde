import { describe, expect, it } from "vitest";
import { ForbiddenError, HttpClient, listAuditEvents, UserTokenRequiredError } from "../../provider/client";
import { useEmulator } from "../support/emulator";
import { failureOf } from "./stub";

/** `listOrganizationAuditEvents` through the client: one filtered listing, paginated by 100, bounded in pages. */
const fixture = useEmulator({ provider: false });
const client = (token = fixture.emulator.token) =>
  new HttpClient({ baseUrl: fixture.emulator.url, token, sleep: async () => {} });
const auditRoute = "GET /v1/orgs/{organizationId}/audit-events";

async function editSiteTimes(count: number): Promise<string> {
  const site = await fixture.makeSite({ title: "Audited" });
  for (let i = 0; i < count; i++) {
    await fixture.call("PATCH", `/orgs/${fixture.org()}/sites/${site}`, { title: `Audited ${i}` });
  }
  return site;
}

describe("listAuditEvents", () => {
  it("lists a target's events newest first over pages of 100, one request a page", async () => {
    const site = await editSiteTimes(120);
    fixture.emulator.clearRequests();
    const listing = await listAuditEvents(client(), fixture.org(), { target: site }, 5);
    expect(listing).toMatchObject({ pages: 2, truncated: false });
    expect(listing.events).toHaveLength(121);
    expect(listing.events[0]?.action).toBe("site.updated");
    expect(listing.events.at(-1)?.action).toBe("site.created");
    expect(fixture.emulator.counters()[auditRoute]).toBe(2);
    expect(fixture.emulator.requests().every((r) => r.query.limit === "100" && r.query.target === site)).toBe(true);
  });

  it("stops at maxPages and says the window's oldest events are missing", async () => {
    await editSiteTimes(150);
    fixture.emulator.clearRequests();
    const listing = await listAuditEvents(client(), fixture.org(), {}, 1);
    expect(listing).toMatchObject({ pages: 1, truncated: true });
    expect(listing.events).toHaveLength(100);
    expect(fixture.emulator.counters()[auditRoute]).toBe(1);
  });

  it("never loops on a cursor that does not advance", async () => {
    await editSiteTimes(150);
    const stuck = { items: [], next: { page: "same" } };
    fixture.emulator.injectFault({ method: "GET", path: "/audit-events$", count: 10, status: 200, body: stuck });
    const listing = await listAuditEvents(client(), fixture.org(), {}, 50);
    expect(listing).toMatchObject({ pages: 2, truncated: false });
  });

  it("fails with the API's 403 and 401 for user tokens only, for the caller to report", async () => {
    fixture.emulator.injectFault({ method: "GET", path: "/audit-events$", count: 1, status: 403 });
    expect(await failureOf(listAuditEvents(client(), fixture.org(), {}, 5))).toBeInstanceOf(ForbiddenError);
    fixture.emulator.typeToken("integration-token", "integration");
    const refused = await failureOf(listAuditEvents(client("integration-token"), fixture.org(), {}, 5));
    expect(refused).toBeInstanceOf(UserTokenRequiredError);
  });
});
