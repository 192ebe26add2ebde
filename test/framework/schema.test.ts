import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type PackageSpec, type PropertySpec, packageSchema, SCHEMA_FILE, schemaText } from "../../codegen/schema";
import { type Definition, typeModel } from "../../codegen/typeModel";
import { SENSITIVE } from "../../provider/framework/kind";
import { CONFIG_KEYS, CONFIG_NAMESPACE, ENV_KEYS } from "../../provider/framework/settings";
import { FUNCTIONS } from "../../provider/functions";
import * as lookups from "../../provider/lookups";
import { readSchemaText, schemaPath } from "../../provider/plugin/schemaFile";
import { definitions } from "../../provider/registry";

/**
 * The `docs` plugin's package schema (codegen/schema.ts), which `npm run docs` writes to
 * provider/plugin/schema.json and the plugin answers `GetSchema` with. test/runtime/reference.test.ts checks the
 * file is not stale byte for byte, as `npm run docs:check` does; this checks what it says.
 */
const root = path.join(__dirname, "../..");
const schema = () => packageSchema(definitions, undefined, FUNCTIONS);
const resourceOf = (spec: PackageSpec, kind: string) => {
  const resource = spec.resources[`docs:index:${kind}`];
  if (!resource) throw new Error(`no resource docs:index:${kind}`);
  return resource;
};

/** Every object in a JSON value, depth first. */
function* objects(value: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(value)) for (const item of value) yield* objects(item);
  else if (typeof value === "object" && value !== null) {
    yield value as Record<string, unknown>;
    for (const child of Object.values(value)) yield* objects(child);
  }
}

/** Every `$ref` in a JSON value. */
const refs = (value: unknown) =>
  [...objects(value)].flatMap((object) => (typeof object.$ref === "string" ? [object.$ref] : []));

describe("the checked-in schema", () => {
  it("is the schema of the registered kinds, where the plugin reads it", () => {
    const text = readFileSync(path.join(root, SCHEMA_FILE), "utf8");
    expect(JSON.parse(text)).toEqual(schema());
    expect(text).toBe(schemaText(definitions, FUNCTIONS));
    expect(schemaPath()).toBe(path.join(root, SCHEMA_FILE));
    expect(readSchemaText()).toBe(text);
  });

  it("is the package `docs` at the package's version, two-space JSON ending in a newline", () => {
    const text = schemaText(definitions, FUNCTIONS);
    expect(text.endsWith("}\n")).toBe(true);
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    const spec = schema();
    expect(spec.name).toBe("docs");
    expect(spec.version).toBe(require("../../package.json").version);
  });
});

