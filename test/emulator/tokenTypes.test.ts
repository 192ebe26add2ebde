import { describe, expect, it } from "vitest";
import { allRoutes } from "../../emulator";
import { type CallOptions, useEmulator } from "../support/emulator";

/**
 * Token types (`typeToken`): the operations the official document admits user tokens only to (routes flagged
 * `security: "user"`) answer a token of another type 401; every other operation accepts it as it accepts the main
 * token. test/contract/tokenTypes.test.ts checks the flags against the document.
 */
const h = useEmulator({ provider: false });

const INTEGRATION = "an-integration-token";
const OAUTH = "an-oauth-token";
const as = (token: string): CallOptions => ({ noAuth: true, headers: { authorization: `Bearer ${token}` } });
const samlPath = () => `/orgs/${h.org()}/saml`;
const USER_TOKEN_REQUIRED = { error: { code: 401, message: "This operation requires a user token" } };

describe("a token of another type than user", () => {
  it("is answered 401 on the SAML provider operations, with the official error body, across resets", async () => {
    h.emulator.typeToken(INTEGRATION, "integration");
    h.emulator.reset();
    const id = (await h.call("POST", samlPath(), { label: "Okta" })).body.id as string;
    const answers = [
      await h.call("GET", samlPath(), undefined, as(INTEGRATION)),
      await h.call("POST", samlPath(), { label: "Other" }, as(INTEGRATION)),
      await h.call("GET", `${samlPath()}/${id}`, undefined, as(INTEGRATION)),
      await h.call("PATCH", `${samlPath()}/${id}`, { label: "Renamed" }, as(INTEGRATION)),
      await h.call("DELETE", `${samlPath()}/${id}`, undefined, as(INTEGRATION)),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(USER_TOKEN_REQUIRED);
      expect(answer.headers.get("www-authenticate")).toBe('Bearer realm="api"');
    }
    // Nothing was written, and the log counts the token as valid: it is the operation that refuses it.
    expect((await h.listAll(samlPath())).map((p) => [p.id, p.label])).toEqual([[id, "Okta"]]);
    expect(h.emulator.requests().every((r) => r.authorized)).toBe(true);
  });

  it("is accepted elsewhere as the main token is: reads and writes of other objects, the SSO login list", async () => {
    h.emulator.typeToken(OAUTH, "oauth");
    expect((await h.call("GET", samlPath(), undefined, as(OAUTH))).status).toBe(401);
    expect((await h.call("GET", `/orgs/${h.org()}/sso`, undefined, as(OAUTH))).status).toBe(200);
    expect((await h.call("GET", `/orgs/${h.org()}/teams`, undefined, as(OAUTH))).status).toBe(200);
    const created = await h.call("POST", `/orgs/${h.org()}/collections`, { title: "Docs" }, as(OAUTH));
    expect(created.status).toBe(201);
  });

  it("answers 401 on exactly the flagged routes of the table, and never on another", async () => {
    h.emulator.typeToken(INTEGRATION, "integration");
    const ids: Record<string, string> = { organizationId: h.org(), spaceId: h.space(0), userId: h.user(1) };
    const refused: string[] = [];
    for (const route of allRoutes) {
      const path = route.path.replace(/^\/v1/, "").replace(/\{(\w+)\}/g, (_m, name: string) => ids[name] ?? "nope");
      const answer = await h.call(route.method, path, undefined, as(INTEGRATION));
      if (answer.status === 401) refused.push(`${route.method} ${route.path}`);
    }
    const flagged = allRoutes.filter((r) => r.security === "user").map((r) => `${r.method} ${r.path}`);
    expect(refused).toEqual(flagged);
    expect(flagged).toEqual([
      "POST /v1/orgs/{organizationId}/members/{userId}/sso",
      "GET /v1/orgs/{organizationId}/agent-instructions",
      "PUT /v1/orgs/{organizationId}/agent-instructions",
      "DELETE /v1/integrations/{integrationName}/installations/{installationId}",
      "GET /v1/orgs/{organizationId}/saml",
      "POST /v1/orgs/{organizationId}/saml",
      "GET /v1/orgs/{organizationId}/saml/{samlProviderId}",
      "PATCH /v1/orgs/{organizationId}/saml/{samlProviderId}",
      "DELETE /v1/orgs/{organizationId}/saml/{samlProviderId}",
      "GET /v1/orgs/{organizationId}/translations",
      "POST /v1/orgs/{organizationId}/translations",
      "GET /v1/orgs/{organizationId}/translations/{translationId}",
      "PUT /v1/orgs/{organizationId}/translations/{translationId}",
      "DELETE /v1/orgs/{organizationId}/translations/{translationId}",
      "POST /v1/orgs/{organizationId}/translations/{translationId}/run",
      "GET /v1/orgs/{organizationId}/translations-glossary",
      "PUT /v1/orgs/{organizationId}/translations-glossary",
      "GET /v1/orgs/{organizationId}/translations-glossary/{glossaryEntryId}",
      "POST /v1/git/installations",
      "GET /v1/git/installations/{installationId}",
      "PATCH /v1/git/installations/{installationId}",
      "DELETE /v1/git/installations/{installationId}",
      "GET /v1/orgs/{organizationId}/sites/{siteId}/spaces/git/installations",
      "GET /v1/git/installations/{installationId}/github/repos",
      "GET /v1/git/installations/{installationId}/gitlab/projects",
      "GET /v1/orgs/{organizationId}/audit-events",
    ]);
  });

  it("combines with an organization scope: 403 outside it, 401 on user-only operations inside it", async () => {
    const { secondOrganizationId } = h.emulator;
    const scoped = "an-integration-token-of-the-second-organization";
    h.emulator.scopeToken(scoped, secondOrganizationId);
    h.emulator.typeToken(scoped, "integration");
    expect((await h.call("GET", `/orgs/${h.org()}/teams`, undefined, as(scoped))).status).toBe(403);
    expect((await h.call("GET", `/orgs/${secondOrganizationId}/teams`, undefined, as(scoped))).status).toBe(200);
    const saml = await h.call("GET", `/orgs/${secondOrganizationId}/saml`, undefined, as(scoped));
    expect(saml.body).toEqual(USER_TOKEN_REQUIRED);
  });
});

describe("a user token", () => {
  it("reaches the SAML provider operations: the main token, and another typed user", async () => {
    h.emulator.typeToken("another-user", "user");
    expect((await h.call("GET", samlPath())).status).toBe(200);
    expect((await h.call("GET", samlPath(), undefined, as("another-user"))).status).toBe(200);
  });

  it("typing the main token itself makes it of that type", async () => {
    const server = await (await import("../support/emulator")).startTestEmulator({ token: "typed-main" });
    try {
      server.typeToken("typed-main", "integration");
      const call = (path: string) =>
        fetch(`${server.url}${path}`, { headers: { authorization: "Bearer typed-main" } }).then((r) => r.status);
      expect(await call(`/orgs/${server.organizationId}/saml`)).toBe(401);
      expect(await call(`/orgs/${server.organizationId}/teams`)).toBe(200);
    } finally {
      await server.close();
    }
  });
});
