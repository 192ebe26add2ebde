import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { callApi, type Json, useEmulator } from "../support/emulator";

const h = useEmulator({ provider: false });

describe("auth", () => {
  it("answers 401 with the official error body when the token is missing", async () => {
    const res = await h.call("GET", "/orgs", undefined, { noAuth: true });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: 401, message: expect.any(String) } });
  });

  it("answers 401 for a wrong token or a non-bearer scheme", async () => {
    const wrong = await h.call("GET", "/orgs", undefined, { noAuth: true, headers: { authorization: "Bearer nope" } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe(401);
    const basic = await h.call("GET", "/orgs", undefined, {
      noAuth: true,
      headers: { authorization: `Basic ${h.emulator.token}` },
    });
    expect(basic.status).toBe(401);
  });

  it("accepts a token scoped to one organization there only, across resets", async () => {
    const { organizationId, secondOrganizationId } = h.emulator;
    h.emulator.scopeToken("only-second", secondOrganizationId);
    h.emulator.reset();
    const as = (path: string) =>
      h.call("GET", path, undefined, { noAuth: true, headers: { authorization: "Bearer only-second" } });
    expect((await as(`/orgs/${secondOrganizationId}/collections`)).status).toBe(200);
    const refused = await as(`/orgs/${organizationId}/collections`);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      error: { code: 403, message: `The token has no access to organization ${organizationId}` },
    });
  });

  it("requires auth on every /v1 route, including unknown ones and writes", async () => {
    const unknown = await h.call("GET", "/nope", undefined, { noAuth: true });
    expect(unknown.status).toBe(401);
    const write = await h.call("POST", `/orgs/${h.org()}/collections`, { title: "x" }, { noAuth: true });
    expect(write.status).toBe(401);
    expect(h.emulator.store.collections.size).toBe(0);
  });

  it("honours a custom token", async () => {
    const { startTestEmulator } = await import("../support/emulator");
    const emu = await startTestEmulator({ token: "s3cret" });
    try {
      expect((await callApi(emu, "GET", "/orgs")).status).toBe(200);
      expect((await callApi({ url: emu.url, token: "test-token" }, "GET", "/orgs")).status).toBe(401);
    } finally {
      await emu.close();
    }
  });
});

describe("routing and errors", () => {
  it("answers 404 with an error body for unknown routes", async () => {
    const res = await h.call("GET", "/does/not/exist");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 404, message: expect.stringContaining("/v1/does/not/exist") } });
    const outside = await h.call("GET", `${h.emulator.origin}/v2/orgs`, undefined, { noAuth: true });
    expect(outside.status).toBe(404);
    expect(outside.body.error.message).toContain("/v1");
  });

  it("answers 404 for a known path with an unsupported method", async () => {
    const res = await h.call("PUT", `/collections/abc`, {});
    expect(res.status).toBe(404);
    expect(res.body.error.message).toContain("allowed methods");
  });

  it("answers 404 for unknown ids", async () => {
    for (const path of [
      "/orgs/unknownOrg",
      "/spaces/unknownSpace",
      "/collections/unknownCollection",
      `/orgs/${h.org()}/members/unknownUser`,
      "/orgs/unknownOrg/collections",
    ]) {
      const res = await h.call("GET", path);
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe(404);
    }
  });

  it("answers 400 for malformed JSON, a non-JSON content type and a non-object body", async () => {
    const path = `/orgs/${h.org()}/collections`;
    const malformed = await h.call("POST", path, undefined, { raw: '{"title": "x"' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.message).toMatch(/malformed JSON/);
    const text = await h.call("POST", path, undefined, { raw: "title=x", headers: { "content-type": "text/plain" } });
    expect(text.status).toBe(400);
    expect(text.body.error.message).toMatch(/Content-Type/);
    const array = await h.call("POST", path, [1, 2]);
    expect(array.status).toBe(400);
    expect(array.body.error.message).toMatch(/^body: must be a JSON object/);
    expect(h.emulator.store.collections.size).toBe(0);
  });

  it("rejects unknown body fields naming the field", async () => {
    const res = await h.call("POST", `/orgs/${h.org()}/collections`, { title: "x", colour: "red" });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^colour: unknown field/);
  });

  it("never crashes on garbage paths and bodies", async () => {
    const org = h.org();
    const paths = [
      `/orgs/${org}/collections`,
      "/collections/%E0%A4%A",
      `/orgs/${org}/sites`,
      `/orgs/${org}/teams`,
      `/orgs/${org}/openapi`,
      `/orgs/${org}/saml`,
      "/collections/x/move",
      "/collections/x/transfer",
      "/orgs/%00/collections",
      "/orgs//sites",
      "/../../etc/passwd",
      `/orgs/${org}/sites/x/sections`,
      `/orgs/${org}/sites/x/site-spaces?limit=abc`,
    ];
    const bodies = [
      "null",
      "[]",
      "1",
      '"str"',
      "{}",
      '{"title":null}',
      '{"title":{"a":1}}',
      '{"title":["x"]}',
      '{"parent":123}',
      '{"__proto__":{"polluted":true}}',
      '{"constructor":{"prototype":{"x":1}}}',
      "{".repeat(50),
      "\u0000\u0001",
      `{"title":"${"x".repeat(5000)}"}`,
    ];
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const methods = ["GET", "POST", "PUT", "PATCH", "DELETE"];
    for (let i = 0; i < 120; i++) {
      const method = methods[rand(methods.length)]!;
      const path = paths[rand(paths.length)]!;
      const raw = method === "GET" || method === "DELETE" ? undefined : bodies[rand(bodies.length)];
      const res = await h.call(method, path, undefined, raw === undefined ? {} : { raw });
      expect(res.status, `${method} ${path} ${raw}`).toBeLessThan(500);
      if (res.status >= 400) expect(res.body.error.code).toBe(res.status);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // still healthy
    expect((await h.call("GET", "/orgs")).status).toBe(200);
  });
});

