/**
 * A rule's settings and the policy config that sets them. The engine checks a config file's values against each
 * policy's configSchema, but it passes on a rule name no policy has and a setting no schema lists: a typo would then
 * be ignored. `configProblems` finds those, and every wrong value, with the fix; the pack refuses such a config.
 */
import { closestName } from "../framework/explain";

/** The enforcement levels a rule of this pack can have: it validates, never remediates. */
export const LEVELS = ["advisory", "mandatory", "disabled"] as const;
export type Level = (typeof LEVELS)[number];

export type SettingSchema =
  | { type: "array"; items: { type: "string" } }
  | { type: "integer"; minimum: number }
  | { type: "string"; enum: readonly string[] };

/** One setting of a rule; `T` is the type of its value. */
export interface Setting<T = unknown> {
  description: string;
  schema: SettingSchema;
  default: T;
}

export type Settings = Readonly<Record<string, Setting>>;

/** The values a rule's check reads, by setting. */
export type SettingValues<S extends Settings> = { readonly [K in keyof S]: S[K] extends Setting<infer T> ? T : never };

export function stringList(description: string): Setting<readonly string[]> {
  return { description, schema: { type: "array", items: { type: "string" } }, default: [] };
}

export function integer(description: string, minimum: number, fallback: number): Setting<number> {
  return { description, schema: { type: "integer", minimum }, default: fallback };
}

export function oneOf<V extends string>(description: string, values: readonly V[], fallback: V): Setting<V> {
  return { description, schema: { type: "string", enum: values }, default: fallback };
}

/** A setting's type in words, for messages and the reference. */
export function typeText(schema: SettingSchema): string {
  switch (schema.type) {
    case "array":
      return "list of strings";
    case "integer":
      return `integer, at least ${schema.minimum}`;
    case "string":
      return `one of ${schema.enum.map((value) => `"${value}"`).join(", ")}`;
  }
}

/** What a setting's value must be, in a sentence: "maxPerSite must be <this>". */
function expected(schema: SettingSchema): string {
  return schema.type === "string" ? typeText(schema) : `${schema.type === "array" ? "a" : "an"} ${typeText(schema)}`;
}

function fits(schema: SettingSchema, value: unknown): boolean {
  switch (schema.type) {
    case "array":
      return Array.isArray(value) && value.every((item) => typeof item === "string");
    case "integer":
      return typeof value === "number" && Number.isInteger(value) && value >= schema.minimum;
    case "string":
      return typeof value === "string" && schema.enum.includes(value);
  }
}

function shown(value: unknown): string {
  return `${JSON.stringify(value)} (${Array.isArray(value) ? "a list" : value === null ? "null" : `a ${typeof value}`})`;
}

/** What is wrong with one rule's settings (`enforcementLevel` aside), each naming the rule, the setting and the fix. */
export function settingProblems(rule: string, settings: Settings, given: Readonly<Record<string, unknown>>): string[] {
  const problems: string[] = [];
  const names = Object.keys(settings);
  for (const [name, value] of Object.entries(given)) {
    if (name === "enforcementLevel") continue;
    const setting = settings[name];
    if (setting === undefined) {
      const known = names.length > 0 ? `its settings are ${names.join(", ")}` : "it has no settings";
      problems.push(`${rule}: "${name}" is not a setting of this rule (${known}); remove it or fix its name`);
    } else if (!fits(setting.schema, value)) {
      problems.push(`${rule}: ${name} must be ${expected(setting.schema)}, not ${shown(value)}`);
    }
  }
  return problems;
}

function levelProblem(key: string, level: unknown): string | undefined {
  if ((LEVELS as readonly unknown[]).includes(level)) return undefined;
  return `${key}: enforcementLevel must be one of ${LEVELS.join(", ")}, not ${shown(level)}`;
}

/**
 * What is wrong with a policy config (`{ "<rule>": "<level>" | { enforcementLevel?, ...settings } }`, `all` setting
 * every rule's level) for these rules; `others` names policies of the same pack whose config is theirs to check.
 */
export function configProblems(
  config: Readonly<Record<string, unknown>>,
  rules: ReadonlyMap<string, Settings>,
  others: readonly string[] = [],
): string[] {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(config)) {
    if (others.includes(key)) continue;
    const settings = key === "all" ? {} : rules.get(key);
    if (settings === undefined) {
      const near = closestName(key, [...rules.keys()]);
      problems.push(
        `"${key}" is not a rule of this policy pack: ` +
          (near === undefined
            ? `its rules are ${[...rules.keys()].join(", ")} (and "all" for every rule's enforcement level).`
            : `did you mean "${near}"?`) +
          " Fix the name or remove the entry",
      );
      continue;
    }
    if (typeof value === "string") {
      const problem = levelProblem(key, value);
      if (problem) problems.push(problem);
    } else if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      const entry = value as Record<string, unknown>;
      const problem = "enforcementLevel" in entry ? levelProblem(key, entry.enforcementLevel) : undefined;
      if (problem) problems.push(problem);
      problems.push(...settingProblems(key, settings, entry));
    } else {
      problems.push(`${key}: must be an enforcement level or an object of settings, not ${shown(value)}`);
    }
  }
  return problems;
}

/** One error for all the problems of a config, so that a fix of one does not reveal the next. */
export function configError(where: string, problems: readonly string[]): Error {
  return new Error(`${where}: the policy config is invalid:\n  - ${problems.join("\n  - ")}`);
}

/** A rule's settings as its check reads them: the given values over the defaults; throws on a wrong one. */
export function resolvedSettings(
  rule: string,
  settings: Settings,
  given: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const problems = settingProblems(rule, settings, given);
  if (problems.length > 0) throw configError(`rule ${rule}`, problems);
  const resolved: Record<string, unknown> = {};
  for (const [name, setting] of Object.entries(settings)) resolved[name] = given[name] ?? setting.default;
  return resolved;
}
