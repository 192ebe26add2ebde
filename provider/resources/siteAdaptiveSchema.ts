import { z } from "zod";
import {
  type ApiSiteAdaptiveSchema,
  EMPTY_ADAPTIVE_JSON_SCHEMA,
  getSiteAdaptiveSchema,
  putSiteAdaptiveSchema,
  sitePath,
} from "../client";
import { defineKind } from "../framework/kind";
import { organizationId, siteId, siteIdsOf, UNDER_SITE, underSiteTitled } from "./siteCommon";

/**
 * The official SiteAdaptiveJSONSchema (wider than the API reference's boolean-only claims): every object is closed, every
 * claim has a description. A claim is a boolean, a string (optionally an enum), a number, an array of one of those,
 * or an object of further claims.
 */
const description = z.string();
const CLAIM_TYPES = "boolean, string, number, array or object";
const primitiveClaim = z.discriminatedUnion(
  "type",
  [
    z.strictObject({ type: z.literal("boolean"), description }),
    z.strictObject({ type: z.literal("string"), description, enum: z.array(z.string()).optional() }),
    z.strictObject({ type: z.literal("number"), description }),
  ],
  { error: "must be a claim of type boolean, string or number" },
);
type Claim =
  | z.output<typeof primitiveClaim>
  | { type: "array"; description: string; items: z.output<typeof primitiveClaim> }
  | { type: "object"; description: string; properties: Record<string, Claim>; additionalProperties: false };
const claims: z.ZodType<Record<string, Claim>> = z.lazy(() => z.record(z.string(), claim));
const claim: z.ZodType<Claim> = z.lazy(() =>
  z.discriminatedUnion(
    "type",
    [
      ...primitiveClaim.options,
      z.strictObject({ type: z.literal("array"), description, items: primitiveClaim }),
      z.strictObject({
        type: z.literal("object"),
        description,
        properties: claims,
        additionalProperties: z.literal(false),
      }),
    ],
    { error: `must be a claim of type ${CLAIM_TYPES}` },
  ),
);
const unsigned = z.strictObject({
  type: z.literal("object"),
  description: z.literal("Unsigned claims of the site visitor."),
  properties: claims,
  additionalProperties: z.literal(false),
});
const jsonSchema = z.strictObject({
  $schema: z.literal("http://json-schema.org/draft-07/schema#").optional(),
  type: z.literal("object"),
  properties: z
    .object({ unsigned: unsigned.optional() })
    .catchall(claim)
    // No claims is what deleting the resource leaves; declaring it would read back as "gone" on every refresh.
    .refine((properties) => Object.keys(properties).length > 0, {
      error: "must declare at least one claim (to have none, delete the SiteAdaptiveSchema resource)",
    }),
  additionalProperties: z.literal(false),
});

/** The `jsonSchema` argument's type (the generated class names it: it is recursive, so it is not spelled out). */
export type AdaptiveJsonSchema = z.input<typeof jsonSchema>;

const inputs = z.strictObject({
  organizationId,
  siteId,
  jsonSchema: jsonSchema
    .meta({ tsType: "AdaptiveJsonSchema", docType: "object (a draft-07 JSON Schema of claims, see notes)" })
    .describe("The site's visitor claims, as a draft-07 JSON Schema; the whole schema is written on every change."),
});

