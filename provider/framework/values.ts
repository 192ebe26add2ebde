import type { Props } from "./kind";

/** Equality as the API sees it: null and absent are the same, key order is irrelevant, sets ignore order. */
export function sameValue(a: unknown, b: unknown, asSet = false): boolean {
  return canonical(a, asSet) === canonical(b, asSet);
}

function canonical(value: unknown, asSet = false): string {
  // Stryker disable next-line LogicalOperator,StringLiteral: props are JSON, which normalize never turns into undefined
  return JSON.stringify(normalize(value, asSet)) ?? "null";
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
      // Stryker disable next-line EqualityOperator,ConditionalExpression: the keys of one object never compare equal, so `0` and `>=` are never reached
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
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
