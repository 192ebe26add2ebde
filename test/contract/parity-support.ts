/**
 * Building blocks of the parity table (test/contract/parity.test.ts): the rules with their boundary values and the
 * two wordings they must be stated in (the provider's check reason, the API's 400 message), and the parent objects
 * that direct API calls need, created lazily through `fixture.api` once per test.
 */
import { expect } from "vitest";
import type { ApiAnswer, EmulatorFixture } from "../support/emulator";

/** One rule of the API reference, with its boundary values. */
export interface Rule {
  /** The rule in the API reference's words, e.g. "at most 50 characters". */
  text: string;
  /** Values that break the rule under the API reference and the official document alike. */
  rejected: unknown[];
  /** Values at the exact limit (every value, for an enumeration): valid under both documents. */
  accepted: unknown[];
  /** What an accepted value is, for test titles: "at the limit", "an allowed value"… */
  acceptedAs: string;
  /** Asserts how the provider states the rule (its check reason after `Kind.property: `). */
  provider(said: string): void;
  /** Asserts how the API states the rule (its 400 message after `field: `). */
  api(said: string): void;
}

/** Strings of one length (in characters, i.e. Unicode code points, as JSON Schema counts them). */
export type Make = (length: number) => string[];

/**
 * Plain text: ASCII letters, and the same length in an emoji outside the Basic Multilingual Plane (two UTF-16 code
 * units each), which pins that both sides count code points, not UTF-16 units.
 */
export const text: Make = (n) => (n === 0 ? [""] : ["a".repeat(n), "🎉".repeat(n)]);

/** Only ASCII letters (slugs and other patterned fields). */
export const letters: Make = (n) => ["a".repeat(n)];

/** `prefix` padded with letters to exactly `n` characters (URLs, proxy origins). */
export const padded =
  (prefix: string): Make =>
  (n) => [`${prefix}${"a".repeat(n - prefix.length)}`];

export function atMost(n: number, make: Make = text): Rule {
  const said = `must be at most ${n} characters`;
  return {
    text: `at most ${n} characters`,
    rejected: make(n + 1),
    accepted: make(n),
    acceptedAs: "at the limit",
    provider: (reason) => expect(reason).toBe(said),
    api: (message) => expect(message).toBe(said),
  };
}

export function atLeast(n: number, make: Make = text): Rule {
  const unit = n === 1 ? "character" : "characters";
  return {
    text: `at least ${n} ${unit}`,
    rejected: n === 1 ? [""] : make(n - 1),
    accepted: make(n),
    acceptedAs: "at the limit",
    provider: (reason) => expect(reason).toBe(`must be at least ${n} ${unit}`),
    // The emulator words the 1-character minimum "must not be empty".
    api: (message) => expect(message).toBe(n === 1 ? "must not be empty" : `must be at least ${n} ${unit}`),
  };
}

/**
 * The values a message lists, for both wordings: `must be one of "a", "b"` (provider), `must be null or one of a, b`
 * and `must be "a"` (API), `must be a claim of type a, b or c`.
 */
export function listed(said: string): string[] {
  const list = /one of (.+)$/.exec(said) ?? /of type (.+)$/.exec(said) ?? /^must be (.+)$/.exec(said);
  if (!list?.[1]) return [];
  return list[1].split(/,\s*|\s+or\s+/).map((item) => item.trim().replace(/^"(.*)"$/, "$1"));
}

/**
 * An enumeration: both sides must list exactly its values (null aside: nullable fields accept it without listing
 * it). `accepted` defaults to every value.
 */
export function oneOf(values: readonly (string | boolean | null)[], rejected: unknown[], accepted?: unknown[]): Rule {
  const expected = values.filter((v) => v !== null).map(String);
  const lists = (said: string) => {
    expect(said).toMatch(/^must be /);
    expect(new Set(listed(said))).toEqual(new Set(expected));
  };
  const shown = values.map((v) => (v === null ? "null" : JSON.stringify(v)));
  return {
    text: values.length === 1 ? `exactly ${shown[0]}` : `one of ${shown.join(", ")}`,
    rejected,
    accepted: accepted ?? [...values],
    acceptedAs: "an allowed value",
    provider: lists,
    api: lists,
  };
}

