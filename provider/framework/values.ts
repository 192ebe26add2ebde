import type { Props } from "./kind";

/** Equality as the API sees it: null and absent are the same, key order is irrelevant, sets ignore order. */
export function sameValue(a: unknown, b: unknown, asSet = false): boolean {
  return canonical(a, asSet) === canonical(b, asSet);
}

function canonical(value: unknown, asSet: boolean): string {
  // Stryker disable next-line LogicalOperator,StringLiteral: props are JSON, which normalize never turns into undefined
  return JSON.stringify(normalize(value, asSet)) ?? "null";
}

/** Any fixed order of an object's keys will do: both sides of a comparison are put in the same one. */
function byKey([x]: [string, unknown], [y]: [string, unknown]): number {
  // Stryker disable next-line EqualityOperator,ConditionalExpression: the keys of one object never compare equal, and sort only asks whether the result is below 0
  return x < y ? -1 : x > y ? 1 : 0;
}

function normalize(value: unknown, asSet: boolean): unknown {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) {
    const items = value.map((item) => normalize(item, false));
    return asSet ? items.map((item) => JSON.stringify(item)).sort() : items;
  }
  if (typeof value === "object") {
    const entries = Object.entries(value as Props)
      .filter(([, v]) => v !== undefined && v !== null)
      .sort(byKey)
      .map(([k, v]) => [k, normalize(v, false)]);
    return Object.fromEntries(entries);
  }
  return value;
}

/**
 * The provider host turns results into protobuf Structs, which reject `undefined` anywhere ("Unexpected struct
 * type"): drop undefined properties at every depth, as JSON does.
 */
export function wireSafe(props: Props): Props {
  return JSON.parse(JSON.stringify(props));
}
