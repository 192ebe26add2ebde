import { describe, expect, it } from "vitest";
import { KeyedProperties } from "../../provider/framework/keyed";
import { UNKNOWN } from "../../provider/framework/unknown";

const rules = new KeyedProperties({ redirects: "source" });
const rule = (source: unknown, url = "https://x.example/") => ({ source, destination: { url }, permanent: false });

describe("KeyedProperties", () => {
  it("stores a keyed array as an object by key, and gives the array back in key order", () => {
    const plain = { siteId: "s", redirects: [rule("/b"), rule("/a", "https://a.example/")] };
    const keyed = rules.keyed(plain);
    expect(keyed).toEqual({
      siteId: "s",
      redirects: {
        "/b": { destination: { url: "https://x.example/" }, permanent: false },
        "/a": { destination: { url: "https://a.example/" }, permanent: false },
      },
    });
    expect(rules.plain(keyed)).toEqual({ siteId: "s", redirects: [rule("/a", "https://a.example/"), rule("/b")] });
    expect(rules.plain({ redirects: {} })).toEqual({ redirects: [] });
    expect(rules.keyed({ redirects: [] })).toEqual({ redirects: {} });
  });

  it("leaves arrays as they are where the key cannot index them exactly, and other properties untouched", () => {
    for (const redirects of [
      [rule("/a"), rule("/a")],
      [rule(UNKNOWN)],
      [rule(3)],
      [rule("/a"), "/b"],
      [rule("/a"), null],
      [[rule("/a")]],
    ]) {
      expect(rules.keyed({ redirects }), JSON.stringify(redirects)).toEqual({ redirects });
    }
    expect(rules.keyed({ redirects: UNKNOWN, other: [rule("/a")] })).toEqual({
      redirects: UNKNOWN,
      other: [rule("/a")],
    });
  });

  it("passes arrays (inputs stored by earlier versions, outputs) and non-objects through plain unchanged", () => {
    const stored = { redirects: [rule("/b"), rule("/a")] };
    expect(rules.plain(stored)).toBe(stored);
    expect(rules.plain({ redirects: UNKNOWN })).toEqual({ redirects: UNKNOWN });
    expect(rules.plain({ redirects: null })).toEqual({ redirects: null });
  });

  it("keeps a key named like an Object.prototype property as data", () => {
    const keyed = rules.keyed({ redirects: [rule("__proto__"), rule("constructor")] });
    expect(Object.keys(keyed.redirects as object)).toEqual(["__proto__", "constructor"]);
    expect(rules.plain(keyed)).toEqual({ redirects: [rule("__proto__"), rule("constructor")] });
  });

  it("names its properties, and none when the kind declares none", () => {
    expect(rules.properties).toEqual(["redirects"]);
    expect(new KeyedProperties().properties).toEqual([]);
    expect(new KeyedProperties({ redirects: undefined }).properties).toEqual([]);
  });
});
