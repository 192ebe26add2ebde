/**
 * The ONLY place where the traffic contract (test/contract/validator.ts) and the emulator depart from the official
 * OpenAPI document (@gitbook/api 0.202.0, spec/openapi.json). Each entry names exactly what it covers and why; nothing
 * else is exempt. The summary line of a test run reports how many entries this list has.
 *
 * Kinds:
 * - `operation`: an operation the API reference (../shared/api-spec.md, the written GitBook v1 reference this project
 *   follows) shows but the document does not. It is validated like a documented one, with the schemas given here
 *   (built from the document's own components where possible).
 * - `field`: one property the API reference shows but the document does not, added to one schema (a component, or
 *   an operation's request body) at one JSON pointer, with its own schema. It is validated; every other property stays
 *   undocumented.
 * - `rule`: a general validation rule that is not literally in the document.
 * - `strictness`: a request the document accepts that the emulator answers 400 on purpose. It exempts nothing (the
 *   contract never counts a request the emulator rejects); its `probe` is sent to an emulator by validator.test.ts,
 *   which fails when the emulator stops answering `message`, or when the document (its objects read as written)
 *   stops accepting the probe: then the entry is stale.
 */

/** A JSON Schema fragment; `$ref`s use the document's form, `#/components/schemas/<Name>`. */
export type SchemaFragment = Record<string, unknown>;

export interface OperationDeviation {
  kind: "operation";
  id: string;
  /** Pseudo operationId used in reports. */
  operationId: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Path template as the document writes them (no /v1); every `{param}` is a string path parameter. */
  path: string;
  /** JSON request body schema; omitted when the operation takes no body. */
  requestBody?: { required: boolean; schema: SchemaFragment };
  /** Documented statuses; `null` = no body. */
  responses: Record<string, SchemaFragment | null>;
  reason: string;
}

export type FieldTarget =
  | { schema: string }
  | { operationId: string; part: "requestBody" }
  | { operationId: string; part: "response"; status: string };

export interface FieldDeviation {
  kind: "field";
  id: string;
  target: FieldTarget;
  /** JSON pointer of the added property inside the target schema (through `properties`). */
  pointer: string;
  schema: SchemaFragment;
  reason: string;
}

export interface RuleDeviation {
  kind: "rule";
  id: string;
  rule: "undocumented-error-responses";
  reason: string;
}

export interface StrictnessDeviation {
  kind: "strictness";
  id: string;
  /**
   * A request the document accepts. `path` is a template as the document writes it (no /v1); validator.test.ts fills
   * `{organizationId}`, `{siteId}`, `{siteSpaceId}` and `{installationId}` (of analytics-pulse) with objects it made.
   */
  probe: { method: "POST" | "PUT" | "PATCH"; path: string; body: Record<string, unknown> };
  /** The emulator's answer: 400 with this message. */
  message: string;
  reason: string;
}

export type Deviation = OperationDeviation | FieldDeviation | RuleDeviation | StrictnessDeviation;

const REFERENCE = "the API reference (api-spec.md)";