describe("robustness across every route", () => {
  it("answers every route with a documented status and never a 5xx, whatever the body", async () => {
    const { allRoutes } = await import("../../emulator");
    const site = await h.call("POST", `/orgs/${h.org()}/sites`, {
      title: "Fuzz",
      spaces: [h.space(0)],
    });
    expect(site.status).toBe(201);
    const ids: Record<string, string[]> = {
      organizationId: [h.org(), "nope"],
      siteId: [site.body.id, "nope"],
      spaceId: [h.space(0), "nope"],
      userId: [h.user(0), "nope"],
    };
    const bodies = [undefined, "{}", "[]", '{"title":7,"spaceId":{},"source":[],"slug":"", "add":[1]}', "nul"];
    let calls = 0;
    for (const route of allRoutes) {
      for (const variant of [0, 1]) {
        const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => ids[name]?.[variant] ?? "nope");
        for (const raw of bodies) {
          if (route.method === "GET" && raw !== undefined) continue;
          const res = await h.call(
            route.method,
            path.replace(/^\/v1/, ""),
            undefined,
            raw === undefined ? {} : { raw },
          );
          calls++;
          expect(res.status, `${route.method} ${path} ${raw}`).toBeLessThan(500);
          if (res.status >= 400) expect(res.body.error.code).toBe(res.status);
        }
      }
    }
    expect(calls).toBeGreaterThan(300);
  });
});

