/**
 * The integrations the emulator knows (the official `Integration`, reduced to what installations need): each with the
 * schema of its organization-level configuration (`configurations.account`, an `IntegrationConfigurationSchema`).
 * An integration not listed here is unknown: installing it answers 404, as the API does for a name it does not know.
 */

export type ConfigurationProperty =
  | { type: "string"; title: string; enum?: string[] }
  | { type: "number"; title: string }
  | { type: "boolean"; title: string };

export interface ConfigurationSchema {
  properties: Record<string, ConfigurationProperty>;
  required?: string[];
}

export interface CatalogueIntegration {
  name: string;
  title: string;
  description: string;
  target: "all" | "site" | "space" | "organization";
  categories: string[];
  /** The permissions it requests (official `IntegrationScopes`). */
  scopes: string[];
  /** The organization-level configuration (`configurations.account`). */
  account: ConfigurationSchema;
  /** The per-site configuration (`configurations.site`); absent: the integration cannot be installed on a site. */
  site?: ConfigurationSchema;
  /** The per-space configuration (`configurations.space`); absent: the integration cannot be installed on a space. */
  space?: ConfigurationSchema;
}

export const INTEGRATION_CATALOGUE: readonly CatalogueIntegration[] = [
  // A real one, so that examples run here and against the API alike: as GitbookIO/integrations'
  // integrations/googleanalytics/gitbook-manifest.yaml declares it (target site, a site's required `tracking_id`).
  {
    name: "googleanalytics",
    title: "Google Analytics",
    description: "Receive GitBook traffic insights directly in your Google Analytics dashboard.",
    target: "site",
    categories: ["analytics"],
    // The manifest's site scopes (its space scopes are not in the document's IntegrationScope).
    scopes: ["site:script:inject", "site:script:cookies"],
    account: { properties: {} },
    site: {
      properties: { tracking_id: { type: "string", title: "Tracking ID" } },
      required: ["tracking_id"],
    },
  },
  {
    name: "analytics-pulse",
    title: "Analytics Pulse",
    description: "Sends page views of published sites to an analytics account.",
    target: "site",
    categories: ["analytics"],
    scopes: ["site:views:read", "site:script:inject"],
    account: {
      properties: {
        trackingId: { type: "string", title: "Tracking ID" },
        anonymizeIp: { type: "boolean", title: "Anonymize IPs" },
        sampleRate: { type: "number", title: "Sample rate" },
        region: { type: "string", title: "Region", enum: ["eu", "us"] },
      },
      required: ["trackingId"],
    },
    site: {
      properties: {
        trackingId: { type: "string", title: "Tracking ID of the site" },
        cookieBanner: { type: "boolean", title: "Cookie banner" },
      },
    },
  },
  {
    name: "ticket-sync",
    title: "Ticket Sync",
    description: "Links a ticketing system's account: its API key is a credential.",
    target: "all",
    categories: ["collaboration"],
    scopes: ["space:content:read", "space:metadata:read"],
    account: {
      properties: {
        workspace: { type: "string", title: "Workspace" },
        apiKey: { type: "string", title: "API key" },
      },
    },
    site: { properties: { project: { type: "string", title: "Project" } } },
    space: {
      properties: {
        project: { type: "string", title: "Project" },
        labels: { type: "string", title: "Labels", enum: ["none", "all"] },
        apiToken: { type: "string", title: "API token of the space's project" },
      },
    },
  },
  {
    name: "visitor-gate",
    title: "Visitor Gate",
    description: "Authenticates a site's visitors through an identity provider.",
    target: "site",
    categories: ["visitor-auth"],
    scopes: ["site:visitor:auth", "site:visitor:claims"],
    account: {
      properties: {
        issuer: { type: "string", title: "Issuer URL" },
        clientId: { type: "string", title: "Client ID" },
        clientSecret: { type: "string", title: "Client secret" },
      },
    },
    site: {
      properties: {
        audience: { type: "string", title: "Audience" },
        signingSecret: { type: "string", title: "Signing secret" },
      },
    },
  },
];

export function catalogueIntegration(name: string): CatalogueIntegration | undefined {
  return INTEGRATION_CATALOGUE.find((integration) => integration.name === name);
}
