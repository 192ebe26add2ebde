import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { blockMarkers, staleness } from "../../codegen/conventionFacts";
import { generatedFiles } from "../../codegen/generatedFiles";
import { renderReference } from "../../codegen/resourceDocs";
import { type Definition, type Node, resolve, type TypeModel, typeModel } from "../../codegen/typeModel";
import * as docs from "../../provider";
import { FUNCTIONS } from "../../provider/functions";
import { definitions } from "../../provider/registry";
import { formatGenerated } from "../../tools/format-generated.mjs";

const root = path.join(__dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
/** The hand-written documents whose generated blocks `npm run docs` rewrites, as they are checked in. */
const documents = () => ({ "README.md": read("README.md"), "docs/conventions.md": read("docs/conventions.md") });

/** The same comparison as `npm run docs:check`, so that `npm test` fails on stale generated files too. */
describe("files generated from the kinds' schemas", () => {
  // Generated inside each test, not once for the file: a mutation run activates a mutant for a test, so output
  // computed while the file is collected would never see one (test/runtime/reference.test.ts killed 99 of 399).
  const generate = () => generatedFiles(definitions, documents(), FUNCTIONS);

  for (const file of Object.keys(generate())) {
    it(`${file} is what \`npm run docs\` writes`, () => {
      // In the README and docs/conventions.md, the message names the generated blocks that differ.
      const stale = staleness(file, read(file), formatGenerated(file, generate()[file] ?? ""));
      expect(stale, `${stale} is stale: run \`npm run docs\` and commit the result`).toBeUndefined();
    });
  }

  it("documents every argument and output of every kind, with the text of its schema", () => {
    const reference = renderReference(definitions);
    for (const definition of definitions) {
      expect(reference).toContain(`## ${definition.kind}\n`);
      expect(reference).toContain(definition.docs.example);
    }
    expect(reference).toContain(
      "| `title` | string, at most 50 characters | update in place | required | The collection's title. |",
    );
    expect(reference).toContain(
      "| `organizationId` | id | replace (delete before replace) | default: stack config `docs:organizationId` or `DOCS_ORGANIZATION_ID` |",
    );
  });

  it("gives each registered kind a generated class and a documented property per state field", () => {
    for (const definition of definitions) {
      expect(typeof (docs as Record<string, unknown>)[definition.kind], definition.kind).toBe("function");
    }
    const generated = generate()["provider/resources/generatedTypes.ts"] ?? "";
    expect(generated).toContain("/** The collection's title. */\n  readonly title: pulumi.Output<string>;");
  });
});

const GENERATED = "provider/resources/generatedTypes.ts";

/**
 * The types printed more than once in a TypeScript file, with their count: object types, unions with an object
 * member and unions of two or more literals. An argument's form and an output's form of one type count as one
 * (`pulumi.Input`/`DeepInput` wrappers and layout are ignored).
 */
function typesPrintedTwice(text: string): Map<string, number> {
  const source = ts.createSourceFile("generated.ts", text, ts.ScriptTarget.Latest, true);
  const printer = ts.createPrinter({ removeComments: true });
  const unwrap = (node: ts.Node): ts.Node =>
    ts.visitNode(node, function visit(child): ts.Node {
      if (ts.isTypeReferenceNode(child) && /^(pulumi\.Input|DeepInput)$/.test(child.typeName.getText(source))) {
        const [argument] = child.typeArguments ?? [];
        if (argument) return visit(argument);
      }
      return ts.visitEachChild(child, visit, undefined);
    }) as ts.Node;
  const counts = new Map<string, number>();
  const visit = (node: ts.Node) => {
    const isLiteral = (type: ts.TypeNode) =>
      ts.isLiteralTypeNode(type) && type.literal.kind !== ts.SyntaxKind.NullKeyword;
    const counted =
      (ts.isTypeLiteralNode(node) && node.members.length > 0) ||
      (ts.isUnionTypeNode(node) &&
        !ts.isUnionTypeNode(node.parent) &&
        (node.types.some(ts.isTypeLiteralNode) || node.types.filter(isLiteral).length >= 2));
    if (counted) {
      const key = printer.printNode(ts.EmitHint.Unspecified, unwrap(node), source).replace(/\s+/g, " ");
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return new Map([...counts].filter(([, count]) => count > 1));
}

describe("the generated types of both routes' classes", () => {
  const generated = () =>
    formatGenerated(GENERATED, generatedFiles(definitions, documents(), FUNCTIONS)[GENERATED] ?? "");

  it("have no line over 160 characters", () => {
    const long = generated()
      .split("\n")
      .filter((line) => line.length > 160);
    expect(long).toEqual([]);
  });

  it("print no type twice: a type used at two places is a named type", () => {
    expect(Object.fromEntries(typesPrintedTwice(generated()))).toEqual({});
    // The check itself counts what it should: an enum of two kinds, in an argument and an output.
    const twice = 'interface A { a: pulumi.Input<"x" | "y"> }\ninterface B { b: { c: "x" | "y" } }\n';
    expect(Object.fromEntries(typesPrintedTwice(twice))).toEqual({ '"x" | "y"': 2 });
  });

  it("name a registered sub-schema by its id, a repeated type after its property, and document where it is used", () => {
    const text = generated();
    expect(text).toContain("export type Role =");
    expect(text).toContain(
      'export type DefaultLevel = "read" | "comment" | "review" | "edit" | "create" | "admin" | "inherit";',
    );
    expect(text).toContain('export type SpaceEditMode = "live" | "locked";');
    expect(text).toContain("/** Used by Collection, Space and Site. */\nexport type DefaultLevel");
    expect(text).toContain("  defaultLevel?: pulumi.Input<DefaultLevel | null>;");
    expect(text).toContain("  readonly defaultLevel: pulumi.Output<DefaultLevel | null>;");
    expect(text).toContain("  styling?: DeepInput<{\n");
    expect(text).toContain("    primaryColor?: ThemedColor;\n");
  });
});

describe("a kind's generated class and reference", () => {
  const widget = () =>
    ({
      kind: "Widget",
      docs: {
        description: "A widget.",
        adoption: "Not needed.",
        notes: ["- one", "- two", "A paragraph."],
        example: 'new docs.Widget("w", { size: 1 });',
      },
      scope: "organization",
      inputs: z.strictObject({
        organizationId: z.string().describe("The organization."),
        size: z.number().gt(0).max(5),
        count: z.int().min(2).lt(9).optional().describe("How many,  twice */ over."),
        code: z.string().min(3).optional().describe("Line one\nline two."),
        flag: z.literal(true).nullable().optional(),
        rows: z.array(z.strictObject({ a: z.string() }).nullable()).optional(),
      }),
      state: z.object({
        organizationId: z.string(),
        size: z.number(),
        count: z.number().default(0),
        code: z.string().nullable().default(null),
        flag: z.boolean().nullable().default(null),
        rows: z.array(z.object({ a: z.string() }).nullable()).default([]),
        extras: z.object({}).catchall(z.string()).describe("Extras."),
        loose: z.looseObject({}).describe("Anything."),
        note: z.string(),
        secret: z.string().describe("The secret."),
      }),
      outputs: ["extras", "loose", "note", "secret"],
      secretOutputs: ["secret"],
      idFormat: "the widget id",
    }) as unknown as Definition;
  const markers = (...names: string[]) =>
    names.map((name) => `${blockMarkers(name).start}\n${blockMarkers(name).end}\n`).join("\n");
  const readmeFacts = [
    "organizationId",
    "ids in short",
    "organizationId change",
    "secret outputs",
    "secret inputs",
    "kinds without a create lookup",
    "preflight references",
  ];
  const readme = `# Readme\n\n${markers(...readmeFacts)}`;
  const conventions = markers("organizationId", "ids", "secret outputs", "secret inputs");
  const files = () =>
    generatedFiles(
      [widget()],
      {
        "README.md": `${readme}\n${markers("kinds table")}`,
        "docs/conventions.md": conventions,
      },
      [],
    );

  it("documents each argument with its limits, its change and what leaving it out means", () => {
    const classes = files()[GENERATED] ?? "";
    expect(classes).toContain(
      "  /** (number, greater than 0, at most 5; update in place; required.) */\n  size: pulumi.Input<number>;",
    );
    expect(classes).toContain(
      "/** How many, twice *\\/ over. (number, at least 2, less than 9; update in place; unmanaged when omitted.) */",
    );
    expect(classes).toContain("  organizationId?: pulumi.Input<string>;");
    expect(classes).toContain("  flag?: pulumi.Input<true | null>;");
    expect(classes).toContain("  readonly flag: pulumi.Output<true | null>;");
    expect(classes).toContain("  readonly extras: pulumi.Output<Record<string, string>>;");
    expect(classes).toContain("  readonly loose: pulumi.Output<Record<string, unknown>>;");
    const reference = files()["docs/resources.md"] ?? "";
    expect(reference).toContain("| `size` | number, greater than 0, at most 5 | update in place | required |  |");
    expect(reference).toContain(
      "| `code` | string, at least 3 characters | update in place | unmanaged when omitted | Line one line two. |",
    );
    expect(reference).toContain(
      "| `organizationId` | string | update in place | default: stack config `docs:organizationId` or `DOCS_ORGANIZATION_ID` |",
    );
    expect(reference).toContain("| `rows` | `({ a: string } \\| null)[]` | the argument as the API reports it |");
    expect(reference).toContain("| `note` | `string` | output only |");
    expect(reference).toContain("| `secret` | `string` | The secret. A Pulumi secret. |");
    expect(reference).toContain("- one\n- two\n\nA paragraph.\n");
    expect(files()["README.md"]).toContain("| [`Widget`](docs/resources.md#widget) | A widget. | never |");
  });

  it("refuses a README without the kinds table's markers", () => {
    expect(() => generatedFiles([widget()], { "README.md": readme, "docs/conventions.md": conventions }, [])).toThrow(
      "README.md lacks the markers <!-- kinds table: generated by `npm run docs`, do not edit -->",
    );
  });
});

/** A kind with just what the type model reads. */
function kindOf(kind: string, inputs: z.ZodType, state: z.ZodType = z.object({}), outputs: string[] = []): Definition {
  return { kind, inputs, state, outputs } as unknown as Definition;
}

/** A node with every reference replaced by the type it names, as plain JSON. */
function expand(model: TypeModel, node: Node | undefined): unknown {
  return JSON.parse(JSON.stringify(node ?? null), (_key, value) =>
    value && typeof value === "object" && "$ref" in value ? expand(model, resolve(model, value)) : value,
  );
}

const names = (model: TypeModel) => model.types.map(({ name, usedBy }) => `${name} (${usedBy.join(", ")})`);

describe("the type model", () => {
  it("types an output that echoes an input from the input, with the state's default when the input lacks it", () => {
    const tone = z.enum(["warm", "cold"]).meta({ id: "ModelTestTone" });
    const inputs = z.strictObject({
      level: z.enum(["low", "high"]).optional(),
      mode: z.enum(["on", "off"]).optional(),
      flag: z.literal(true).optional(),
      sure: z.literal(true).optional(),
      tags: z.array(z.string()).optional(),
      note: z.string().nullable().optional(),
      count: z.int().optional(),
      size: z.number().optional(),
      label: z.enum(["a", "b"]).nullable().optional(),
      items: z.string().optional(),
      extra: z.strictObject({ a: z.string() }).optional(),
      box: z.strictObject({ b: z.string() }).optional(),
      tone: tone.optional(),
      hue: tone.optional(),
      when: z
        .boolean()
        .optional()
        .transform((value) => value === true || undefined),
      url: z.string().optional(),
    });
    const state = z.object({
      level: z.string().nullable().default(null).describe("The level, `null` when none."),
      mode: z.string().default("on"),
      flag: z.boolean().default(false),
      sure: z.boolean().default(true),
      tags: z.array(z.string()).default([]),
      note: z.string().nullable().default(null),
      count: z.number().default(0),
      size: z.number().default(0),
      label: z.string().default(""),
      items: z.array(z.string()).default([]),
      extra: z.record(z.string(), z.unknown()).default({}),
      box: z.string().default(""),
      tone: z.string().nullable().default(null),
      hue: z.string().default("warm"),
      when: z.boolean().nullable().default(null),
      url: z.string().nullable().default(null),
    });
    const model = typeModel([kindOf("Thing", inputs, state, ["url"])]);
    const [kind] = model.kinds;
    const outputs = Object.fromEntries(kind?.outputs.map((p) => [p.name, expand(model, p.node)]) ?? []);
    const levels = { type: "string", enum: ["low", "high"] };
    expect(outputs.level).toEqual({ anyOf: [levels, { type: "null" }], description: "The level, `null` when none." });
    expect(outputs.mode).toEqual({ type: "string", enum: ["on", "off"] });
    expect(outputs.flag).toEqual({ anyOf: [{ type: "boolean", const: true }, { const: false }] });
    expect(outputs.sure).toEqual({ type: "boolean", const: true });
    expect(outputs.tags).toEqual({ type: "array", items: { type: "string" } });
    expect(outputs.note).toEqual({ type: ["string", "null"] });
    expect(outputs.count).toMatchObject({ type: "integer" });
    expect(outputs.size).toEqual({ type: "number" });
    const labels = { anyOf: [{ type: "string", enum: ["a", "b"] }, { type: "null" }] };
    expect(outputs.label).toEqual({ anyOf: [labels, { const: "" }] });
    expect(outputs.extra).toMatchObject({ type: "object", properties: { a: { type: "string" } } });
    expect(outputs.box).toMatchObject({
      anyOf: [{ type: "object", properties: { b: { type: "string" } } }, { const: "" }],
    });
    const tones = { type: "string", enum: ["warm", "cold"] };
    expect(outputs.tone).toEqual({ anyOf: [tones, { type: "null" }] });
    expect(outputs.hue).toEqual(tones);
    // A list for a string, a transform's output (no JSON Schema) and an output-only property: the state says.
    expect(outputs.items).toEqual({ default: [], type: "array", items: { type: "string" } });
    expect(outputs.when).toEqual({ default: null, type: ["boolean", "null"] });
    expect(outputs.url).toEqual({ default: null, type: ["string", "null"] });
    expect(kind?.outputs.every((p) => p.required)).toBe(true);
    // The argument and its output are one type, named once.
    expect(names(model)).toEqual([
      "ThingLevel (Thing)",
      "ThingMode (Thing)",
      "ThingLabel (Thing)",
      "ThingExtra (Thing)",
      "ThingBox (Thing)",
      "ModelTestTone (Thing)",
    ]);
    expect(kind?.inputs[0]?.node).toEqual({ $ref: "#/$defs/ThingLevel" });
  });

  it("names a repeated type after its property, with the kind's name when one kind repeats it", () => {
    const tint = () => z.enum(["red", "blue"]);
    const finish = () => z.enum(["matte", "gloss"]);
    const model = typeModel([
      kindOf(
        "Lamp",
        z.strictObject({ shade: z.enum(["dark", "light"]), lampColor: z.enum(["on", "off"]) }),
        z.object({ shade: z.string(), lampColor: z.string() }),
      ),
      kindOf("Wall", z.strictObject({ tint: tint().optional() }), z.object({ tint: z.string() })),
      kindOf("Door", z.strictObject({ tint: tint(), lamp: z.enum(["x", "y"]), lampArgs: z.enum(["p", "q"]) })),
      kindOf("Car", z.strictObject({ tint: finish(), lamp: z.enum(["x", "y"]), lampArgs: z.enum(["p", "q"]) })),
      kindOf("Bike", z.strictObject({ tint: finish() })),
    ]);
    expect(names(model)).toEqual([
      "LampShade (Lamp)",
      "LampColor (Lamp)",
      "WallTint (Wall, Door)",
      "DoorLamp (Door, Car)",
      "DoorLampArgs (Door, Car)",
      "Tint (Car, Bike)",
    ]);
    expect(model.types[0]?.node).toEqual({ type: "string", enum: ["dark", "light"] });
    const [lamp, wall] = model.kinds;
    expect(lamp?.inputs[0]?.node).toEqual({ $ref: "#/$defs/LampShade" });
    expect(wall?.outputs[0]?.node).toEqual({ $ref: "#/$defs/WallTint" });
  });

  it("names list items, map values and map keys after their property, and only types worth a name", () => {
    const shapes = () =>
      z.strictObject({
        tags: z.array(z.strictObject({ name: z.string() })),
        labels: z.record(z.string(), z.strictObject({ text: z.string() })),
        sizes: z.partialRecord(z.enum(["s", "m"]), z.number()),
        only: z.enum(["one"]),
        empty: z.strictObject({}),
        pick: z.union([z.strictObject({ a: z.string() }), z.strictObject({ b: z.string() })]),
        maybe: z.string().nullable(),
      });
    const model = typeModel([kindOf("Box", shapes()), kindOf("Crate", shapes())]);
    expect(names(model)).toEqual([
      "TagsItem (Box, Crate)",
      "LabelsValue (Box, Crate)",
      "SizesKey (Box, Crate)",
      "Pick (Box, Crate)",
    ]);
    const [box] = model.kinds;
    const node = (name: string) => box?.inputs.find((p) => p.name === name)?.node;
    expect(node("tags")?.items).toEqual({ $ref: "#/$defs/TagsItem" });
    expect(node("labels")?.additionalProperties).toEqual({ $ref: "#/$defs/LabelsValue" });
    expect(node("sizes")?.propertyNames).toEqual({ $ref: "#/$defs/SizesKey" });
    expect(node("pick")).toEqual({ $ref: "#/$defs/Pick" });
  });

  it("names the outermost repeated type first, and a type equal to a registered one by its id", () => {
    const letters = () => z.enum(["x", "y"]);
    const pair = z.strictObject({ a: letters(), b: z.enum(["u", "v"]).meta({ id: "ModelTestLetter" }) });
    const model = typeModel([
      kindOf("Box", z.strictObject({ a: letters(), pair, other: z.enum(["u", "v"]) })),
      kindOf("Crate", z.strictObject({ pair })),
    ]);
    // The pair, the larger type, is named first; its `a` and Box's own `a` then name the enum after Box.
    expect(names(model)).toEqual(["BoxA (Box, Crate)", "Pair (Box, Crate)", "ModelTestLetter (Box, Crate)"]);
    expect(model.types[1]?.node.properties).toEqual({
      a: { $ref: "#/$defs/BoxA" },
      b: { $ref: "#/$defs/ModelTestLetter" },
    });
    expect(model.kinds[0]?.inputs[2]?.node).toEqual({ $ref: "#/$defs/ModelTestLetter" });
  });

  it("keeps a place's description and default on its reference, and reads the named type's through it", () => {
    const tone = z.enum(["warm", "cold"]).meta({ id: "ModelTestShade", description: "A shade." });
    const model = typeModel([
      kindOf(
        "Lamp",
        z.strictObject({
          shade: tone,
          glow: z.enum(["warm", "cold"]).default("warm").describe("Its glow."),
          hue: z.enum(["warm", "cold"]),
        }),
        z.object({ tone }),
      ),
    ]);
    const [lamp] = model.kinds;
    expect(lamp?.inputs[1]?.node).toEqual({
      $ref: "#/$defs/ModelTestShade",
      description: "Its glow.",
      default: "warm",
    });
    expect(resolve(model, lamp?.inputs[0]?.node ?? {})).toEqual({
      type: "string",
      enum: ["warm", "cold"],
      description: "A shade.",
    });
    expect(resolve(model, lamp?.inputs[1]?.node ?? {}).description).toBe("Its glow.");
    // A place that says nothing of itself reads the named type's description.
    expect(Object.keys(lamp?.inputs[2]?.node ?? {})).toEqual(["$ref"]);
    expect(resolve(model, lamp?.inputs[2]?.node ?? {}).description).toBe("A shade.");
    // An output-only property of a registered type, read from the state's document.
    expect(lamp?.outputs[0]?.node).toEqual({ $ref: "#/$defs/ModelTestShade" });
    expect(() => resolve(model, { $ref: "#/$defs/Nowhere" })).toThrow("the type model has no type Nowhere");
  });

  it("gives the input side of a registered schema its own name when outputs use it too and the sides differ", () => {
    const entry = z.strictObject({ name: z.string(), weight: z.number().default(1) }).meta({ id: "ModelTestEntry" });
    // The shelf differs through its entry only, and the rack through its shelf.
    const shelf = z.strictObject({ entry }).meta({ id: "ModelTestShelf" });
    const rack = z.strictObject({ shelf }).meta({ id: "ModelTestRack" });
    const model = typeModel([
      kindOf("Store", z.strictObject({ rack, entries: z.array(entry) }), z.object({ rack: z.unknown() })),
      kindOf("Stall", z.strictObject({ entry }), z.object({})),
    ]);
    expect(names(model)).toEqual([
      "ModelTestRackInput (Store)",
      "ModelTestShelfInput (Store)",
      "ModelTestEntryInput (Store, Stall)",
      "ModelTestRack (Store)",
      "ModelTestShelf (Store)",
      "ModelTestEntry (Store)",
    ]);
    const body = (name: string) => model.types.find((type) => type.name === name)?.node;
    expect(body("ModelTestEntryInput")?.required).toEqual(["name"]);
    expect(body("ModelTestEntry")?.required).toEqual(["name", "weight"]);
    expect(body("ModelTestShelfInput")?.properties?.entry).toEqual({ $ref: "#/$defs/ModelTestEntryInput" });
    expect(body("ModelTestShelf")?.properties?.entry).toEqual({ $ref: "#/$defs/ModelTestEntry" });
    expect(model.kinds[0]?.inputs[1]?.node.items).toEqual({ $ref: "#/$defs/ModelTestEntryInput" });
  });

  it("leaves a recursive schema to its `.meta({ tsType })`, and asks for one", () => {
    type Tree = { name: string; children: Tree[] };
    const tree: z.ZodType<Tree> = z.lazy(() => z.strictObject({ name: z.string(), children: z.array(tree) }));
    type Chain = { next: Chain | null };
    const chain: z.ZodType<Chain> = z.lazy(() => z.strictObject({ next: chain.nullable() }));
    const model = typeModel([
      kindOf("Forest", z.strictObject({ tree: tree.meta({ tsType: "Tree" }) })),
      kindOf("Rope", z.strictObject({ chain: chain.meta({ tsType: "Chain" }) })),
    ]);
    expect(model.kinds.map((kind) => kind.inputs[0]?.node.tsType)).toEqual(["Tree", "Chain"]);
    expect(model.types).toEqual([]);
    expect(() => typeModel([kindOf("Forest", z.strictObject({ tree }))])).toThrow(
      "Forest: a recursive schema needs `.meta({ tsType })` naming its type",
    );
  });

  it("fails when one type has two names by its places, or all its names are taken", () => {
    const ambiguous = () =>
      typeModel([
        kindOf("Left", z.strictObject({ hand: z.enum(["l", "r"]) })),
        kindOf("Right", z.strictObject({ feet: z.array(z.strictObject({ side: z.enum(["l", "r"]) })) })),
      ]);
    expect(ambiguous).toThrow(
      "The same type is printed at Left.hand, Right.feet[].side under different names: register the schema once with " +
        "`.meta({ id })` and use it at each place.",
    );
    const taken = () =>
      typeModel([
        kindOf("Post", z.strictObject({ x: z.enum(["a", "b"]).meta({ id: "LampShade" }) })),
        kindOf("Lamp", z.strictObject({ shade: z.enum(["on", "off"]) }), z.object({ shade: z.string() })),
      ]);
    expect(taken).toThrow("The same type is printed at Lamp.shade, and its names (LampShade) are taken");
    const bothTaken = () =>
      typeModel([
        kindOf(
          "Qa",
          z.strictObject({ x: z.enum(["a"]).meta({ id: "Qshade" }), y: z.enum(["b"]).meta({ id: "QbQshade" }) }),
        ),
        kindOf("Qb", z.strictObject({ qshade: z.enum(["on", "off"]) })),
        kindOf("Qc", z.strictObject({ qshade: z.enum(["on", "off"]) })),
      ]);
    expect(bothTaken).toThrow(
      "The same type is printed at Qb.qshade, Qc.qshade, and its names (Qshade, QbQshade) are taken",
    );
  });

  it("refuses two different schemas registered under one id", () => {
    const one = z.enum(["a", "b"]).meta({ id: "ModelTestTwice" });
    const other = z.enum(["c", "d"]).meta({ id: "ModelTestTwice" });
    const twice = () =>
      typeModel([kindOf("First", z.strictObject({ one })), kindOf("Second", z.strictObject({ other }))]);
    expect(twice).toThrow('Second: two different schemas are registered with the id "ModelTestTwice"');
  });
});