const state = z.object({
  organizationId: z.string(),
  siteId: z.string(),
  jsonSchema: z.record(z.string(), z.unknown()).describe("The schema as the API reports it."),
  updatedAt: z.string().nullable().default(null).describe("When the schema was last written."),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

function toState(schema: ApiSiteAdaptiveSchema, organization: string, site: string): State {
  return {
    organizationId: organization,
    siteId: site,
    jsonSchema: schema.jsonSchema,
    updatedAt: schema.updatedAt ?? null,
  };
}

/** A site whose schema declares no claim has no schema to manage. */
function isEmpty(schema: ApiSiteAdaptiveSchema): boolean {
  const properties = schema.jsonSchema.properties;
  return properties === null || typeof properties !== "object" || Object.keys(properties).length === 0;
}

export const siteAdaptiveSchemaKind = defineKind<Inputs, State>({
  kind: "SiteAdaptiveSchema",
  docs: {
    description:
      "The visitor claims of a site with adaptive content (`Site.adaptiveContent: true`): a draft-07 JSON Schema that " +
      "conditions (`condition` of sections and site spaces) can refer to. A site has one.",
    adoption:
      'Not needed: create writes the whole schema, replacing whatever the site had. `importId: "<siteId>"` works only ' +
      "when the site's schema already declares at least one claim (a site whose schema was never written has none: " +
      "the API answers 404).",
    notes: [
      "`jsonSchema` is checked during preview against the official schema; no object may have other keys than these: " +
        '`$schema` (optional; exactly `"http://json-schema.org/draft-07/schema#"`), `type: "object"`, ' +
        "`additionalProperties: false` (required), and `properties`: at least one claim, by name. " +
        '`properties.unsigned` (optional) holds the claims the visitor may send unsigned: `{ type: "object", ' +
        'description: "Unsigned claims of the site visitor.", properties: { …claims }, additionalProperties: false }`.',
      "Each claim has a `type` and a `description` (string, required): `boolean`; `string`, with an optional `enum` " +
        "list of strings; `number`; `array`, whose `items` is a `boolean`, `string` or `number` claim; `object`, with " +
        "`properties` (claims by name) and `additionalProperties: false`. The API reference allows only boolean claims; " +
        "the official API document, and this kind, accept all of these.",
      '- The API has no delete: deleting the resource writes an empty schema (`{ type: "object", properties: {}, ' +
        "additionalProperties: false }`). A site whose schema has no claims counts as having none, as does a site whose " +
        "schema was never written (the official document answers `GET …/adaptive-schema` with 404 then): a refresh " +
        "drops the resource from the state and the next `up` writes the schema again.",
      "- Declare one `SiteAdaptiveSchema` per site; two would overwrite each other.",
    ],
    example: `new docs.SiteAdaptiveSchema("claims", {
  organizationId,
  siteId: site.id,
  jsonSchema: {
    type: "object",
    additionalProperties: false,
    properties: { plan: { type: "string", enum: ["free", "pro"], description: "The visitor's plan" } },
  },
});`,
  },
  scope: "site",
  inputs,
  state,
  parent: UNDER_SITE,
  id: "parent",
  listing: {
    path: (ids) => sitePath(...siteIdsOf(ids)),
    // One per site, with the site's id; the read needs only the organization besides it.
    list: async (_ctx, { ids, title }) => [
      {
        id: String(ids.siteId),
        title: `${title} schema`,
        known: { organizationId: ids.organizationId },
        under: underSiteTitled(title),
      },
    ],
    existsOnlyIfRead: true,
    unmanaged: true,
  },
  imported: { word: "schema" },
  outputs: ["updatedAt"],
  idFormat: "the site id (a site has one adaptive schema)",
  replaceOnChanges: ["organizationId", "siteId"],
  // The old resource's delete empties the site's schema: done after the new one was written, it could wipe it.
  deleteBeforeReplace: true,

  async create({ client }, news) {
    const schema = await putSiteAdaptiveSchema(client, news.organizationId, news.siteId, news.jsonSchema);
    return { id: news.siteId, state: toState(schema, news.organizationId, news.siteId) };
  },

  // A site whose schema was never written answers 404 (official getSiteAdaptiveSchema): gone, as the framework reads
  // every 404. One written without claims (what delete leaves) is gone too.
  async read({ client }, id, known) {
    const organization = known.organizationId;
    const schema = await getSiteAdaptiveSchema(client, organization, id);
    return isEmpty(schema) ? undefined : { id, state: toState(schema, organization, id) };
  },

  // The Pulumi id is the site, so the schema is always written where the id says.
  async update({ client }, id, _olds, news, changed) {
    // Only reachable by adopting with an importId naming another site than siteId (siteId otherwise replaces):
    // writing would change a site the program does not name, and the next preview would replace the resource.
    if (changed.has("siteId")) {
      throw new Error(`SiteAdaptiveSchema: importId names site "${id}", the inputs site "${news.siteId}"`);
    }
    return toState(
      await putSiteAdaptiveSchema(client, news.organizationId, id, news.jsonSchema),
      news.organizationId,
      id,
    );
  },

  // There is no DELETE: the site goes back to a schema without claims.
  async delete({ client }, id, olds) {
    await putSiteAdaptiveSchema(client, olds.organizationId, id, EMPTY_ADAPTIVE_JSON_SCHEMA);
  },
});
