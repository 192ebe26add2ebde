import { describe, expect, it } from "vitest";
import { containsUnknown, pathTouchesUnknown, UNKNOWN } from "../../provider/framework/unknown";

/** Preview's unknown values: where check must hold its judgement, and what diff must count as changed. */
describe("containsUnknown", () => {
  it.each([
    ["the sentinel itself", UNKNOWN, true],
    ["in a list", ["a", UNKNOWN], true],
    ["deep in objects and lists", { a: { b: [1, { c: UNKNOWN }] } }, true],
    ["a plain string", "04da6b54", false],
    ["the sentinel as a key, not a value", { [UNKNOWN]: 1 }, false],
    ["null", null, false],
    ["undefined", undefined, false],
    ["a number", 0, false],
    ["an empty list", [], false],
    ["an empty object", {}, false],
    ["known values at every depth", { a: [1, "x", { b: null }], c: true }, false],
  ])("%s: %s", (_name, value, expected) => {
    expect(containsUnknown(value)).toBe(expected);
  });
});

describe("pathTouchesUnknown", () => {
  const root = {
    known: { list: ["a", "b"], deep: { x: 1 } },
    unknown: UNKNOWN,
    list: [UNKNOWN, "b"],
    nested: { u: [UNKNOWN] },
  };

  it.each([
    ["a property that is unknown", ["unknown"], true],
    ["below an unknown value (the path cannot be walked)", ["unknown", "a", "b"], true],
    ["an unknown list item", ["list", 0], true],
    ["a known item next to an unknown one", ["list", 1], false],
    ["a value holding an unknown deeper down", ["nested"], true],
    ["a known nested value", ["known", "deep", "x"], false],
    ["a known list item", ["known", "list", 1], false],
    ["a path through a primitive", ["known", "deep", "x", "y"], false],
    ["a path through null", ["missing", "y"], false],
    ["a missing property", ["absent"], false],
    ["the whole root, which holds unknowns", [], true],
  ])("%s", (_name, path, expected) => {
    expect(pathTouchesUnknown(root, path)).toBe(expected);
  });

  it("the whole root when it is all known", () => {
    expect(pathTouchesUnknown({ a: 1 }, [])).toBe(false);
    expect(pathTouchesUnknown(UNKNOWN, [])).toBe(true);
    expect(pathTouchesUnknown(UNKNOWN, ["a"])).toBe(true);
    expect(pathTouchesUnknown(null, ["a"])).toBe(false);
  });
});
