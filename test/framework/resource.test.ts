import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Connection } from "../../provider/framework/connection";
import { Collection, SiteShareLink } from "../../provider/resources/generated";
import { serveRequires } from "./nodeRequire";

/**
 * The Resource classes as a program constructs them, under Pulumi's mocks: what they register with the engine (every
 * input and output property, so each Output resolves) and which outputs become secrets.
 */
interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}
const registered: Registered[] = [];
/** additionalSecretOutputs of each registration, by resource name. */
const secretOutputs = new Map<string, string[]>();

let undo: () => void = () => {};
beforeAll(async () => {
  const kinds = {
    "../kinds/Collection": (await import("../../provider/kinds/Collection")).default,
    "../kinds/SiteShareLink": (await import("../../provider/kinds/SiteShareLink")).default,
  };
  undo = serveRequires(kinds);
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs });
        const outputs = args.type.endsWith(":SiteShareLink")
          ? { url: "https://docs.example.test/?token=s3cr3t", createdAt: "2026-01-01T00:00:00Z" }
          : { urls: { app: "https://app.example.test/c/1" } };
        return { id: `${args.name}-id`, state: { ...args.inputs, ...outputs } };
      },
      call: () => ({}),
    },
    "project",
    "stack",
    false,
  );
  // The mock engine ignores additionalSecretOutputs: record what the request to the engine asks for instead.
  const monitor = pulumi.runtime.getMonitor() as unknown as { registerResource: (...args: unknown[]) => unknown };
  const registerResource = monitor.registerResource.bind(monitor);
  monitor.registerResource = (request, ...rest) => {
    const req = request as { getName(): string; getAdditionalsecretoutputsList(): string[] };
    secretOutputs.set(req.getName(), req.getAdditionalsecretoutputsList());
    return registerResource(request, ...rest);
  };
});
afterAll(() => undo());

const resolved = <T>(output: pulumi.Output<T>) => new Promise<T>((resolve) => output.apply(resolve));

describe("DocsResource", () => {
  it("registers the kind's type token, the declared inputs, every output, and the serialized provider", async () => {
    const collection = new Collection("handbook", { organizationId: "org1", title: "Handbook" });
    expect(await resolved(collection.id)).toBe("handbook-id");
    const entry = registered.find((r) => r.name === "handbook");
    expect(entry?.type).toBe("pulumi-nodejs:dynamic/docs:Collection");
    expect(entry?.inputs).toMatchObject({ organizationId: "org1", title: "Handbook" });
    expect(typeof entry?.inputs.__provider).toBe("string");
    // Outputs the program never set still resolve, from the state.
    expect(await resolved(collection.urls)).toEqual({ app: "https://app.example.test/c/1" });
    expect(await resolved(collection.title)).toBe("Handbook");
    expect(secretOutputs.get("handbook")).toEqual([]);
  });

  it("marks the kind's secret outputs secret, and only those", async () => {
    const link = new SiteShareLink("reviewers", { organizationId: "org1", siteId: "site1", name: "Reviewers" });
    expect(await resolved(link.url)).toBe("https://docs.example.test/?token=s3cr3t");
    expect(await resolved(link.createdAt)).toBe("2026-01-01T00:00:00Z");
    expect(secretOutputs.get("reviewers")).toEqual(["url"]);
  });

  it("keeps the program's own options next to the secret outputs", async () => {
    const link = new SiteShareLink(
      "protected",
      { organizationId: "org1", siteId: "site1", name: "P" },
      { additionalSecretOutputs: ["name"] },
    );
    expect(await resolved(link.id)).toBe("protected-id");
    expect(secretOutputs.get("protected")?.sort()).toEqual(["name", "url"]);
  });

  it("carries a connection in the inputs: a token env var's name as is, a token as a secret", async () => {
    const byEnv = new Connection({
      apiUrl: "https://api.example.test/v1",
      organizationId: "org2",
      tokenEnv: "B_TOKEN",
    });
    const archive = new Collection("archive", { title: "Archive", connection: byEnv });
    expect(await resolved(archive.id)).toBe("archive-id");
    expect(registered.find((r) => r.name === "archive")?.inputs.connection).toEqual({
      apiUrl: "https://api.example.test/v1",
      organizationId: "org2",
      tokenEnv: "B_TOKEN",
    });
    expect(secretOutputs.get("archive")).toEqual([]);

    const bySecret = new Connection({ organizationId: "org2", token: "plain-given" });
    expect(await pulumi.isSecret(bySecret.token as pulumi.Output<string>)).toBe(true);
    const vault = new Collection("vault", { title: "Vault", connection: bySecret });
    expect(await resolved(vault.id)).toBe("vault-id");
    // Kept secret by the engine at the token's path (see DocsResource), not as a whole-object secret output.
    expect(secretOutputs.get("vault")).toEqual([]);
  });

  it("refuses what is not a Connection, and a connection with both token sources", () => {
    const plain = { organizationId: "org2", token: "t" } as unknown as Connection;
    expect(() => new Collection("bad", { title: "Bad", connection: plain })).toThrow(
      'Collection "bad": connection must be a docs.Connection (new docs.Connection({...})).',
    );
    expect(() => new Connection({ token: "t", tokenEnv: "T" })).toThrow("give either token or tokenEnv, not both");
    expect(() => new Connection({ tokenEnv: "not a name" })).toThrow("tokenEnv must be the name of an environment");
  });
});
