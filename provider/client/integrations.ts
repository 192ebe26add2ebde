import { z } from "zod";
import { listAll } from "./pagination";
import { call } from "./parse";
import type { HttpClient } from "./transport";

export const INTEGRATION_SELECTIONS = ["all", "selected"] as const;

/**
 * The official `IntegrationInstallation`. It does not carry the integration's name (the name is in every path), and
 * its `configuration` is open JSON: the integration may write keys of its own there (credentials included).
 */
export const IntegrationInstallationSchema = z.object({
  id: z.string(),
  status: z.string().optional(),
  space_selection: z.enum(INTEGRATION_SELECTIONS).optional(),
  site_selection: z.enum(INTEGRATION_SELECTIONS).optional(),
  spaces: z.number().optional(),
  configuration: z.record(z.string(), z.unknown()).nullish(),
  externalIds: z.array(z.string()).optional(),
  target: z.object({ organization: z.string() }).partial().optional(),
  createdAt: z.string().optional(),
  urls: z.object({ location: z.string(), app: z.string(), publicEndpoint: z.string() }).partial().optional(),
});
export type ApiIntegrationInstallation = z.infer<typeof IntegrationInstallationSchema>;

/**
 * One key of an official `IntegrationConfigurationSchema`: `string` (with an optional `enum`), `number`, `boolean`, or
 * `button` (an action in the app, never a value a configuration holds).
 */
export const IntegrationConfigurationPropertySchema = z.object({
  type: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  enum: z.array(z.string()).optional(),
});
export type ApiIntegrationConfigurationProperty = z.infer<typeof IntegrationConfigurationPropertySchema>;

/**
 * The official `IntegrationConfiguration`: a schema of properties with the keys it requires, or a ContentKit component
 * (`componentId`) the integration renders itself, whose keys the catalogue does not list.
 */
export const IntegrationConfigurationSchema = z.object({
  properties: z.record(z.string(), IntegrationConfigurationPropertySchema).optional(),
  required: z.array(z.string()).optional(),
  componentId: z.string().optional(),
});
export type ApiIntegrationConfiguration = z.infer<typeof IntegrationConfigurationSchema>;

/** The levels of the official `IntegrationConfigurations`: `account` is the organization installation's. */
export const INTEGRATION_CONFIGURATION_LEVELS = ["account", "site", "space"] as const;
export type IntegrationConfigurationLevel = (typeof INTEGRATION_CONFIGURATION_LEVELS)[number];

/** The official `Integration` of the catalogue, as far as lookups and preflight read it. */
export const IntegrationSchema = z.object({
  name: z.string(),
  title: z.string(),
  description: z.string().nullish(),
  target: z.string(),
  categories: z.array(z.string()),
  scopes: z.array(z.string()).default([]),
  configurations: z
    .object({
      account: IntegrationConfigurationSchema.optional(),
      site: IntegrationConfigurationSchema.optional(),
      space: IntegrationConfigurationSchema.optional(),
    })
    .optional(),
});
export type ApiIntegration = z.infer<typeof IntegrationSchema>;

/** `getIntegrationByName`'s path: one integration of the catalogue. */
export function integrationPath(integrationName: string): string {
  return `/integrations/${encodeURIComponent(integrationName)}`;
}

/** `getIntegrationByName`: one integration of the catalogue. */
export function getIntegration(client: HttpClient, integrationName: string) {
  // Stryker disable next-line StringLiteral: undici's request() sends an empty method as GET, or as PUT with a body.
  return call(client, IntegrationSchema, "GET", integrationPath(integrationName));
}

/** `listIntegrations`: the catalogue, every page. */
export function listIntegrations(client: HttpClient) {
  return listAll(client, "/integrations", {}, IntegrationSchema);
}

/** An item of `listOrganizationInstallations`: the installation with the integration it installs. */
export const OrganizationInstallationSchema = z.object({
  installation: IntegrationInstallationSchema,
  integration: z.object({ name: z.string(), title: z.string().optional() }),
});
export type ApiOrganizationInstallation = z.infer<typeof OrganizationInstallationSchema>;

export interface IntegrationInstallationPatch {
  configuration?: Record<string, unknown>;
  space_selection?: (typeof INTEGRATION_SELECTIONS)[number];
  site_selection?: (typeof INTEGRATION_SELECTIONS)[number];
}

export function integrationInstallationsPath(integrationName: string): string {
  return `${integrationPath(integrationName)}/installations`;
}

export function integrationInstallationPath(integrationName: string, installationId: string): string {
  return `${integrationInstallationsPath(integrationName)}/${encodeURIComponent(installationId)}`;
}

/** Every integration installed in the organization, each with its integration. */
export function organizationInstallationsPath(organizationId: string): string {
  return `/orgs/${encodeURIComponent(organizationId)}/installations`;
}

export function installIntegration(client: HttpClient, integrationName: string, organizationId: string) {
  const path = integrationInstallationsPath(integrationName);
  return call(client, IntegrationInstallationSchema, "POST", path, { body: { organization: organizationId } });
}

export function getIntegrationInstallation(client: HttpClient, integrationName: string, installationId: string) {
  const path = integrationInstallationPath(integrationName, installationId);
  return call(client, IntegrationInstallationSchema, "GET", path);
}

export function updateIntegrationInstallation(
  client: HttpClient,
  integrationName: string,
  installationId: string,
  patch: IntegrationInstallationPatch,
) {
  const path = integrationInstallationPath(integrationName, installationId);
  return call(client, IntegrationInstallationSchema, "PATCH", path, { body: patch });
}

