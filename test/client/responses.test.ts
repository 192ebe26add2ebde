import type { AddressInfo } from "node:net";
import { createServer as createTcpServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  BadRequestError,
  ConflictError,
  ConnectionError,
  DocsApiError,
  ForbiddenError,
  getCollection,
  getOpenApiSpec,
  getSamlProvider,
  getSite,
  getSiteAdaptiveSchema,
  getTeam,
  HttpClient,
  InsecureApiUrlError,
  listOrganizationMembers,
  listSiteSectionGroups,
  listSiteSections,
  listSiteShareLinks,
  listSiteSpaces,
  listTeamMembers,
  MAX_RESPONSE_BYTES,
  NotFoundError,
  oneLine,
  PreconditionFailedError,
  RateLimitedError,
  ServerError,
  UnauthorizedError,
  UnexpectedResponseError,
} from "../../provider/client";
import { apiError, failureOf, json, type Stub, startStub } from "./stub";

let stub: Stub | undefined;
let http: HttpClient | undefined;
afterEach(async () => {
  await http?.close();
  await stub?.close();
  http = undefined;
  stub = undefined;
});

async function serve(handler: Parameters<typeof startStub>[0], token = "test-token") {
  stub = await startStub(handler);
  http = new HttpClient({
    baseUrl: stub.url,
    token,
    retry: { maxAttempts: 1, maxRateLimitWaits: 0 },
    sleep: async () => {},
  });
  return { stub, http };
}

describe("status → error class and message", () => {
  const table: [number, typeof DocsApiError, string][] = [
    [400, BadRequestError, "400 Bad Request"],
    [401, UnauthorizedError, "401 Unauthorized"],
    [403, ForbiddenError, "403 Forbidden"],
    [404, NotFoundError, "404 Not Found"],
    [409, ConflictError, "409 Conflict"],
    [412, PreconditionFailedError, "412 Precondition Failed"],
    [422, BadRequestError, "422 Unprocessable Entity"],
    [429, RateLimitedError, "429 Too Many Requests"],
    [500, ServerError, "500 Internal Server Error"],
    [502, ServerError, "502 Bad Gateway"],
    [503, ServerError, "503 Service Unavailable"],
    [504, ServerError, "504 Gateway Timeout"],
    [418, DocsApiError, "418"],
  ];
  it.each(table)("%i is a %O named %j, with the API's message", async (status, errorClass, label) => {
    const { http } = await serve((_req, res) => apiError(res, status, `the API says ${status}`));
    const error = await failureOf(http.get("/things/t1"));
    expect(error.constructor).toBe(errorClass);
    expect(error.message).toBe(`GET /v1/things/t1 failed with ${label}: the API says ${status}`);
    expect((error as DocsApiError).status).toBe(status);
    expect((error as DocsApiError).apiMessage).toBe(`the API says ${status}`);
  });

  it("reads a bare `message` too, and says only the status when the body is empty", async () => {
    const { http } = await serve((req, res) => {
      if (req.url.startsWith("/v1/bare")) json(res, 409, { message: "already there" });
      else res.writeHead(409).end();
    });
    expect((await failureOf(http.get("/bare"))).message).toBe("GET /v1/bare failed with 409 Conflict: already there");
    expect((await failureOf(http.get("/empty"))).message).toBe("GET /v1/empty failed with 409 Conflict");
  });
});

describe("DELETE", () => {
  it("throws NotFoundError on a 404, which the framework, not the transport, reads as already gone", async () => {
    const { http, stub } = await serve((_req, res) => apiError(res, 404, "no such thing"));
    await expect(http.delete("/things/t1")).rejects.toBeInstanceOf(NotFoundError);
    expect(stub.requests.map((r) => `${r.method} ${r.url}`)).toEqual(["DELETE /v1/things/t1"]);
  });

  it("throws on a 403: the object may still be there", async () => {
    const { http } = await serve((_req, res) => apiError(res, 403, "not yours"));
    const error = await failureOf(http.delete("/things/t1"));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error.message).toBe("DELETE /v1/things/t1 failed with 403 Forbidden: not yours");
  });
});

