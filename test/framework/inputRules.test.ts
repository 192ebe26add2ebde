/**
 * The offline half of check (provider/framework/inputRules.ts) on a kind made up here: which failures name their
 * property, when a guarded replacement is refused, and the defaults a preview with unknown values still gets.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ECHO_LIMIT, InputRules } from "../../provider/framework/inputRules";
import { apiId, type Props, SENSITIVE } from "../../provider/framework/kind";
import { UNKNOWN } from "../../provider/framework/unknown";

const inputs = z.strictObject({
  organizationId: apiId,
  title: z.string().min(2),
  token: z.string().min(8).meta(SENSITIVE).optional(),
  // A sensitive input the schema transforms: its JSON schema as an output carries no meta.
  secret: z
    .string()
    .min(8)
    .meta(SENSITIVE)
    .transform((value) => value.trim())
    .optional(),
  path: z.string().optional(),
  size: z.number().optional(),
  visibility: z.enum(["public", "private"]).default("public"),
  allowReplace: z.boolean().optional(),
});

const rules = () =>
  new InputRules({
    kind: "Widget",
    inputs: inputs as unknown as z.ZodType<Props, unknown>,
    guardedReplaces: { properties: ["path"], why: "a new path breaks its links." },
  });

const judge = (declared: Props, options: { olds?: Props; importId?: unknown } = {}) =>
  rules().judge(options.olds ?? {}, declared, options.importId, new Set());

const valid = { organizationId: "org", title: "Widget" };

describe("InputRules: which failures name their property", () => {
  it("names a plain input, with the rule", () => {
    expect(judge({ ...valid, title: "x" }).failures).toEqual([
      { property: "title", reason: "Widget.title: must be at least 2 characters" },
    ]);
  });

  it("names a sensitive input in the reason only, even when the schema transforms it", () => {
    expect(judge({ ...valid, token: "short" }).failures).toEqual([
      { property: "", reason: "Widget.token: must be at least 8 characters (value not shown: sensitive)" },
    ]);
    expect(judge({ ...valid, secret: "short" }).failures).toEqual([
      { property: "", reason: "Widget.secret: must be at least 8 characters (value not shown: sensitive)" },
    ]);
  });

  it("names a huge value in the reason only, an importId too", () => {
    const huge = "x ".repeat(ECHO_LIMIT);
    expect(judge({ ...valid, organizationId: huge }).failures).toEqual([
      { property: "", reason: expect.stringMatching(/^Widget\.organizationId: .* \(value not shown: too long\)$/) },
    ]);
    expect(judge(valid, { importId: huge }).failures).toEqual([
      { property: "", reason: expect.stringMatching(/^Widget\.importId: .* \(value not shown: too long\)$/) },
    ]);
    // At the limit, the value is still shown: its JSON (quotes included) is ECHO_LIMIT characters long.
    expect(judge({ ...valid, organizationId: "x ".repeat(ECHO_LIMIT / 2 - 1) }).failures).toEqual([
      { property: "organizationId", reason: expect.stringMatching(/^Widget\.organizationId: /) },
    ]);
    expect(judge(valid, { importId: "a b" }).failures).toEqual([
      { property: "importId", reason: expect.stringMatching(/^Widget\.importId: /) },
    ]);
  });

  it("names the inputs as a whole when the rule is about no one property", () => {
    const whole = new InputRules({
      kind: "Widget",
      inputs: z
        .strictObject({ from: z.number(), to: z.number() })
        .refine((range) => range.from <= range.to, "from must not be after to") as unknown as z.ZodType<Props, unknown>,
    });
    expect(whole.judge({}, { from: 2, to: 1 }, undefined, new Set()).failures).toEqual([
      { property: "", reason: "Widget.(inputs): from must not be after to" },
    ]);
  });
});

describe("InputRules: a guarded replacement", () => {
  it("is refused when the guarded input changes, and not when it is no longer declared", () => {
    const olds = { ...valid, path: "/old" };
    expect(judge({ ...valid, path: "/new" }, { olds }).failures).toEqual([
      { property: "path", reason: expect.stringContaining('Widget.path: changing it from "/old" to "/new" replaces') },
    ]);
    expect(judge(valid, { olds }).failures).toEqual([]);
  });
});

describe("InputRules: inputs holding unknown values", () => {
  it("still get the defaults of their known properties, and keep the known and unknown values", () => {
    const judged = judge({ ...valid, size: UNKNOWN });
    expect(judged.failures).toEqual([]);
    expect(judged.inputs).toEqual({ ...valid, size: UNKNOWN, visibility: "public" });
  });

  it("go through as declared when a known property is invalid", () => {
    const declared = { ...valid, title: "x", size: UNKNOWN };
    const judged = judge(declared);
    expect(judged.failures).toEqual([{ property: "title", reason: "Widget.title: must be at least 2 characters" }]);
    expect(judged.inputs).toEqual(declared);
  });
});