describe("the package schema of the registered kinds", () => {
  it("has one resource per kind, aliased to the kind's type on the dynamic route", () => {
    const spec = schema();
    expect(Object.keys(spec.resources).sort()).toEqual(definitions.map((d) => `docs:index:${d.kind}`).sort());
    for (const { kind, docs } of definitions) {
      const resource = resourceOf(spec, kind);
      expect(resource.aliases).toEqual([{ type: `pulumi-nodejs:dynamic/docs:${kind}` }]);
      expect(resource.description).toBe(docs.description);
    }
  });

  it("resolves every reference to a type it defines, and defines no type nothing refers to", () => {
    const spec = schema();
    const referred = new Set(refs(spec));
    const defined = Object.keys(spec.types).map((token) => `#/types/${token}`);
    expect([...referred].filter((ref) => ref !== "pulumi.json#/Any" && !defined.includes(ref))).toEqual([]);
    expect(defined.filter((ref) => !referred.has(ref))).toEqual([]);
    for (const [token, type] of Object.entries(spec.types)) {
      expect(token).toMatch(/^docs:index:[A-Z][A-Za-z0-9]*$/);
      expect(["object", "string", "integer", "number", "boolean"]).toContain(type.type);
    }
  });

  it("takes every input and importId, and has each of them as an output too", () => {
    const spec = schema();
    for (const { definition, inputs } of typeModel(definitions).kinds) {
      const resource = resourceOf(spec, definition.kind);
      expect(Object.keys(resource.inputProperties)).toEqual([...inputs.map((input) => input.name), "importId"]);
      expect(resource.inputProperties.importId).toMatchObject({ type: "string" });
      expect(resource.inputProperties.importId?.description).toContain(definition.docs.adoption);
      expect(resource.requiredInputs ?? []).not.toContain("importId");
      for (const name of Object.keys(resource.inputProperties)) expect(resource.properties).toHaveProperty([name]);
    }
  });

  it("marks secret the secret outputs, the sensitive inputs on both sides, and nothing else", () => {
    const spec = schema();
    const secrets = (properties: Record<string, PropertySpec>) =>
      Object.entries(properties).flatMap(([name, property]) => (property.secret ? [name] : []));
    const found: string[] = [];
    for (const { definition, inputs } of typeModel(definitions).kinds) {
      const resource = resourceOf(spec, definition.kind);
      const sensitive = inputs.filter((input) => input.node.sensitive).map((input) => input.name);
      expect(secrets(resource.inputProperties)).toEqual(sensitive);
      // A sensitive input may also be a secret output (an MCP server's headers, which the API reads back).
      const secret = new Set([...(definition.secretOutputs ?? []), ...sensitive]);
      expect(secrets(resource.properties).sort()).toEqual([...secret].sort());
      found.push(...secrets(resource.properties).map((name) => `${definition.kind}.${name}`));
    }
    // The secrets of the kinds before, which no change may lose (a new kind's follow from its facts, checked above).
    expect(found).toEqual(
      expect.arrayContaining([
        "GitSyncInstallation.accessToken",
        "IntegrationInstallation.secrets",
        "IntegrationSiteInstallation.secrets",
        "IntegrationSpaceInstallation.secrets",
        "OpenApiSpec.sourceText",
        "SamlProvider.certificate",
        "SiteMcpServer.headers",
        "SiteShareLink.url",
        "SiteVisitorAuth.privateKey",
      ]),
    );
    expect([...objects(spec.types)].filter((object) => object.secret !== undefined)).toEqual([]);
  });

  it("marks replaceOnChanges the output properties each kind replaces on", () => {
    const spec = schema();
    for (const definition of definitions) {
      const resource = resourceOf(spec, definition.kind);
      const replaced = Object.entries(resource.properties).flatMap(([name, p]) => (p.replaceOnChanges ? [name] : []));
      expect(replaced.sort(), definition.kind).toEqual([...(definition.replaceOnChanges ?? [])].sort());
      expect(Object.values(resource.inputProperties).some((p) => p.replaceOnChanges)).toBe(false);
    }
  });

  it("has the provider's settings as config and as the provider's inputs, the token secret", () => {
    const spec = schema();
    const names = Object.keys(CONFIG_KEYS) as (keyof typeof CONFIG_KEYS)[];
    expect(Object.keys(spec.config.variables)).toEqual(names);
    for (const name of names) {
      // The engine hands a default provider only the stack config of its own package.
      expect(CONFIG_KEYS[name]).toBe(`${spec.name}:${name}`);
      const variable = spec.config.variables[name];
      expect(variable?.defaultInfo).toEqual({ environment: [ENV_KEYS[name]] });
      expect(variable?.description).toContain(ENV_KEYS[name]);
      expect(variable?.secret ?? false).toBe(name === "apiToken");
    }
    expect(spec.name).toBe(CONFIG_NAMESPACE);
    // No defaultInfo on the provider's inputs: a generated Provider class would put DOCS_API_TOKEN into the state.
    const { defaultInfo: _env, ...apiToken } = spec.config.variables.apiToken as PropertySpec;
    expect(spec.provider.inputProperties.apiToken).toEqual({ ...apiToken, secret: true });
    expect(Object.keys(spec.provider.inputProperties)).toEqual(names);
    expect(Object.values(spec.provider.inputProperties).some((input) => input.defaultInfo)).toBe(false);
    expect(spec.provider.requiredInputs).toBeUndefined();
    // A provider's settings reach it as strings, so its outputs are the string ones.
    expect(spec.config.variables.preflight?.type).toBe("boolean");
    expect(Object.keys(spec.provider.properties)).toEqual(["apiUrl", "apiToken", "organizationId"]);
    expect(spec.provider.properties.apiToken?.secret).toBe(true);
  });

  it("types a discriminated union as a oneOf of named objects mapped by their constant", () => {
    const spec = schema();
    const destination = resourceOf(spec, "SiteRedirect").inputProperties.destination;
    expect(destination?.discriminator?.propertyName).toBe("kind");
    expect(destination?.discriminator?.mapping.external).toBe("#/types/docs:index:DestinationExternal");
    expect(destination?.oneOf).toContainEqual({ $ref: "#/types/docs:index:DestinationExternal" });
    expect(spec.types["docs:index:DestinationExternal"]).toMatchObject({
      type: "object",
      properties: { kind: { type: "string", const: "external" }, url: { type: "string" } },
      required: ["kind", "url"],
    });
  });
});

