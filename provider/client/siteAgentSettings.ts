import { z } from "zod";
import { JsonDocumentSchema } from "./documentText";
import { call } from "./parse";
import { sitePath } from "./sites";
import type { HttpClient } from "./transport";

export const SCAN_TOPICS = ["auto", "never"] as const;
export const FINDING_CHANGE_REQUESTS = ["always", "auto-fixable", "never"] as const;

/** The official `SiteAgentSettingsInput`: the PUT requires all three parts. */
export const SiteAgentSettingsSchema = z.object({
  scans: z.object({ topics: z.enum(SCAN_TOPICS) }),
  findings: z.object({ changeRequests: z.enum(FINDING_CHANGE_REQUESTS) }),
  editing: z.object({ customInstructions: JsonDocumentSchema }),
});
export type ApiSiteAgentSettings = z.infer<typeof SiteAgentSettingsSchema>;

export function siteAgentSettingsPath(organizationId: string, siteId: string): string {
  return `${sitePath(organizationId, siteId)}/agent-settings`;
}

export function getSiteAgentSettings(client: HttpClient, organizationId: string, siteId: string) {
  // Stryker disable next-line StringLiteral: undici's request() sends an empty method as GET, or as PUT with a body.
  return call(client, SiteAgentSettingsSchema, "GET", siteAgentSettingsPath(organizationId, siteId));
}

export function putSiteAgentSettings(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  body: ApiSiteAgentSettings,
) {
  // Stryker disable next-line StringLiteral: undici's request() sends an empty method as GET, or as PUT with a body.
  return call(client, SiteAgentSettingsSchema, "PUT", siteAgentSettingsPath(organizationId, siteId), { body });
}
