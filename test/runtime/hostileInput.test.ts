import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ECHO_LIMIT } from "../../provider/framework/inputRules";
import { API_ID_PATTERN, apiId, apiIdPair } from "../../provider/framework/kind";
import { definitions } from "../../provider/registry";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";

const fixture = useEmulator();

type JsonNode = { pattern?: string; items?: JsonNode; anyOf?: JsonNode[]; sensitive?: boolean };

/** Whether a JSON Schema node is, or lists, or may be (nullable), the shared API id schema. */
function idShape(node: JsonNode): "id" | "ids" | undefined {
  if (node.pattern === API_ID_PATTERN.source) return "id";
  if (node.items && idShape(node.items) === "id") return "ids";
  for (const alternative of node.anyOf ?? []) {
    const shape = idShape(alternative);
    if (shape) return shape;
  }
  return undefined;
}

function propertiesOf(schema: z.ZodType): [string, JsonNode][] {
  const root = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as { properties?: object };
  return Object.entries(root.properties ?? {}) as [string, JsonNode][];
}

/** Every id input of every kind, found in the schemas rather than listed by hand. */
const idInputs = definitions.flatMap((definition) =>
  propertiesOf(definition.inputs).flatMap(([property, node]) => {
    const shape = idShape(node);
    return shape ? [{ kind: definition.kind, property, shape }] : [];
  }),
);

/** Inputs named like ids that are not the API's: the SAML entity id (a URI), a Git provider's repository and project. */
const NOT_API_IDS = new Set([
  "SamlProvider.entityId",
  "GitSyncInstallation.repositoryId",
  "GitSyncInstallation.projectId",
  // A page of a space: no kind of its own to refer to (listingFacet.test.ts), checked at preview against the space's
  // pages instead (resources/navigationFields.ts), and sent in a body, never in a path.
  "SiteSection.pageId",
  "SiteSpace.pageId",
]);
/** API ids under another name: a site structure's order lists its site's objects' ids; a site's style guide space. */
const IDS_NAMED_OTHERWISE = new Set(["SiteStructure.order", "Site.styleguide"]);

describe("ids are checked offline against the API's id alphabet", () => {
  it("finds the id inputs in the schemas: every kind has some, and parents' ids are among them", () => {
    expect(new Set(idInputs.map((input) => input.kind))).toEqual(new Set(definitions.map((d) => d.kind)));
    const names = idInputs.map((input) => `${input.kind}.${input.property}`);
    expect(names).toEqual(
      expect.arrayContaining(["TeamMember.userId", "SiteSectionGroup.sectionIds", "Collection.parentId"]),
    );
    // From the inputs' names, so that an id left a plain string fails here naming it, with no list per kind to keep.
    const namedLikeIds = definitions.flatMap((d) =>
      propertiesOf(d.inputs)
        .map(([property]) => `${d.kind}.${property}`)
        .filter((name) => (/Ids?$/.test(name) && !NOT_API_IDS.has(name)) || IDS_NAMED_OTHERWISE.has(name)),
    );
    expect(names.sort()).toEqual(namedLikeIds.sort());
  });

  for (const { kind, property, shape } of idInputs) {
    it(`${kind}.${property}: ".." fails check naming the property and the rule, with 0 requests`, async () => {
      const value = shape === "ids" ? [".."] : "..";
      const result = await lifecycle(kind).check({}, { [property]: value });
      const named = shape === "ids" ? `${property}.0` : property;
      expect(result.failures).toContainEqual({
        property: named,
        reason: expect.stringMatching(new RegExp(`^${kind}\\.${named.replace(".", "\\.")}: must be .*id`)),
      });
      expect(fixture.calls()).toEqual([]);
    });
  }

  for (const definition of definitions) {
    it(`${definition.kind}.importId: "..", "/", "a b" and "" fail check; the kind's own id format passes`, async () => {
      for (const importId of ["..", "/", "a b", "", "x?y", "x#y", "x%2e"]) {
        const result = await lifecycle(definition.kind).check({}, { importId });
        expect(result.failures, JSON.stringify(importId)).toContainEqual({
          property: "importId",
          reason: expect.stringMatching(new RegExp(`^${definition.kind}\\.importId: must be `)),
        });
      }
      const valid = definition.importId === apiIdPair ? "Tm0aB_x-1/Us9xY" : "Tm0aB_x-1";
      const result = await lifecycle(definition.kind).check({}, { importId: valid });
      expect((result.failures ?? []).filter((f) => f.property === "importId")).toEqual([]);
      expect(fixture.calls()).toEqual([]);
    });
  }

  it("accepts the ids the API makes: the emulator's 20 alphanumerics, and the official document's - and _", () => {
    for (const id of ["x", "Ab3dEf6hIj9kLm2nOp5q", "team_1-a"]) expect(apiId.safeParse(id).success, id).toBe(true);
    for (const id of [".", "..", "a/b", "a?b", "a#b", "a%2Fb", " a", "a\tb", "a\nb", "", "é"]) {
      expect(apiId.safeParse(id).success, JSON.stringify(id)).toBe(false);
    }
  });
});

