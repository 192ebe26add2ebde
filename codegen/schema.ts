/**
 * The Pulumi package schema of the `docs` provider plugin (pkg/codegen/schema's `PackageSpec`), built from the type
 * model of the kinds' zod schemas (typeModel.ts), so the schema, the generated classes and the reference cannot
 * disagree. The plugin answers `GetSchema` with it; schema-driven consumers read it: Pulumi YAML rejects unknown
 * properties with it, wraps `secret` inputs and adds `secret` outputs and `replaceOnChanges` as resource options, and
 * adds each resource's `aliases` (the dynamic route's type, so a stack moves over without a replace).
 *
 * Pulumi types are objects and enums only, with no null and no limits: a nullable property is its non-null type, a
 * union is a `oneOf` (with a discriminator when its objects are told apart by a constant), and the provider's `check`
 * stays the validator of limits and patterns. `npm run docs` writes it to provider/plugin/schema.json (generatedFiles.ts), which the
 * plugin reads at run time (../provider/plugin/schemaFile.ts).
 */
import { z } from "zod";
import { DEFAULT_API_URL } from "../provider/client";
import { CONFIG_KEYS, ENV_KEYS } from "../provider/framework/settings";
import { PACKAGE, pluginType } from "../provider/framework/typeTokens";
import { pluginAliases } from "../provider/plugin/resource";
import { SCHEMA_FILE } from "../provider/plugin/schemaFile";
import { type Definition, type Node, refName, type TypeModel, typeModel } from "./typeModel";

export { SCHEMA_FILE };

/** The package: `docs:index:<Kind>` resources, `pulumi:providers:docs` providers, plugin `pulumi-resource-docs`. */

/** The type token of a resource or of a named type: both are `docs:index:<Name>`. */
const token = pluginType;

// ---------------------------------------------------------------------------------------------------------------
// The parts of pkg/codegen/schema's PackageSpec this schema uses

export interface TypeSpec {
  type?: "string" | "integer" | "number" | "boolean" | "array" | "object";
  $ref?: string;
  items?: TypeSpec;
  additionalProperties?: TypeSpec;
  oneOf?: TypeSpec[];
  discriminator?: { propertyName: string; mapping: Record<string, string> };
}

export interface PropertySpec extends TypeSpec {
  description?: string;
  const?: string | number | boolean;
  secret?: boolean;
  replaceOnChanges?: boolean;
  defaultInfo?: { environment: string[] };
}

export interface ObjectTypeSpec {
  type: "object";
  description?: string;
  /** Absent when empty, as Pulumi writes a schema back (`pulumi package get-schema` answers it so). */
  properties?: Record<string, PropertySpec>;
  required?: string[];
}

export interface EnumTypeSpec {
  type: "string" | "integer" | "number" | "boolean";
  description?: string;
  enum: { value: string | number | boolean }[];
}

export type ComplexTypeSpec = ObjectTypeSpec | EnumTypeSpec;

export interface ResourceSpec {
  description?: string;
  inputProperties: Record<string, PropertySpec>;
  requiredInputs?: string[];
  properties: Record<string, PropertySpec>;
  required?: string[];
  aliases?: { type: string }[];
}

export interface FunctionSpec {
  description?: string;
  inputs: ObjectTypeSpec;
  outputs: ObjectTypeSpec;
}

export interface PackageSpec {
  name: string;
  version: string;
  pluginDownloadURL?: string;
  publisher?: string;
  description?: string;
  homepage?: string;
  repository?: string;
  license?: string;
  config: { variables: Record<string, PropertySpec> };
  provider: ResourceSpec;
  types: Record<string, ComplexTypeSpec>;
  resources: Record<string, ResourceSpec>;
  functions: Record<string, FunctionSpec>;
  language: Record<"python" | "go" | "csharp", Record<string, unknown>>;
}

// ---------------------------------------------------------------------------------------------------------------
// Where the package lives

/**
 * The GitHub repository a release publishes the plugin tarball and the Go SDK from (owner/name). The package has no
 * public home yet: this is where the release recipe is to publish it.
 */
