import { z } from "zod";
import { CollectionSchema, collectionsPath } from "./collections";
import { OpenApiSpecSchema, openApiSpecsPath } from "./openapi";
import { listAll } from "./pagination";
import { call } from "./parse";
import { SamlProviderSchema, samlProvidersPath } from "./saml";
import { SiteSchema, sitesPath } from "./sites";
import { TeamSchema, teamsPath } from "./teams";
import type { HttpClient } from "./transport";

/*
 * The organization's top-level listings: what a walk of a whole organization (`docs-platform import`, `unmanaged`)
 * starts from. One request per page of up to 1000 objects each. Each kind's path is built in its own module.
 */

/** `/orgs/{organizationId}`: the organization itself. */
export const organizationPath = (organizationId: string) => `/orgs/${encodeURIComponent(organizationId)}`;

/** Every collection of the organization, nested ones included, parents before their children in API order. */
export function listCollections(client: HttpClient, organizationId: string) {
  return listAll(client, collectionsPath(organizationId), { nested: true }, CollectionSchema);
}

export function listSites(client: HttpClient, organizationId: string) {
  return listAll(client, sitesPath(organizationId), {}, SiteSchema);
}

export function listSamlProviders(client: HttpClient, organizationId: string) {
  return listAll(client, samlProvidersPath(organizationId), {}, SamlProviderSchema, {
    userTokenOnly: true,
  });
}

export function listTeams(client: HttpClient, organizationId: string) {
  return listAll(client, teamsPath(organizationId), {}, TeamSchema);
}

export function listOpenApiSpecs(client: HttpClient, organizationId: string) {
  return listAll(client, openApiSpecsPath(organizationId), {}, OpenApiSpecSchema);
}

/**
 * Merge rules as the API reports them (`rules`, `none`, or `inherit` for a space): the rules stay unparsed objects,
 * which the kinds compare with their own schema.
 */
export const MergeRulesSchema = z.object({
  type: z.string(),
  rules: z.array(z.record(z.string(), z.unknown())).optional(),
});
export type ApiMergeRules = z.infer<typeof MergeRulesSchema>;

/** The organization's settings as `GET`/`PATCH /orgs/{organizationId}` report them (the official `Organization`). */
export const OrganizationSchema = z.object({
  id: z.string(),
  title: z.string(),
  emailDomains: z.array(z.string()).default([]),
  hostname: z.string().optional(),
  defaultRole: z.string().nullish(),
  defaultContent: z.object({ type: z.string(), site: z.string().optional() }).nullish(),
  sso: z.boolean().default(false),
  ai: z.boolean().default(false),
  inviteLinks: z.boolean().default(false),
  mergeRules: MergeRulesSchema.nullish(),
  urls: z.object({ logo: z.string().optional() }).default({}),
});
export type ApiOrganization = z.infer<typeof OrganizationSchema>;

/** The fields of the official `updateOrganizationById` body this package writes. */
export interface OrganizationPatch {
  title?: string;
  emailDomains?: string[];
  hostname?: string;
  defaultRole?: string | null;
  defaultContent?: { type: "site"; site: string } | null;
  logo?: string | null;
  sso?: boolean;
  ai?: boolean;
  inviteLinks?: boolean;
  mergeRules?: ApiMergeRules;
}

export function getOrganization(client: HttpClient, organizationId: string): Promise<ApiOrganization> {
  return call(client, OrganizationSchema, "GET", organizationPath(organizationId));
}

export function updateOrganization(
  client: HttpClient,
  organizationId: string,
  patch: OrganizationPatch,
): Promise<ApiOrganization> {
  return call(client, OrganizationSchema, "PATCH", organizationPath(organizationId), { body: patch });
}
