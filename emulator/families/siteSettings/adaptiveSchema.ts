/**
 * Site adaptive schema: GET/PUT …/adaptive-schema and GET …/adaptive-schema/template-conditions.
 *
 * The jsonSchema is validated against the official SiteAdaptiveJSONSchema (wider than the API reference's boolean-only
 * claims): a closed draft-07 object schema whose properties are claims (boolean, string, string enum, number, array
 * of primitive claims, nested object of claims) plus an optional `unsigned` object of claims.
 */
import { BadRequestError, NotFoundError } from "../../errors";
import type { Route } from "../../types";
import { isPlainObject, parseBody, req } from "../../validate";
import { ok, requireSite } from "../common";

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";
const UNSIGNED_DESCRIPTION = "Unsigned claims of the site visitor.";
const MAX_DEPTH = 8;

function fail(path: string, rule: string): never {
  throw new BadRequestError(`${path}: ${rule}`);
}

function onlyKeys(value: Record<string, unknown>, allowed: string[], path: string): void {
  for (const k of Object.keys(value)) {
    if (!allowed.includes(k)) fail(`${path}.${k}`, `unknown keyword (allowed: ${allowed.join(", ")})`);
  }
}

function requireKeys(value: Record<string, unknown>, keys: string[], path: string): void {
  for (const k of keys) if (!Object.hasOwn(value, k)) fail(`${path}.${k}`, "is required");
}

function description(value: Record<string, unknown>, path: string): void {
  if (typeof value.description !== "string") fail(`${path}.description`, "must be a string");
}

function primitiveClaim(value: unknown, path: string): void {
  if (!isPlainObject(value)) fail(path, "must be a claim schema object");
  switch (value.type) {
    case "boolean":
    case "number":
      onlyKeys(value, ["type", "description"], path);
      requireKeys(value, ["description"], path);
      description(value, path);
      return;
    case "string":
      if (Object.hasOwn(value, "enum")) {
        onlyKeys(value, ["type", "enum", "description"], path);
        if (!Array.isArray(value.enum) || !value.enum.every((e) => typeof e === "string")) {
          fail(`${path}.enum`, "must be an array of strings");
        }
      } else {
        onlyKeys(value, ["type", "description"], path);
      }
      requireKeys(value, ["description"], path);
      description(value, path);
      return;
    default:
      fail(`${path}.type`, "must be one of boolean, string, number");
  }
}

function claim(value: unknown, path: string, depth: number): void {
  if (!isPlainObject(value)) fail(path, "must be a claim schema object");
  if (value.type === "array") {
    onlyKeys(value, ["type", "description", "items"], path);
    requireKeys(value, ["description", "items"], path);
    description(value, path);
    primitiveClaim(value.items, `${path}.items`);
    return;
  }
  if (value.type === "object") {
    if (depth >= MAX_DEPTH) fail(path, `must not nest objects deeper than ${MAX_DEPTH} levels`);
    onlyKeys(value, ["type", "description", "properties", "additionalProperties"], path);
    requireKeys(value, ["description", "properties", "additionalProperties"], path);
    description(value, path);
    if (value.additionalProperties !== false) fail(`${path}.additionalProperties`, "must be false");
    claims(value.properties, `${path}.properties`, depth + 1);
    return;
  }
  if (value.type === "boolean" || value.type === "string" || value.type === "number") {
    primitiveClaim(value, path);
    return;
  }
  fail(`${path}.type`, "must be one of boolean, string, number, array, object");
}

function claims(value: unknown, path: string, depth: number): void {
  if (!isPlainObject(value)) fail(path, "must be an object mapping claim names to claim schemas");
  for (const [k, v] of Object.entries(value)) claim(v, `${path}.${k}`, depth);
}

