import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { blockMarkers, blockNames, factBlocks, staleness, withBlocks } from "../../codegen/conventionFacts";
import { generatedFiles } from "../../codegen/generatedFiles";
import type { Definition } from "../../codegen/typeModel";
import { referencesOf } from "../../provider/framework/references";
import { definitions } from "../../provider/registry";

const root = path.join(__dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const documents = () => ({ "README.md": read("README.md"), "docs/conventions.md": read("docs/conventions.md") });

/** The kinds of the registry a text names in backticks, in the order it names them. */
const kindsNamed = (text: string) => {
  const kinds = new Set(definitions.map((definition) => definition.kind));
  return [...text.matchAll(/`([A-Za-z]+)`/g)].flatMap(([, name]) => (name && kinds.has(name) ? [name] : []));
};
const kindsWhere = (keep: (definition: Definition) => boolean) =>
  definitions.filter((definition) => keep(definition as unknown as Definition)).map((definition) => definition.kind);
const takesOrganizationId = (definition: Definition) => {
  const schema = z.toJSONSchema(definition.inputs, { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, unknown>;
  };
  return Object.hasOwn(schema.properties ?? {}, "organizationId");
};

describe("the per-kind facts of the README and docs/conventions.md, from the registry", () => {
  const blocks = () => factBlocks(definitions);

  it("name the kinds without `organizationId`, read from their inputs schemas, in both documents", () => {
    const without = kindsWhere((definition) => !takesOrganizationId(definition));
    expect(without.length).toBeGreaterThan(0);
    const taking = definitions.length - without.length;
    for (const text of [blocks()["README.md"].organizationId, blocks()["docs/conventions.md"].organizationId]) {
      expect(text).toContain(`${taking} of the ${definitions.length} kinds take \`organizationId\`: every kind but `);
      expect(kindsNamed(text)).toEqual(without);
    }
  });

  it("list each id that is not the kind's own object's with its format: composite ids and other objects' ids", () => {
    const items = blocks()["docs/conventions.md"].ids.split("\n").slice(1);
    const listed = new Map(items.map((item) => [kindsNamed(item)[0], item]));
    const composite = kindsWhere((definition) => definition.importId !== undefined);
    expect(composite.length).toBeGreaterThan(0);
    for (const kind of [...composite, "OrganizationSettings", "SiteAdaptiveSchema", "SiteSpaceCustomization"]) {
      const definition = definitions.find((d) => d.kind === kind);
      expect(listed.get(kind), kind).toBe(`- \`${kind}\`: ${definition?.idFormat}`);
    }
    for (const kind of ["Collection", "Site", "SiteSpace", "SiteShareLink", "SamlProvider", "OpenApiSpec"]) {
      expect(listed.has(kind), kind).toBe(false);
    }
    const intro = `${items.length} of the ${definitions.length} kinds have no API object id of their own.`;
    expect(blocks()["docs/conventions.md"].ids).toContain(intro);
    // The README names the same kinds, in the same order, and sends readers to the formats.
    expect(kindsNamed(blocks()["README.md"]["ids in short"])).toEqual([...listed.keys()]);
  });

  it("name every secret output, in both documents", () => {
    const secrets = definitions.flatMap((d) => (d.secretOutputs ?? []).map((output) => `\`${d.kind}.${output}\``));
    expect(secrets.length).toBeGreaterThan(1);
    for (const text of [blocks()["README.md"]["secret outputs"], blocks()["docs/conventions.md"]["secret outputs"]]) {
      expect(text).toContain(`${secrets.length} outputs are secrets`);
      for (const secret of secrets) expect(text).toContain(secret);
    }
  });

  it("name the kinds an `organizationId` change does not replace, and those without a lookup for a lost create", () => {
    const inPlace = kindsWhere((d) => takesOrganizationId(d) && !d.replaceOnChanges?.includes("organizationId"));
    expect(kindsNamed(blocks()["README.md"]["organizationId change"])).toEqual(inPlace);
    const noLookup = kindsWhere((definition) => definition.findCreated === undefined);
    expect(kindsNamed(blocks()["README.md"]["kinds without a create lookup"])).toEqual(noLookup);
  });

  it("name every kind an id input refers to, with its inputs: what preflight checks", () => {
    const text = blocks()["README.md"]["preflight references"];
    const referred = kindsWhere((d) => definitions.some((other) => referencesOf(other).some((r) => r.kind === d.kind)));
    expect(kindsNamed(text).filter((kind) => referred.includes(kind))).toEqual(referred);
    expect(text).toContain(`the objects of ${referred.length} kinds`);
    expect(text).toContain("`SiteSection` (`sectionIds` and `sectionId`)");
  });
});

/** A kind with what the facts read; `organizationId` among its inputs unless `organizationId: false`. */
function kind(
  name: string,
  facts: Partial<Pick<Definition, "idFormat" | "id" | "secretOutputs" | "replaceOnChanges" | "findCreated">> & {
    organizationId?: false;
  } = {},
): Definition {
  const { organizationId, ...rest } = facts;
  const inputs = z.strictObject(organizationId === false ? { title: z.string() } : { organizationId: z.string() });
  const idFormat = `the ${name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase()} id`;
  return { kind: name, inputs, state: z.object({}), outputs: [], idFormat, ...rest } as unknown as Definition;
}

describe("the facts' sentences", () => {
  it("count the kinds and name the fewer side, in the singular for one", () => {
    const all = [kind("Lamp"), kind("Shade"), kind("Bulb", { organizationId: false })];
    expect(factBlocks(all)["README.md"].organizationId).toBe(
      "2 of the 3 kinds take `organizationId`: every kind but `Bulb`.",
    );
    const few = [kind("Lamp"), kind("Shade", { organizationId: false }), kind("Bulb", { organizationId: false })];
    expect(factBlocks(few)["README.md"].organizationId).toBe("1 of the 3 kinds takes `organizationId`: `Lamp`.");
    expect(factBlocks([kind("Lamp")])["README.md"].organizationId).toBe("Every kind takes `organizationId`.");
    expect(factBlocks([kind("Lamp", { organizationId: false })])["README.md"].organizationId).toBe(
      "No kind takes `organizationId`.",
    );
  });

  it("take an id as the kind's own unless the kind declares it its parent's or a pair, and list every other", () => {
    const all = [
      kind("Site"),
      kind("SiteShareLink", { idFormat: "the share link id (listed by its site)", id: "own" }),
      kind("SiteSchema", { idFormat: "the site id (a site has one schema)", id: "parent" }),
      kind("SpaceGrant", { idFormat: "`<spaceId>/<userId>`", id: { pair: "userId" } }),
      // The wording is the kind's to choose: only the declared fact counts.
      kind("Shelf", { idFormat: "the elf id", id: "parent" }),
    ];
    expect(factBlocks(all)["docs/conventions.md"].ids).toBe(
      [
        "3 of the 5 kinds have no API object id of their own. Their Pulumi `id`, which `importId` takes too:",
        "- `SiteSchema`: the site id (a site has one schema)",
        "- `SpaceGrant`: `<spaceId>/<userId>`",
        "- `Shelf`: the elf id",
      ].join("\n"),
    );
    expect(factBlocks([kind("Site")])["README.md"]["ids in short"]).toBe(
      "Every kind's Pulumi `id` is its own API object's id.",
    );
  });

  it("say which kinds an `organizationId` change moves in place, which outputs are secrets, which lack a lookup", () => {
    const find = async () => [];
    const all = [
      kind("Lamp", { replaceOnChanges: ["organizationId"], secretOutputs: ["key"], findCreated: find }),
      kind("Shade", { findCreated: find }),
      kind("Bulb", { organizationId: false }),
    ];
    const readme = factBlocks(all)["README.md"];
    expect(readme["organizationId change"]).toBe(
      "A change of `organizationId` replaces the resource, except for `Shade`, whose object moves to the new " +
        "organization in place.",
    );
    expect(readme["secret outputs"]).toBe(
      "1 output is a secret, stored encrypted in the state and shown as `[secret]` in previews and `pulumi stack " +
        "output`: `Lamp.key`.",
    );
    expect(readme["kinds without a create lookup"]).toBe(
      "1 of the 3 kinds has no lookup for what a create made: `Bulb`.",
    );
    const none = factBlocks([kind("Lamp", { replaceOnChanges: ["organizationId"], findCreated: find })])["README.md"];
    expect(none["organizationId change"]).toBe("A change of `organizationId` replaces the resource.");
    expect(none["secret outputs"]).toBe("No output is a secret.");
    expect(none["kinds without a create lookup"]).toBe("Every kind has a lookup for what a create made.");
  });
});

/** `text` with the lines between block `name`'s markers replaced by `line`, as a hand edit would. */
function typedInto(text: string, name: string, line: string): string {
  const { start, end } = blockMarkers(name);
  const from = text.indexOf("\n", text.indexOf(start)) + 1;
  const to = text.lastIndexOf("\n", text.indexOf(end)) + 1;
  expect(to).toBeGreaterThan(from);
  return `${text.slice(0, from)}${line}\n${text.slice(to)}`;
}

describe("generated blocks in a hand-written document", () => {
  const { start, end } = blockMarkers("facts");

  it("are rewritten between their markers at the start marker's indentation, wrapped at 120 columns", () => {
    const text = `# Title\n\n- **Facts.** Hand-written.\n  ${start}\n  stale\n  ${end}\n  More hand-written.\n`;
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`);
    const body = [`${words.join(" ")} - # 1. end.`, `- ${words.join(" ")}`, `| ${words.join(" | ")} |`].join("\n");
    const result = withBlocks("doc.md", text, { facts: body });
    const lines = result.split("\n");
    expect(lines.slice(0, 4)).toEqual(["# Title", "", "- **Facts.** Hand-written.", `  ${start}`]);
    expect(lines.slice(-3)).toEqual([`  ${end}`, "  More hand-written.", ""]);
    const inside = lines.slice(4, -3);
    expect(inside.filter((line) => !line.startsWith("  |")).every((line) => line.length <= 120)).toBe(true);
    // No line of prose starts with what Markdown would read as a list item or a heading; a list item's continuation
    // is indented under its text; a table row stays whole.
    const prose = inside.slice(
      0,
      inside.findIndex((line) => line.startsWith("  - ")),
    );
    expect(prose.every((line) => /^ {2}word\d/.test(line))).toBe(true);
    expect(prose.join(" ")).toContain("word39 - # 1. end.");
    const item = inside.slice(prose.length, -1);
    expect(item[0]).toMatch(/^ {2}- word0 /);
    expect(item.slice(1).every((line) => /^ {4}word\d/.test(line))).toBe(true);
    expect(inside.at(-1)).toBe(`  | ${words.join(" | ")} |`);
    // Rewriting is idempotent.
    expect(withBlocks("doc.md", result, { facts: body })).toBe(result);
  });

  it("make `npm run docs:check` and the docs test name the block a hand edit changed", () => {
    const conventions = "docs/conventions.md";
    const fresh = withBlocks(conventions, read(conventions), factBlocks(definitions)[conventions]);
    // The old, wrong statement typed into the block.
    const edited = typedInto(
      fresh,
      "ids",
      "  Exceptions: `TeamMember` (`<teamId>/<userId>`) and `SiteAdaptiveSchema`.",
    );
    const regenerated = withBlocks(conventions, edited, factBlocks(definitions)[conventions]);
    expect(regenerated).toBe(fresh);
    expect(staleness(conventions, edited, regenerated)).toBe('docs/conventions.md (block "ids")');

    const readme = generatedFiles(definitions, documents(), [])["README.md"] ?? "";
    const handEdited = typedInto(readme, "secret outputs", "A share link's `url` is a secret output.");
    const again = generatedFiles(definitions, { ...documents(), "README.md": handEdited }, [])["README.md"] ?? "";
    expect(again).toBe(readme);
    expect(staleness("README.md", handEdited, again)).toBe('README.md (block "secret outputs")');
    expect(staleness("README.md", readme, again)).toBeUndefined();
    expect(staleness("docs/resources.md", "old", "new")).toBe("docs/resources.md");
  });

  it("fail naming the block whose markers are missing, and a block nothing generates", () => {
    const text = `Intro.\n${start}\nold\n${end}\n`;
    expect(() => withBlocks("doc.md", text.replace(end, ""), { facts: "new" })).toThrow(
      `doc.md lacks the markers ${start} … ${end} (once each, in this order) around the block "facts"`,
    );
    expect(() => withBlocks("doc.md", `${text}${text}`, { facts: "new" })).toThrow('around the block "facts"');
    const misspelt = blockMarkers("fact");
    expect(() => withBlocks("doc.md", `${text}${misspelt.start}\n${misspelt.end}\n`, { facts: "new" })).toThrow(
      'doc.md has blocks npm run docs does not write: "fact" (it writes "facts")',
    );
    expect(blockNames(`${text}${misspelt.start}\n`)).toEqual(["facts", "fact"]);
  });
});
