import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { factBlocks } from "../../codegen/conventionFacts";
import { sensitiveInputsOf } from "../../provider/framework/inputRules";
import * as plugin from "../../provider/plugin";
import { definitions } from "../../provider/registry";
import * as dynamic from "../../provider/resources/generated";
import { serveRequires } from "./nodeRequire";

/**
 * Every input a kind marks sensitive is sent to the engine as a secret, on both routes, however the program gives
 * it: plain, as an Output, or as an Output of nothing (then not sent, as any input left out). The engine stores
 * what it is sent as a secret encrypted in the inputs, which `additionalSecretOutputs` does not reach.
 */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const SECRET = "1b47061264138c4ac30d75fd1eb44270";

/** The registered properties as serialized for the engine, by resource name, secrets still marked. */
const sent = new Map<string, Record<string, unknown>>();

let undo: () => void = () => {};
beforeAll(async () => {
  const kinds: Record<string, unknown> = {};
  for (const { kind } of definitions)
    kinds[`../kinds/${kind}`] = (await import(`../../provider/kinds/${kind}.ts`)).default;
  undo = serveRequires(kinds);
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
      call: () => ({}),
    },
    "project",
    "stack",
    false,
  );
  const monitor = pulumi.runtime.getMonitor() as unknown as { registerResource: (...args: unknown[]) => unknown };
  const registerResource = monitor.registerResource.bind(monitor);
  monitor.registerResource = (request, ...rest) => {
    const req = request as { getName(): string; getObject(): { toJavaScript(): Record<string, unknown> } | undefined };
    sent.set(req.getName(), req.getObject()?.toJavaScript() ?? {});
    return registerResource(request, ...rest);
  };
});
afterAll(() => undo());

type Constructor = new (name: string, args: object) => pulumi.CustomResource;
const routes = {
  dynamic: dynamic as unknown as Record<string, Constructor>,
  plugin: plugin as unknown as Record<string, Constructor>,
};

/** Each sensitive input of each kind, from the schemas. */
const sensitiveInputs = definitions.flatMap((definition) =>
  [...sensitiveInputsOf(definition)].map((property) => ({ kind: definition.kind, property })),
);

async function registered(route: keyof typeof routes, kind: string, name: string, args: object) {
  const resource = new (routes[route][kind] as Constructor)(name, args);
  await new Promise((resolve) => resource.urn.apply(resolve));
  return sent.get(name) ?? {};
}

describe("sensitive inputs", () => {
  it("are the ones the issue found and the reference names (a new one joins the cases below by itself)", () => {
    expect(sensitiveInputs.map(({ kind, property }) => `${kind}.${property}`).sort()).toEqual(
      expect.arrayContaining([
        "GitSyncInstallation.accessToken",
        "IntegrationInstallation.secrets",
        "IntegrationSiteInstallation.secrets",
        "IntegrationSpaceInstallation.secrets",
        "OpenApiSpec.sourceText",
        "SamlProvider.certificate",
        "SiteMcpServer.headers",
      ]),
    );
  });

  it("are each named in the README's and the conventions' block of secret inputs", () => {
    const blocks = factBlocks(definitions);
    for (const block of [blocks["README.md"]["secret inputs"], blocks["docs/conventions.md"]["secret inputs"]]) {
      expect(block).toMatch(/^\d+ inputs are secrets however the program gives them/);
      for (const { kind, property } of sensitiveInputs) expect(block).toContain(`\`${kind}.${property}\``);
    }
  });

  for (const route of ["dynamic", "plugin"] as const) {
    describe(`on the ${route} route`, () => {
      it.each(sensitiveInputs)("$kind.$property given plain is sent as a secret", async ({ kind, property }) => {
        const value = { plain: "plain-1" };
        const object = await registered(route, kind, `${route}-plain-${kind}-${property}`, { [property]: value });
        expect(object[property]).toEqual({ [SECRET_SIG]: SECRET, value });
      });

      it.each(sensitiveInputs)("$kind.$property given as an Output is sent as a secret", async ({ kind, property }) => {
        const value = "from-an-output";
        const object = await registered(route, kind, `${route}-output-${kind}-${property}`, {
          [property]: pulumi.output(Promise.resolve(value)),
        });
        expect(object[property]).toEqual({ [SECRET_SIG]: SECRET, value });
      });

      it.each(sensitiveInputs)(
        "$kind.$property given as an Output of nothing is not sent",
        async ({ kind, property }) => {
          const object = await registered(route, kind, `${route}-nothing-${kind}-${property}`, {
            [property]: pulumi.output(undefined),
          });
          expect(object).not.toHaveProperty(property);
        },
      );
    });
  }

  it("leave every other input as the program gave it", async () => {
    const object = await registered("dynamic", "SiteMcpServer", "plain-others", {
      siteId: "site-1",
      name: "Tickets",
      url: "https://mcp.example.test",
      headers: { Authorization: "Bearer x" },
    });
    expect(object).toMatchObject({ siteId: "site-1", name: "Tickets", url: "https://mcp.example.test" });
    expect(object.headers).toEqual({ [SECRET_SIG]: SECRET, value: { Authorization: "Bearer x" } });
  });
});