export function checkAdaptiveJsonSchema(value: unknown, path: string): Record<string, unknown> {
  if (!isPlainObject(value)) fail(path, "must be a JSON Schema object");
  onlyKeys(value, ["$schema", "type", "properties", "additionalProperties"], path);
  requireKeys(value, ["type", "properties", "additionalProperties"], path);
  if (Object.hasOwn(value, "$schema") && value.$schema !== DRAFT_07) fail(`${path}.$schema`, `must be "${DRAFT_07}"`);
  if (value.type !== "object") fail(`${path}.type`, 'must be "object"');
  if (value.additionalProperties !== false) fail(`${path}.additionalProperties`, "must be false");
  if (!isPlainObject(value.properties)) fail(`${path}.properties`, "must be an object");
  for (const [k, v] of Object.entries(value.properties)) {
    const p = `${path}.properties.${k}`;
    if (k === "unsigned") {
      if (!isPlainObject(v)) fail(p, "must be an object schema");
      onlyKeys(v, ["type", "description", "properties", "additionalProperties"], p);
      requireKeys(v, ["type", "description", "properties", "additionalProperties"], p);
      if (v.type !== "object") fail(`${p}.type`, 'must be "object"');
      if (v.description !== UNSIGNED_DESCRIPTION) fail(`${p}.description`, `must be "${UNSIGNED_DESCRIPTION}"`);
      if (v.additionalProperties !== false) fail(`${p}.additionalProperties`, "must be false");
      claims(v.properties, `${p}.properties`, 1);
    } else {
      claim(v, p, 0);
    }
  }
  return value;
}

interface TemplateCondition {
  description: string;
  condition: string;
}

/** Example conditions derived from the schema's claims. */
function templateConditions(schema: unknown): TemplateCondition[] {
  const out: TemplateCondition[] = [];
  const walk = (props: unknown, prefix: string) => {
    if (!isPlainObject(props)) return;
    for (const [name, def] of Object.entries(props)) {
      if (!isPlainObject(def)) continue;
      const ref = `${prefix}.${name}`;
      const label = typeof def.description === "string" && def.description ? def.description : name;
      if (def.type === "boolean") {
        out.push({ description: `Visitors for whom "${label}" is true`, condition: `${ref} === true` });
      } else if (def.type === "string" && Array.isArray(def.enum)) {
        for (const value of def.enum) {
          out.push({
            description: `Visitors whose "${label}" is ${JSON.stringify(value)}`,
            condition: `${ref} === ${JSON.stringify(value)}`,
          });
        }
      } else if (def.type === "string") {
        out.push({ description: `Visitors with a "${label}"`, condition: `Boolean(${ref})` });
      } else if (def.type === "number") {
        out.push({ description: `Visitors whose "${label}" is positive`, condition: `${ref} > 0` });
      } else if (def.type === "array") {
        out.push({ description: `Visitors with at least one "${label}"`, condition: `${ref}?.length > 0` });
      } else if (def.type === "object") {
        walk(def.properties, ref);
      }
    }
  };
  if (isPlainObject(schema)) {
    const props = schema.properties;
    if (isPlainObject(props)) {
      const { unsigned, ...signed } = props;
      walk(signed, "visitor.claims");
      if (isPlainObject(unsigned)) walk(unsigned.properties, "visitor.claims.unsigned");
    }
  }
  return out;
}

export const adaptiveSchemaRoutes: Route[] = [
  {
    method: "GET",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema",
    handler: (ctx) => {
      const site = requireSite(ctx);
      const rec = ctx.store.adaptiveSchemas.get(site.id);
      // Official (getSiteAdaptiveSchema): 404 "No visitor attributes schema found for the site" until one is written.
      if (!rec) throw new NotFoundError(`No visitor attributes schema found for site "${site.id}"`);
      return ok({
        object: "site-adaptive-schema",
        jsonSchema: structuredClone(rec.jsonSchema),
        updatedAt: rec.updatedAt,
      });
    },
  },
  {
    method: "PUT",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema",
    handler: (ctx) => {
      const site = requireSite(ctx);
      const body = parseBody(ctx.body, { jsonSchema: req(checkAdaptiveJsonSchema) }, { required: true });
      const rec = ctx.store.siteSettingsStore.setAdaptiveSchema(site, body.jsonSchema);
      return ok({
        object: "site-adaptive-schema",
        jsonSchema: structuredClone(rec.jsonSchema),
        updatedAt: rec.updatedAt,
      });
    },
  },
  {
    method: "GET",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema/template-conditions",
    handler: (ctx) => {
      const site = requireSite(ctx);
      return ok({ items: templateConditions(ctx.store.adaptiveSchemas.get(site.id)?.jsonSchema) });
    },
  },
];