describe("hostile 2xx answers", () => {
  type Row = [shape: string, call: (http: HttpClient) => Promise<unknown>, body: unknown, problem: string];
  const list = (item: unknown) => ({ items: [item] });
  const rows: Row[] = [
    ["collection", (h) => getCollection(h, "c1"), { id: "c1", organization: "o" }, 'field "title"'],
    [
      "site",
      (h) => getSite(h, "o", "s1"),
      { id: "s1", type: "basic", title: "T", published: true },
      'field "visibility"',
    ],
    ["team", (h) => getTeam(h, "o", "t1"), { id: 7, title: "T" }, 'field "id"'],
    ["SAML provider", (h) => getSamlProvider(h, "o", "p1"), { id: "p1" }, 'field "label"'],
    ["OpenAPI spec", (h) => getOpenApiSpec(h, "o", "pets"), { id: "x", slug: "pets" }, 'field "processingState"'],
    ["adaptive schema", (h) => getSiteAdaptiveSchema(h, "o", "s1"), { jsonSchema: "{}" }, 'field "jsonSchema"'],
    ["site section", (h) => listSiteSections(h, "o", "s1"), list({ id: "x", title: "T" }), 'field "path"'],
    ["site space", (h) => listSiteSpaces(h, "o", "s1"), list({ id: "x", path: "p" }), 'field "space"'],
    ["share link", (h) => listSiteShareLinks(h, "o", "s1"), list({ name: "n" }), 'field "id"'],
    ["section group", (h) => listSiteSectionGroups(h, "o", "s1"), list({ id: "g" }), 'field "title"'],
    ["organization member", (h) => listOrganizationMembers(h, "o"), list({ role: "admin" }), 'field "user"'],
    ["team member", (h) => listTeamMembers(h, "o", "t1"), list({ team: { role: "member" } }), 'field "organization"'],
    ["list envelope", (h) => listSiteSpaces(h, "o", "s1"), { items: "none" }, 'field "items"'],
    ["list envelope", (h) => listSiteSpaces(h, "o", "s1"), [], "the body"],
  ];
  it.each(rows)(
    "%s: a body without what the provider relies on names the operation and the field",
    async (_shape, call, body, problem) => {
      const { http, stub } = await serve((_req, res) => json(res, 200, body));
      const error = await failureOf(call(http));
      expect(error).toBeInstanceOf(UnexpectedResponseError);
      const request = stub.requests[0];
      expect(request).toBeDefined();
      const path = new URL(request?.url ?? "", "http://x").pathname;
      expect(error.message).toMatch(new RegExp(`^${request?.method} ${path} answered with an unexpected body: `));
      expect(error.message).toContain(`${problem}: `);
    },
  );

  it("invalid JSON names the operation, the status and the content type", async () => {
    const { http } = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"id": "c1", "title": ');
    });
    const error = await failureOf(http.get("/collections/c1"));
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.message).toBe(
      'GET /v1/collections/c1 answered 200 OK with an unexpected body: the body is not JSON (application/json): {"id": "c1", "title":',
    );
  });

  it("an HTML page on a 2xx is reduced to its title, and a status without a reason phrase shows bare", async () => {
    const { http } = await serve((_req, res) => {
      res.writeHead(299, { "content-type": "text/html" });
      res.end("<html><head><title>\n  Sign in - Corporate Proxy </title></head><body>Please sign in</body></html>");
    });
    const error = await failureOf(http.post("/things", { a: 1 }));
    expect(error.message).toBe(
      "POST /v1/things answered 299 with an unexpected body: the body is not JSON (text/html): Sign in - Corporate Proxy",
    );
  });

  it("a body over 10 MB is abandoned with a typed error, declared or streamed", async () => {
    const chunk = Buffer.alloc(1024 * 1024, "a");
    const { http } = await serve((req, res) => {
      if (req.url.startsWith("/v1/declared")) {
        res.writeHead(200, { "content-type": "application/json", "content-length": String(MAX_RESPONSE_BYTES + 1) });
        res.write(chunk);
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      const send = (left: number): void => {
        if (left === 0 || res.destroyed) return void res.end();
        if (res.write(chunk)) send(left - 1);
        else res.once("drain", () => send(left - 1));
      };
      send(11);
    });
    for (const path of ["/declared", "/streamed"]) {
      const error = await failureOf(http.get(path));
      expect(error).toBeInstanceOf(UnexpectedResponseError);
      expect(error.message).toBe(`GET /v1${path} answered 200 OK with an unexpected body: the body exceeds 10 MB`);
    }
  });

  it("a create answered 2xx with a body over 10 MB made its object: its outcome is unknown; a 4xx's is not", async () => {
    const { http } = await serve((req, res) => {
      const status = req.url.startsWith("/v1/refused") ? 400 : 201;
      res.writeHead(status, { "content-type": "application/json", "content-length": String(MAX_RESPONSE_BYTES + 1) });
      res.write("{");
    });
    const outcomes = [];
    for (const request of [http.post("/made", {}), http.post("/refused", {}), http.put("/made", {})]) {
      const error = await failureOf(request);
      expect(error).toBeInstanceOf(UnexpectedResponseError);
      outcomes.push((error as UnexpectedResponseError).outcomeUnknown);
    }
    expect(outcomes).toEqual([true, false, false]);
  });
});

