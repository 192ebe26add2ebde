import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { PLUGIN_CLASSES_FILE, renderPluginClasses } from "../../codegen/pluginClasses";
import { registeredKind } from "../../codegen/resourceTypes";
import { dynamicRegistration } from "../../provider/framework/resource";
import { FUNCTIONS } from "../../provider/functions";
import * as plugin from "../../provider/plugin";
import { pluginRegistration } from "../../provider/plugin/resource";
import { definitions } from "../../provider/registry";
import { formatGenerated } from "../../tools/format-generated.mjs";

/**
 * The plugin route's classes (`pulumi-docs-platform/plugin`): generated from the same schemas as the dynamic route's,
 * registered as `docs:index:<Kind>` aliased to the dynamic type, loading nothing of the provider into the program.
 */
const root = path.join(__dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
  aliasTypes: string[];
  secretOutputs: string[];
  /** The registered properties as serialized, secrets still marked. */
  object: Record<string, unknown>;
}
const registered = new Map<string, Registered>();
const invoked: { token: string; inputs: Record<string, unknown>; provider: string | undefined }[] = [];

const SECRET_SIG = "4dabf18193072939515e22adb298388d";

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        const entry = registered.get(args.name);
        if (entry) Object.assign(entry, { type: args.type, inputs: args.inputs });
        const outputs =
          args.type === "docs:index:SiteShareLink" ? { url: "https://docs.example.test/?token=s3cr3t" } : {};
        return { id: `${args.name}-id`, state: { ...args.inputs, ...outputs } };
      },
      call: (args) => {
        invoked.push({ token: args.token, inputs: args.inputs, provider: args.provider });
        return { id: "space-1", title: args.inputs.title };
      },
    },
    "project",
    "stack",
    false,
  );
  // The mock engine ignores aliases and additionalSecretOutputs: record what the request to the engine asks for.
  const monitor = pulumi.runtime.getMonitor() as unknown as { registerResource: (...args: unknown[]) => unknown };
  const registerResource = monitor.registerResource.bind(monitor);
  monitor.registerResource = (request, ...rest) => {
    const req = request as {
      getName(): string;
      getAdditionalsecretoutputsList(): string[];
      getAliasesList(): { getSpec(): { getType(): string } | undefined }[];
      getObject(): { toJavaScript(): Record<string, unknown> } | undefined;
    };
    registered.set(req.getName(), {
      type: "",
      name: req.getName(),
      inputs: {},
      aliasTypes: req.getAliasesList().map((alias) => alias.getSpec()?.getType() ?? ""),
      secretOutputs: req.getAdditionalsecretoutputsList(),
      object: req.getObject()?.toJavaScript() ?? {},
    });
    return registerResource(request, ...rest);
  };
});

const resolved = <T>(output: pulumi.Output<T>) => new Promise<T>((resolve) => output.apply(resolve));
const classOf = (kind: string) =>
  (plugin as unknown as Record<string, new (name: string, args: object) => pulumi.CustomResource>)[kind];

