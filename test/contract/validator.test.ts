/**
 * The traffic contract's validator itself: operation matching, closed objects, the deviations, the error rule and
 * which violations count. Bodies are real emulator answers, mutated.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { contractValidator, countedViolations } from "../support/contract";
import { startTestEmulator } from "../support/emulator";
import { deviations, type StrictnessDeviation } from "./deviations";
import { ContractValidator, type ExchangeLike, formatViolation } from "./validator";

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies under test
type Json = any;

const validator = contractValidator();
let emu: RunningEmulator;
let site: Json;
let siteGroup: Json;

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${emu.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${emu.token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

function check(x: Partial<ExchangeLike> & Pick<ExchangeLike, "method" | "path" | "status">): string[] {
  const verdict = validator.validate(x);
  return [...verdict.request, ...verdict.response].map(formatViolation);
}

const sitePath = () => `/v1/orgs/${emu.organizationId}/sites/${site.id}`;

beforeAll(async () => {
  emu = await startTestEmulator();
  site = (await api("POST", `/orgs/${emu.organizationId}/sites`, { title: "Docs" })).body;
  const section = (
    await api("POST", `/orgs/${emu.organizationId}/sites/${site.id}/sections`, { spaceId: emu.spaceIds[0] })
  ).body;
  siteGroup = (
    await api("POST", `/orgs/${emu.organizationId}/sites/${site.id}/section-groups`, {
      title: "Group",
      sections: [section.id],
    })
  ).body;
});
afterAll(async () => {
  await emu?.close();
});

describe("the official document", () => {
  it("is OpenAPI 3.1 and knows every in-scope operation, plus the API reference's own ones of deviations.ts", () => {
    expect(new ContractValidator().documentVersion).toContain("0.0.1-beta");
    const ops: [string, string, string][] = [
      ["GET", "/v1/orgs/o/sites", "listSites"],
      ["PATCH", "/v1/orgs/o/sites/s", "updateSiteById"],
      ["POST", "/v1/orgs/o/sites/s/publish", "publishSite"],
      ["PUT", "/v1/orgs/o/teams", "createOrganizationTeam"],
      ["DELETE", "/v1/orgs/o/teams/t/members/u", "deleteMemberFromOrganizationTeamById"],
      ["PUT", "/v1/orgs/o/openapi/my-spec", "createOrUpdateOpenAPISpecBySlug"],
      ["GET", "/v1/orgs/o/openapi/my-spec/versions/latest", "getLatestOpenAPISpecVersion"],
      ["POST", "/v1/orgs/o/sites/s/section-groups/g/sections", "reference:addSectionToSiteSectionGroup"],
      ["DELETE", "/v1/orgs/o/sites/s/section-groups/g/sections/x", "reference:removeSectionFromSiteSectionGroup"],
    ];
    for (const [method, path, operationId] of ops) {
      const found = validator.match(method, path);
      expect("operation" in found && found.operation.operationId, `${method} ${path}`).toBe(operationId);
    }
  });

  it("is, with the deviations applied, a valid JSON Schema 2020-12 bundle (checked here once, not per file)", () => {
    expect(validator.metaSchemaErrors()).toEqual([]);
    const broken = new ContractValidator({
      document: {
        openapi: "3.1.0",
        info: { title: "Broken", version: "1" },
        components: { schemas: { Error: { type: "object" }, Broken: { type: 5 } } },
        paths: {},
      },
      deviations: [],
    });
    expect(broken.metaSchemaErrors().join("\n")).toMatch(/Broken\/type/);
  });

  it("accepts real emulator answers", () => {
    expect(check({ method: "GET", path: sitePath(), status: 200, responseBody: site })).toEqual([]);
  });
});

describe("closed objects", () => {
  it("reports a property the document does not describe, at any depth, with its pointer", () => {
    const body = { ...site, surprise: 1, urls: { ...site.urls, extra: "x" } };
    expect(check({ method: "GET", path: sitePath(), status: 200, responseBody: body })).toEqual([
      "getSiteById response 200 body /surprise: is not a property the document describes here",
      "getSiteById response 200 body /urls/extra: is not a property the document describes here",
    ]);
  });

  it("closes objects inside arrays and referenced components too", async () => {
    const sections = (await api("GET", `/orgs/${emu.organizationId}/sites/${site.id}/sections`)).body;
    expect(check({ method: "GET", path: `${sitePath()}/sections`, status: 200, responseBody: sections })).toEqual([]);
    sections.items[0].siteSpaces[0].space.emojiSet = "x";
    expect(check({ method: "GET", path: `${sitePath()}/sections`, status: 200, responseBody: sections })).toEqual([
      "listSiteSections response 200 body /items/0/siteSpaces/0/space/emojiSet: is not a property the document describes here",
    ]);
  });

  it("checks documented response headers when present", () => {
    const path = `${sitePath()}/sections/x`;
    const x = { method: "PATCH", path, requestBody: { title: "Guides" }, status: 204 };
    expect(check({ ...x, responseHeaders: { "Preference-Applied": "return=minimal" } })).toEqual([]);
    expect(check({ ...x, responseHeaders: { "Preference-Applied": "minimal" } })).toEqual([
      'updateSiteSectionById response 204 header /preference-applied: must be equal to one of the allowed values ["return=minimal"], got "minimal"',
    ]);
  });

  it("sees the members of an allOf (List envelope + items) as documented", () => {
    const list = { items: [site], next: { page: "abc" }, count: 1 };
    expect(
      check({ method: "GET", path: `/v1/orgs/${emu.organizationId}/sites`, status: 200, responseBody: list }),
    ).toEqual([]);
    expect(
      check({
        method: "GET",
        path: `/v1/orgs/${emu.organizationId}/sites`,
        status: 200,
        responseBody: { ...list, total: 1 },
      }),
    ).toEqual(["listSites response 200 body /total: is not a property the document describes here"]);
  });

  it("reports the closest branch of a oneOf, not every branch", () => {
    const group = { ...siteGroup, children: [{ ...siteGroup.children[0], title: "x" }] };
    const path = `${sitePath()}/section-groups/${siteGroup.id}`;
    expect(check({ method: "PATCH", path, status: 200, requestBody: {}, responseBody: group })).toEqual([
      `updateSiteSectionGroupById response 200 body /children/0/title: must NOT have fewer than 2 characters, got "x"`,
    ]);
  });

  it("reports a missing required property and a wrong enum value", () => {
    const { createdAt: _, ...rest } = site;
    expect(
      check({ method: "GET", path: sitePath(), status: 200, responseBody: { ...rest, visibility: "secret" } }),
    ).toEqual([
      "getSiteById response 200 body /createdAt: is required but missing",
      'getSiteById response 200 body /visibility: must be equal to one of the allowed values ["public","unlisted","share-link","visitor-auth"], got "secret"',
    ]);
  });
});

describe("requests", () => {
  it("validates path and query parameters, coercing query strings", () => {
    const list = { items: [] };
    expect(
      check({
        method: "GET",
        path: "/v1/orgs/o/sites",
        query: { limit: "10", type: "basic" },
        status: 200,
        responseBody: list,
      }),
    ).toEqual([]);
    expect(
      check({
        method: "GET",
        path: "/v1/orgs/o/sites",
        query: { limit: "2000", published: "maybe", type: "gold" },
        status: 400,
        responseBody: { error: { code: 400, message: "bad" } },
      }),
    ).toEqual([
      "listSites request query /limit: must be <= 1000, got 2000",
      'listSites request query /published: must be boolean ("maybe")',
      'listSites request query /type/0: must be equal to one of the allowed values ["basic","premium","ultimate","sponsored","legacy-basic","legacy-premium"], got "gold"',
    ]);
    expect(check({ method: "GET", path: "/v1/orgs/bad%20id/sites", status: 404, responseBody: err(404) })).toEqual([
      'listSites request path /organizationId: must match pattern "^[a-zA-Z0-9_-]+$" ("bad id")',
    ]);
  });

  it("reports undocumented query parameters and unexpected bodies for the provider only", () => {
    const verdict = validator.validate({
      method: "DELETE",
      path: `${sitePath()}`,
      query: { force: "true" },
      requestBody: { really: true },
      status: 205,
    });
    expect(verdict.request.map((v) => [v.pointer, v.providerOnly])).toEqual([
      ["/force", true],
      ["", true],
    ]);
    const provider = { "user-agent": "pulumi-docs-platform" };
    expect(countedViolations(verdict, { status: 205, requestHeaders: {} }).counted).toEqual([]);
    expect(countedViolations(verdict, { status: 205, requestHeaders: provider }).counted).toHaveLength(2);
  });

  it("reports an empty query value for the provider only, and a repeated scalar for everyone", () => {
    const path = `/v1/orgs/${emu.organizationId}/sites`;
    const list = { items: [] };
    const empty = validator.validate({ method: "GET", path, query: { title: "", type: [""] }, status: 400 });
    expect(empty.request.map((v) => [formatViolation(v), v.providerOnly])).toEqual([
      ["listSites request query /title: is empty: the provider sends a parameter with a value or not at all", true],
      ["listSites request query /type: is empty: the provider sends a parameter with a value or not at all", true],
      [
        'listSites request query /type/0: must be equal to one of the allowed values ["basic","premium","ultimate","sponsored","legacy-basic","legacy-premium"], got ""',
        undefined,
      ],
    ]);
    const provider = { "user-agent": "pulumi-docs-platform" };
    const title = validator.validate({ method: "GET", path, query: { title: "" }, status: 200, responseBody: list });
    expect(countedViolations(title, { status: 200, requestHeaders: {} }).counted).toEqual([]);
    expect(countedViolations(title, { status: 200, requestHeaders: provider }).counted).toHaveLength(1);
    const repeated = validator.validate({
      method: "GET",
      path,
      query: { limit: ["5", "5"], type: ["basic", "premium"] },
      status: 400,
    });
    expect(repeated.request.map(formatViolation)).toEqual([
      'listSites request query /limit: must be number (["5","5"])',
    ]);
  });

  it("counts an invalid request only when the emulator accepted it or the provider sent it", () => {
    const x = {
      method: "POST",
      path: `/v1/orgs/${emu.organizationId}/collections`,
      requestBody: { title: "x".repeat(51) },
    };
    const rejected = validator.validate({ ...x, status: 400, responseBody: err(400) });
    expect(rejected.request.map(formatViolation)).toEqual([
      `createCollection request body /title: must NOT have more than 50 characters, got "${"x".repeat(51)}"`,
    ]);
    expect(countedViolations(rejected, { status: 400, requestHeaders: {} })).toMatchObject({
      counted: [],
      rejectedInvalidRequest: true,
    });
    const provider = { "user-agent": "pulumi-docs-platform/0.1.0" };
    expect(countedViolations(rejected, { status: 400, requestHeaders: provider }).counted).toHaveLength(1);
    expect(
      countedViolations(rejected, { status: 400, requestHeaders: provider }, { deliberate: true }).counted,
    ).toEqual([]);
    const accepted = validator.validate({ ...x, status: 201, responseBody: undefined });
    const counted = countedViolations(accepted, { status: 201, requestHeaders: {} }).counted.map(formatViolation);
    expect(counted).toContain(
      `createCollection request body /title: must NOT have more than 50 characters, got "${"x".repeat(51)}"`,
    );
    expect(counted).toContain("createCollection response 201 body (root): a JSON body is documented, got none");
  });

  it("requires the body an operation requires", () => {
    expect(check({ method: "PATCH", path: sitePath(), status: 400, responseBody: err(400) })).toEqual([
      "updateSiteById request body (root): a request body is required",
    ]);
  });
});

describe("statuses and errors", () => {
  it("reports an undocumented success status", () => {
    expect(check({ method: "GET", path: sitePath(), status: 201, responseBody: site })).toEqual([
      "getSiteById response 201 status (root): status 201 is not documented (documented: 200, 404)",
    ]);
  });

  it("validates undocumented error statuses against the document's error responses (deviations.ts rule)", () => {
    const path = `/v1/collections/abc`;
    expect(check({ method: "GET", path, status: 401, responseBody: err(401) })).toEqual([]);
    expect(check({ method: "GET", path, status: 429, responseBody: err(429) })).toEqual([]);
    expect(check({ method: "GET", path, status: 404, responseBody: err(400) })).toEqual([
      "getCollectionById response 404 body /error/code: must be equal to one of the allowed values [404], got 400",
    ]);
    expect(check({ method: "GET", path, status: 500, responseBody: "<html>" })).toEqual([
      'getCollectionById response 500 body (root): must be object ("<html>")',
    ]);
  });

  it("reports an unknown route, and still validates the error answered to it", () => {
    expect(check({ method: "PUT", path: "/v1/collections/abc", status: 404, responseBody: err(404) })).toEqual([
      "unmatched request route (root): the document has no PUT /v1/collections/abc (documented methods there: DELETE, GET, PATCH)",
    ]);
    expect(check({ method: "GET", path: "/v2/orgs", status: 404, responseBody: { message: "no" } })).toEqual([
      "unmatched request route (root): the document has no operation for GET /v2/orgs",
      "unmatched response 404 body /error: is required but missing",
      "unmatched response 404 body /message: is not a property the document describes here",
    ]);
  });

  it("wants no body where the document describes none", () => {
    expect(check({ method: "DELETE", path: sitePath(), status: 205, responseBody: { ok: true } })).toEqual([
      "deleteSiteById response 205 body (root): the document describes no body for this status, got one",
    ]);
  });
});

describe("deviations", () => {
  it("are few, each with a reason", () => {
    expect(deviations.filter((d) => d.kind !== "strictness").length).toBeLessThanOrEqual(6);
    expect(deviations.filter((d) => d.kind === "strictness").length).toBeLessThanOrEqual(6);
    for (const d of deviations) expect(d.reason.length, d.id).toBeGreaterThan(40);
  });

  const strictness = deviations.filter((d): d is StrictnessDeviation => d.kind === "strictness");
  it.each(strictness)("$id: the document accepts the probe, the emulator answers 400", async ({ probe, message }) => {
    const siteSpaces = (await api("GET", `/orgs/${emu.organizationId}/sites/${site.id}/site-spaces`)).body.items;
    const installation = await api("POST", "/integrations/analytics-pulse/installations", {
      organization: emu.organizationId,
    });
    const ids: Record<string, string> = {
      organizationId: emu.organizationId,
      siteId: site.id,
      siteSpaceId: siteSpaces[0].id,
      installationId: installation.body.id,
    };
    const path = probe.path.replace(/\{(\w+)\}/g, (_, key: string) => {
      expect(ids, `${probe.path}: no object for {${key}}`).toHaveProperty(key);
      return ids[key]!;
    });
    const answer = await api(probe.method, path, probe.body);
    expect(answer).toEqual({ status: 400, body: { error: { code: 400, message } } });
    const verdict = literalValidator().validate({ ...probe, path: `/v1${path}`, requestBody: probe.body, ...answer });
    expect(verdict.request.map(formatViolation)).toEqual([]);
  });

  it("allow Site.agentsContext and PATCH site agentsContext, with their values only", () => {
    expect(site).toHaveProperty("agentsContext");
    const { agentsContext: _, ...withoutIt } = site;
    expect(check({ method: "GET", path: sitePath(), status: 200, responseBody: withoutIt })).toEqual([]);
    expect(
      check({ method: "GET", path: sitePath(), status: 200, responseBody: { ...site, agentsContext: "maybe" } }),
    ).toEqual([
      'getSiteById response 200 body /agentsContext: must be equal to one of the allowed values ["excluded","included"], got "maybe"',
    ]);
    expect(
      check({
        method: "PATCH",
        path: sitePath(),
        status: 200,
        requestBody: { agentsContext: "included" },
        responseBody: site,
      }),
    ).toEqual([]);
  });

  it("validate the API reference's membership operations like documented ones", () => {
    const path = `${sitePath()}/section-groups/${siteGroup.id}/sections`;
    expect(
      check({ method: "POST", path, status: 201, requestBody: { sectionId: "x" }, responseBody: siteGroup }),
    ).toEqual([]);
    expect(
      check({ method: "POST", path, status: 200, requestBody: { section: "x" }, responseBody: siteGroup }),
    ).toEqual([
      "reference:addSectionToSiteSectionGroup request body /section: is not a property the document describes here",
      "reference:addSectionToSiteSectionGroup request body /sectionId: is required but missing",
      "reference:addSectionToSiteSectionGroup response 200 status (root): status 200 is not documented (documented: 201)",
    ]);
  });

  it("reject a field deviation for a property the document already has", () => {
    expect(
      () =>
        new ContractValidator({
          deviations: [
            { kind: "field", id: "dup", target: { schema: "Site" }, pointer: "/title", schema: {}, reason: "test" },
          ],
        }),
    ).toThrow(/already documents \/title/);
  });
});

/** The document as written (objects open unless they say otherwise), built on first use. */
let literal: ContractValidator | undefined;
function literalValidator(): ContractValidator {
  literal ??= new ContractValidator({ closedObjects: false });
  return literal;
}

function err(code: number) {
  return { error: { code, message: "m" } };
}
