import type { Props } from "./kind";
import { containsUnknown } from "./unknown";

/**
 * Array inputs whose items have a unique key field (`KindDefinition.keyedProperties`: a redirect's `source`), stored
 * in the engine's inputs as an object by that key: `[{ source: "/a", …rest }]` becomes `{ "/a": { …rest } }`.
 *
 * Why: a dynamic provider cannot send a detailed diff, so the CLI prints its own diff of the old and new stored
 * inputs (`backend/display`, `ObjectDiff`), and it compares arrays position by position: one item added near the
 * start reads as a rewrite of every item after it. Objects are compared key by key, so the same change reads as
 * that one item added (`+ /a: {…}`), a removal as `- /a`, an edit as `~ /a`.
 *
 * `check` returns the keyed form; everything the kind's functions see is the plain form again (`plain`), which is
 * also what inputs stored by older versions of this package hold. The outputs, and so the resource's class
 * properties after an apply, keep the array.
 */
export class KeyedProperties {
  private readonly keys: ReadonlyMap<string, string>;

  constructor(keys: Readonly<Record<string, string | undefined>> = {}) {
    this.keys = new Map(Object.entries(keys).filter((entry): entry is [string, string] => entry[1] !== undefined));
  }

  /** The keyed properties, which compare as sets: an object has no order to compare. */
  get properties(): readonly string[] {
    return [...this.keys.keys()];
  }

  /**
   * Each keyed property's array as an object by key. An array the keys cannot index exactly (an item that is not
   * an object, a key not known yet at preview or not a string, a key given twice) stays an array: check has reported
   * what is wrong with it, or it is judged at apply, and the preview shows it by position as before.
   */
  keyed(props: Props): Props {
    const result: Props = { ...props };
    for (const [property, key] of this.keys) {
      const byKey = indexByKey(props[property], key);
      if (byKey !== undefined) result[property] = byKey;
    }
    return result;
  }

  /** Each keyed property as an array again, in key order; arrays (older stored inputs, outputs) pass unchanged. */
  plain(props: Props): Props {
    let result: Props | undefined;
    for (const [property, key] of this.keys) {
      const value = props[property];
      if (!isRecord(value)) continue;
      result ??= { ...props };
      result[property] = Object.entries(value)
        .sort(byName)
        .map(([name, rest]) => ({ [key]: name, ...(isRecord(rest) ? rest : {}) }));
    }
    return result ?? props;
  }
}

function byName([a]: [string, unknown], [b]: [string, unknown]): number {
  // Stryker disable next-line EqualityOperator,ConditionalExpression: the keys of one object never compare equal, and sort only asks whether the result is below 0
  return a < b ? -1 : a > b ? 1 : 0;
}

function indexByKey(value: unknown, key: string): Props | undefined {
  if (!Array.isArray(value)) return undefined;
  const byKey = new Map<string, Props>();
  for (const item of value) {
    if (!isRecord(item)) return undefined;
    const { [key]: name, ...rest } = item;
    if (typeof name !== "string" || containsUnknown(name) || byKey.has(name)) return undefined;
    byKey.set(name, rest);
  }
  // fromEntries defines own properties: a key such as `__proto__` stays data.
  return Object.fromEntries(byKey);
}

function isRecord(value: unknown): value is Props {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
