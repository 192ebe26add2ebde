import { describe, expect, it } from "vitest";
import { sameValue, wireSafe } from "../../provider/framework/values";

describe("sameValue: equality as the API sees it", () => {
  it("keeps the order of a list unless told it is a set", () => {
    expect(sameValue(["a", "b"], ["b", "a"])).toBe(false);
    expect(sameValue(["a", "b"], ["b", "a"], true)).toBe(true);
    expect(sameValue(["a", "b"], ["a", "b", "c"], true)).toBe(false);
  });

  it("orders only the outer list of a set: the lists inside it keep their order", () => {
    expect(sameValue([["a", "b"], ["c"]], [["c"], ["a", "b"]], true)).toBe(true);
    expect(sameValue([["a", "b"]], [["b", "a"]], true)).toBe(false);
    expect(sameValue([["a", "b"]], [["b", "a"]])).toBe(false);
    expect(sameValue([{ ids: ["a", "b"] }], [{ ids: ["b", "a"] }], true)).toBe(false);
  });

  it("takes an absent property, an undefined one and a null one for the same", () => {
    expect(sameValue({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameValue({ a: 1, b: null }, { a: 1 })).toBe(true);
    expect(sameValue({ a: 1, b: undefined }, { a: 1, b: 2 })).toBe(false);
    expect(sameValue(undefined, null)).toBe(true);
    expect(sameValue(undefined, {})).toBe(false);
  });

  it("takes an undefined item of a set for a null one", () => {
    expect(sameValue([undefined, "a"], ["a", null], true)).toBe(true);
    expect(sameValue([undefined], ["null"], true)).toBe(false);
  });

  it("ignores the order of keys, at every depth", () => {
    expect(sameValue({ b: 1, a: { d: 2, c: 3 } }, { a: { c: 3, d: 2 }, b: 1 })).toBe(true);
    expect(sameValue({ b: 1, a: 2 }, { a: 1, b: 2 })).toBe(false);
  });
});

describe("wireSafe", () => {
  it("drops undefined properties at every depth and keeps the rest", () => {
    expect(wireSafe({ a: undefined, b: { c: undefined, d: [1, null] }, e: "x" })).toStrictEqual({
      b: { d: [1, null] },
      e: "x",
    });
  });
});
