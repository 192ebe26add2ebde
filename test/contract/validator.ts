/**
 * Validates HTTP exchanges (request + response) against the official GitBook OpenAPI document
 * (@gitbook/api, spec/openapi.json, OpenAPI 3.1 = JSON Schema 2020-12) with ajv, plus the deviations listed in
 * test/contract/deviations.ts and nothing else.
 *
 * What is checked for one exchange:
 * - the operation: method + path template of the document (its paths have no /v1: the server is `{host}/v1`); no
 *   match is a violation of operation "unmatched";
 * - the request: path parameters, query parameters and the JSON body against the operation's parameter and
 *   requestBody schemas (a required body that is missing, or a body sent to an operation that takes none, too);
 * - the response: the status must be documented (a `default` response documents every status; error statuses fall
 *   under the `undocumented-error-responses` rule of deviations.ts) and the body must match that response's schema
 *   (no body where the document describes none); documented response headers (Location, Preference-Applied), when
 *   present, must match their schemas.
 *
 * Closed objects: an object schema that lists `properties` (and says nothing about additional ones) is validated as
 * closed, i.e. a property the document does not describe is a violation (`unevaluatedProperties: false` added at each
 * instance location, so allOf/oneOf compositions still see all their members' properties). An open schema would let
 * the emulator answer fields the real API never sends, and the provider send fields the real API ignores; both
 * would pass here and break against the real API. Free-form objects (no `properties`, or additionalProperties
 * true/schema) stay open.
 *
 * Undocumented query parameters, and a body sent to an operation that takes none, are reported as `providerOnly`
 * violations: the document does not close parameter lists, and HTTP APIs ignore unknown query parameters and bodies
 * they do not expect, so only a client that relies on one (the provider) is wrong. So is an empty query value
 * (`title=`): valid for the document's plain strings, but from the provider it can only be an unset value sent anyway
 * (empty numbers, booleans and enumerations fail their schemas; a repeated scalar fails its type).
 */
import { readFileSync } from "node:fs";
import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import {
  type Deviation,
  deviations as defaultDeviations,
  type FieldDeviation,
  type SchemaFragment,
} from "./deviations";

// biome-ignore lint/suspicious/noExplicitAny: raw JSON documents
type Json = any;

export const OPENAPI_DOCUMENT_PATH = require.resolve("@gitbook/api/spec/openapi.json");

const BUNDLE_ID = "https://contract.invalid/gitbook-openapi.json";
const METHODS = ["get", "put", "post", "patch", "delete"] as const;

export interface ExchangeLike {
  method: string;
  /** Path without query, including /v1. */
  path: string;
  query?: Record<string, string | string[]>;
  requestHeaders?: Record<string, string>;
  requestBody?: unknown;
  status: number;
  responseBody?: unknown;
  responseHeaders?: Record<string, string>;
}

export interface ContractViolation {
  /** operationId of the document (or of a deviation), or "unmatched". */
  operationId: string;
  part: "request" | "response";
  where: "route" | "path" | "query" | "body" | "status" | "header";
  /** JSON pointer into the validated value (body, query object, path-parameter object); "" = the whole value. */
  pointer: string;
  /** The response status, for response violations. */
  status?: number;
  message: string;
  /** Only a violation when the request came from the provider (see undocumented query parameters above). */
  providerOnly?: boolean;
}

export interface ExchangeVerdict {
  operationId: string;
  request: ContractViolation[];
  response: ContractViolation[];
}

interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema?: Json;
}

interface ResponseDef {
  /** $defs name of the JSON body schema; null = the document describes no JSON body. */
  schema: string | null;
  /** Documented response headers (lower-case name → $defs name of the header's schema). */
  headers?: Map<string, string>;
  /** The document describes a non-JSON body only (e.g. text/event-stream): the body is not checked. */
  opaque?: boolean;
}

