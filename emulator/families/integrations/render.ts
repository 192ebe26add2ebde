/** Renders the integrations family's records into API objects carrying every field the official response schemas require. */

import type { Store } from "../../store";
import type { Env } from "../../types";
import type { OrgRec } from "../organization/records";
import { renderOrg } from "../organization/render";
import type { CatalogueIntegration, ConfigurationSchema } from "./integrationCatalogue";
import type {
  IntegrationInstallationRec,
  IntegrationSiteInstallationRec,
  IntegrationSpaceInstallationRec,
} from "./records";

type Json = Record<string, unknown>;

const enc = encodeURIComponent;

/** The catalogue's integration as the official `Integration` (`owner` is required: the listing organization). */
export function renderIntegration(env: Env, store: Store, integration: CatalogueIntegration, owner: OrgRec): Json {
  const location = `${env.apiBase}/integrations/${enc(integration.name)}`;
  return {
    object: "integration",
    name: integration.name,
    version: 1,
    title: integration.title,
    description: integration.description,
    previewImages: [],
    target: integration.target,
    verified: true,
    visibility: "public",
    scopes: [...integration.scopes],
    categories: [...integration.categories],
    configurations: renderConfigurations(integration),
    externalLinks: [],
    owner: renderOrg(env, store, owner),
    permissions: { admin: false },
    urls: {
      location,
      app: `${env.appBase}/integrations/${enc(integration.name)}`,
      assets: `${location}/assets`,
      publicEndpoint: `${env.origin}/integrations/${enc(integration.name)}`,
      publicContentEndpoint: `${env.origin}/integrations/${enc(integration.name)}`,
    },
  };
}

/** The official `IntegrationConfigurations`: `account` always, `site` and `space` where the integration installs there. */
function renderConfigurations(integration: CatalogueIntegration): Json {
  const levels = { account: integration.account, site: integration.site, space: integration.space };
  return Object.fromEntries(
    Object.entries(levels)
      .filter((entry): entry is [string, ConfigurationSchema] => entry[1] !== undefined)
      .map(([level, schema]) => [
        level,
        {
          properties: structuredClone(schema.properties),
          ...(schema.required ? { required: [...schema.required] } : {}),
        },
      ]),
  );
}

export function renderIntegrationInstallation(env: Env, installation: IntegrationInstallationRec): Json {
  const location = `${env.apiBase}/integrations/${enc(installation.integrationName)}/installations/${enc(installation.id)}`;
  const endpoint = `${env.origin}/integrations/${enc(installation.integrationName)}/installations/${enc(installation.id)}`;
  return {
    id: installation.id,
    status: installation.status,
    space_selection: installation.spaceSelection,
    site_selection: installation.siteSelection,
    spaces: 0,
    configuration: { ...installation.configuration },
    createdAt: installation.createdAt,
    updatedAt: installation.updatedAt,
    urls: {
      location,
      app: `${env.appBase}/o/${enc(installation.orgId)}/integrations/${enc(installation.integrationName)}`,
      publicEndpoint: endpoint,
      publicContentEndpoint: endpoint,
    },
    externalIds: [...installation.externalIds],
    target: { organization: installation.orgId },
  };
}

/** Without `extended`, `site` is the site's id (the document's deprecated form, still its default). */
export function renderIntegrationSiteInstallation(
  env: Env,
  installation: IntegrationInstallationRec,
  site: IntegrationSiteInstallationRec,
): Json {
  const location = `${env.apiBase}/integrations/${enc(installation.integrationName)}/installations/${enc(installation.id)}/sites/${enc(site.siteId)}`;
  const endpoint = `${env.origin}/integrations/${enc(installation.integrationName)}/installations/${enc(installation.id)}/sites/${enc(site.siteId)}`;
  return {
    integration: installation.integrationName,
    installation: installation.id,
    status: installation.status,
    configuration: { ...site.configuration },
    externalIds: [...site.externalIds],
    urls: { location, publicEndpoint: endpoint, publicContentEndpoint: endpoint },
    site: site.siteId,
  };
}

/** Without `extended`, `space` is the space's id (the document's deprecated form, still its default). */
export function renderIntegrationSpaceInstallation(
  env: Env,
  installation: IntegrationInstallationRec,
  space: IntegrationSpaceInstallationRec,
): Json {
  const path = `integrations/${enc(installation.integrationName)}/installations/${enc(installation.id)}/spaces/${enc(space.spaceId)}`;
  return {
    integration: installation.integrationName,
    installation: installation.id,
    status: installation.status,
    configuration: { ...space.configuration },
    externalIds: [...space.externalIds],
    urls: {
      location: `${env.apiBase}/${path}`,
      publicEndpoint: `${env.origin}/${path}`,
      publicContentEndpoint: `${env.origin}/${path}`,
    },
    space: space.spaceId,
  };
}