export const GITHUB_REPOSITORY = "pulumi-docs-platform/pulumi-docs-platform";

/**
 * Where the CLI downloads the plugin when it is not installed: the release's assets on GitHub, which the CLI names
 * `pulumi-resource-docs-v<version>-<os>-<arch>.tar.gz` (`npm run pack:plugin` builds one that runs on any of them).
 */
export const PLUGIN_DOWNLOAD_URL = `github://api.github.com/${GITHUB_REPOSITORY}`;

/**
 * The languages' package names, which pkg/codegen reads (its python, go and dotnet importers): the Python
 * distribution and module `pulumi_docs`, the Go module at sdk/go of the repository, the C# namespace
 * `DocsPlatform.Docs`. Each SDK requires the Pulumi SDK of the CLI this project is built and tested with.
 */
function languages(pulumiVersion: string): PackageSpec["language"] {
  return {
    python: {
      packageName: "pulumi_docs",
      requires: { pulumi: `>=${pulumiVersion},<4.0.0` },
      pyproject: { enabled: true },
      respectSchemaVersion: true,
    },
    go: {
      importBasePath: `github.com/${GITHUB_REPOSITORY}/sdk/go/docs`,
      modulePath: `github.com/${GITHUB_REPOSITORY}/sdk/go`,
      respectSchemaVersion: true,
    },
    csharp: {
      rootNamespace: "DocsPlatform",
      packageReferences: { Pulumi: `${pulumiVersion.split(".")[0]}.*` },
      respectSchemaVersion: true,
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The provider's settings

/** What each setting is, with where its default comes from; one entry per setting of CONFIG_KEYS. */
const SETTINGS: Record<keyof typeof CONFIG_KEYS, { type: "string" | "boolean"; description: string }> = {
  apiUrl: {
    type: "string",
    description: `The API's base URL. Default: the ${ENV_KEYS.apiUrl} environment variable, else ${DEFAULT_API_URL}.`,
  },
  apiToken: {
    type: "string",
    description: `The API token, always stored as a Pulumi secret. Default: the ${ENV_KEYS.apiToken} environment variable.`,
  },
  organizationId: {
    type: "string",
    description:
      "The organization of every resource that leaves out `organizationId`. " +
      `Default: the ${ENV_KEYS.organizationId} environment variable.`,
  },
  preflight: {
    type: "boolean",
    description:
      "Whether preview also checks the resources' references against the API, read-only (README, “Preflight”). " +
      `Default: the ${ENV_KEYS.preflight} environment variable, else false.`,
  },
};

/** The token is the one secret setting: stored encrypted in the state, never shown. */
const SECRET_SETTINGS: ReadonlySet<string> = new Set<keyof typeof CONFIG_KEYS>(["apiToken"]);

/**
 * The settings as stack config, and as an explicit provider's inputs and outputs. Only the config names the
 * environment variable as `defaultInfo`: a generated SDK's Provider class would copy it into its inputs, and so the
 * token of `DOCS_API_TOKEN` into the state, where the provider reads the environment itself at run time. Outputs are
 * strings only: the engine and the generated SDKs hand a provider its settings as strings (`"true"`).
 */
function settings(): Record<"config" | "inputs" | "outputs", Record<string, PropertySpec>> {
  const names = Object.keys(CONFIG_KEYS) as (keyof typeof CONFIG_KEYS)[];
  const inputs: Record<string, PropertySpec> = Object.fromEntries(
    names.map((name) => [name, { ...SETTINGS[name], ...(SECRET_SETTINGS.has(name) ? { secret: true } : {}) }]),
  );
  return {
    config: Object.fromEntries(
      names.map((name) => [name, { ...inputs[name], defaultInfo: { environment: [ENV_KEYS[name]] } }]),
    ),
    inputs,
    outputs: Object.fromEntries(
      names.filter((name) => SETTINGS[name].type === "string").map((name) => [name, inputs[name] as PropertySpec]),
    ),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Types

const ANY: TypeSpec = { $ref: "pulumi.json#/Any" };
const typeRef = (name: string) => `#/types/${token(name)}`;
const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
const isNull = (node: Node) => node.type === "null" || (node.const === null && node.type === undefined);

/** The alternatives of a union that are not `null`; a node that is no union is its own one alternative. */
function nonNull(node: Node): Node[] {
  const alternatives = node.anyOf ?? node.oneOf;
  if (alternatives) return alternatives.filter((alternative) => !isNull(alternative));
  if (Array.isArray(node.type)) {
    const types = node.type.filter((type) => type !== "null");
    return types.length === node.type.length ? [node] : types.map((type) => ({ ...node, type }));
  }
  return [node];
}

/** Whether a property may be `null`: Pulumi has no null, so such a property is never `required`. */
function admitsNull(node: Node): boolean {
  const alternatives = node.anyOf ?? node.oneOf ?? [];
  return (
    alternatives.some(isNull) ||
    (Array.isArray(node.type) && node.type.includes("null")) ||
    (node.enum ?? []).includes(null)
  );
}

/** Two object types that differ in which properties are required only: an object's input and output sides. */
function sameButRequired(a: ComplexTypeSpec, b: ComplexTypeSpec): boolean {
  const { required: _a, ...restA } = a as ObjectTypeSpec;
  const { required: _b, ...restB } = b as ObjectTypeSpec;
  return a.type === "object" && b.type === "object" && JSON.stringify(restA) === JSON.stringify(restB);
}

/**
 * One Pulumi type serves as an input and as an output: a property is required in it when both sides require it (an
 * input's defaulted property, which the output always has, is optional).
 */
function requiredInBoth(a: ComplexTypeSpec, b: ComplexTypeSpec): ComplexTypeSpec {
  const { required = [], ...rest } = a as ObjectTypeSpec;
  const both = required.filter((key) => ((b as ObjectTypeSpec).required ?? []).includes(key));
  return both.length > 0 ? { ...rest, required: both } : rest;
}

/**
 * The named types of the schema, each defined once: a second definition under a name (ignoring case, as Pulumi's
 * tokens do) must be the same type, or the schema would silently give one place the other's type.
 */
class Types {
  private readonly specs = new Map<string, { name: string; spec: ComplexTypeSpec; where: string }>();

  constructor(private readonly reserved: ReadonlyMap<string, string>) {}

  define(name: string, spec: ComplexTypeSpec, where: string): TypeSpec {
    const key = name.toLowerCase();
    const taken = this.reserved.get(key);
    if (taken !== undefined) {
      throw new Error(
        `${where}: its type would be named ${name}, as ${taken} is; name the type otherwise with .meta({ id })`,
      );
    }
    const seen = this.specs.get(key);
    if (seen === undefined) this.specs.set(key, { name, spec, where });
    else if (seen.name === name && sameButRequired(seen.spec, spec)) seen.spec = requiredInBoth(seen.spec, spec);
    else if (seen.name !== name || JSON.stringify(seen.spec) !== JSON.stringify(spec)) {
      throw new Error(
        `Two different types would be named ${name} in the schema: at ${seen.where} (${seen.name}) and at ${where}; ` +
          "give one of them an id with .meta({ id })",
      );
    }
    return { $ref: typeRef(name) };
  }

  /** By name, as the schema lists them. */
  all(): Record<string, ComplexTypeSpec> {
    const sorted = [...this.specs.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return Object.fromEntries(sorted.map(({ name, spec }) => [token(name), spec]));
  }
}

/** Turns the type model's JSON Schema nodes into schema types, naming each object and enum it meets after `name`. */
class TypeWriter {
  constructor(
    private readonly model: TypeModel,
    readonly types: Types,
  ) {}

  /** A property: its type and its description (the zod `.describe()` text of its place). */
  property(node: Node, name: string, where: string): PropertySpec {
    const type = this.type(node, name, where);
    // A named union has no type of its own to carry its description: the property does.
    const description = node.description ?? (type.oneOf ? this.resolved(node).description : undefined);
    return { ...type, ...(description ? { description } : {}) };
  }

  /**
   * The type of a node. `name` is the name an inline object or enum gets (`<Kind><Property>`, `…Item` for a list's
   * items, `…Value` for a map's values); `where` says where it is, for the collision message.
   */
  type(node: Node, name: string, where: string, discriminator?: string): TypeSpec {
    const named = refName(node);
    if (named !== undefined) return this.namedType(named, where, discriminator);
    // A recursive schema (`.meta({ tsType })`) and a node that says nothing of its type take any value.
    if (node.tsType) return ANY;
    const alternatives = nonNull(node);
    if (alternatives.length > 1) return this.union(alternatives, name, where);
    const [only] = alternatives;
    if (only !== node && only !== undefined) return this.type(only, name, where);
    if (node.enum) return this.enumType(node, name, where);
    if (node.const !== undefined && node.const !== null) return { type: scalarType(node.const) };
    switch (node.type) {
      case "string":
      case "integer":
      case "number":
      case "boolean":
        return { type: node.type };
      case "array":
        return { type: "array", items: node.items ? this.type(node.items, `${name}Item`, `${where}[]`) : ANY };
      case "object":
        return this.objectOrMap(node, name, where, discriminator);
      default:
        return node.properties ? this.objectOrMap(node, name, where, discriminator) : ANY;
    }
  }

  /** A type of the type model: objects and enums keep their name; a union is spelled out where it is used. */
  private namedType(name: string, where: string, discriminator?: string): TypeSpec {
    const body = this.model.types.find((type) => type.name === name)?.node;
    if (body === undefined) throw new Error(`${where}: the type model has no type ${name}`);
    return this.type(body, name, where, discriminator);
  }

  /** An object type, or a map when the object has no properties; `discriminator` holds the object's constant. */
  private objectOrMap(node: Node, name: string, where: string, discriminator?: string): TypeSpec {
    const properties = Object.entries(node.properties ?? {});
    if (properties.length === 0 && node.additionalProperties !== false) {
      const values = node.additionalProperties;
      return {
        type: "object",
        additionalProperties: typeof values === "object" ? this.type(values, `${name}Value`, `${where}{}`) : ANY,
      };
    }
    const nullable = new Set(properties.filter(([, child]) => admitsNull(child)).map(([key]) => key));
    const required = (node.required ?? []).filter((key) => !nullable.has(key));
    const spec: ObjectTypeSpec = {
      type: "object",
      ...(node.description ? { description: node.description } : {}),
      ...(properties.length > 0
        ? {
            properties: Object.fromEntries(
              properties.map(([key, child]) => {
                const property = this.property(child, name + pascal(key), `${where}.${key}`);
                const constant = key === discriminator ? child.const : undefined;
                return [key, constant === undefined ? property : { ...property, const: constant as string }];
              }),
            ),
          }
        : {}),
      ...(required.length > 0 ? { required } : {}),
    };
    return this.types.define(name, spec, where);
  }

  private enumType(node: Node, name: string, where: string): TypeSpec {
    const values = (node.enum ?? []).filter((value) => value !== null) as (string | number | boolean)[];
    const [first] = values;
    if (first === undefined) return ANY;
    const spec: EnumTypeSpec = {
      type: scalarType(first),
      ...(node.description ? { description: node.description } : {}),
      enum: values.map((value) => ({ value })),
    };
    return this.types.define(name, spec, where);
  }

  /**
   * Two or more non-null alternatives: a `oneOf`, its objects named after the union (`<Union><constant>` when a
   * property holding a different constant in each tells them apart, else after their required properties). Scalar
   * alternatives of one type (a state's `false` next to an input's `true`) are that type.
   */
  private union(alternatives: Node[], name: string, where: string): TypeSpec {
    const discriminator = discriminatorOf(alternatives.map((alternative) => this.resolved(alternative)));
    const specs: TypeSpec[] = [];
    const mapping: Record<string, string> = {};
    for (const alternative of alternatives) {
      const body = this.resolved(alternative);
      const constant = discriminator === undefined ? undefined : body.properties?.[discriminator]?.const;
      const own = constant !== undefined ? pascal(String(constant)) : alternativeSuffix(body);
      const spec = this.type(alternative, name + own, where, discriminator);
      if (constant !== undefined && spec.$ref) mapping[String(constant)] = spec.$ref;
      if (!specs.some((seen) => JSON.stringify(seen) === JSON.stringify(spec))) specs.push(spec);
    }
    if (specs.length === 1) return specs[0] as TypeSpec;
    if (discriminator !== undefined) return { oneOf: specs, discriminator: { propertyName: discriminator, mapping } };
    return { oneOf: specs };
  }

  private resolved(node: Node): Node {
    const named = refName(node);
    return named === undefined ? node : (this.model.types.find((type) => type.name === named)?.node ?? node);
  }
}

function scalarType(value: unknown): "string" | "integer" | "number" | "boolean" {
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value === "boolean" ? "boolean" : "string";
}

/** The property that holds a different string constant in each of a union's objects, if there is one. */
function discriminatorOf(alternatives: readonly Node[]): string | undefined {
  const [first] = alternatives;
  if (first === undefined || alternatives.length < 2) return undefined;
  return Object.keys(first.properties ?? {}).find((key) => {
    const constants = alternatives.map((alternative) => alternative.properties?.[key]?.const);
    return constants.every((constant) => typeof constant === "string") && new Set(constants).size === constants.length;
  });
}

/** How a union's alternative without a discriminator is told apart in its name: its required properties, or Empty. */
function alternativeSuffix(node: Node): string {
  const keys = node.required?.length ? node.required : Object.keys(node.properties ?? {});
  if (keys.length > 0) return keys.map(pascal).join("");
  return node.properties !== undefined && node.additionalProperties === false ? "Empty" : "";
}

// ---------------------------------------------------------------------------------------------------------------
// The package

/** The adoption input every kind accepts (resource.ts's `AdoptionArgs`), which its input schema does not list. */
const IMPORT_ID = "importId";

interface Manifest {
  name?: string;
  version: string;
  /** The Pulumi SDK version the SDKs require; default: the installed @pulumi/pulumi's (the CLI's, tools/setup.mjs). */
  pulumiVersion?: string;
  description?: string;
  homepage?: string;
  repository?: string | { url: string };
  license?: string;
}

/**
 * A kind's resource. Its outputs are the state's properties plus every input the state lacks: the lifecycle stores
 * the adoption id, the provider options and the declared parts of a kind whose state schema lists only its parents
 * (a customization), so each input can be read back.
 */
function resource({ definition, inputs, outputs }: TypeModel["kinds"][number], writer: TypeWriter): ResourceSpec {
  const { kind } = definition;
  const sensitive = new Set(inputs.filter((input) => input.node.sensitive).map((input) => input.name));
  const secret = new Set<string>([...(definition.secretOutputs ?? []), ...sensitive]);
  const replace = new Set<string>(definition.replaceOnChanges ?? []);
  const secretFlag = (name: string) => (secret.has(name) ? { secret: true } : {});
  const inputProperties: Record<string, PropertySpec> = {};
  for (const { name, node } of inputs) {
    inputProperties[name] = { ...writer.property(node, kind + pascal(name), `${kind}.${name}`), ...secretFlag(name) };
  }
  inputProperties[IMPORT_ID] = {
    type: "string",
    description:
      `The id of an existing ${kind} to take over on create instead of creating one (${definition.idFormat}); ` +
      `changing it later has no effect. ${definition.docs.adoption}`,
  };
  const properties: Record<string, PropertySpec> = {};
  for (const { name, node } of outputs) {
    properties[name] = {
      ...writer.property(node, kind + pascal(name), `${kind}.${name} (output)`),
      ...secretFlag(name),
    };
  }
  for (const [name, spec] of Object.entries(inputProperties)) properties[name] ??= spec;
  for (const name of replace) {
    const property = properties[name];
    if (property === undefined) throw new Error(`${kind}: replaceOnChanges names ${name}, which is no property`);
    properties[name] = { ...property, replaceOnChanges: true };
  }
  const requiredInputs = inputs.filter((input) => input.required && !admitsNull(input.node)).map((i) => i.name);
  const required = outputs.filter((output) => output.required && !admitsNull(output.node)).map((o) => o.name);
  return {
    description: definition.docs.description,
    inputProperties,
    ...(requiredInputs.length > 0 ? { requiredInputs } : {}),
    properties,
    ...(required.length > 0 ? { required } : {}),
    aliases: pluginAliases(kind),
  };
}

/** A provider function as the schema needs it: its name, what it does, and zod schemas of its arguments and result. */
export interface FunctionSource {
  name: string;
  description: string;
  args: z.ZodType;
  result: z.ZodType;
}

/**
 * A function's inputs or outputs: an object whose properties are typed as a kind's are. A sub-schema with an id
 * (`.meta({ id })`) is a named type; a nullable property is optional.
 */
function functionObject(schema: z.ZodType, io: "input" | "output", name: string, types: Types): ObjectTypeSpec {
  const root = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Node;
  const defs = Object.entries(root.$defs ?? {}).map(([defName, node]) => ({ name: defName, node, usedBy: [] }));
  const writer = new TypeWriter({ kinds: [], types: defs }, types);
  const entries = Object.entries(root.properties ?? {});
  const optional = new Set(entries.filter(([, node]) => admitsNull(node)).map(([key]) => key));
  const required = (root.required ?? []).filter((key) => !optional.has(key));
  return {
    type: "object",
    properties: Object.fromEntries(
      entries.map(([key, node]) => [key, writer.property(node, name + pascal(key), `${name}.${key}`)]),
    ),
    ...(required.length > 0 ? { required } : {}),
  };
}

/** The schema's functions: `docs:index:<name>` per lookup. */
function functionSpecs(functions: readonly FunctionSource[], types: Types): Record<string, FunctionSpec> {
  return Object.fromEntries(
    functions.map((fn) => [
      token(fn.name),
      {
        description: fn.description,
        inputs: functionObject(fn.args, "input", pascal(fn.name), types),
        outputs: functionObject(fn.result, "output", `${pascal(fn.name)}Result`, types),
      },
    ]),
  );
}

/** The package schema of the kinds: one resource per kind, the provider and its settings, and their named types. */
export function packageSchema(
  definitions: readonly Definition[],
  manifest: Manifest = require("pulumi-docs-platform/package.json"),
  functions: readonly FunctionSource[] = [],
): PackageSpec {
  const model = typeModel(definitions);
  // A type named like a resource would share its name in every generated SDK.
  const reserved = new Map(definitions.map((d) => [d.kind.toLowerCase(), `the resource ${d.kind}`]));
  reserved.set("provider", "the provider");
  const writer = new TypeWriter(model, new Types(reserved));
  const resources = Object.fromEntries(
    model.kinds.map((kind) => [token(kind.definition.kind), resource(kind, writer)]),
  );
  const functionTypes = functionSpecs(functions, writer.types);
  const { config, inputs, outputs } = settings();
  const repository = typeof manifest.repository === "object" ? manifest.repository.url : manifest.repository;
  return {
    name: PACKAGE,
    version: manifest.version,
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
    // The SDKs' author (NuGet's Authors and Company); the C# generator writes "Pulumi Corp." where none is given.
    ...(manifest.name ? { publisher: manifest.name } : {}),
    ...(manifest.description ? { description: manifest.description } : {}),
    ...(manifest.homepage ? { homepage: manifest.homepage } : {}),
    ...(repository ? { repository } : {}),
    ...(manifest.license ? { license: manifest.license } : {}),
    config: { variables: config },
    provider: {
      description: `The ${PACKAGE} provider: where the API is, the token, and the default organization of its resources.`,
      inputProperties: inputs,
      properties: outputs,
    },
    types: writer.types.all(),
    resources,
    functions: functionTypes,
    language: languages(manifest.pulumiVersion ?? require("@pulumi/pulumi/package.json").version),
  };
}

/** The schema as `npm run docs` writes it: two-space JSON ending in a newline. */
export function schemaText(definitions: readonly Definition[], functions: readonly FunctionSource[]): string {
  return `${JSON.stringify(packageSchema(definitions, undefined, functions), null, 2)}\n`;
}
