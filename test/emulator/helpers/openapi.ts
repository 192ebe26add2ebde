/**
 * A small JSON Schema (OpenAPI 3.1 subset) validator over the official GitBook OpenAPI document, used to check
 * that every emulator response matches the documented response schema of its operation.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

// biome-ignore lint/suspicious/noExplicitAny: raw JSON document
type Schema = any;

const doc: Schema = JSON.parse(
  readFileSync(join(__dirname, "../../../node_modules/@gitbook/api/spec/openapi.json"), "utf8"),
);

function resolveRef(ref: string): Schema {
  return ref
    .split("/")
    .slice(1)
    .reduce((o: Schema, k: string) => o[k.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
}

function deref(s: Schema): Schema {
  let cur = s;
  while (cur && typeof cur === "object" && cur.$ref) cur = resolveRef(cur.$ref);
  return cur;
}

function typeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function typeMatches(expected: string, v: unknown): boolean {
  const t = typeOf(v);
  if (expected === "number") return t === "number" || t === "integer";
  return expected === t;
}

function codePoints(s: string): number {
  return [...s].length;
}

export function validate(schema: Schema, value: unknown, path = "$", errors: string[] = []): string[] {
  const s = deref(schema);
  if (s === true || s === undefined) return errors;
  if (s === false) {
    errors.push(`${path}: not allowed`);
    return errors;
  }
  if (s.allOf) for (const sub of s.allOf) validate(sub, value, path, errors);
  if (s.oneOf) {
    const results = s.oneOf.map((sub: Schema) => validate(sub, value, path, []));
    const ok = results.filter((r: string[]) => r.length === 0).length;
    if (ok !== 1) {
      errors.push(
        `${path}: must match exactly one schema of oneOf (matched ${ok})${ok === 0 ? `: ${results.map((r: string[]) => r[0]).join(" | ")}` : ""}`,
      );
    }
  }
  if (s.anyOf) {
    const results = s.anyOf.map((sub: Schema) => validate(sub, value, path, []));
    if (!results.some((r: string[]) => r.length === 0)) errors.push(`${path}: must match a schema of anyOf`);
  }
  if (s.type !== undefined) {
    const types: string[] = Array.isArray(s.type) ? s.type : [s.type];
    if (!types.some((t) => typeMatches(t, value))) {
      errors.push(`${path}: must be ${types.join("|")} (got ${typeOf(value)})`);
      return errors;
    }
  }
  if (s.enum && !s.enum.some((e: unknown) => e === value))
    errors.push(`${path}: must be one of ${JSON.stringify(s.enum)}`);
  if (s.const !== undefined && s.const !== value) errors.push(`${path}: must be ${JSON.stringify(s.const)}`);
  if (typeof value === "string") {
    if (s.minLength !== undefined && codePoints(value) < s.minLength)
      errors.push(`${path}: shorter than ${s.minLength}`);
    if (s.maxLength !== undefined && codePoints(value) > s.maxLength)
      errors.push(`${path}: longer than ${s.maxLength}`);
    if (s.pattern !== undefined && !new RegExp(s.pattern).test(value)) errors.push(`${path}: must match ${s.pattern}`);
    if (s.format === "uri" && !/^[a-zA-Z][a-zA-Z0-9+.-]*:[^\s]*$/.test(value)) errors.push(`${path}: must be a URI`);
    if (s.format === "date-time" && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value)) {
      errors.push(`${path}: must be a date-time`);
    }
  }
  if (typeof value === "number") {
    if (s.minimum !== undefined && value < s.minimum) errors.push(`${path}: below ${s.minimum}`);
    if (s.maximum !== undefined && value > s.maximum) errors.push(`${path}: above ${s.maximum}`);
  }
  if (Array.isArray(value)) {
    if (s.minItems !== undefined && value.length < s.minItems) errors.push(`${path}: fewer than ${s.minItems} items`);
    if (s.maxItems !== undefined && value.length > s.maxItems) errors.push(`${path}: more than ${s.maxItems} items`);
    if (s.items) {
      value.forEach((item, i) => {
        validate(s.items, item, `${path}[${i}]`, errors);
      });
    }
  }
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    for (const r of s.required ?? []) if (!(r in obj)) errors.push(`${path}: missing required ${r}`);
    if (s.minProperties !== undefined && Object.keys(obj).length < s.minProperties) {
      errors.push(`${path}: fewer than ${s.minProperties} properties`);
    }
    const props = s.properties ?? {};
    for (const [k, v] of Object.entries(obj)) {
      if (props[k]) validate(props[k], v, `${path}.${k}`, errors);
      else if (s.additionalProperties === false) errors.push(`${path}: unexpected property ${k}`);
      else if (s.additionalProperties && typeof s.additionalProperties === "object") {
        validate(s.additionalProperties, v, `${path}.${k}`, errors);
      }
    }
  }
  return errors;
}

interface Operation {
  template: string;
  method: string;
  op: Schema;
  segments: string[];
}

const operations: Operation[] = [];
for (const [template, item] of Object.entries(doc.paths as Record<string, Schema>)) {
  for (const [method, op] of Object.entries(item as Record<string, Schema>)) {
    if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
    operations.push({ template, method: method.toUpperCase(), op, segments: template.split("/").slice(1) });
  }
}

/** Finds the official operation for a concrete path (without the /v1 prefix). */
export function findOperation(method: string, path: string): Operation | undefined {
  const parts = path.split("/").slice(1);
  let best: Operation | undefined;
  let bestStatic = -1;
  for (const o of operations) {
    if (o.method !== method || o.segments.length !== parts.length) continue;
    let ok = true;
    let statics = 0;
    for (let i = 0; i < parts.length; i++) {
      const seg = o.segments[i]!;
      if (seg.startsWith("{")) continue;
      if (seg !== parts[i]) {
        ok = false;
        break;
      }
      statics++;
    }
    if (ok && statics > bestStatic) {
      best = o;
      bestStatic = statics;
    }
  }
  return best;
}

