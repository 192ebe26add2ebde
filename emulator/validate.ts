/**
 * Small, dependency-free request validators. Every failure throws a BadRequestError whose message names the
 * field and the rule, e.g. `title: must be at most 50 characters`.
 */
import { BadRequestError } from "./errors";

export type Check<T> = (value: unknown, path: string) => T;

export interface Field<T, R extends boolean> {
  readonly check: Check<T>;
  readonly required: R;
}

// biome-ignore lint/suspicious/noExplicitAny: generic field shape
export type Shape = Record<string, Field<any, boolean>>;

type FieldType<F> = F extends Field<infer T, boolean> ? T : never;
type RequiredKeys<S extends Shape> = { [K in keyof S]: S[K]["required"] extends true ? K : never }[keyof S];
type OptionalKeys<S extends Shape> = Exclude<keyof S, RequiredKeys<S>>;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

export type Parsed<S extends Shape> = Simplify<
  { [K in RequiredKeys<S>]: FieldType<S[K]> } & { [K in OptionalKeys<S>]?: FieldType<S[K]> }
>;

export function req<T>(check: Check<T>): Field<T, true> {
  return { check, required: true };
}

export function opt<T>(check: Check<T>): Field<T, false> {
  return { check, required: false };
}

function fail(path: string, rule: string): never {
  throw new BadRequestError(`${path || "body"}: ${rule}`);
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** Length in Unicode code points, as JSON Schema counts it. */
export function charLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export interface StringOptions {
  min?: number;
  max?: number;
  pattern?: RegExp;
  /** Human description of the pattern used in the message instead of the regex source. */
  patternLabel?: string;
  uri?: boolean;
}

export function isUri(value: string): boolean {
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:[^\s]*$/.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

export function str(options: StringOptions = {}): Check<string> {
  return (value, path) => {
    if (typeof value !== "string") fail(path, `must be a string (got ${typeName(value)})`);
    const len = charLength(value);
    if (options.min !== undefined && len < options.min) {
      fail(path, options.min === 1 ? "must not be empty" : `must be at least ${options.min} characters`);
    }
    if (options.max !== undefined && len > options.max) fail(path, `must be at most ${options.max} characters`);
    if (options.pattern && !options.pattern.test(value)) {
      fail(path, options.patternLabel ?? `must match pattern ${options.pattern.source}`);
    }
    if (options.uri && !isUri(value)) fail(path, "must be a valid absolute URI");
    return value;
  };
}

export function bool(): Check<boolean> {
  return (value, path) => {
    if (typeof value !== "boolean") fail(path, `must be a boolean (got ${typeName(value)})`);
    return value;
  };
}

export function oneOfValues<const T extends string>(values: readonly T[]): Check<T> {
  return (value, path) => {
    if (typeof value !== "string" || !(values as readonly string[]).includes(value)) {
      fail(path, `must be one of ${values.join(", ")}`);
    }
    return value as T;
  };
}

export function literal<const T extends string | boolean>(expected: T): Check<T> {
  return (value, path) => {
    if (value !== expected) fail(path, `must be ${JSON.stringify(expected)}`);
    return expected;
  };
}

export function nullable<T>(check: Check<T>): Check<T | null> {
  return (value, path) => (value === null ? null : check(value, path));
}

export function arr<T>(check: Check<T>, options: { min?: number; max?: number } = {}): Check<T[]> {
  return (value, path) => {
    if (!Array.isArray(value)) fail(path, `must be an array (got ${typeName(value)})`);
    if (options.min !== undefined && value.length < options.min) fail(path, `must have at least ${options.min} items`);
    if (options.max !== undefined && value.length > options.max) fail(path, `must have at most ${options.max} items`);
    return value.map((item, i) => check(item, `${path}[${i}]`));
  };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function record<T>(check: Check<T>): Check<Record<string, T>> {
  return (value, path) => {
    if (!isPlainObject(value)) fail(path, `must be an object (got ${typeName(value)})`);
    const out: Record<string, T> = {};
    for (const [k, v] of Object.entries(value)) {
      // defineProperty: a "__proto__" key stays a plain own property
      Object.defineProperty(out, k, {
        value: check(v, path ? `${path}.${k}` : k),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  };
}

export interface ObjectOptions {
  /** Minimum number of properties (official `minProperties`). */
  minProperties?: number;
  /** Allow properties not listed in the shape (default false: unknown fields are rejected). */
  allowUnknown?: boolean;
}

export function obj<S extends Shape>(shape: S, options: ObjectOptions = {}): Check<Parsed<S>> {
  return (value, path) => {
    if (!isPlainObject(value)) fail(path, `must be a JSON object (got ${typeName(value)})`);
    const out: Record<string, unknown> = {};
    const prefix = path ? `${path}.` : "";
    if (!options.allowUnknown) {
      for (const key of Object.keys(value)) {
        if (!Object.hasOwn(shape, key)) {
          const known = Object.keys(shape);
          fail(
            `${prefix}${key}`,
            `unknown field${known.length ? ` (allowed: ${known.join(", ")})` : " (no fields allowed)"}`,
          );
        }
      }
    }
    for (const [key, field] of Object.entries(shape)) {
      if (!Object.hasOwn(value, key) || value[key] === undefined) {
        if (field.required) fail(`${prefix}${key}`, "is required");
        continue;
      }
      out[key] = field.check(value[key], `${prefix}${key}`);
    }
    if (options.minProperties !== undefined && Object.keys(value).length < options.minProperties) {
      fail(path, `must have at least ${options.minProperties} propert${options.minProperties === 1 ? "y" : "ies"}`);
    }
    return out as Parsed<S>;
  };
}

/** Validates a request body against a shape. `body` is `undefined` when the request had no body. */
export function parseBody<S extends Shape>(
  body: unknown,
  shape: S,
  options: ObjectOptions & { required?: boolean } = {},
): Parsed<S> {
  if (body === undefined) {
    if (options.required) throw new BadRequestError("body: a JSON object is required");
    body = {};
  }
  return obj(shape, options)(body, "");
}

/** For operations that take no body: accept nothing, `{}` or `null`. */
export function expectNoBody(body: unknown): void {
  if (body === undefined || body === null) return;
  if (isPlainObject(body) && Object.keys(body).length === 0) return;
  if (isPlainObject(body)) fail(Object.keys(body)[0] ?? "body", "unknown field (this operation takes no body)");
  fail("body", "this operation takes no body");
}

// ---------------------------------------------------------------------------------------------------------------
// Query helpers

export type Query = Record<string, string | string[]>;

/*
 * Every query parameter the emulator reads is a scalar in the official document except listSites' `type` (an array,
 * the default `form` style with `explode: true`: `type=basic&type=premium`). So a scalar given twice is a 400, not
 * last-wins; and an empty value (`limit=`) is a value, never taken for an absent parameter: a 400 where "" is invalid
 * (numbers, booleans and enumerations by their schemas; `page`, as no cursor is empty), a plain value elsewhere (the
 * filters are plain strings with no minLength: every title contains "", no id equals it).
 */

/** The value of a scalar parameter; a repeated one is a 400. */
export function queryString(query: Query, name: string): string | undefined {
  const v = query[name];
  if (Array.isArray(v)) throw new BadRequestError(`${name}: must not be repeated (got ${v.length} values)`);
  return v;
}

/** The values of an array parameter whose items are one of `values` (`name=a&name=b`; a comma is no separator). */
export function queryEnumList<const T extends string>(query: Query, name: string, values: readonly T[]): T[] {
  const v = query[name];
  if (v === undefined) return [];
  const given = Array.isArray(v) ? v : [v];
  for (const item of given) {
    if (!(values as readonly string[]).includes(item)) {
      throw new BadRequestError(`${name}: must be one of ${values.join(", ")}`);
    }
  }
  return given as T[];
}

export function queryBool(query: Query, name: string): boolean | undefined {
  const v = queryString(query, name);
  if (v === undefined) return undefined;
  if (v === "true" || v === "1") return true;
  if (v === "false" || v === "0") return false;
  throw new BadRequestError(`${name}: must be a boolean (true or false)`);
}

export function queryEnum<const T extends string>(query: Query, name: string, values: readonly T[]): T | undefined {
  const v = queryString(query, name);
  if (v === undefined) return undefined;
  if (!(values as readonly string[]).includes(v))
    throw new BadRequestError(`${name}: must be one of ${values.join(", ")}`);
  return v as T;
}

// ---------------------------------------------------------------------------------------------------------------
// Shared field rules (limits of the API reference, widened to what the official document accepts)

export const MEMBER_ROLES = ["admin", "create", "edit", "review", "comment", "read"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];
export type DefaultLevel = MemberRole | null | "inherit";

export const memberRoleOrGuest: Check<MemberRole | null> = nullable(oneOfValues(MEMBER_ROLES));

export const defaultLevel: Check<DefaultLevel> = (value, path) => {
  if (value === null) return null;
  if (typeof value === "string" && (value === "inherit" || (MEMBER_ROLES as readonly string[]).includes(value))) {
    return value as DefaultLevel;
  }
  fail(path, `must be null or one of ${[...MEMBER_ROLES, "inherit"].join(", ")}`);
};

export const SITE_VISIBILITIES = ["public", "unlisted", "share-link", "visitor-auth"] as const;
export const SITE_TYPES = ["basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium"] as const;

/** Icon: string (format `icon`), max 50. */
export const icon = str({ max: 50 });
/**
 * Expression: the API reference's 1..1024, stricter than the official document's 0..1024 (null, not "", is how a
 * condition is removed); a choice listed in test/contract/deviations.ts.
 */
export const expression = str({ min: 1, max: 1024 });
/** URL: string, format uri, max 2048. */
export const url = str({ max: 2048, uri: true });
/** Entity id as used in paths. */
export const entityId = str({
  min: 1,
  pattern: /^[a-zA-Z0-9_-]+$/,
  patternLabel: "must be an id made of a-z, A-Z, 0-9, _ and -",
});

/** The rules of the official `MergeRule`: three take user ids, `custom` an expression, the others nothing. */
const USER_LIST_RULES = ["require_specific_reviewers", "require_one_of_specific_reviewers", "allow_bypass"] as const;
const PLAIN_RULES = [
  "require_at_least_one_review",
  "require_at_least_one_approved_review",
  "require_all_reviews_approved",
  "require_agent_review",
  "require_up_to_date_change_request",
  "require_change_request_subject",
  "require_change_request_description",
  "require_author_to_merge",
] as const;
const ALL_RULES = [...USER_LIST_RULES, ...PLAIN_RULES, "custom"] as const;

export type MergeRule =
  | { rule: (typeof USER_LIST_RULES)[number]; users: string[] }
  | { rule: (typeof PLAIN_RULES)[number] }
  | { rule: "custom"; expression: string; message?: string };

const mergeRule: Check<MergeRule> = (value, path) => {
  if (!isPlainObject(value)) fail(path, `must be a JSON object (got ${typeName(value)})`);
  const rule = oneOfValues(ALL_RULES)(value.rule, `${path}.rule`);
  if ((USER_LIST_RULES as readonly string[]).includes(rule)) {
    return obj({ rule: req(str()), users: req(arr(str({ min: 1 }))) })(value, path) as MergeRule;
  }
  if (rule === "custom") {
    // The official Expression is 0..1024 characters.
    return obj({ rule: req(str()), expression: req(str({ max: 1024 })), message: opt(str()) })(
      value,
      path,
    ) as MergeRule;
  }
  return obj({ rule: req(str()) })(value, path) as MergeRule;
};

export type MergeRules = { type: "rules"; rules: MergeRule[] } | { type: "none" } | { type: "inherit" };

/**
 * The official `MergeRulesStandaloneConfiguration` (an organization's: `rules` or `none`) and, with `inherit`,
 * `MergeRulesSpaceConfiguration` (a space's, which may follow its organization's).
 */
export function mergeRules(options: { inherit: boolean }): Check<MergeRules> {
  const types = options.inherit ? (["rules", "none", "inherit"] as const) : (["rules", "none"] as const);
  return (value, path) => {
    if (!isPlainObject(value)) fail(path, `must be a JSON object (got ${typeName(value)})`);
    const type = oneOfValues<MergeRules["type"]>(types)(value.type, `${path}.type`);
    if (type === "rules") return obj({ type: req(str()), rules: req(arr(mergeRule)) })(value, path) as MergeRules;
    return obj({ type: req(str()) })(value, path) as MergeRules;
  };
}
