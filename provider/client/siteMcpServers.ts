import { z } from "zod";
import { listAll } from "./pagination";
import { call } from "./parse";
import { sitePath } from "./sites";
import type { HttpClient } from "./transport";

export const SITE_MCP_TRANSPORTS = ["sse", "http"] as const;

/** The official `SiteMcpServer`. Its answers carry the headers' values: they are secrets in the state. */
export const SiteMcpServerSchema = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  transport: z.enum(SITE_MCP_TRANSPORTS).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  condition: z.string().nullish(),
});
export type ApiSiteMcpServer = z.infer<typeof SiteMcpServerSchema>;

export interface SiteMcpServerBody {
  name: string;
  url: string;
  /** Required by the create, even when empty. */
  headers: Record<string, string>;
  transport?: (typeof SITE_MCP_TRANSPORTS)[number];
  condition?: string | null;
}
/** "Only provided fields are updated"; `condition: null` removes it. */
export type SiteMcpServerPatch = Partial<SiteMcpServerBody>;

export function siteMcpServersPath(organizationId: string, siteId: string): string {
  return `${sitePath(organizationId, siteId)}/mcp-servers`;
}

const serverPath = (organizationId: string, siteId: string, id: string) =>
  `${siteMcpServersPath(organizationId, siteId)}/${encodeURIComponent(id)}`;

export function listSiteMcpServers(client: HttpClient, organizationId: string, siteId: string) {
  return listAll(client, siteMcpServersPath(organizationId, siteId), {}, SiteMcpServerSchema);
}

export function createSiteMcpServer(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  body: SiteMcpServerBody,
) {
  return call(client, SiteMcpServerSchema, "POST", siteMcpServersPath(organizationId, siteId), { body });
}

export function updateSiteMcpServer(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  id: string,
  patch: SiteMcpServerPatch,
) {
  return call(client, SiteMcpServerSchema, "PATCH", serverPath(organizationId, siteId, id), { body: patch });
}

export function deleteSiteMcpServer(client: HttpClient, organizationId: string, siteId: string, id: string) {
  return client.delete(serverPath(organizationId, siteId, id));
}