/** A pattern: the provider quotes the regex; the API states the rule in words of its own. */
export function matches(pattern: RegExp, values: { rejected: string[]; accepted: string[] }, apiWording: RegExp): Rule {
  return {
    text: `matches ${pattern.source}`,
    ...values,
    acceptedAs: "a matching value",
    provider: (reason) => expect(reason).toBe(`must match the pattern ${String(pattern)}`),
    api: (message) => expect(message).toMatch(apiWording),
  };
}

/** An absolute URI (format uri). */
export function uri(values: { rejected: string[]; accepted: string[] }): Rule {
  return {
    text: "an absolute URI",
    ...values,
    acceptedAs: "a valid URI",
    provider: (reason) => expect(reason).toBe("must be a valid url"),
    api: (message) => expect(message).toBe("must be a valid absolute URI"),
  };
}

/** How a value is sent to the API directly: `field` is the API's name of it, as its 400 message must name it. */
export interface ApiRequest {
  method: "POST" | "PUT" | "PATCH";
  path: string;
  body: unknown;
  field: string;
}

/**
 * Parent objects of the direct API calls, each created on first use through `fixture.api` (so through the
 * emulator's own validation) and kept for the rest of the test. Make a new one before every test: the emulator is
 * reset then.
 */
export class Parents {
  private readonly made = new Map<string, Promise<string>>();

  constructor(private readonly fixture: EmulatorFixture) {}

  get org(): string {
    return this.fixture.org();
  }

  space(index: number): string {
    return this.fixture.emulator.spaceIds[index]!;
  }

  user(index: number): string {
    return this.fixture.emulator.userIds[index]!;
  }

  collection(): Promise<string> {
    return this.once("collection", "POST", `/orgs/${this.org}/collections`, { title: "Parity" });
  }

  team(): Promise<string> {
    return this.once("team", "PUT", `/orgs/${this.org}/teams`, { title: "Parity" });
  }

  /** A site showing the first space (at its root level until a section is made). */
  site(): Promise<string> {
    return this.once("site", "POST", `/orgs/${this.org}/sites`, { title: "Parity", spaces: [this.space(0)] });
  }

  /** `/orgs/{organizationId}/sites/{siteId}` of `site()`. */
  async sitePath(): Promise<string> {
    return `/orgs/${this.org}/sites/${await this.site()}`;
  }

  section(): Promise<string> {
    return this.sitePath().then((site) => this.once("section", "POST", `${site}/sections`, { spaceId: this.space(1) }));
  }

  siteSpace(): Promise<string> {
    return this.sitePath().then((site) =>
      this.once("siteSpace", "POST", `${site}/site-spaces`, { spaceId: this.space(2) }),
    );
  }

  /** A context connection of `site()` that reads records pushed through the API (no setup). */
  contextConnection(): Promise<string> {
    return this.sitePath().then((site) =>
      this.once("contextConnection", "POST", `${site}/context-connections`, { connector: "builtin:api" }),
    );
  }

  private once(key: string, method: string, path: string, body: unknown): Promise<string> {
    let id = this.made.get(key);
    if (!id) {
      id = this.fixture.api(method, path, body).then((answer: ApiAnswer) => {
        if (answer.status !== 201) {
          throw new Error(`parent ${key}: ${method} ${path} answered ${answer.status} ${JSON.stringify(answer.body)}`);
        }
        return (answer.body as { id: string }).id;
      });
      this.made.set(key, id);
    }
    return id;
  }
}

/** A short, readable name of a value for test titles: long repetitions become `"a"×51`. */
export function show(value: unknown): string {
  if (typeof value !== "string") return JSON.stringify(value);
  const chars = [...value];
  if (chars.length > 3 && chars.every((c) => c === chars[0])) return `"${chars[0]}"×${chars.length}`;
  if (chars.length > 40) return `"${chars.slice(0, 24).join("")}…" (${chars.length} characters)`;
  return JSON.stringify(value);
}
