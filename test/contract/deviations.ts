/**
 * The ONLY place where the traffic contract (test/contract/validator.ts) departs from the official OpenAPI document
 * (@gitbook/api 0.202.0, spec/openapi.json). Each entry names exactly what it covers and why; nothing else is exempt.
 * The summary line of a test run reports how many entries this list has.
 *
 * Kinds:
 * - `operation`: an operation the API reference (the written GitBook v1 reference this project follows) shows but the document does not. It is validated
 *   like a documented one, with the schemas given here (built from the document's own components where possible).
 * - `field`: one property the spec shows but the document does not, added to one schema (a component, or an
 *   operation's request body) at one JSON pointer, with its own schema. It is validated; every other property stays
 *   undocumented.
 * - `rule`: a general validation rule that is not literally in the document.
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

export type Deviation = OperationDeviation | FieldDeviation | RuleDeviation;

const SPEC = "the spec (api-spec.md)";

export const deviations: readonly Deviation[] = [
  {
    kind: "operation",
    id: "section-group-add-section",
    operationId: "spec:addSectionToSiteSectionGroup",
    method: "POST",
    path: "/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections",
    requestBody: {
      required: true,
      schema: { type: "object", required: ["sectionId"], properties: { sectionId: { type: "string" } } },
    },
    responses: { "201": { $ref: "#/components/schemas/SiteSectionGroup" } },
    reason:
      `${SPEC} documents section-group membership as its own endpoint (body {sectionId}, 201 SiteSectionGroup); ` +
      "the document has no such path (its way is PATCH sections/{id} with siteSectionGroupId). Kept because the spec " +
      "is this project's contract and SiteSectionGroup changes membership through it (one request per section); " +
      "where an API answers 404 here, the provider falls back to PATCH sections/{id} {siteSectionGroupId}.",
  },
  {
    kind: "operation",
    id: "section-group-remove-section",
    operationId: "spec:removeSectionFromSiteSectionGroup",
    method: "DELETE",
    path: "/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}",
    responses: { "205": null, "204": null },
    reason:
      `${SPEC} documents removing a section from a group (205); absent from the document (there: PATCH ` +
      "sections/{id} with siteSectionGroupId null). 204 = was not a member, as every DELETE of the document answers.",
  },
  {
    kind: "field",
    id: "site-agents-context-request",
    target: { operationId: "updateSiteById", part: "requestBody" },
    pointer: "/agentsContext",
    schema: { type: "string", enum: ["excluded", "included"] },
    reason:
      `${SPEC} lets PATCH site set agentsContext (excluded|included); the document has no such field (neither in ` +
      "updateSiteById's body nor in Site; its getSiteAgentSettingsById/updateSiteAgentSettingsById are other " +
      "settings: scans, findings, editing). So it does not reach the real API, and the provider does not manage it " +
      "(no Site input or output since issue 13); only the emulator, which serves the spec too, accepts it.",
  },
  {
    kind: "field",
    id: "site-agents-context-response",
    target: { schema: "Site" },
    pointer: "/agentsContext",
    schema: { type: "string", enum: ["excluded", "included"] },
    reason:
      `${SPEC} shows Site.agentsContext (excluded|included, required there); the document's Site has no such field. ` +
      "Allowed, not required, so a Site without it (as the real API returns) is valid too.",
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
];