describe("organizations, members and spaces", () => {
  it("lists both organizations the token can reach", async () => {
    const res = await h.call("GET", "/orgs");
    expect(res.status).toBe(200);
    expect(res.body.items.map((o: { id: string }) => o.id)).toEqual([h.org(), h.emulator.secondOrganizationId]);
    expect(res.body.count).toBe(2);
    expect(res.body.next).toBeUndefined();
  });

  it("gets an organization", async () => {
    const res = await h.call("GET", `/orgs/${h.org()}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: "organization", id: h.org() });
  });

  it("lists members with emails, filters and single lookup", async () => {
    const org = h.org();
    const all = await h.call("GET", `/orgs/${org}/members`);
    expect(all.status).toBe(200);
    expect(all.body.items).toHaveLength(3);
    const emails = all.body.items.map((m: { user: { email: string } }) => m.user.email).sort();
    expect(emails).toEqual(["ada@example.com", "grace@example.com", "linus@example.com"]);
    const admins = await h.call("GET", `/orgs/${org}/members?role=admin`);
    expect(admins.body.items.map((m: { id: string }) => m.id)).toEqual([h.user(0)]);
    const search = await h.call("GET", `/orgs/${org}/members?search=GRACE`);
    expect(search.body.items).toHaveLength(1);
    const byName = await h.call("GET", `/orgs/${org}/members?sort=name&order=asc`);
    expect(byName.body.items.map((m: { user: { displayName: string } }) => m.user.displayName)).toEqual([
      "Ada Lovelace",
      "Grace Hopper",
      "Linus Torvalds",
    ]);
    const badRole = await h.call("GET", `/orgs/${org}/members?role=owner`);
    expect(badRole.status).toBe(400);
    const one = await h.call("GET", `/orgs/${org}/members/${h.user(1)}`);
    expect(one.body).toMatchObject({ object: "member", id: h.user(1), role: "create" });
  });

  it("lets the second organization share the first user", async () => {
    const res = await h.call("GET", `/orgs/${h.emulator.secondOrganizationId}/members`);
    expect(res.body.items.map((m: { id: string }) => m.id)).toContain(h.user(0));
    expect(res.body.items.map((m: { id: string }) => m.id)).not.toContain(h.user(1));
  });

  it("updates a member role", async () => {
    const path = `/orgs/${h.org()}/members/${h.user(2)}`;
    const res = await h.call("PATCH", path, { role: "edit" });
    expect(res.status).toBe(200);
    expect(res.body.role).toBe("edit");
    expect((await h.call("PATCH", path, { role: "boss" })).status).toBe(400);
    expect((await h.call("GET", path)).body.role).toBe("edit");
  });

  it("gets the fixture spaces", async () => {
    expect(h.emulator.spaceIds.length).toBeGreaterThanOrEqual(3);
    for (const id of h.emulator.spaceIds) {
      const res = await h.call("GET", `/spaces/${id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ object: "space", id, organization: h.org() });
    }
    const list = await h.call("GET", `/orgs/${h.org()}/spaces`);
    expect(list.body.items.map((s: { id: string }) => s.id)).toEqual(h.emulator.spaceIds);
  });

  it("keeps fixture ids stable across resets and emulator instances", async () => {
    const before = { org: h.org(), spaces: [...h.emulator.spaceIds], users: [...h.emulator.userIds] };
    h.emulator.reset();
    expect(h.emulator.store.fixtures.organizationId).toBe(before.org);
    expect((await h.call("GET", `/spaces/${before.spaces[0]}`)).status).toBe(200);
    const { startTestEmulator } = await import("../support/emulator");
    const other = await startTestEmulator();
    try {
      expect(other.organizationId).toBe(before.org);
      expect(other.spaceIds).toEqual(before.spaces);
      expect(other.userIds).toEqual(before.users);
    } finally {
      await other.close();
    }
  });
});

describe("pagination", () => {
  async function createCollections(n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const res = await h.call("POST", `/orgs/${h.org()}/collections`, { title: `C${i}` });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    return ids;
  }

  it("uses a default page size of 20 and walks all items with cursors", async () => {
    const ids = await createCollections(45);
    const path = `/orgs/${h.org()}/collections`;
    const first = await h.call("GET", path);
    expect(first.body.items).toHaveLength(20);
    expect(first.body.count).toBe(45);
    expect(typeof first.body.next.page).toBe("string");
    const all = await h.listAll(path);
    expect(all.map((c) => c.id)).toEqual(ids);
    const small = await h.listAll(path, 7);
    expect(small.map((c) => c.id)).toEqual(ids);
  });

  it("omits next on the last page and honours limit", async () => {
    await createCollections(5);
    const res = await h.call("GET", `/orgs/${h.org()}/collections?limit=5`);
    expect(res.body.items).toHaveLength(5);
    expect(res.body).not.toHaveProperty("next");
    const two = await h.call("GET", `/orgs/${h.org()}/collections?limit=2`);
    expect(two.body.items).toHaveLength(2);
    expect(two.body.next).toBeDefined();
  });

  it("keeps walking correctly when an already-returned item is deleted between pages", async () => {
    const ids = await createCollections(6);
    const path = `/orgs/${h.org()}/collections`;
    const first = await h.call("GET", `${path}?limit=3`);
    expect((await h.call("DELETE", `/collections/${ids[0]}`)).status).toBe(205);
    const second = await h.call("GET", `${path}?limit=3&page=${encodeURIComponent(first.body.next.page)}`);
    expect(second.body.items.map((c: { id: string }) => c.id)).toEqual(ids.slice(3));
  });

  it("rejects a limit above 1000, negative or non-numeric, and a bad cursor", async () => {
    const path = `/orgs/${h.org()}/collections`;
    const over = await h.call("GET", `${path}?limit=1001`);
    expect(over.status).toBe(400);
    expect(over.body.error.message).toBe("limit: must be at most 1000");
    expect((await h.call("GET", `${path}?limit=1000`)).status).toBe(200);
    expect((await h.call("GET", `${path}?limit=-1`)).status).toBe(400);
    expect((await h.call("GET", `${path}?limit=ten`)).status).toBe(400);
    const cursor = await h.call("GET", `${path}?page=not-a-cursor`);
    expect(cursor.status).toBe(400);
    expect(cursor.body.error.message).toMatch(/^page:/);
  });

  it("honours the pageSize option", async () => {
    const { startTestEmulator } = await import("../support/emulator");
    const emu = await startTestEmulator({ pageSize: 2 });
    try {
      const res = await callApi(emu, "GET", `/orgs/${emu.organizationId}/members`);
      expect(res.body.items).toHaveLength(2);
      expect(res.body.next).toBeDefined();
    } finally {
      await emu.close();
    }
  });
});