describe("the package schema's functions", () => {
  it("has docs:index:<name> per lookup, with its description, typed inputs and outputs and their descriptions", () => {
    const spec = schema();
    expect(Object.keys(spec.functions).sort()).toEqual(FUNCTIONS.map((fn) => `docs:index:${fn.name}`).sort());
    for (const fn of FUNCTIONS) {
      const found = spec.functions[`docs:index:${fn.name}`];
      expect(found?.description).toBe(fn.description);
      const argNames = Object.keys((fn.args as unknown as { shape: object }).shape);
      expect(Object.keys(found?.inputs.properties ?? {})).toEqual(argNames);
      const resultNames = Object.keys((fn.result as unknown as { shape: object }).shape);
      expect(Object.keys(found?.outputs.properties ?? {})).toEqual(resultNames);
      for (const property of [
        ...Object.values(found?.inputs.properties ?? {}),
        ...Object.values(found?.outputs.properties ?? {}),
      ]) {
        expect(property.description, fn.name).toBeTruthy();
        expect(property.type ?? property.$ref, fn.name).toBeTruthy();
      }
    }
  });

  it("has every lookup a TypeScript program calls, and runs that very lookup", () => {
    const programLookups = Object.entries(lookups).filter(
      ([name, value]) => /^get[A-Z]/.test(name) && !name.endsWith("Output") && typeof value === "function",
    );
    expect(FUNCTIONS.map((fn) => fn.name).sort()).toEqual(programLookups.map(([name]) => name).sort());
    const byName = new Map(programLookups);
    for (const fn of FUNCTIONS) expect(fn.run, fn.name).toBe(byName.get(fn.name));
  });

  it("requires what a lookup needs, and leaves a nullable result optional", () => {
    const spec = schema();
    expect(spec.functions["docs:index:getSpace"]?.inputs.required).toEqual(["title"]);
    expect(spec.functions["docs:index:getCollection"]?.inputs.required).toBeUndefined();
    expect(spec.functions["docs:index:getSpace"]?.outputs.required).toEqual(["id", "title", "organizationId"]);
    expect(spec.functions["docs:index:getSiteSection"]?.outputs.properties?.siteSpaceIds).toMatchObject({
      type: "array",
      items: { type: "string" },
    });
    expect(spec.functions["docs:index:getOrganizations"]?.outputs.properties?.organizations?.items).toEqual({
      $ref: "#/types/docs:index:OrganizationSummary",
    });
    expect(spec.types["docs:index:OrganizationSummary"]).toMatchObject({ type: "object", required: ["id", "title"] });
  });
});

describe("the package schema's unions without a discriminator", () => {
  it("names their objects after their required properties, an empty one Empty, an enum after the union", () => {
    const spec = schema();
    const favicon = resourceOf(spec, "SiteCustomization").inputProperties.favicon;
    expect(favicon?.oneOf).toEqual(
      ["FaviconIcon", "FaviconEmoji", "FaviconEmpty"].map((name) => ({ $ref: `#/types/docs:index:${name}` })),
    );
    expect(spec.types["docs:index:FaviconEmpty"]).toEqual({ type: "object" });
    const styling = spec.types["docs:index:SiteCustomizationStyling"] as { properties: Record<string, PropertySpec> };
    // The named union's description, which no type of its own carries.
    expect(styling.properties.font).toEqual({
      oneOf: [{ $ref: "#/types/docs:index:Font" }, { $ref: "#/types/docs:index:FontDefinition" }],
      description: "A built-in font, or a font of your own.",
    });
    expect(spec.types["docs:index:Font"]).toMatchObject({
      type: "string",
      enum: expect.arrayContaining([{ value: "Inter" }]),
    });
  });
});

/** A made-up kind with what the schema reads. */
function madeUp(kind: string, inputs: z.ZodType, state: z.ZodType = z.object({}), facts: object = {}): Definition {
  return {
    kind,
    inputs,
    state,
    outputs: [],
    idFormat: `the ${kind} id`,
    docs: { description: `A ${kind}.`, adoption: `\`importId: "<${kind}Id>"\`.`, example: "" },
    ...facts,
  } as unknown as Definition;
}

const manifest = { version: "1.2.3", description: "Made up.", license: "MIT" };

