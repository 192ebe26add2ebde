import { describe, expect, it } from "vitest";
import { registeredKind } from "../../codegen/resourceTypes";
import { Connection } from "../../provider/framework/connection";
import type { RegisteredKind } from "../../provider/framework/registration";
import { dynamicRegistration as registration } from "../../provider/framework/resource";
import { definitions } from "../../provider/registry";
import * as registrations from "../../provider/resources/generatedTypes";

/**
 * What a Resource class registers, without Pulumi serializing a provider (test/framework/resource.test.ts does that
 * through the mocks, too slowly for a mutation run).
 */
const definitionOf = (kind: string) => {
  const found = definitions.find((d) => d.kind === kind);
  if (!found) throw new Error(`no kind ${kind}`);
  return found;
};
/** What the kind's generated class hands its base: its registration, printed from its definition. */
const definition = (kind: string) => {
  const name = `${kind.charAt(0).toLowerCase()}${kind.slice(1)}Registration`;
  const found = (registrations as Record<string, unknown>)[name] as RegisteredKind | undefined;
  if (!found) throw new Error(`no registration ${name}`);
  return found;
};

describe("registration", () => {
  it("registers what each kind's definition says: the printed registrations are current", () => {
    for (const d of definitions) expect(definition(d.kind), d.kind).toEqual(registeredKind(d));
  });

  it("registers every input and output, the given arguments over undefined", () => {
    const collection = definitionOf("Collection");
    const { props, options } = registration(definition("Collection"), "handbook", {
      title: "Handbook",
      importId: "c-1",
    });
    const inputKeys = Object.keys((collection.inputs as unknown as { shape: object }).shape);
    expect(Object.keys(props).sort()).toEqual([...new Set([...inputKeys, ...collection.outputs, "importId"])].sort());
    expect(props).toMatchObject({ title: "Handbook", importId: "c-1", description: undefined });
    for (const output of collection.outputs) expect(props[output]).toBeUndefined();
    expect(options).toBeUndefined();
  });

  it("passes the options through as they are for a kind without secret outputs", () => {
    const opts = { protect: true };
    expect(registration(definition("Collection"), "handbook", {}, opts).options).toBe(opts);
  });

  it("marks the kind's secret outputs secret, keeping the program's options", () => {
    const { options } = registration(
      definition("SiteShareLink"),
      "review",
      {},
      {
        protect: true,
        additionalSecretOutputs: ["createdAt"],
      },
    );
    expect(options?.protect).toBe(true);
    expect([...(options?.additionalSecretOutputs ?? [])].sort()).toEqual(["createdAt", "url"]);
    expect(registration(definition("SiteShareLink"), "review", {}).options?.additionalSecretOutputs).toEqual(["url"]);
  });

  it("registers a Connection as its resource input, and nothing for no connection", () => {
    const connection = new Connection({ apiUrl: "https://api.example.test/v1", tokenEnv: "OTHER_TOKEN" });
    const { props } = registration(definition("Collection"), "handbook", { title: "Handbook", connection });
    expect(props.connection).toEqual(connection.resourceInput());
    expect(props.connection).not.toBeInstanceOf(Connection);
    expect("connection" in registration(definition("Collection"), "handbook", {}).props).toBe(false);
  });

  it("refuses a connection that is not a docs.Connection, naming the kind and the resource", () => {
    expect(() =>
      registration(definition("Collection"), "handbook", { connection: { apiUrl: "https://api.example.test" } }),
    ).toThrow('Collection "handbook": connection must be a docs.Connection (new docs.Connection({...})).');
  });
});