/**
 * The engine prints `inputs[failure.property]` next to a failure that names a property (pkg/resource/deploy/
 * step_generator.go, issueCheckFailures, "property %v value %v has a problem"); a failure with an empty property
 * prints the reason alone. So a sensitive or huge value must come back with an empty property.
 */
describe("a failed check never makes the engine print a secret or a huge value", () => {
  const sensitive = definitions.flatMap((definition) =>
    propertiesOf(definition.inputs)
      .filter(([, node]) => node.sensitive === true)
      .map(([property]) => ({ kind: definition.kind, property })),
  );

  it("declares the inputs that may hold secrets in the schemas", () => {
    expect(sensitive).toEqual(
      expect.arrayContaining([
        { kind: "SamlProvider", property: "certificate" },
        { kind: "OpenApiSpec", property: "sourceText" },
      ]),
    );
  });

  it("names a sensitive input in the reason only, with the rule, and never the value", async () => {
    const secret = "-----BEGIN CERTIFICATE-----secret-cert".padEnd(10_001, "S");
    const result = await lifecycle("SamlProvider").check(
      {},
      { organizationId: "o1", label: "Okta", certificate: secret },
    );
    expect(result.failures).toEqual([
      {
        property: "",
        reason: "SamlProvider.certificate: must be at most 10000 characters (value not shown: too long)",
      },
    ]);
    const short = await lifecycle("SamlProvider").check({}, { organizationId: "o1", label: "Okta", certificate: 42 });
    expect(short.failures).toEqual([
      { property: "", reason: "SamlProvider.certificate: must be a string (value not shown: sensitive)" },
    ]);
    expect(JSON.stringify([result, short])).not.toContain("secret-cert");
  });

  it("does not name a property whose value is over the echo limit, whatever the kind", async () => {
    const huge = "t".repeat(ECHO_LIMIT + 1);
    const result = await lifecycle("Collection").check({}, { organizationId: "o1", title: huge });
    expect(result.failures).toEqual([
      { property: "", reason: "Collection.title: must be at most 50 characters (value not shown: too long)" },
    ]);
    const small = await lifecycle("Collection").check({}, { organizationId: "o1", title: "t".repeat(51) });
    expect(small.failures).toEqual([{ property: "title", reason: "Collection.title: must be at most 50 characters" }]);
  });

  it("relies on the engine behaviour read from the installed @pulumi/pulumi: failures are passed through as given", () => {
    const provider = path.join(
      path.dirname(require.resolve("@pulumi/pulumi/package.json")),
      "cmd/dynamic-provider/index.js",
    );
    const source = readFileSync(provider, "utf8");
    expect(source).toContain("failure.setProperty(f.property)");
    expect(source).toContain("failure.setReason(f.reason)");
  });
});