describe("the plugin route's generated classes", () => {
  it(`${PLUGIN_CLASSES_FILE} is what \`npm run docs\` writes`, () => {
    const generated = formatGenerated(PLUGIN_CLASSES_FILE, renderPluginClasses(definitions));
    expect(read(PLUGIN_CLASSES_FILE) === generated, "stale: run `npm run docs` and commit the result").toBe(true);
  });

  it("has the dynamic route's class, arguments, documented outputs and registration for every kind, less connection", () => {
    // Both class files take them from the one generated types module, printed once.
    const dynamic = read("provider/resources/generated.ts");
    const generated = read(PLUGIN_CLASSES_FILE);
    const types = read("provider/resources/generatedTypes.ts");
    const reExported = /export type \{([^}]*)\} from "\.\.\/resources\/generatedTypes";/.exec(generated)?.[1] ?? "";
    for (const { kind } of definitions) {
      expect(typeof classOf(kind), kind).toBe("function");
      const registration = `${kind.charAt(0).toLowerCase()}${kind.slice(1)}Registration`;
      expect(types).toContain(`export interface ${kind}Args extends AdoptionArgs {`);
      expect(types).toContain(`export interface ${kind}Outputs {`);
      expect(types).toContain(`export const ${registration}: RegisteredKind = `);
      for (const text of [dynamic, generated]) {
        expect(text).toContain(`export interface ${kind} extends types.${kind}Outputs {}`);
        expect(text).toContain(`super(${registration}, name, args, opts);`);
        expect(text).not.toContain(`export interface ${kind}Outputs`);
      }
      expect(dynamic).toContain(`export interface ${kind}Args extends types.${kind}Args, ConnectionOption {}`);
      expect(reExported.split(/[\s,]+/)).toContain(`${kind}Args`);
    }
  });

  it("registers every property the dynamic route registers, so each output resolves, and nothing else", () => {
    for (const definition of definitions) {
      const resource = new (classOf(definition.kind) as new (name: string, args: object) => object)(
        `all-${definition.kind}`,
        {},
      ) as Record<string, unknown>;
      const expected = Object.keys(dynamicRegistration(registeredKind(definition), "x", {}).props);
      const outputs = Object.keys(resource).filter((key) => pulumi.Output.isInstance(resource[key]));
      expect(outputs.filter((key) => !["urn", "id"].includes(key)).sort(), definition.kind).toEqual(expected.sort());
    }
  });

  it("registers type docs:index:<Kind> aliased to the dynamic route's type, with the given inputs", async () => {
    const collection = new plugin.Collection("handbook", { title: "Handbook", importId: "c-1" });
    expect(await resolved(collection.title)).toBe("Handbook");
    expect(await resolved(collection.urls)).toBeUndefined();
    expect(registered.get("handbook")).toMatchObject({
      type: "docs:index:Collection",
      inputs: { title: "Handbook", importId: "c-1" },
      aliasTypes: ["pulumi-nodejs:dynamic/docs:Collection"],
      secretOutputs: [],
    });
    expect(registered.get("handbook")?.inputs).not.toHaveProperty("__provider");
  });

  it("marks the kind's secret outputs secret, next to the program's own options and aliases", async () => {
    const link = new plugin.SiteShareLink(
      "reviewers",
      { siteId: "site1", name: "Reviewers" },
      { additionalSecretOutputs: ["name"], aliases: [{ name: "old-reviewers" }] },
    );
    expect(await resolved(link.url)).toBe("https://docs.example.test/?token=s3cr3t");
    const entry = registered.get("reviewers");
    expect(entry?.secretOutputs.sort()).toEqual(["name", "url"]);
    expect(entry?.aliasTypes).toContain("pulumi-nodejs:dynamic/docs:SiteShareLink");
    expect(entry?.aliasTypes).toHaveLength(2);
  });

  it("refuses the dynamic route's connection, naming the resource and what replaces it", () => {
    expect(() =>
      pluginRegistration({ kind: "Collection", properties: ["title"] }, "archive", { connection: {} }),
    ).toThrow(
      'Collection "archive": connection is not an argument on the plugin route; give the resource a provider instead',
    );
    expect(pluginRegistration({ kind: "Collection", properties: [] }, "a", { connection: undefined }).props).toEqual({
      connection: undefined,
    });
  });
});

