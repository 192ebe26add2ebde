import { z } from "zod";
import { call } from "./parse";
import { sitePath } from "./sites";
import type { HttpClient } from "./transport";

export const SiteAdaptiveSchemaSchema = z.object({
  jsonSchema: z.record(z.string(), z.unknown()),
  updatedAt: z.string().optional(),
});
export type ApiSiteAdaptiveSchema = z.infer<typeof SiteAdaptiveSchemaSchema>;

/** What a site without visitor claims has: the state a deleted SiteAdaptiveSchema leaves behind. */
export const EMPTY_ADAPTIVE_JSON_SCHEMA = { type: "object", properties: {}, additionalProperties: false } as const;

function adaptiveSchemaPath(organizationId: string, siteId: string): string {
  return `${sitePath(organizationId, siteId)}/adaptive-schema`;
}

export async function getSiteAdaptiveSchema(
  client: HttpClient,
  organizationId: string,
  siteId: string,
): Promise<ApiSiteAdaptiveSchema> {
  const path = adaptiveSchemaPath(organizationId, siteId);
  return call(client, SiteAdaptiveSchemaSchema, "GET", path);
}

export async function putSiteAdaptiveSchema(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  jsonSchema: unknown,
): Promise<ApiSiteAdaptiveSchema> {
  const path = adaptiveSchemaPath(organizationId, siteId);
  return call(client, SiteAdaptiveSchemaSchema, "PUT", path, { body: { jsonSchema } });
}