export const deviations: readonly Deviation[] = [
  {
    kind: "operation",
    id: "section-group-add-section",
    operationId: "reference:addSectionToSiteSectionGroup",
    method: "POST",
    path: "/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections",
    requestBody: {
      required: true,
      schema: { type: "object", required: ["sectionId"], properties: { sectionId: { type: "string" } } },
    },
    responses: { "201": { $ref: "#/components/schemas/SiteSectionGroup" } },
    reason:
      `${REFERENCE} documents section-group membership as its own endpoint (body {sectionId}, 201 ` +
      "SiteSectionGroup); the document has no such path (its way is PATCH sections/{id} with siteSectionGroupId). " +
      "The emulator keeps it because the API reference documents it; the provider never calls it (SiteSectionGroup " +
      "changes membership with the official PATCH sections/{id} {siteSectionGroupId}).",
  },
  {
    kind: "operation",
    id: "section-group-remove-section",
    operationId: "reference:removeSectionFromSiteSectionGroup",
    method: "DELETE",
    path: "/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}",
    responses: { "205": null, "204": null },
    reason:
      `${REFERENCE} documents removing a section from a group (205); absent from the document (there: PATCH ` +
      "sections/{id} with siteSectionGroupId null). 204 = was not a member, as every DELETE of the document answers.",
  },
  {
    kind: "field",
    id: "site-agents-context-request",
    target: { operationId: "updateSiteById", part: "requestBody" },
    pointer: "/agentsContext",
    schema: { type: "string", enum: ["excluded", "included"] },
    reason:
      `${REFERENCE} lets PATCH site set agentsContext (excluded|included); the document has no such field ` +
      "(neither in updateSiteById's body nor in Site; its getSiteAgentSettingsById/updateSiteAgentSettingsById are other " +
      "settings: scans, findings, editing). So it does not reach the real API, and the provider does not manage it " +
      "(it is neither a Site input nor a Site output); only the emulator, which serves the API reference too, accepts it.",
  },
  {
    kind: "field",
    id: "site-agents-context-response",
    target: { schema: "Site" },
    pointer: "/agentsContext",
    schema: { type: "string", enum: ["excluded", "included"] },
    reason:
      `${REFERENCE} shows Site.agentsContext (excluded|included, required there); the document's Site has no such ` +
      "field. Allowed, not required, so a Site without it (as the real API returns) is valid too.",
  },
  {
    kind: "rule",
    id: "undocumented-error-responses",
    rule: "undocumented-error-responses",
    reason:
      "Most in-scope operations document no error response, yet the real API answers failures (unknown id, bad " +
      "input, missing or wrong token, rate limits, server errors) with the document's error envelope " +
      "{error:{code,message}} (notes §3). So a status >= 400 that an operation does not document (and that no " +
      "`default` response covers) is validated against the document's named error response whose error.code enum " +
      "pins that status (components.responses: BadRequestError 400, UnauthorizedError 401, ForbiddenError 403, " +
      "NotFoundError 404, ConflictError 409, PreconditionFailedError 412), else against components.schemas.Error. " +
      "The same rule validates answers to requests that match no operation. A 2xx/3xx status an operation does not " +
      "document stays a violation.",
  },
  {
    kind: "strictness",
    id: "unknown-body-fields",
    probe: { method: "POST", path: "/orgs/{organizationId}/collections", body: { title: "Guides", surprise: true } },
    message: "surprise: unknown field (allowed: title, parent)",
    reason:
      "The document's request bodies are open objects (none says additionalProperties: false), so a property they do " +
      "not list is valid under it and ignored by the real API. The emulator answers 400 naming the field on every " +
      "body it parses, so that a misspelt or undocumented field the provider sends fails in tests instead of being " +
      "dropped silently; the contract reads the document's objects as closed for the same reason (validator.ts).",
  },
  {
    kind: "strictness",
    id: "capital-openapi-slugs",
    probe: {
      method: "POST",
      path: "/orgs/{organizationId}/openapi",
      body: { slug: "Petstore", source: { url: "https://petstore.example/openapi.json" } },
    },
    message: "slug: must match ^[a-z0-9]+(?:-[a-z0-9]+)*$ (lowercase letters and digits separated by single hyphens)",
    reason:
      `${REFERENCE} gives OpenAPI slugs the pattern ^[a-z0-9]+(?:-[a-z0-9]+)*$; the document's OpenAPISpecSlug also ` +
      "allows capitals. Every limit of the API reference is a 400 in the emulator (body slug and path specSlug " +
      "alike), so the provider is never tested against laxer rules than the reference promises; OpenApiSpec.slug is " +
      "checked lowercase too (parity.test.ts).",
  },
  {
    kind: "strictness",
    id: "empty-condition",
    probe: {
      method: "PATCH",
      path: "/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}",
      body: { condition: "" },
    },
    message: "condition: must not be empty",
    reason:
      `${REFERENCE} bounds a visibility condition to 1..1024 characters; the document's Expression is 0..1024. The ` +
      'emulator follows the reference on site spaces and sections: `condition: ""` is a 400, and null (which both ' +
      "documents allow) is how a condition is removed, as the provider does. External links and MCP servers follow them.",
  },
  {
    kind: "strictness",
    id: "integration-configuration-schema",
    probe: {
      method: "PATCH",
      path: "/integrations/analytics-pulse/installations/{installationId}",
      body: { configuration: { region: "eu" } },
    },
    message: "configuration.trackingId: is required",
    reason:
      "The document's IntegrationInstallationConfiguration is open JSON (additionalProperties: true) and the update " +
      "operations document no 400, though getIntegrationByName serves each level's schema (configurations.account, " +
      ".site, .space). The emulator answers 400 naming configuration.<key>, never the value, when a configuration " +
      "lacks a required key or gives a declared key the wrong type or a value outside its enum (the strict reading " +
      "of the schema the integration publishes). Keys the schema does not declare are kept, as the document's open " +
      "object and integrations writing keys of their own require: an unknown key is caught by preflight at preview, " +
      "not by `up`.",
  },
];
