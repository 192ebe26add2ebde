import { z } from "zod";
import { call } from "./parse";
import type { HttpClient } from "./transport";

export const OpenApiSpecSchema = z.object({
  id: z.string(),
  slug: z.string(),
  /** Absent when the source was given as text. */
  sourceURL: z.string().nullish(),
  /** `pending`, `progress` or `complete`. */
  processingState: z.string(),
  lastVersion: z.string().nullish(),
  lastProcessedAt: z.string().nullish(),
  /** `FETCH_TIMEOUT`, `FETCH_ERROR` or `PARSE_ERROR` when the last processing failed. */
  lastProcessErrorCode: z.string().nullish(),
  lastProcessedErrors: z.array(z.object({ message: z.string(), code: z.string().optional() })).nullish(),
  urls: z.object({ location: z.string(), app: z.string(), published: z.string() }).partial().optional(),
  /** `private` (the default) or `public`: who can read the spec's published versions. */
  visibility: z.string().nullish(),
});
export type ApiOpenApiSpec = z.infer<typeof OpenApiSpecSchema>;

export type OpenApiSource = { url: string } | { text: string };

const RawContentSchema = z.object({ text: z.string() });

export function openApiSpecsPath(organizationId: string): string {
  return `/orgs/${encodeURIComponent(organizationId)}/openapi`;
}

export function openApiSpecPath(organizationId: string, slug: string): string {
  return `${openApiSpecsPath(organizationId)}/${encodeURIComponent(slug)}`;
}

export async function createOpenApiSpec(
  client: HttpClient,
  organizationId: string,
  body: { slug: string; source: OpenApiSource },
): Promise<ApiOpenApiSpec> {
  const path = openApiSpecsPath(organizationId);
  return call(client, OpenApiSpecSchema, "POST", path, { body });
}

export async function getOpenApiSpec(
  client: HttpClient,
  organizationId: string,
  slug: string,
): Promise<ApiOpenApiSpec> {
  const path = openApiSpecPath(organizationId, slug);
  return call(client, OpenApiSpecSchema, "GET", path);
}

/** createOrUpdateOpenAPISpecBySlug: a new source starts a new processing run (200 updated, 201 created). */
export async function putOpenApiSpecSource(
  client: HttpClient,
  organizationId: string,
  slug: string,
  source: OpenApiSource,
): Promise<ApiOpenApiSpec> {
  const path = openApiSpecPath(organizationId, slug);
  return call(client, OpenApiSpecSchema, "PUT", path, { body: { source } });
}

export const OPENAPI_VISIBILITIES = ["private", "public"] as const;

/** updateOpenAPISpecBySlug: the only field it changes is the visibility. */
export async function setOpenApiSpecVisibility(
  client: HttpClient,
  organizationId: string,
  slug: string,
  visibility: (typeof OPENAPI_VISIBILITIES)[number],
): Promise<ApiOpenApiSpec> {
  const path = openApiSpecPath(organizationId, slug);
  return call(client, OpenApiSpecSchema, "PATCH", path, { body: { visibility } });
}

export function deleteOpenApiSpec(client: HttpClient, organizationId: string, slug: string): Promise<void> {
  return client.delete(openApiSpecPath(organizationId, slug));
}

/** The text of the latest processed version (getLatestOpenAPISpecVersionContentRaw). */
export async function getLatestOpenApiSpecText(client: HttpClient, organizationId: string, slug: string) {
  const path = `${openApiSpecPath(organizationId, slug)}/versions/latest/content/raw`;
  const raw = await call(client, RawContentSchema, "GET", path);
  return raw.text;
}
