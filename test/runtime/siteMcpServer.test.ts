import { describe, expect, it } from "vitest";
import { Operation } from "../../provider/framework/operation";
import { definitions } from "../../provider/registry";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { created, describeLifecycle, expectEachLimitRejected, type LimitCase, updateTo } from "../support/lifecycle";

const fixture = useEmulator();
const serversPath = (site: unknown) => `/orgs/${fixture.org()}/sites/${site}/mcp-servers`;
const TOKEN = "Bearer mcp-secret-4f1c9e";
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: Error) => error.message,
  );

let adoptSite: string | undefined;
/** The site of the inputs made last: the out-of-band row edits the server it just created. */
let lastSite: string | undefined;

describeLifecycle(
  {
    kind: "SiteMcpServer",
    inputs: async () => {
      lastSite = await fixture.makeSite();
      return {
        organizationId: fixture.org(),
        siteId: lastSite,
        name: "Tickets",
        url: "https://mcp.example.com/tickets",
        headers: { Authorization: TOKEN },
      };
    },
    created: (state) =>
      expect(state).toMatchObject({
        name: "Tickets",
        url: "https://mcp.example.com/tickets",
        transport: "sse",
        headers: { Authorization: TOKEN },
        condition: null,
      }),
    updates: [
      updateTo("name", "Ticket search"),
      updateTo("url", "https://mcp.example.com/v2"),
      updateTo("transport", "http"),
      updateTo("condition", 'visitor.claims.plan == "pro"'),
      {
        name: "headers (sent whole)",
        inputs: (_f, p) => ({ ...p, headers: { "X-Api-Key": "k-123456" } }),
        expect: (state) => {
          expect(state.headers).toEqual({ "X-Api-Key": "k-123456" });
          const sent = fixture.emulator.requests().findLast((r) => r.method === "PATCH");
          expect(sent?.requestBody).toEqual({ headers: { "X-Api-Key": "k-123456" } });
        },
      },
    ],
    replaces: [
      { property: "siteId", inputs: async (_f, p) => ({ ...p, siteId: await fixture.makeSite() }) },
      { property: "organizationId", inputs: (f, p) => ({ ...p, organizationId: f.emulator.secondOrganizationId }) },
    ],
    outOfBand: {
      change: async (id) => {
        const body = { headers: { Authorization: "Bearer changed-by-hand" } };
        expect((await fixture.api("PATCH", `${serversPath(lastSite)}/${id}`, body)).status).toBe(200);
      },
      // The API reads headers back, so a header changed by hand is drift.
      expect: (state) => expect(state.headers).toEqual({ Authorization: "Bearer changed-by-hand" }),
    },
    adopt: {
      existing: async () => {
        adoptSite = await fixture.makeSite();
        return fixture.apiCreate(serversPath(adoptSite), {
          name: "Old",
          url: "https://mcp.example.com/old",
          headers: {},
        });
      },
      inputs: async () => ({
        organizationId: fixture.org(),
        siteId: adoptSite ?? (await fixture.makeSite()),
        name: "Adopted",
        url: "https://mcp.example.com/adopted",
      }),
      expect: (state) => expect(state).toMatchObject({ name: "Adopted", url: "https://mcp.example.com/adopted" }),
    },
  },
  fixture,
);