const ERROR_SCHEMA = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: { code: { type: "integer" }, message: { type: "string" } },
    },
  },
};

/** Request fields the spec has that the official document lacks (accepted on purpose). */
const SPEC_ONLY_REQUEST_FIELDS: Record<string, string[]> = {
  "PATCH /orgs/{organizationId}/sites/{siteId}": ["agentsContext"],
};

export interface ExchangeLike {
  method: string;
  path: string;
  requestBody: unknown;
  status: number;
  responseBody: unknown;
  responseHeaders: Record<string, string>;
  injected?: boolean;
}

/** Checks one exchange against the official document; returns violations (empty when conformant). */
export function checkExchange(x: ExchangeLike): string[] {
  if (x.injected) return [];
  const label = `${x.method} ${x.path} → ${x.status}`;
  const out: string[] = [];
  if (x.status >= 400) {
    const errs = validate(ERROR_SCHEMA, x.responseBody);
    const code = (x.responseBody as { error?: { code?: number } } | undefined)?.error?.code;
    if (code !== x.status) errs.push(`error.code ${code} differs from status ${x.status}`);
    return errs.map((e) => `${label}: ${e}`);
  }
  const apiPath = x.path.replace(/^\/v1/, "");
  const op = findOperation(x.method, apiPath);
  if (!op) return []; // spec-only operations (e.g. section-group membership) are not in the official document
  const response = deref(op.op.responses?.[String(x.status)]);
  if (!response) return [`${label}: status not documented for ${op.op.operationId}`];
  const schema = response.content?.["application/json"]?.schema;
  if (schema) {
    for (const e of validate(schema, x.responseBody)) out.push(`${label}: response ${e}`);
  } else if (x.responseBody !== undefined) {
    out.push(`${label}: response body where none is documented`);
  }
  const reqSchema = deref(op.op.requestBody)?.content?.["application/json"]?.schema;
  if (reqSchema && x.requestBody !== undefined) {
    const allowed = SPEC_ONLY_REQUEST_FIELDS[`${x.method} ${op.template}`] ?? [];
    let body = x.requestBody;
    if (allowed.length && body && typeof body === "object") {
      body = Object.fromEntries(Object.entries(body).filter(([k]) => !allowed.includes(k)));
    }
    for (const e of validate(reqSchema, body)) out.push(`${label}: accepted request body ${e}`);
  }
  return out;
}