interface Operation {
  operationId: string;
  method: string;
  template: string;
  segments: string[];
  staticCount: number;
  pathParams: string | null;
  queryParams: string | null;
  queryNames: Set<string>;
  requestBody: { required: boolean; schema: string | null } | null;
  responses: Map<string, ResponseDef>;
}

/** `operationId request|response <status> <where> <pointer>: <message>` */
export function formatViolation(v: ContractViolation): string {
  const part = v.part === "response" && v.status !== undefined ? `response ${v.status}` : v.part;
  return `${v.operationId} ${part} ${v.where} ${v.pointer || "(root)"}: ${v.message}`;
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

function isObject(value: unknown): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

function defRef(name: string): string {
  return `${BUNDLE_ID}#/$defs/${escapePointer(name)}`;
}

/** Keywords whose values are subschemas at the same instance location. */
const IN_PLACE_ARRAYS = ["allOf", "anyOf", "oneOf"] as const;
const IN_PLACE_SINGLE = ["not", "if", "then", "else"] as const;

export class ContractValidator {
  readonly documentVersion: string;
  readonly deviations: readonly Deviation[];
  private readonly doc: Json;
  private readonly defs: Record<string, Json> = {};
  private readonly operations: Operation[] = [];
  private readonly errorResponseByStatus = new Map<number, string>();
  private readonly genericError: string;
  private readonly undocumentedErrorRule: boolean;
  private readonly ajv: Ajv2020;
  private readonly paramAjv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly branchCache = new WeakMap<object, { open?: ValidateFunction; closed?: ValidateFunction }>();

  /**
   * `closedObjects: false` reads the document's objects as written (open unless they say `additionalProperties:
   * false`): how validator.test.ts shows that a `strictness` deviation's probe is valid under the document itself.
   */
  constructor(options: { document?: Json; deviations?: readonly Deviation[]; closedObjects?: boolean } = {}) {
    this.doc = options.document ?? JSON.parse(readFileSync(OPENAPI_DOCUMENT_PATH, "utf8"));
    this.deviations = options.deviations ?? defaultDeviations;
    if (typeof this.doc.openapi !== "string" || !this.doc.openapi.startsWith("3.1")) {
      throw new Error(`expected an OpenAPI 3.1 document (JSON Schema 2020-12), got openapi ${this.doc.openapi}`);
    }
    this.documentVersion = `${this.doc.info?.title ?? "OpenAPI"} ${this.doc.info?.version ?? ""}`.trim();
    this.undocumentedErrorRule = this.deviations.some(
      (d) => d.kind === "rule" && d.rule === "undocumented-error-responses",
    );

    for (const [name, schema] of Object.entries<Json>(this.doc.components?.schemas ?? {}))
      this.defs[name] = clone(schema);
    this.genericError = "Error";
    for (const [name, response] of Object.entries<Json>(this.doc.components?.responses ?? {})) {
      const schema = response?.content?.["application/json"]?.schema;
      if (!schema) continue;
      const defName = `response:${name}`;
      this.defs[defName] = clone(schema);
      const codes = schema?.properties?.error?.properties?.code?.enum;
      if (Array.isArray(codes) && codes.length === 1 && typeof codes[0] === "number") {
        this.errorResponseByStatus.set(codes[0], defName);
      }
    }
    if (!this.defs[this.genericError]) throw new Error("the document has no components.schemas.Error");

    for (const [template, item] of Object.entries<Json>(this.doc.paths ?? {})) {
      for (const method of METHODS) {
        if (item[method]) this.addDocumentOperation(template, method, item);
      }
    }
    for (const d of this.deviations) if (d.kind === "operation") this.addDeviationOperation(d);
    for (const d of this.deviations) if (d.kind === "field") this.applyField(d);

    for (const [name, schema] of Object.entries(this.defs)) this.defs[name] = this.rewriteRefs(schema, name);
    const boundaryRoots = new Set(
      Object.keys(this.defs).filter((n) => n.startsWith("op:") || n.startsWith("response:")),
    );
    for (const [name, schema] of Object.entries(this.defs)) {
      if (name.startsWith("params:") || options.closedObjects === false) continue;
      this.defs[name] = this.closeObjects(schema, boundaryRoots.has(name));
    }

    const annotationKeywords = new Set(["discriminator", "example", "externalDocs", "xml"]);
    collectExtensionKeywords(this.defs, annotationKeywords, true);
    const common = {
      allErrors: true,
      verbose: true,
      strict: true,
      strictTypes: false,
      strictTuples: false,
      strictRequired: false,
      allowUnionTypes: true,
      allowMatchingProperties: true,
    } as const;
    this.ajv = new Ajv2020(common);
    this.paramAjv = new Ajv2020({ ...common, coerceTypes: "array" });
    for (const ajv of [this.ajv, this.paramAjv]) {
      addFormats(ajv);
      // The document uses these formats without defining a grammar for them (Icon: "gear"; emoji: an emoji string).
      ajv.addFormat("icon", true);
      ajv.addFormat("emoji", true);
      ajv.addVocabulary([...annotationKeywords]);
      // Not checked against the 2020-12 meta-schema here: that check took two thirds of the construction (a second
      // per ajv, in every test file's process) and gives the same answer for the same bundle; metaSchemaErrors() runs
      // it, once per run, in validator.test.ts.
      ajv.addSchema({ $id: BUNDLE_ID, $defs: this.defs }, undefined, undefined, false);
    }
  }

  /** The bundle's errors against the JSON Schema 2020-12 meta-schema (none for a document ajv can compile). */
  metaSchemaErrors(): string[] {
    const valid = this.ajv.validateSchema({ $id: `${BUNDLE_ID}/meta-check`, $defs: this.defs });
    if (valid) return [];
    return (this.ajv.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ""}`.trim());
  }

  /** Number of operations known (document + the API reference's own operations of deviations.ts). */
  get operationCount(): number {
    return this.operations.length;
  }

  /** Finds the operation for a method and a concrete path (with /v1). */
  match(
    method: string,
    fullPath: string,
  ): { operation: Operation; params: Record<string, string> } | { allowed: string[] } {
    if (!/^\/v1(\/|$)/.test(fullPath)) return { allowed: [] };
    const parts = fullPath.replace(/^\/v1/, "").split("/").slice(1);
    const upper = method.toUpperCase();
    let best: { operation: Operation; params: Record<string, string> } | undefined;
    const allowed = new Set<string>();
    for (const op of this.operations) {
      if (op.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length && ok; i++) {
        const seg = op.segments[i]!;
        const part = parts[i]!;
        if (seg.startsWith("{") && seg.endsWith("}")) {
          if (part === "") ok = false;
          else params[seg.slice(1, -1)] = safeDecode(part);
        } else if (seg !== part) ok = false;
      }
      if (!ok) continue;
      if (op.method !== upper) {
        allowed.add(op.method);
        continue;
      }
      if (!best || op.staticCount > best.operation.staticCount) best = { operation: op, params };
    }
    return best ?? { allowed: [...allowed].sort() };
  }

  /** Validates one exchange. */
  validate(x: ExchangeLike): ExchangeVerdict {
    const found = this.match(x.method, x.path);
    if (!("operation" in found)) {
      const verdict: ExchangeVerdict = {
        operationId: "unmatched",
        request: [
          {
            operationId: "unmatched",
            part: "request",
            where: "route",
            pointer: "",
            message: found.allowed.length
              ? `the document has no ${x.method.toUpperCase()} ${x.path} (documented methods there: ${found.allowed.join(", ")})`
              : `the document has no operation for ${x.method.toUpperCase()} ${x.path}`,
          },
        ],
        response: [],
      };
      verdict.response = this.validateResponse("unmatched", new Map(), x);
      return verdict;
    }
    const { operation, params } = found;
    return {
      operationId: operation.operationId,
      request: this.validateRequest(operation, params, x),
      response: this.validateResponse(operation.operationId, operation.responses, x),
    };
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Building

  private addDocumentOperation(template: string, method: (typeof METHODS)[number], item: Json): void {
    const op = item[method];
    const operationId: string = op.operationId ?? `${method}_${template.replace(/[^A-Za-z0-9]+/g, "_")}`;
    const params = new Map<string, Parameter>();
    for (const raw of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
      const p = this.resolve(raw) as Parameter;
      params.set(`${p.in}:${p.name}`, p);
    }
    let requestBody: Operation["requestBody"] = null;
    if (op.requestBody) {
      const body = this.resolve(op.requestBody);
      const schema = body.content?.["application/json"]?.schema;
      const name = `op:${operationId}:request`;
      if (schema) this.defs[name] = clone(schema);
      requestBody = { required: body.required === true, schema: schema ? name : null };
    }
    const responses = new Map<string, ResponseDef>();
    for (const [status, raw] of Object.entries<Json>(op.responses ?? {})) {
      const response = this.resolve(raw);
      const content = response.content ?? {};
      const schema = content["application/json"]?.schema;
      let def: ResponseDef;
      if (schema) {
        const name = `op:${operationId}:response:${status}`;
        this.defs[name] = clone(schema);
        def = { schema: name };
      } else {
        def = { schema: null, opaque: Object.keys(content).length > 0 };
      }
      for (const [header, rawHeader] of Object.entries<Json>(response.headers ?? {})) {
        const headerSchema = this.resolve(rawHeader)?.schema;
        if (!headerSchema) continue;
        const name = `params:${operationId}:response:${status}:header:${header.toLowerCase()}`;
        this.defs[name] = clone(headerSchema);
        def.headers ??= new Map();
        def.headers.set(header.toLowerCase(), name);
      }
      responses.set(status, def);
    }
    this.pushOperation(operationId, method.toUpperCase(), template, [...params.values()], requestBody, responses);
  }

  private addDeviationOperation(d: Extract<Deviation, { kind: "operation" }>): void {
    const documented = this.doc.paths?.[d.path]?.[d.method.toLowerCase()];
    if (documented) {
      throw new Error(
        `deviation ${d.id}: the document now has ${d.method} ${d.path} (${documented.operationId}); remove it`,
      );
    }
    const pathParams: Parameter[] = [...d.path.matchAll(/\{([^}]+)\}/g)].map((m) => ({
      name: m[1]!,
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    let requestBody: Operation["requestBody"] = null;
    if (d.requestBody) {
      const name = `op:${d.operationId}:request`;
      this.defs[name] = clone(d.requestBody.schema);
      requestBody = { required: d.requestBody.required, schema: name };
    }
    const responses = new Map<string, ResponseDef>();
    for (const [status, schema] of Object.entries(d.responses)) {
      if (schema) {
        const name = `op:${d.operationId}:response:${status}`;
        this.defs[name] = clone(schema);
        responses.set(status, { schema: name });
      } else {
        responses.set(status, { schema: null });
      }
    }
    this.pushOperation(d.operationId, d.method, d.path, pathParams, requestBody, responses);
  }

  private pushOperation(
    operationId: string,
    method: string,
    template: string,
    params: Parameter[],
    requestBody: Operation["requestBody"],
    responses: Map<string, ResponseDef>,
  ): void {
    const segments = template.split("/").slice(1);
    const objectSchema = (where: "path" | "query"): string | null => {
      const list = params.filter((p) => p.in === where);
      if (list.length === 0) return null;
      const name = `params:${operationId}:${where}`;
      this.defs[name] = {
        type: "object",
        properties: Object.fromEntries(list.map((p) => [p.name, clone(p.schema ?? {})])),
        required: list.filter((p) => p.required || where === "path").map((p) => p.name),
      };
      return name;
    };
    this.operations.push({
      operationId,
      method,
      template,
      segments,
      staticCount: segments.filter((s) => !s.startsWith("{")).length,
      pathParams: objectSchema("path"),
      queryParams: objectSchema("query"),
      queryNames: new Set(params.filter((p) => p.in === "query").map((p) => p.name)),
      requestBody,
      responses,
    });
  }

  private resolve(value: Json): Json {
    let current = value;
    for (let i = 0; i < 20 && isObject(current) && typeof current.$ref === "string"; i++) {
      const ref: string = current.$ref;
      if (!ref.startsWith("#/")) throw new Error(`unsupported $ref ${ref}`);
      current = ref
        .slice(2)
        .split("/")
        .reduce((o: Json, k) => o?.[k.replace(/~1/g, "/").replace(/~0/g, "~")], this.doc);
      if (current === undefined) throw new Error(`unresolved $ref ${ref}`);
    }
    return current;
  }

  private applyField(d: FieldDeviation): void {
    const target = d.target;
    let name: string;
    if ("schema" in target) name = target.schema;
    else {
      const op = this.operations.find((o) => o.operationId === target.operationId);
      if (!op) throw new Error(`deviation ${d.id}: unknown operation ${target.operationId}`);
      const found = target.part === "requestBody" ? op.requestBody?.schema : op.responses.get(target.status)?.schema;
      if (!found) throw new Error(`deviation ${d.id}: ${target.operationId} has no such JSON schema`);
      name = found;
    }
    let schema = this.defs[name];
    if (!schema) throw new Error(`deviation ${d.id}: unknown schema ${name}`);
    const segments = d.pointer
      .split("/")
      .slice(1)
      .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
    if (segments.length === 0) throw new Error(`deviation ${d.id}: empty pointer`);
    for (const seg of segments.slice(0, -1)) {
      const next = schema.properties?.[seg];
      if (!isObject(next)) throw new Error(`deviation ${d.id}: ${d.pointer} does not exist in ${name}`);
      schema = next;
    }
    const last = segments[segments.length - 1]!;
    if (!isObject(schema.properties)) throw new Error(`deviation ${d.id}: ${name} lists no properties`);
    if (schema.properties[last] !== undefined) {
      throw new Error(`deviation ${d.id}: ${name} already documents ${d.pointer}; remove the deviation`);
    }
    schema.properties[last] = clone(d.schema as SchemaFragment);
  }

  /** `#/components/schemas/X` → absolute refs into the bundle, so any fragment can be compiled on its own. */
  private rewriteRefs(node: Json, where: string): Json {
    if (Array.isArray(node)) return node.map((n) => this.rewriteRefs(n, where));
    if (!isObject(node)) return node;
    const out: Record<string, Json> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") {
        const m = /^#\/components\/schemas\/(.+)$/.exec(value);
        if (!m) throw new Error(`${where}: unsupported $ref ${value}`);
        const target = m[1]!.replace(/~1/g, "/").replace(/~0/g, "~");
        if (!(target in this.defs)) throw new Error(`${where}: unresolved $ref ${value}`);
        out[key] = defRef(target);
      } else {
        out[key] = this.rewriteRefs(value, where);
      }
    }
    return out;
  }

  private lookup(ref: string): Json {
    const prefix = `${BUNDLE_ID}#/$defs/`;
    if (!ref.startsWith(prefix)) return undefined;
    return this.defs[ref.slice(prefix.length).replace(/~1/g, "/").replace(/~0/g, "~")];
  }

  /**
   * What an instance location governed by `node` accepts, as far as properties go: whether some (same-location)
   * subschema lists properties, and whether some accepts any property (free-form or additionalProperties ≠ false).
   */
  private propertyShape(node: Json, seen: Set<object>): { listed: boolean; open: boolean } {
    if (node === true) return { listed: false, open: true };
    if (!isObject(node) || seen.has(node)) return { listed: false, open: false };
    seen.add(node);
    const shape = { listed: false, open: false };
    const merge = (s: { listed: boolean; open: boolean }) => {
      shape.listed ||= s.listed;
      shape.open ||= s.open;
    };
    if (typeof node.$ref === "string") merge(this.propertyShape(this.lookup(node.$ref), seen));
    for (const k of IN_PLACE_ARRAYS)
      if (Array.isArray(node[k])) for (const s of node[k]) merge(this.propertyShape(s, seen));
    if (isObject(node.properties) && Object.keys(node.properties).length > 0) shape.listed = true;
    if ("additionalProperties" in node && node.additionalProperties !== false) shape.open = true;
    if ("patternProperties" in node || ("unevaluatedProperties" in node && node.unevaluatedProperties !== false)) {
      shape.open = true;
    }
    const types: string[] | undefined =
      node.type === undefined ? undefined : Array.isArray(node.type) ? node.type : [node.type];
    const constrained =
      node.properties !== undefined ||
      node.$ref !== undefined ||
      IN_PLACE_ARRAYS.some((k) => node[k] !== undefined) ||
      node.enum !== undefined ||
      node.const !== undefined ||
      "additionalProperties" in node;
    if (!constrained && (types === undefined || types.includes("object"))) shape.open = true;
    return shape;
  }

  /** Adds `unevaluatedProperties: false` at every instance location whose schema lists properties (see header). */
  private closeObjects(node: Json, boundary: boolean): Json {
    if (Array.isArray(node) || !isObject(node)) return node;
    const out: Record<string, Json> = { ...node };
    const sub = (value: Json, isBoundary: boolean) => this.closeObjects(value, isBoundary);
    const subMap = (value: Json) =>
      isObject(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, sub(v, true)])) : value;
    if (out.properties !== undefined) out.properties = subMap(out.properties);
    if (out.patternProperties !== undefined) out.patternProperties = subMap(out.patternProperties);
    if (isObject(out.additionalProperties)) out.additionalProperties = sub(out.additionalProperties, true);
    if (isObject(out.items)) out.items = sub(out.items, true);
    if (Array.isArray(out.prefixItems)) out.prefixItems = out.prefixItems.map((s: Json) => sub(s, true));
    if (isObject(out.contains)) out.contains = sub(out.contains, true);
    for (const k of IN_PLACE_ARRAYS) if (Array.isArray(out[k])) out[k] = out[k].map((s: Json) => sub(s, false));
    for (const k of IN_PLACE_SINGLE) if (isObject(out[k])) out[k] = sub(out[k], false);
    if (boundary && !("unevaluatedProperties" in out) && !("additionalProperties" in out)) {
      const shape = this.propertyShape(node, new Set());
      if (shape.listed && !shape.open) out.unevaluatedProperties = false;
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Validating

  private validator(name: string, ajv: Ajv2020 = this.ajv): ValidateFunction {
    const key = `${ajv === this.ajv ? "body" : "param"}:${name}`;
    let fn = this.compiled.get(key);
    if (!fn) {
      fn = ajv.getSchema(defRef(name));
      if (!fn) throw new Error(`cannot compile ${name}`);
      this.compiled.set(key, fn);
    }
    return fn;
  }

  private validateRequest(op: Operation, params: Record<string, string>, x: ExchangeLike): ContractViolation[] {
    const out: ContractViolation[] = [];
    const push = (where: ContractViolation["where"], errors: ErrorObject[]) => {
      for (const e of errors) out.push({ operationId: op.operationId, part: "request", where, ...describe(e) });
    };
    if (op.pathParams) {
      const fn = this.validator(op.pathParams, this.paramAjv);
      if (!fn({ ...params })) push("path", this.explain(fn.errors ?? []));
    }
    const query = x.query ?? {};
    const documented: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(query)) {
      if (op.queryNames.has(name)) {
        documented[name] = Array.isArray(value) ? [...value] : value;
        if ((Array.isArray(value) ? value : [value]).includes("")) {
          out.push({
            operationId: op.operationId,
            part: "request",
            where: "query",
            pointer: `/${escapePointer(name)}`,
            message: "is empty: the provider sends a parameter with a value or not at all",
            providerOnly: true,
          });
        }
      } else {
        out.push({
          operationId: op.operationId,
          part: "request",
          where: "query",
          pointer: `/${escapePointer(name)}`,
          message: `is not a query parameter of ${op.operationId}`,
          providerOnly: true,
        });
      }
    }
    if (op.queryParams) {
      const fn = this.validator(op.queryParams, this.paramAjv);
      if (!fn(documented)) push("query", this.explain(fn.errors ?? []));
    }
    const hasBody = x.requestBody !== undefined && x.requestBody !== "";
    if (!op.requestBody) {
      if (hasBody) {
        // Like an unknown query parameter: servers ignore it, only a client relying on it is wrong.
        out.push({
          operationId: op.operationId,
          part: "request",
          where: "body",
          pointer: "",
          message: "the operation takes no request body",
          providerOnly: true,
        });
      }
    } else if (!hasBody) {
      if (op.requestBody.required) {
        out.push({
          operationId: op.operationId,
          part: "request",
          where: "body",
          pointer: "",
          message: "a request body is required",
        });
      }
    } else if (op.requestBody.schema) {
      const fn = this.validator(op.requestBody.schema);
      if (!fn(x.requestBody)) push("body", this.explain(fn.errors ?? []));
    }
    return out;
  }

  private validateResponse(
    operationId: string,
    responses: Map<string, ResponseDef>,
    x: ExchangeLike,
  ): ContractViolation[] {
    const out: ContractViolation[] = [];
    const status = x.status;
    let def = responses.get(String(x.status)) ?? responses.get(`${String(x.status)[0]}XX`) ?? responses.get("default");
    if (!def && x.status >= 400 && this.undocumentedErrorRule) {
      def = { schema: this.errorResponseByStatus.get(x.status) ?? this.genericError };
    }
    if (!def) {
      const documented = [...responses.keys()].join(", ") || "none";
      out.push({
        operationId,
        part: "response",
        status,
        where: "status",
        pointer: "",
        message: `status ${x.status} is not documented (documented: ${documented})`,
      });
      return out;
    }
    const headers = Object.fromEntries(Object.entries(x.responseHeaders ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    for (const [header, name] of def.headers ?? []) {
      if (headers[header] === undefined) continue;
      const fn = this.validator(name, this.paramAjv);
      if (!fn(headers[header])) {
        for (const e of fn.errors ?? []) {
          const d = describe(e);
          out.push({
            operationId,
            part: "response",
            status,
            where: "header",
            pointer: `/${header}`,
            message: d.message,
          });
        }
      }
    }
    if (def.opaque) return out;
    const hasBody = x.responseBody !== undefined && x.responseBody !== "";
    if (!def.schema) {
      if (hasBody) {
        out.push({
          operationId,
          part: "response",
          status,
          where: "body",
          pointer: "",
          message: "the document describes no body for this status, got one",
        });
      }
      return out;
    }
    if (!hasBody) {
      out.push({
        operationId,
        part: "response",
        status,
        where: "body",
        pointer: "",
        message: "a JSON body is documented, got none",
      });
      return out;
    }
    const fn = this.validator(def.schema);
    if (!fn(x.responseBody)) {
      for (const e of this.explain(fn.errors ?? [])) {
        out.push({ operationId, part: "response", status, where: "body", ...describe(e) });
      }
    }
    return out;
  }

  /**
   * ajv reports every failing branch of a failed oneOf/anyOf plus the consequences (unevaluated properties). This
   * keeps, for each failed composition, only the errors of the branch that came closest (re-validated on its own).
   */
  private explain(errors: ErrorObject[], depth = 0): ErrorObject[] {
    let list = [...errors];
    const composites = list
      .filter((e) => (e.keyword === "oneOf" && e.params?.passingSchemas == null) || e.keyword === "anyOf")
      .sort((a, b) => a.instancePath.split("/").length - b.instancePath.split("/").length);
    const removed = new Set<ErrorObject>();
    for (const c of composites) {
      if (removed.has(c) || depth > 8 || !Array.isArray(c.schema)) continue;
      const closed = isObject(c.parentSchema) && c.parentSchema.unevaluatedProperties === false;
      let best: ErrorObject[] | undefined;
      let bestScore = Number.POSITIVE_INFINITY;
      for (const branch of c.schema as Json[]) {
        const fn = this.branchValidator(branch, closed);
        if (fn(c.data)) {
          best = undefined;
          bestScore = Number.NEGATIVE_INFINITY;
          break;
        }
        const branchErrors = this.explain(fn.errors ?? [], depth + 1).map((e) => ({
          ...e,
          instancePath: c.instancePath + e.instancePath,
        }));
        const score = branchScore(branchErrors, c.instancePath);
        if (score < bestScore) {
          bestScore = score;
          best = branchErrors;
        }
      }
      if (!best) continue;
      const inside = (p: string) => p === c.instancePath || p.startsWith(`${c.instancePath}/`);
      for (const e of list) if (inside(e.instancePath)) removed.add(e);
      list = [...list.filter((e) => !removed.has(e)), ...best];
    }
    return depth === 0 ? list.sort((a, b) => pointerOf(a).localeCompare(pointerOf(b))) : list;
  }

  private branchValidator(branch: Json, closed: boolean): ValidateFunction {
    const key = isObject(branch) ? branch : { value: branch };
    let entry = this.branchCache.get(key);
    if (!entry) {
      entry = {};
      this.branchCache.set(key, entry);
    }
    const slot = closed ? "closed" : "open";
    let fn = entry[slot];
    if (!fn) {
      fn = this.ajv.compile(closed ? { allOf: [branch], unevaluatedProperties: false } : branch);
      entry[slot] = fn;
    }
    return fn;
  }
}

function branchScore(errors: ErrorObject[], at: string): number {
  const depthOf = (p: string) => (p === "" ? 0 : p.split("/").length - 1);
  const base = depthOf(at);
  let score = errors.length;
  for (const e of errors) {
    if (e.instancePath === at && e.keyword === "type") score += 1000;
    if ((e.keyword === "const" || e.keyword === "enum") && depthOf(e.instancePath) === base + 1) score += 100;
  }
  return score;
}

function pointerOf(e: ErrorObject): string {
  return describe(e).pointer;
}

function describe(e: ErrorObject): { pointer: string; message: string } {
  let pointer = e.instancePath;
  let message = e.message ?? e.keyword;
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "unevaluatedProperties":
      pointer += `/${escapePointer(String(p.unevaluatedProperty))}`;
      message = "is not a property the document describes here";
      break;
    case "additionalProperties":
      pointer += `/${escapePointer(String(p.additionalProperty))}`;
      message = "is not a property the document allows here (additionalProperties: false)";
      break;
    case "required":
      pointer += `/${escapePointer(String(p.missingProperty))}`;
      message = "is required but missing";
      break;
    case "enum":
      message += ` ${JSON.stringify(p.allowedValues)}`;
      break;
    case "const":
      message += ` ${JSON.stringify(p.allowedValue)}`;
      break;
    case "format":
    case "pattern":
    case "type":
      message += ` (${JSON.stringify(e.data)})`;
      break;
    default:
      break;
  }
  if (e.keyword !== "type" && e.keyword !== "required" && e.data !== undefined && typeof e.data !== "object") {
    if (!message.includes(JSON.stringify(e.data))) message += `, got ${JSON.stringify(e.data)}`;
  }
  return { pointer, message: truncate(message) };
}

function truncate(s: string): string {
  return s.length > 300 ? `${s.slice(0, 297)}...` : s;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** `x-…` keys used as schema keywords: annotations for ajv (which is strict about unknown keywords otherwise). */
function collectExtensionKeywords(node: Json, into: Set<string>, inMap = false): void {
  if (Array.isArray(node)) {
    for (const n of node) collectExtensionKeywords(n, into);
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (!inMap && key.startsWith("x-")) into.add(key);
    const childIsMap = !inMap && (key === "properties" || key === "patternProperties" || key === "$defs");
    if (inMap) collectExtensionKeywords(value, into, false);
    else collectExtensionKeywords(value, into, childIsMap);
  }
}