describe("packageSchema", () => {
  it("names inline objects and enums after their kind and property, and spells out the rest", () => {
    const spec = packageSchema(
      [
        madeUp(
          "Lamp",
          z.strictObject({
            organizationId: z.string(),
            shade: z.strictObject({ color: z.enum(["red", "blue"]).describe("Its color."), size: z.number() }),
            bulbs: z.array(z.strictObject({ watts: z.int() })).optional(),
            labels: z.record(z.string(), z.string()).optional(),
            note: z.string().nullable().describe("A note, or null."),
            anything: z.unknown().optional(),
            either: z.union([z.string(), z.strictObject({ text: z.string() })]).optional(),
            secretive: z.string().optional().meta(SENSITIVE),
          }),
          z.object({ organizationId: z.string(), note: z.string().nullable(), watts: z.number() }),
          { outputs: ["watts"], replaceOnChanges: ["organizationId"] },
        ),
      ],
      manifest,
    );
    expect(spec).toMatchObject({ name: "docs", version: "1.2.3", description: "Made up.", license: "MIT" });
    const lamp = resourceOf(spec, "Lamp");
    expect(lamp.inputProperties).toMatchObject({
      shade: { $ref: "#/types/docs:index:LampShade" },
      bulbs: { type: "array", items: { $ref: "#/types/docs:index:LampBulbsItem" } },
      labels: { type: "object", additionalProperties: { type: "string" } },
      note: { type: "string", description: "A note, or null." },
      anything: { $ref: "pulumi.json#/Any" },
      either: { oneOf: [{ type: "string" }, { $ref: "#/types/docs:index:LampEitherText" }] },
      secretive: { type: "string", secret: true },
    });
    // `organizationId` has a provider default; `note` must be given but may be null, which Pulumi cannot say.
    expect(lamp.requiredInputs).toEqual(["shade"]);
    expect(lamp.required).toEqual(["organizationId", "watts"]);
    expect(lamp.properties.organizationId).toEqual({ type: "string", replaceOnChanges: true });
    expect(lamp.properties.secretive).toEqual({ type: "string", secret: true });
    expect(spec.types).toEqual({
      "docs:index:LampBulbsItem": { type: "object", properties: { watts: { type: "integer" } }, required: ["watts"] },
      "docs:index:LampEitherText": { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      "docs:index:LampShade": {
        type: "object",
        properties: {
          color: { $ref: "#/types/docs:index:LampShadeColor", description: "Its color." },
          size: { type: "number" },
        },
        required: ["color", "size"],
      },
      "docs:index:LampShadeColor": {
        type: "string",
        description: "Its color.",
        enum: [{ value: "red" }, { value: "blue" }],
      },
    });
  });

  it("makes an object's input and output sides one type, requiring what both require", () => {
    const member = (role: z.ZodType) => z.array(z.strictObject({ user: z.string(), role }));
    const spec = packageSchema(
      [
        madeUp(
          "Crew",
          z.strictObject({ members: member(z.enum(["a", "b"]).default("a")) }),
          z.object({ members: member(z.enum(["a", "b"])) }),
        ),
      ],
      manifest,
    );
    expect(spec.types["docs:index:CrewMembersItem"]).toMatchObject({ required: ["user"] });
  });

  it("fails when two different types would have one name", () => {
    const twice = [
      madeUp("Ab", z.strictObject({ cD: z.strictObject({ x: z.string() }) })),
      madeUp("AbC", z.strictObject({ d: z.strictObject({ y: z.number() }) })),
    ];
    expect(() => packageSchema(twice, manifest)).toThrow(
      "Two different types would be named AbCD in the schema: at Ab.cD (AbCD) and at AbC.d; " +
        "give one of them an id with .meta({ id })",
    );
    const inCase = [
      madeUp("Ab", z.strictObject({ cd: z.strictObject({ x: z.string() }) })),
      madeUp("AbC", z.strictObject({ d: z.strictObject({ y: z.string() }) })),
    ];
    // Pulumi tells tokens apart regardless of case.
    expect(() => packageSchema(inCase, manifest)).toThrow(
      "Two different types would be named AbCD in the schema: at Ab.cd (AbCd) and at AbC.d;",
    );
  });

  it("fails when replaceOnChanges names no property", () => {
    const kind = madeUp("Lamp", z.strictObject({ title: z.string() }), z.object({}), { replaceOnChanges: ["titel"] });
    expect(() => packageSchema([kind], manifest)).toThrow("Lamp: replaceOnChanges names titel, which is no property");
  });

  it("fails when a type would have a resource's name", () => {
    const kinds = [
      madeUp("Site", z.strictObject({ title: z.string() })),
      madeUp("S", z.strictObject({ ite: z.strictObject({ x: z.string() }) })),
    ];
    expect(() => packageSchema(kinds, manifest)).toThrow(
      "S.ite: its type would be named SIte, as the resource Site is; name the type otherwise with .meta({ id })",
    );
  });
});
