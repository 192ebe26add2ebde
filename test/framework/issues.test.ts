import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeIssue } from "../../provider/framework/issues";

/** The first issue zod reports for `value` against `schema`, in the words a failed check shows. */
const said = (schema: z.ZodType, value: unknown) => {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error("expected a failure");
  return describeIssue(parsed.error.issues[0]!);
};

describe("describeIssue", () => {
  it.each([
    ["a string too long", z.string().max(50), "x".repeat(51), "must be at most 50 characters"],
    ["a string too long for one character", z.string().max(1), "xy", "must be at most 1 character"],
    ["a string too short", z.string().min(3), "x", "must be at least 3 characters"],
    ["a string too short for one character", z.string().min(1), "", "must be at least 1 character"],
    ["a list too long", z.array(z.string()).max(2), ["a", "b", "c"], "must be at most 2 items"],
    ["a list too long for one item", z.array(z.string()).max(1), ["a", "b"], "must be at most 1 item"],
    ["a list too short", z.array(z.string()).min(2), ["a"], "must be at least 2 items"],
    ["a set too big", z.set(z.string()).max(1), new Set(["a", "b"]), "must be at most 1 item"],
    ["a set too small", z.set(z.string()).min(2), new Set(["a"]), "must be at least 2 items"],
    ["a number too big", z.number().max(10), 11, "must be at most 10"],
    ["a number not below", z.number().lt(10), 10, "must be less than 10"],
    ["a number too small", z.number().min(1), 0, "must be at least 1"],
    ["a number not above", z.number().gt(0), 0, "must be greater than 0"],
    ["a pattern", z.string().regex(/^[a-z]+$/), "A", "must match the pattern /^[a-z]+$/"],
    ["a pattern with its own words", z.string().regex(/^[a-z]+$/, "must be lower case"), "A", "must be lower case"],
    ["a format", z.url(), "not a url", "must be a valid url"],
    ["an email", z.email(), "nobody", "must be a valid email"],
    ["a value out of a set", z.enum(["read", "write"]), "admin", 'must be one of "read", "write"'],
    ["a type, with a", z.string(), 1, "must be a string"],
    ["a type, with an", z.object({}), 1, "must be an object"],
    ["an unknown key", z.strictObject({ a: z.string() }), { a: "x", b: 1 }, "unknown property b; check the spelling"],
    [
      "an unknown key the schema words itself (where a misplaced key belongs)",
      z.strictObject({ a: z.string() }, { error: () => "b belongs in secrets" }),
      { a: "x", b: 1 },
      "b belongs in secrets",
    ],
    [
      "unknown keys",
      z.strictObject({ a: z.string() }),
      { a: "x", b: 1, c: 2 },
      "unknown properties b, c; check the spelling",
    ],
    ["anything else, in zod's words", z.string().refine(() => false, "is refused"), "x", "is refused"],
  ])("%s", (_what, schema, value, expected) => {
    expect(said(schema as z.ZodType, value)).toBe(expected);
  });

  it("tells zod's own wording of an unknown key from a schema's whatever zod's locale", () => {
    z.config(z.locales.fr());
    try {
      expect(said(z.strictObject({ a: z.string() }), { a: "x", b: 1 })).toBe("unknown property b; check the spelling");
    } finally {
      z.config(z.locales.en());
    }
  });
});