describe("SiteMcpServer behaviour", () => {
  it("keeps the headers secret in the state and sends none when they are left out", async () => {
    const site = await fixture.makeSite();
    const result = await lifecycle("SiteMcpServer").create({
      organizationId: fixture.org(),
      siteId: site,
      name: "Search",
      url: "https://mcp.example.com/search",
      transport: "sse",
    });
    const post = fixture.emulator.requests().find((r) => r.method === "POST" && r.path.endsWith("/mcp-servers"));
    // The create requires headers: an empty map when the program manages none.
    expect(post?.requestBody).toEqual({
      name: "Search",
      url: "https://mcp.example.com/search",
      transport: "sse",
      headers: {},
    });
    expect(result.outs.headers).toEqual({});
    const { definition } = lifecycle("SiteMcpServer");
    expect(definition.secretOutputs).toEqual(["headers"]);
  });

  it("never shows a header's value in an error, even when the API's answer quotes it", async () => {
    const site = await fixture.makeSite();
    fixture.emulator.injectFault({
      method: "POST",
      path: "/mcp-servers$",
      count: 1,
      status: 400,
      body: { error: { code: 400, message: `headers.Authorization: "${TOKEN}" is not accepted by the server` } },
    });
    const message = await failure(
      lifecycle("SiteMcpServer").create({
        organizationId: fixture.org(),
        siteId: site,
        name: "Tickets",
        url: "https://mcp.example.com/tickets",
        transport: "sse",
        headers: { Authorization: TOKEN },
      }),
    );
    expect(message).toMatch(/^SiteMcpServer create: POST \S+\/mcp-servers failed with 400 Bad Request: /);
    expect(message).toContain('headers.Authorization: "[secret]" is not accepted');
    expect(message).not.toContain("mcp-secret-4f1c9e");
  });

  it("sends a condition on create only when one is declared", async () => {
    const base = { organizationId: fixture.org(), siteId: await fixture.makeSite(), url: "https://mcp.example.com/" };
    await created("SiteMcpServer", { ...base, name: "Pro", condition: 'visitor.claims.plan == "pro"' });
    await created("SiteMcpServer", { ...base, name: "All", condition: null });
    const posts = fixture.emulator.requests().filter((r) => r.method === "POST" && r.path.endsWith("/mcp-servers"));
    expect(posts.map((r) => (r.requestBody as { condition?: unknown }).condition)).toEqual([
      'visitor.claims.plan == "pro"',
      undefined,
    ]);
  });

  it("reads the server back when an update has nothing to send, and names a server that disappeared", async () => {
    const { id, state, inputs } = await created("SiteMcpServer", {
      organizationId: fixture.org(),
      siteId: await fixture.makeSite(),
      name: "Tickets",
      url: "https://mcp.example.com/",
      headers: { Authorization: TOKEN },
    });
    const definition = definitions.find((kind) => kind.kind === "SiteMcpServer")!;
    const operation = new Operation(definitions);
    const update = () => definition.update(operation.context(), id, state, inputs, new Set());
    try {
      fixture.emulator.clearRequests();
      expect(await update()).toMatchObject({ name: "Tickets", headers: { Authorization: TOKEN } });
      expect(fixture.emulator.requests().map((r) => r.method)).toEqual(["GET"]);
      expect((await fixture.api("DELETE", `${serversPath(state.siteId)}/${id}`)).status).toBe(205);
      await expect(update()).rejects.toThrow(
        `SiteMcpServer "${id}" update: the server disappeared while it was being updated`,
      );
    } finally {
      operation.close();
    }
  });

  it("reads every server of a site from one listing in a refresh", async () => {
    const siteId = await fixture.makeSite();
    const servers = [];
    for (const name of ["A", "B", "C"])
      servers.push(
        await created("SiteMcpServer", {
          organizationId: fixture.org(),
          siteId,
          name,
          url: "https://mcp.example.com/",
        }),
      );
    fixture.emulator.clearRequests();
    const reads = await Promise.all(servers.map(({ id, state }) => lifecycle("SiteMcpServer").read(id, state)));
    expect(reads.map((read) => read.props?.name)).toEqual(["A", "B", "C"]);
    expect(fixture.emulator.counters()["GET /v1/orgs/{organizationId}/sites/{siteId}/mcp-servers"]).toBe(1);
  });

  it("fails at preview when two servers of one site share a name", async () => {
    const check = (siteId: string, url: string) =>
      lifecycle("SiteMcpServer").check({}, { organizationId: fixture.org(), siteId, name: "Tickets", url });
    expect((await check("site-a", "https://mcp.example.com/a")).failures).toBeUndefined();
    expect((await check("site-b", "https://mcp.example.com/a")).failures).toBeUndefined();
    const second = await check("site-a", "https://mcp.example.com/b");
    expect(second.failures?.[0]?.reason).toMatch(/another SiteMcpServer of this program already declares/);
    expect(fixture.emulator.requests()).toEqual([]);
  });
});

describe("SiteMcpServer limits", () => {
  const valid = { organizationId: "org", siteId: "site", name: "Tickets", url: "https://mcp.example.com/" };
  const cases: LimitCase[] = [
    [{ name: "" }, "name", /at least 1/],
    [{ name: "x".repeat(101) }, "name", /at most 100/],
    [{ url: "mcp.example.com" }, "url", /URL/i],
    [{ url: "ftp://mcp.example.com" }, "url", /URL/i],
    [{ url: `https://example.com/${"x".repeat(2048)}` }, "url", /at most 2048/],
    [{ transport: "ws" }, "transport", /sse.*http/],
    [{ headers: { "Bad Name": "v" } }, "headers.Bad Name", /HTTP header name/, "hidden"],
    [{ headers: { "X-Key": "" } }, "headers.X-Key", /at least 1/, "hidden"],
    [{ headers: { "X-Key": "x".repeat(513) } }, "headers.X-Key", /at most 512/, "hidden"],
    [{ condition: "" }, "condition", /at least 1/],
  ];
  it("rejects each value out of the API's limits at check, before any request", async () => {
    await expectEachLimitRejected("SiteMcpServer", valid, cases);
    expect(fixture.calls()).toEqual([]);
  });
});