describe("docs.Provider", () => {
  it("registers pulumi:providers:docs with the token as a secret and preflight as stack config spells it", async () => {
    const provider = new plugin.Provider("globex", {
      organizationId: "org2",
      apiUrl: "https://api.example.test/v1",
      apiToken: "tok-plain-given",
      preflight: true,
    });
    expect(await resolved(provider.organizationId)).toBe("org2");
    const entry = registered.get("globex");
    expect(entry?.type).toBe("pulumi:providers:docs");
    expect(entry?.secretOutputs).toEqual(["apiToken"]);
    expect(entry?.object).toMatchObject({
      organizationId: "org2",
      apiUrl: "https://api.example.test/v1",
      apiToken: { [SECRET_SIG]: "1b47061264138c4ac30d75fd1eb44270", value: "tok-plain-given" },
      preflight: "true",
    });
  });

  it("is the provider of the resources given it", async () => {
    const provider = new plugin.Provider("acme", { organizationId: "org3" });
    const team = new plugin.Team("writers", { title: "Writers" }, { provider });
    expect(await resolved(team.id)).toBe("writers-id");
    expect(registered.get("writers")?.type).toBe("docs:index:Team");
    expect(registered.get("acme")?.object).not.toHaveProperty("apiToken");
    expect(team.getProvider("docs:index:Team")).toBe(provider);
  });
});

/**
 * The modules a module loads when it runs, as tsc emits it (type-only imports elided), followed through the
 * repository's own modules; packages are listed by name and not followed.
 */
function loadedModules(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    // A package, or a path computed at run time (`../kinds/${kind}`): named, not followed.
    if (!file.startsWith(root) || !existsSync(file)) return;
    const emitted = ts.transpileModule(readFileSync(file, "utf8"), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    for (const [, request] of emitted.matchAll(/require\((?:`|")([^`"]+)(?:`|")\)/g)) {
      if (!request?.startsWith(".")) {
        visit(request ?? "");
        continue;
      }
      const base = path.resolve(path.dirname(file), request);
      visit([`${base}.ts`, path.join(base, "index.ts")].find(existsSync) ?? base);
    }
  };
  visit(path.join(root, entry));
  return [...seen].map((file) => (file.startsWith(root) ? path.relative(root, file) : file)).sort();
}

describe("what a program of plugin classes loads", () => {
  it("invokes each lookup as the provider function docs:index:<name>, through the given provider", async () => {
    const provider = new plugin.Provider("other-org", { organizationId: "org-2" });
    const found = await plugin.getSpace({ title: "Guides" }, { provider });
    expect(found).toEqual({ id: "space-1", title: "Guides" });
    const output = await resolved(plugin.getSpaceOutput({ title: pulumi.output("API") }, { provider }));
    expect(output).toEqual({ id: "space-1", title: "API" });
    const providerRef = await resolved(pulumi.all([provider.urn, provider.id]).apply(([urn, id]) => `${urn}::${id}`));
    expect(invoked.slice(-2)).toEqual([
      { token: "docs:index:getSpace", inputs: { title: "Guides" }, provider: providerRef },
      { token: "docs:index:getSpace", inputs: { title: "API" }, provider: providerRef },
    ]);
    const names = Object.keys(plugin).filter((name) => /^get[A-Z]/.test(name));
    expect(names.sort()).toEqual(FUNCTIONS.flatMap((fn) => [fn.name, `${fn.name}Output`]).sort());
  });

  it("loads @pulumi/pulumi, the type tokens, the secret inputs, the registrations and the plugin's program modules, nothing else of the provider", () => {
    expect(loadedModules("provider/plugin/index.ts")).toEqual([
      "@pulumi/pulumi",
      "provider/framework/registration.ts",
      "provider/framework/secretInputs.ts",
      "provider/framework/typeTokens.ts",
      "provider/plugin/functions.ts",
      "provider/plugin/index.ts",
      "provider/plugin/resource.ts",
      "provider/plugin/resources.ts",
      "provider/resources/generatedTypes.ts",
    ]);
  });

  it("sees a loaded module, as the dynamic route's classes load their kind's provider", () => {
    const dynamic = loadedModules("provider/framework/resource.ts");
    expect(dynamic).toContain("provider/framework/connection.ts");
    expect(dynamic.some((file) => file.startsWith("../kinds/") || file.includes("provider/kinds"))).toBe(true);
  });
});