/** The official document admits a user's personal token only to the uninstall (`security` is `user`). */
export function uninstallIntegration(client: HttpClient, integrationName: string, installationId: string) {
  return client.delete(integrationInstallationPath(integrationName, installationId), { userTokenOnly: true });
}

export function listOrganizationInstallations(client: HttpClient, organizationId: string) {
  return listAll(client, organizationInstallationsPath(organizationId), {}, OrganizationInstallationSchema);
}

/**
 * The official `IntegrationSiteInstallation`. Without `extended` (never sent) `site` is the site's id; the object form
 * is accepted too, since the string form is deprecated.
 */
export const IntegrationSiteInstallationSchema = z.object({
  integration: z.string(),
  installation: z.string(),
  status: z.string().optional(),
  configuration: z.record(z.string(), z.unknown()).nullish(),
  externalIds: z.array(z.string()).optional(),
  site: z.union([z.string(), z.object({ id: z.string() })]),
});
export type ApiIntegrationSiteInstallation = z.infer<typeof IntegrationSiteInstallationSchema>;

export const siteIdOfInstallation = (item: ApiIntegrationSiteInstallation) =>
  typeof item.site === "string" ? item.site : item.site.id;

/** The sites one organization installation is installed on (listed and created here). */
export function integrationSiteInstallationsPath(integrationName: string, installationId: string): string {
  return `${integrationInstallationPath(integrationName, installationId)}/sites`;
}

const siteInstallationPath = (integrationName: string, installationId: string, siteId: string) =>
  `${integrationSiteInstallationsPath(integrationName, installationId)}/${encodeURIComponent(siteId)}`;

export function installIntegrationOnSite(
  client: HttpClient,
  integrationName: string,
  installationId: string,
  siteId: string,
) {
  const path = integrationSiteInstallationsPath(integrationName, installationId);
  return call(client, IntegrationSiteInstallationSchema, "POST", path, { body: { siteId } });
}

export function getIntegrationSiteInstallation(
  client: HttpClient,
  integrationName: string,
  installationId: string,
  siteId: string,
) {
  const path = siteInstallationPath(integrationName, installationId, siteId);
  return call(client, IntegrationSiteInstallationSchema, "GET", path);
}

export function updateIntegrationSiteInstallation(
  client: HttpClient,
  integrationName: string,
  installationId: string,
  siteId: string,
  patch: { configuration: Record<string, unknown> },
) {
  const path = siteInstallationPath(integrationName, installationId, siteId);
  return call(client, IntegrationSiteInstallationSchema, "PATCH", path, { body: patch });
}

export function uninstallIntegrationFromSite(
  client: HttpClient,
  integrationName: string,
  installationId: string,
  siteId: string,
) {
  return client.delete(siteInstallationPath(integrationName, installationId, siteId));
}

export function listIntegrationInstallationSites(client: HttpClient, integrationName: string, installationId: string) {
  const path = integrationSiteInstallationsPath(integrationName, installationId);
  return listAll(client, path, {}, IntegrationSiteInstallationSchema);
}

/** The official `IntegrationSpaceInstallation`; `space` as on sites: the id, or the object. */
export const IntegrationSpaceInstallationSchema = IntegrationSiteInstallationSchema.omit({ site: true }).extend({
  space: z.union([z.string(), z.object({ id: z.string() })]),
});
export type ApiIntegrationSpaceInstallation = z.infer<typeof IntegrationSpaceInstallationSchema>;

export const spaceIdOfInstallation = (item: ApiIntegrationSpaceInstallation) =>
  typeof item.space === "string" ? item.space : item.space.id;

/** The spaces one organization installation is installed on (listed and created here). */
export function integrationSpaceInstallationsPath(integrationName: string, installationId: string): string {
  return `${integrationInstallationPath(integrationName, installationId)}/spaces`;
}

const spaceInstallationPath = (integrationName: string, installationId: string, spaceId: string) =>
  `${integrationSpaceInstallationsPath(integrationName, installationId)}/${encodeURIComponent(spaceId)}`;

/** The body names the space `space` (the site's install names it `siteId`). */
export function installIntegrationOnSpace(
  client: HttpClient,
  integrationName: string,
  installationId: string,
  spaceId: string,
) {
  const path = integrationSpaceInstallationsPath(integrationName, installationId);
  return call(client, IntegrationSpaceInstallationSchema, "POST", path, { body: { space: spaceId } });
}

export function getIntegrationSpaceInstallation(
  client: HttpClient,
  integrationName: string,
  installationId: string,
  spaceId: string,
) {
  const path = spaceInstallationPath(integrationName, installationId, spaceId);
  return call(client, IntegrationSpaceInstallationSchema, "GET", path);
}

export function updateIntegrationSpaceInstallation(
  client: HttpClient,
  integrationName: string,
  installationId: string,
  spaceId: string,
  patch: { configuration: Record<string, unknown> },
) {
  const path = spaceInstallationPath(integrationName, installationId, spaceId);
  return call(client, IntegrationSpaceInstallationSchema, "PATCH", path, { body: patch });
}

export function uninstallIntegrationFromSpace(
  client: HttpClient,
  integrationName: string,
  installationId: string,
  spaceId: string,
) {
  return client.delete(spaceInstallationPath(integrationName, installationId, spaceId));
}

export function listIntegrationInstallationSpaces(client: HttpClient, integrationName: string, installationId: string) {
  const path = integrationSpaceInstallationsPath(integrationName, installationId);
  return listAll(client, path, {}, IntegrationSpaceInstallationSchema);
}
