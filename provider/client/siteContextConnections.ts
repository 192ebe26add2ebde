import { z } from "zod";
import { listAll } from "./pagination";
import { call } from "./parse";
import { sitePath } from "./sites";
import type { HttpClient } from "./transport";

/**
 * The official `ContextConnectorSetup` variants with a constant connector: what each one's `setupSettings` holds,
 * split into the plain settings and the credentials (the tokens and keys the API redacts when it reads them back).
 * `optional` are the settings the variant does not require. `integration:<name>` (an integration's connector) and
 * the connectors here with neither settings nor credentials send no `setupSettings`.
 */
export const CONTEXT_CONNECTORS = {
  "builtin:email": { settings: [], credentials: [] },
  "builtin:api": { settings: [], credentials: [] },
  "builtin:website": { settings: ["url"], credentials: [] },
  "builtin:youtube": { settings: ["channelId"], credentials: [] },
  "builtin:github-discussions": { settings: ["repository"], credentials: ["token"] },
  "builtin:github-issues": { settings: ["repository"], credentials: ["token"] },
  "builtin:intercom": { settings: [], credentials: ["token"] },
  "builtin:front": { settings: [], credentials: ["token"] },
  "builtin:zendesk": { settings: ["subdomain", "email"], credentials: ["apiToken"] },
  "builtin:zoho-desk": { settings: ["dataCenter", "orgId", "clientId"], credentials: ["clientSecret", "refreshToken"] },
  "builtin:freshdesk": { settings: ["domain"], credentials: ["apiKey"] },
  "builtin:pylon": { settings: [], credentials: ["token"] },
  "builtin:hubspot": { settings: [], credentials: ["token"] },
  "builtin:linear": { settings: [], credentials: ["token"] },
  "builtin:jira": {
    settings: ["baseUrl", "apiEmail", "statusMapping"],
    credentials: ["apiToken"],
    optional: ["statusMapping"],
  },
} as const satisfies Record<
  string,
  { settings: readonly string[]; credentials: readonly string[]; optional?: readonly string[] }
>;
export type BuiltinContextConnector = keyof typeof CONTEXT_CONNECTORS;
export const BUILTIN_CONTEXT_CONNECTORS = Object.keys(CONTEXT_CONNECTORS) as BuiltinContextConnector[];
/** The official pattern of an integration's connector (`integration:<name>`). */
export const INTEGRATION_CONNECTOR = /^integration:[^:]+$/;

/** Every setting and every credential some connector has. */
export const CONTEXT_SETTINGS = [...new Set(Object.values(CONTEXT_CONNECTORS).flatMap((c) => c.settings))];
export const CONTEXT_CREDENTIALS = [...new Set(Object.values(CONTEXT_CONNECTORS).flatMap((c) => c.credentials))];

/** The official `ContextSearchBoost` and `ChangeRequestStatus` (the keys of Jira's `statusMapping`). */
export const CONTEXT_SEARCH_BOOSTS = ["x0.8", "x1.0", "x1.2"] as const;
export const CHANGE_REQUEST_STATUSES = ["draft", "open", "archived", "merged"] as const;

/** The official `ContextUsageSettings`. */
export const ContextUsageSettingsSchema = z.object({
  changeRequests: z.boolean(),
  search: z.boolean(),
  sync: z.boolean().optional(),
  searchBoost: z.string(),
});
export type ContextUsageSettings = z.infer<typeof ContextUsageSettingsSchema>;

/** The official `ContextConnection`: a connector's setup (credentials redacted) with what the API reports of it. */
export const ContextConnectionSchema = z.object({
  id: z.string(),
  connector: z.string(),
  setupSettings: z.record(z.string(), z.unknown()).optional(),
  usageSettings: ContextUsageSettingsSchema.optional(),
  label: z.string().optional(),
  filter: z.string().optional(),
  status: z.string().optional(),
  createdAt: z.string().optional(),
  email: z.object({ ingestionAddress: z.string().optional() }).optional(),
});
export type ApiContextConnection = z.infer<typeof ContextConnectionSchema>;

/** The create body: a `ContextConnectorSetup` with its optional usage settings and filter (a label only by update). */
export interface ContextConnectionBody {
  connector: string;
  setupSettings?: Record<string, unknown>;
  usageSettings?: ContextUsageSettings;
  filter?: string;
}
/** The official update body: a whole `ContextConnectorSetup`, the usage settings, label and filter, or both. */
export interface ContextConnectionPatch {
  connector?: string;
  setupSettings?: Record<string, unknown>;
  usageSettings?: ContextUsageSettings;
  label?: string;
  filter?: string;
}

export function siteContextConnectionsPath(organizationId: string, siteId: string): string {
  return `${sitePath(organizationId, siteId)}/context-connections`;
}

const connectionPath = (organizationId: string, siteId: string, id: string) =>
  `${siteContextConnectionsPath(organizationId, siteId)}/${encodeURIComponent(id)}`;

/** `listSiteContextConnections`. */
export function listSiteContextConnections(client: HttpClient, organizationId: string, siteId: string) {
  return listAll(client, siteContextConnectionsPath(organizationId, siteId), {}, ContextConnectionSchema);
}

/** `createSiteContextConnection` (201). */
export function createSiteContextConnection(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  body: ContextConnectionBody,
) {
  return call(client, ContextConnectionSchema, "POST", siteContextConnectionsPath(organizationId, siteId), { body });
}

/** `updateSiteContextConnectionById`. */
export function updateSiteContextConnection(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  id: string,
  patch: ContextConnectionPatch,
) {
  return call(client, ContextConnectionSchema, "PATCH", connectionPath(organizationId, siteId, id), { body: patch });
}

/** `deleteSiteContextConnectionById` (205 deleted, 204 did not exist). */
export function deleteSiteContextConnection(client: HttpClient, organizationId: string, siteId: string, id: string) {
  return client.delete(connectionPath(organizationId, siteId, id));
}
