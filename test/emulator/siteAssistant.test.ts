import { describe, expect, it } from "vitest";
import { type Json, useEmulator } from "../support/emulator";

const h = useEmulator({ provider: false });

const sitePath = (site: string, org = h.org()) => `/orgs/${org}/sites/${site}`;
const serversPath = (site: string) => `${sitePath(site)}/mcp-servers`;

const SECRET = "Bearer sk-live-4f9c1e7a";

async function addServer(site: string, body: Record<string, unknown> = {}): Promise<Json> {
  const res = await h.call("POST", serversPath(site), {
    name: "Status",
    url: "https://mcp.example/sse",
    headers: { Authorization: SECRET },
    ...body,
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** A one-paragraph JSONDocument, valid under the official schema. */
const documentOf = (text: string) => ({
  object: "document",
  data: {},
  nodes: [
    {
      object: "block",
      type: "paragraph",
      data: {},
      nodes: [{ object: "text", leaves: [{ object: "leaf", text, marks: [] }] }],
    },
  ],
});

const settings = (instructions: string) => ({
  scans: { topics: "never" },
  findings: { changeRequests: "always" },
  editing: { customInstructions: documentOf(instructions) },
});

describe("site MCP servers", () => {
  it("creates a server with the default transport and no Location, and gets it back", async () => {
    const site = await h.makeSite();
    const res = await h.call("POST", serversPath(site), {
      name: "Status",
      url: "https://mcp.example/sse",
      headers: { Authorization: SECRET },
      condition: null,
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBeNull();
    const location = `${h.emulator.url}${serversPath(site)}/${res.body.id}`;
    expect(res.body).toEqual({
      object: "site-mcp-server",
      id: expect.any(String),
      name: "Status",
      url: "https://mcp.example/sse",
      transport: "sse",
      headers: { Authorization: SECRET },
      urls: { location },
    });
    const got = await h.call("GET", `${serversPath(site)}/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it("lists a site's servers in creation order, page by page, and no other site's", async () => {
    const site = await h.makeSite();
    const other = await h.makeSite({ title: "Other" });
    const ids = [];
    for (const name of ["a", "b", "c"]) ids.push((await addServer(site, { name })).id);
    await addServer(other);
    const first = await h.call("GET", `${serversPath(site)}?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(3);
    expect(first.body.items.map((s: Json) => s.id)).toEqual(ids.slice(0, 2));
    expect(first.body.next.page).toEqual(expect.any(String));
    expect((await h.listAll(serversPath(site), 2)).map((s) => s.id)).toEqual(ids);
    expect((await h.call("GET", `${serversPath(site)}?limit=1001`)).status).toBe(400);
  });

  it("updates only the fields given: headers are replaced whole, a null condition removes it", async () => {
    const site = await h.makeSite();
    const server = await addServer(site, {
      transport: "http",
      condition: "visitor.claims.beta",
      headers: { Authorization: SECRET, "X-Team": "docs" },
    });
    const path = `${serversPath(site)}/${server.id}`;
    const renamed = await h.call("PATCH", path, { name: "Renamed" });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...server, name: "Renamed" });

    const headers = await h.call("PATCH", path, { headers: { "X-Api-Key": "k2" } });
    expect(headers.body.headers).toEqual({ "X-Api-Key": "k2" });
    expect(headers.body.condition).toBe("visitor.claims.beta");

    const cleared = await h.call("PATCH", path, { condition: null, url: "https://mcp.example/v2" });
    expect(cleared.status).toBe(200);
    const { condition: _removed, ...unconditional } = server;
    expect(cleared.body).toEqual({
      ...unconditional,
      name: "Renamed",
      url: "https://mcp.example/v2",
      headers: { "X-Api-Key": "k2" },
    });
    expect("condition" in cleared.body).toBe(false);
    expect((await h.call("PATCH", path, {})).body).toEqual(cleared.body);
    expect((await h.call("GET", path)).body).toEqual(cleared.body);
  });

  it("deletes a server: 205, then 204, and it is gone", async () => {
    const site = await h.makeSite();
    const server = await addServer(site);
    const path = `${serversPath(site)}/${server.id}`;
    expect((await h.call("DELETE", path)).status).toBe(205);
    expect((await h.call("DELETE", path)).status).toBe(204);
    expect((await h.call("GET", path)).status).toBe(404);
    expect((await h.call("GET", serversPath(site))).body.items).toEqual([]);
  });

  it("answers 400 naming the field for a missing name, url or headers, and a bad transport", async () => {
    const site = await h.makeSite();
    const valid = { name: "Status", url: "https://mcp.example/sse", headers: {} };
    const cases: [Record<string, unknown>, string][] = [
      [{ url: valid.url, headers: {} }, "name: is required"],
      [{ name: "Status", headers: {} }, "url: is required"],
      [{ name: "Status", url: valid.url }, "headers: is required"],
      [{ ...valid, name: "" }, "name: must not be empty"],
      [{ ...valid, name: "n".repeat(101) }, "name: must be at most 100 characters"],
      [{ ...valid, url: "mcp.example" }, "url: must be a valid absolute URI"],
      [{ ...valid, transport: "websocket" }, "transport: must be one of sse, http"],
      [{ ...valid, headers: ["Authorization"] }, "headers: must be an object (got array)"],
    ];
    for (const [body, message] of cases) {
      const res = await h.call("POST", serversPath(site), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    const server = await addServer(site);
    const bad = await h.call("PATCH", `${serversPath(site)}/${server.id}`, { transport: "ws" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe("transport: must be one of sse, http");
    expect((await h.call("GET", serversPath(site))).body.count).toBe(1);
  });

  it("names a header whose value breaks the rules without repeating the value", async () => {
    const site = await h.makeSite();
    const long = `Bearer ${"s3cr3t".repeat(90)}`;
    const created = await h.call("POST", serversPath(site), {
      name: "Status",
      url: "https://mcp.example/sse",
      headers: { "X-Team": "docs", Authorization: long },
    });
    expect(created.status).toBe(400);
    expect(created.body.error.message).toBe("headers.Authorization: must be at most 512 characters");
    expect(created.text).not.toContain("s3cr3t");

    const server = await addServer(site);
    const patched = await h.call("PATCH", `${serversPath(site)}/${server.id}`, { headers: { Authorization: long } });
    expect(patched.status).toBe(400);
    expect(patched.text).not.toContain("s3cr3t");
    const empty = await h.call("PATCH", `${serversPath(site)}/${server.id}`, { headers: { Authorization: "" } });
    expect(empty.body.error.message).toBe("headers.Authorization: must not be empty");
    expect((await h.call("GET", `${serversPath(site)}/${server.id}`)).body.headers).toEqual({ Authorization: SECRET });
  });

  it("answers 404 for an unknown server, a server of another site, and a site of another organization", async () => {
    const site = await h.makeSite();
    const other = await h.makeSite({ title: "Other" });
    const server = await addServer(other);
    expect((await h.call("GET", `${serversPath(site)}/nope`)).status).toBe(404);
    expect((await h.call("GET", `${serversPath(site)}/${server.id}`)).status).toBe(404);
    expect((await h.call("PATCH", `${serversPath(site)}/${server.id}`, { name: "x" })).status).toBe(404);
    expect((await h.call("DELETE", `${serversPath(site)}/${server.id}`)).status).toBe(204);
    expect((await h.call("GET", `${serversPath(other)}/${server.id}`)).status).toBe(200);
    expect((await h.call("GET", `/orgs/${h.org()}/sites/nope/mcp-servers`)).status).toBe(404);
    const foreign = `${sitePath(site, h.emulator.secondOrganizationId)}/mcp-servers`;
    const res = await h.call("POST", foreign, { name: "x", url: "https://a.example", headers: {} });
    expect(res.status).toBe(404);
  });

  it("answers 403 to a token scoped to another organization", async () => {
    const site = await h.makeSite();
    h.emulator.scopeToken("other-org-only", h.emulator.secondOrganizationId);
    const res = await h.call("GET", serversPath(site), undefined, {
      noAuth: true,
      headers: { authorization: "Bearer other-org-only" },
    });
    expect(res.status).toBe(403);
  });
});

describe("site agent settings", () => {
  it("a new site has the emulator's defaults", async () => {
    const site = await h.makeSite();
    const res = await h.call("GET", `${sitePath(site)}/agent-settings`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: "site-agent-settings",
      scans: { topics: "auto" },
      findings: { changeRequests: "auto-fixable" },
      editing: { customInstructions: documentOf("") },
      urls: { location: `/v1${sitePath(site)}/agent-settings` },
    });
  });

  it("a PUT replaces them and a GET reads the same back, with the time of the change", async () => {
    const site = await h.makeSite();
    const put = await h.call("PUT", `${sitePath(site)}/agent-settings`, settings("Write in British English."));
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      object: "site-agent-settings",
      ...settings("Write in British English."),
      updatedAt: expect.any(String),
      urls: { location: `/v1${sitePath(site)}/agent-settings` },
    });
    expect((await h.call("GET", `${sitePath(site)}/agent-settings`)).body).toEqual(put.body);
    const other = await h.makeSite({ title: "Other" });
    expect((await h.call("GET", `${sitePath(other)}/agent-settings`)).body.scans).toEqual({ topics: "auto" });
  });

  it("answers 400 naming the field when a required part is missing or malformed", async () => {
    const site = await h.makeSite();
    const path = `${sitePath(site)}/agent-settings`;
    const { editing: _editing, ...withoutEditing } = settings("x");
    const doc = documentOf("x");
    const cases: [unknown, string][] = [
      [withoutEditing, "editing: is required"],
      [{ ...settings("x"), scans: {} }, "scans.topics: is required"],
      [
        { ...settings("x"), findings: { changeRequests: "sometimes" } },
        "findings.changeRequests: must be one of always, auto-fixable, never",
      ],
      [
        { ...settings("x"), editing: { customInstructions: "Be brief." } },
        "editing.customInstructions: must be a JSON object (got string)",
      ],
      [
        { ...settings("x"), editing: { customInstructions: { ...doc, object: "block" } } },
        'editing.customInstructions.object: must be "document"',
      ],
      [
        { ...settings("x"), editing: { customInstructions: { ...doc, nodes: "text" } } },
        "editing.customInstructions.nodes: must be an array (got string)",
      ],
      [
        { ...settings("x"), editing: { customInstructions: { object: "document", nodes: [] } } },
        "editing.customInstructions.data: is required",
      ],
    ];
    for (const [body, message] of cases) {
      const res = await h.call("PUT", path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    expect((await h.call("GET", path)).body.updatedAt).toBeUndefined();
    expect((await h.call("GET", `/orgs/${h.org()}/sites/nope/agent-settings`)).status).toBe(404);
  });
});

describe("deleting a site", () => {
  it("removes its MCP servers and its agent settings", async () => {
    const site = await h.makeSite();
    const server = await addServer(site);
    expect((await h.call("PUT", `${sitePath(site)}/agent-settings`, settings("x"))).status).toBe(200);
    const keep = await h.makeSite({ title: "Kept" });
    const kept = await addServer(keep);
    expect((await h.call("DELETE", sitePath(site))).status).toBe(205);
    expect(h.emulator.store.mcpServers.has(server.id)).toBe(false);
    expect(h.emulator.store.siteAgentSettings.has(site)).toBe(false);
    expect(h.emulator.store.mcpServers.has(kept.id)).toBe(true);
    expect((await h.call("GET", `${serversPath(site)}/${server.id}`)).status).toBe(404);
    expect((await h.call("GET", `${sitePath(site)}/agent-settings`)).status).toBe(404);
  });
});