describe("error pages", () => {
  it("an HTML 502 from a gateway becomes one line: its title", async () => {
    const page = `<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>body{color:red}</style></head>
      <body><h1>Bad Gateway</h1><p>${"The upstream server did not answer. ".repeat(20)}</p></body></html>`;
    const { http } = await serve((_req, res) => {
      res.writeHead(502, { "content-type": "text/html" });
      res.end(page);
    });
    const error = await failureOf(http.get("/orgs/o"));
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toBe("GET /v1/orgs/o failed with 502 Bad Gateway: 502 Bad Gateway");
  });

  it("without a title, the first text of the page, at most 200 characters", () => {
    expect(oneLine("<html><style>p{}</style><body>\n<h1>Oops</h1>\n<p>Try   later</p></body></html>")).toBe(
      "Oops Try later",
    );
    const long = oneLine(`<p>${"word ".repeat(100)}</p>`);
    expect(long).toHaveLength(200);
    expect(long.endsWith("…")).toBe(true);
  });
});

describe("connection errors name the host", () => {
  it("ECONNREFUSED with the address and port", async () => {
    const client = new HttpClient({ baseUrl: "http://127.0.0.1:9/v1", token: "t0ken", retry: { maxAttempts: 1 } });
    const error = await failureOf(client.get("/orgs"));
    await client.close();
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toBe("GET /v1/orgs failed: connection error ECONNREFUSED 127.0.0.1:9");
  });

  it("ENOTFOUND with the host name", async () => {
    const client = new HttpClient({
      baseUrl: "https://docs.example.invalid/v1",
      token: "t0ken",
      retry: { maxAttempts: 1 },
    });
    const error = await failureOf(client.get("/orgs"));
    await client.close();
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toMatch(
      /^GET \/v1\/orgs failed: connection error (ENOTFOUND|EAI_AGAIN) docs\.example\.invalid$/,
    );
  });
});

describe("the token travels only over TLS or to this machine", () => {
  it.each([
    ["http://docs.example.com/v1", "is plain http to a host other than this machine"],
    ["http://10.0.0.5:8080/v1", "is plain http to a host other than this machine"],
    ["http://128.0.0.1/v1", "is plain http to a host other than this machine"],
    ["ftp://docs.example.com/v1", "uses ftp: instead of https:"],
    ["docs.example.com/v1", "is not a URL"],
  ])("refuses %s before any request", (url, problem) => {
    expect(() => new HttpClient({ baseUrl: url, token: "t0ken" })).toThrow(InsecureApiUrlError);
    expect(() => new HttpClient({ baseUrl: url, token: "t0ken" })).toThrow(`The API URL "${url}" ${problem}`);
    expect(() => new HttpClient({ baseUrl: url, token: "t0ken" })).toThrow(
      /Use an https:\/\/ URL .* in DOCS_API_URL or the docs:apiUrl stack config\.$/,
    );
  });

  it.each([
    "https://api.gitbook.com/v1",
    "http://127.0.0.1:8080/v1",
    "http://127.1.2.3/v1",
    "http://localhost:3000/v1",
    "http://[::1]:3000/v1",
  ])("accepts %s", async (url) => {
    const client = new HttpClient({ baseUrl: url, token: "t0ken" });
    expect(client.baseUrl.href).toBe(new URL(url).href);
    await client.close();
  });
});

describe("the token never shows, whatever the server echoes", () => {
  const token = "tok_5ecret_value_0123456789";

  it.each([
    [
      "a JSON error body",
      400,
      "application/json",
      JSON.stringify({ error: { code: 400, message: `bad token ${token}` } }),
    ],
    ["a plain-text error body", 500, "text/plain", `upstream said: Authorization: Bearer ${token}`],
    ["an HTML error page", 502, "text/html", `<html><title>Error for ${token}</title></html>`],
    ["a 2xx body that is not JSON", 200, "text/html", `<html><title>Welcome ${token}</title></html>`],
  ])("in %s", async (_what, status, contentType, body) => {
    const { http } = await serve((_req, res) => {
      res.writeHead(status, { "content-type": contentType });
      res.end(body);
    }, token);
    const error = await failureOf(http.get("/orgs/o"));
    expect(error.message).not.toContain(token);
    expect(error.message).toContain("[redacted]");
    expect((error as DocsApiError).apiMessage ?? "").not.toContain(token);
  });

  it("in a connection error", async () => {
    // A server that answers garbage naming the token, then hangs up.
    const server = createTcpServer((socket) => socket.end(`NOT-HTTP ${token}\r\n\r\n`));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const client = new HttpClient({ baseUrl: `http://127.0.0.1:${port}/v1`, token, retry: { maxAttempts: 1 } });
    const error = await failureOf(client.get("/orgs/o"));
    await client.close();
    server.close();
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toMatch(new RegExp(`^GET /v1/orgs/o failed: connection to 127\\.0\\.0\\.1:${port} failed: `));
    expect(error.message).not.toContain(token);
  });
});
