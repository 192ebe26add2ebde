import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/framework/unknown";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { created, describeLifecycle, updateTo } from "../support/lifecycle";

const fixture = useEmulator();
const schemaPath = (site: string) => `/orgs/${fixture.org()}/sites/${site}/adaptive-schema`;
const EMPTY = { type: "object", properties: {}, additionalProperties: false };
const UNSIGNED = "Unsigned claims of the site visitor.";

const schema = (properties: Record<string, unknown>) => ({ type: "object", properties, additionalProperties: false });
const beta = { beta: { type: "boolean", description: "In the beta programme" } };
/** Every claim shape the official document accepts (the spec shows only booleans). */
const everyClaim = {
  $schema: "http://json-schema.org/draft-07/schema#",
  ...schema({
    ...beta,
    plan: { type: "string", enum: ["free", "pro"], description: "Plan" },
    name: { type: "string", description: "Name" },
    seats: { type: "number", description: "Seats" },
    roles: { type: "array", description: "Roles", items: { type: "string", description: "Role" } },
    company: {
      type: "object",
      description: "Company",
      properties: { size: { type: "number", description: "Size" } },
      additionalProperties: false,
    },
    unsigned: {
      type: "object",
      description: UNSIGNED,
      properties: { locale: { type: "string", description: "Locale" } },
      additionalProperties: false,
    },
  }),
};

let adoptSite: string | undefined;

describeLifecycle(
  {
    kind: "SiteAdaptiveSchema",
    inputs: async () => ({ organizationId: fixture.org(), siteId: await fixture.makeSite(), jsonSchema: schema(beta) }),
    created: (state) => {
      expect(state.jsonSchema).toEqual(schema(beta));
      expect(state.updatedAt).toMatch(/^\d{4}-/);
    },
    updates: [updateTo("jsonSchema", everyClaim)],
    replaces: [
      { property: "siteId", inputs: async (_f, p) => ({ ...p, siteId: await fixture.makeSite() }) },
      { property: "organizationId", inputs: (f, p) => ({ ...p, organizationId: f.emulator.secondOrganizationId }) },
    ],
    outOfBand: {
      change: async (id) => {
        const changed = schema({ ...beta, vip: { type: "boolean", description: "VIP" } });
        expect((await fixture.api("PUT", schemaPath(id), { jsonSchema: changed })).status).toBe(200);
      },
      expect: (state) => expect(Object.keys((state.jsonSchema as { properties: object }).properties)).toContain("vip"),
    },
    adopt: {
      existing: async () => {
        adoptSite = await fixture.makeSite();
        expect((await fixture.api("PUT", schemaPath(adoptSite), { jsonSchema: schema(beta) })).status).toBe(200);
        return adoptSite;
      },
      inputs: async () => ({
        organizationId: fixture.org(),
        siteId: adoptSite ?? (await fixture.makeSite()),
        jsonSchema: everyClaim,
      }),
      expect: (state) => expect(state.jsonSchema).toEqual(everyClaim),
    },
  },
  fixture,
);

describe("SiteAdaptiveSchema behaviour", () => {
  it("refuses to adopt the schema of another site than siteId, and leaves that site's schema alone", async () => {
    const other = await fixture.makeSite();
    expect((await fixture.api("PUT", schemaPath(other), { jsonSchema: schema(beta) })).status).toBe(200);
    const inputs = {
      organizationId: fixture.org(),
      siteId: await fixture.makeSite(),
      jsonSchema: everyClaim,
      importId: other,
    };
    await expect(lifecycle("SiteAdaptiveSchema").create(inputs)).rejects.toThrow(
      new RegExp(`importId names site "${other}", the inputs site "${inputs.siteId}"`),
    );
    expect((await fixture.api("GET", schemaPath(other))).body).toMatchObject({ jsonSchema: schema(beta) });
  });

  it("uses the site id as its id, and delete resets the site to an empty schema", async () => {
    const { id, state } = await created("SiteAdaptiveSchema", {
      organizationId: fixture.org(),
      siteId: await fixture.makeSite(),
      jsonSchema: schema(beta),
    });
    expect(id).toBe(state.siteId);
    await lifecycle("SiteAdaptiveSchema").delete(id, state);
    const answer = await fixture.api("GET", schemaPath(id));
    expect((answer.body as { jsonSchema: unknown }).jsonSchema).toEqual(EMPTY);
  });

  it("reads a never-written schema (404), one without claims and a deleted site's as gone; one with claims as there", async () => {
    const siteId = await fixture.makeSite();
    const known = { organizationId: fixture.org(), siteId, jsonSchema: {} };
    const read = () => lifecycle("SiteAdaptiveSchema").read(siteId, known);
    expect((await fixture.api("GET", schemaPath(siteId))).status).toBe(404);
    expect((await read()).id).toBe("");
    expect((await fixture.api("PUT", schemaPath(siteId), { jsonSchema: EMPTY })).status).toBe(200);
    expect((await read()).id).toBe("");
    expect((await fixture.api("PUT", schemaPath(siteId), { jsonSchema: schema(beta) })).status).toBe(200);
    expect((await read()).props?.jsonSchema).toEqual(schema(beta));
    await fixture.api("DELETE", `/orgs/${fixture.org()}/sites/${siteId}`);
    expect((await read()).id).toBe("");
  });

  it("adopting a site whose schema was never written fails naming importId, with one GET and no write", async () => {
    const siteId = await fixture.makeSite();
    fixture.emulator.clearRequests();
    const inputs = { organizationId: fixture.org(), siteId, jsonSchema: schema(beta), importId: siteId };
    await expect(lifecycle("SiteAdaptiveSchema").create(inputs)).rejects.toThrow(
      new RegExp(`importId "${siteId}" names no existing SiteAdaptiveSchema`),
    );
    expect(fixture.calls()).toEqual([`GET /v1${schemaPath(siteId)}`]);
    // Without importId, create writes the schema on a site that never had one.
    const { state } = await created("SiteAdaptiveSchema", {
      organizationId: fixture.org(),
      siteId,
      jsonSchema: schema(beta),
    });
    expect(state.jsonSchema).toEqual(schema(beta));
  });

  it("compares the schema regardless of key order", async () => {
    const { id, state, inputs } = await created("SiteAdaptiveSchema", {
      organizationId: fixture.org(),
      siteId: await fixture.makeSite(),
      jsonSchema: everyClaim,
    });
    const reordered = JSON.parse(JSON.stringify(everyClaim, Object.keys(everyClaim).reverse()));
    const news = {
      ...inputs,
      jsonSchema: { additionalProperties: false, ...reordered, properties: everyClaim.properties },
    };
    expect((await lifecycle("SiteAdaptiveSchema").diff(id, state, news)).changes).toBe(false);
  });
});