describe("query parameters", () => {
  const officialDocument: Json = JSON.parse(readFileSync(require.resolve("@gitbook/api/spec/openapi.json"), "utf8"));
  const resolve = (node: Json): Json =>
    node?.$ref
      ? resolve(
          node.$ref
            .split("/")
            .slice(1)
            .reduce((o: Json, key: string) => o[key], officialDocument),
        )
      : node;
  /** Whether the official document lets the parameter repeat: an array (default style form, explode true). */
  function isArrayParameter(template: string, name: string): boolean {
    const item = officialDocument.paths[template];
    const parameters = [...(item.parameters ?? []), ...(item.get.parameters ?? [])].map(resolve);
    const parameter = parameters.find((p: Json) => p.in === "query" && p.name === name);
    expect(parameter, `the official document has no query parameter ${name} on GET ${template}`).toBeDefined();
    expect(parameter.style ?? "form").toBe("form");
    expect(parameter.explode ?? true).toBe(true);
    return resolve(parameter.schema).type === "array";
  }

  type Empty = { status: 400; message: string | RegExp } | { matches: "every item" | "no item" };
  interface Row {
    /** The list's path template as the official document writes it. */
    template: string;
    name: string;
    /** A valid value (repeated below). */
    value: string;
    /** The answer to `name=`. */
    empty: Empty;
  }
  const invalid = (message: string | RegExp): Empty => ({ status: 400, message });
  const ORG = "/orgs/{organizationId}";
  const SITE = `${ORG}/sites/{siteId}`;
  // Every query parameter a route of the emulator reads, on one operation that reads it.
  const rows: Row[] = [
    { template: `${ORG}/collections`, name: "limit", value: "5", empty: invalid("limit: must be a number") },
    { template: `${ORG}/collections`, name: "page", value: "x", empty: invalid(/^page: invalid page cursor/) },
    {
      template: `${ORG}/collections`,
      name: "nested",
      value: "true",
      empty: invalid("nested: must be a boolean (true or false)"),
    },
    {
      template: `${ORG}/members`,
      name: "role",
      value: "admin",
      empty: invalid("role: must be one of admin, create, edit, review, comment, read, guest"),
    },
    { template: `${ORG}/members`, name: "order", value: "asc", empty: invalid("order: must be one of asc, desc") },
    {
      template: `${ORG}/members`,
      name: "sort",
      value: "name",
      empty: invalid("sort: must be one of joinedAt, lastSeenAt, name"),
    },
    { template: `${ORG}/members`, name: "search", value: "ada", empty: { matches: "every item" } },
    { template: `${ORG}/members/{userId}/teams`, name: "title", value: "x", empty: { matches: "every item" } },
    { template: `${ORG}/teams`, name: "title", value: "x", empty: { matches: "every item" } },
    { template: `${ORG}/teams`, name: "owner", value: "x", empty: { matches: "no item" } },
    { template: `${ORG}/sites`, name: "space", value: "x", empty: { matches: "no item" } },
    { template: `${ORG}/sites`, name: "title", value: "x", empty: { matches: "every item" } },
    {
      template: `${ORG}/sites`,
      name: "published",
      value: "false",
      empty: invalid("published: must be a boolean (true or false)"),
    },
    {
      template: `${ORG}/sites`,
      name: "type",
      value: "basic",
      empty: invalid("type: must be one of basic, premium, ultimate, sponsored, legacy-basic, legacy-premium"),
    },
    {
      template: `${SITE}/site-spaces`,
      name: "default",
      value: "true",
      empty: invalid("default: must be a boolean (true or false)"),
    },
    { template: `${SITE}/share-links`, name: "search", value: "x", empty: { matches: "every item" } },
    { template: `${SITE}/redirects`, name: "search", value: "x", empty: { matches: "every item" } },
    {
      template: `${SITE}/redirects`,
      name: "draft",
      value: "false",
      empty: invalid("draft: must be a boolean (true or false)"),
    },
    {
      template: `${SITE}/redirects`,
      name: "orderBy",
      value: "source",
      empty: invalid("orderBy: must be one of createdAt, updatedAt, source"),
    },
    { template: `${SITE}/redirect`, name: "source", value: "/a", empty: invalid(/^source: must be a path/) },
  ];

  /** One item in every list of the table (a site with a share link and a redirect, a team with an owner). */
  async function listsWithItems(): Promise<Record<string, string>> {
    const { organizationId, userIds } = h.emulator;
    const org = `/orgs/${organizationId}`;
    const site = await h.apiCreate(`${org}/sites`, { title: "Docs" });
    await h.apiCreate(`${org}/sites/${site}/share-links`, { name: "partner" });
    await h.apiCreate(`${org}/sites/${site}/redirects`, {
      source: "/old",
      destination: { kind: "external", url: "https://new.example/" },
    });
    await h.apiCreate(`${org}/collections`, { title: "Guides" });
    const team = await h.apiCreate(`${org}/teams`, { title: "Writers", members: [userIds[0]] }, "PUT");
    const owner = await h.call("PUT", `${org}/teams/${team}/members/${userIds[0]}`, { role: "owner" });
    expect(owner.status, owner.text).toBe(204);
    return { organizationId, siteId: site, userId: userIds[0]! };
  }

  it.each(rows)("GET $template: $name repeated, and $name empty", async ({ template, name, value, empty }) => {
    const ids = await listsWithItems();
    const path = template.replace(/\{(\w+)\}/g, (_, key: string) => ids[key]!);
    const query = (...values: string[]) => `${path}?${values.map((v) => `${name}=${encodeURIComponent(v)}`).join("&")}`;

    const repeated = await h.call("GET", query(value, value));
    if (isArrayParameter(template, name)) {
      expect(repeated.status, repeated.text).toBe(200);
    } else {
      expect(repeated.status, repeated.text).toBe(400);
      expect(repeated.body).toEqual({ error: { code: 400, message: `${name}: must not be repeated (got 2 values)` } });
    }

    const answer = await h.call("GET", query(""));
    if ("status" in empty) {
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body.error.message).toMatch(empty.message);
      return;
    }
    expect(answer.status, answer.text).toBe(200);
    const every = (await h.call("GET", path)).body.items;
    expect(every.length).toBeGreaterThan(0);
    expect(answer.body.items).toEqual(empty.matches === "every item" ? every : []);
  });

  it("reads the array type of listSites from repeated parameters, a comma being part of the value", async () => {
    const org = `/orgs/${h.org()}`;
    const basic = await h.apiCreate(`${org}/sites`, { title: "Basic" });
    const premium = await h.apiCreate(`${org}/sites`, { title: "Premium", type: "premium" });
    const both = await h.call("GET", `${org}/sites?type=basic&type=premium`);
    expect(both.body.items.map((s: Json) => s.id)).toEqual([basic, premium]);
    const comma = await h.call("GET", `${org}/sites?type=basic,premium`);
    expect(comma.status).toBe(400);
    expect(comma.body.error.message).toBe(
      "type: must be one of basic, premium, ultimate, sponsored, legacy-basic, legacy-premium",
    );
  });
});
