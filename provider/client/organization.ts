import { CollectionSchema, collectionsPath } from "./collections";
import { OpenApiSpecSchema, openApiSpecsPath } from "./openapi";
import { listAll } from "./pagination";
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
  return listAll(client, samlProvidersPath(organizationId), {}, SamlProviderSchema);
}

export function listTeams(client: HttpClient, organizationId: string) {
  return listAll(client, teamsPath(organizationId), {}, TeamSchema);
}

export function listOpenApiSpecs(client: HttpClient, organizationId: string) {
  return listAll(client, openApiSpecsPath(organizationId), {}, OpenApiSpecSchema);
}