describe("SiteAdaptiveSchema check", () => {
  const check = (jsonSchema: unknown) =>
    lifecycle("SiteAdaptiveSchema").check({}, { organizationId: fixture.org(), siteId: "site", jsonSchema });
  const claim = (c: unknown) => schema({ c });

  it("rejects what the official schema shape does not allow, naming the property", async () => {
    const cases: [unknown, string, RegExp][] = [
      ["{}", "jsonSchema", /must be an object/],
      [{ ...schema(beta), type: "array" }, "jsonSchema.type", /must be one of "object"/],
      [{ ...schema(beta), additionalProperties: true }, "jsonSchema.additionalProperties", /must be one of false/],
      [{ ...schema(beta), $schema: "http://json-schema.org/draft-04/schema#" }, "jsonSchema.$schema", /must be one of/],
      [{ ...schema(beta), required: ["beta"] }, "jsonSchema", /unknown property required/],
      [{ type: "object", additionalProperties: false }, "jsonSchema.properties", /must be an object/],
      [schema({}), "jsonSchema.properties", /at least one claim/],
      [
        claim({ type: "date", description: "d" }),
        "jsonSchema.properties.c.type",
        /boolean, string, number, array or object/,
      ],
      [claim({ type: "boolean" }), "jsonSchema.properties.c.description", /must be a string/],
      [
        claim({ type: "boolean", description: "d", default: true }),
        "jsonSchema.properties.c",
        /unknown property default/,
      ],
      [claim({ type: "string", enum: [1], description: "d" }), "jsonSchema.properties.c.enum.0", /must be a string/],
      [claim({ type: "array", description: "d" }), "jsonSchema.properties.c.items", /must be an object/],
      [
        claim({ type: "array", description: "d", items: { type: "array", description: "d" } }),
        "jsonSchema.properties.c.items.type",
        /boolean, string or number/,
      ],
      [
        claim({ type: "object", description: "d", properties: {}, additionalProperties: true }),
        "jsonSchema.properties.c.additionalProperties",
        /must be one of false/,
      ],
      [
        claim({
          type: "object",
          description: "d",
          properties: { x: { type: "boolean" } },
          additionalProperties: false,
        }),
        "jsonSchema.properties.c.properties.x.description",
        /must be a string/,
      ],
      [
        schema({ unsigned: { type: "object", description: "Other", properties: {}, additionalProperties: false } }),
        "jsonSchema.properties.unsigned.description",
        /must be one of "Unsigned claims of the site visitor."/,
      ],
    ];
    for (const [jsonSchema, property, reason] of cases) {
      const result = await check(jsonSchema);
      expect(result.failures, property).toEqual([{ property, reason: expect.stringMatching(reason) }]);
      expect(result.failures?.[0]?.reason).toMatch(/^SiteAdaptiveSchema\.jsonSchema/);
    }
    expect(fixture.emulator.requests()).toEqual([]);
  });

  it("accepts every claim shape of the official document", async () => {
    expect((await check(everyClaim)).failures).toBeUndefined();
    const onlyUnsigned = schema({
      unsigned: { type: "object", description: UNSIGNED, properties: {}, additionalProperties: false },
    });
    expect((await check(onlyUnsigned)).failures).toBeUndefined();
  });

  it("lets unknown values through during preview", async () => {
    expect((await check(UNKNOWN)).failures).toBeUndefined();
    expect((await check(schema({ c: UNKNOWN }))).failures).toBeUndefined();
  });
});
