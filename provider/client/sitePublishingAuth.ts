import { z } from "zod";
import { call } from "./parse";
import { sitePath } from "./sites";
import type { HttpClient } from "./transport";

/** The official `SitePublishingAuth`: how a `visitor-auth` site authenticates its readers, with its signing key. */
export const SitePublishingAuthSchema = z.object({
  backend: z.enum(["custom", "integration"]).catch("custom"),
  privateKey: z.string(),
  fallbackURL: z.string().optional(),
  logoutURL: z.string().optional(),
  integration: z.string().optional(),
});
export type ApiSitePublishingAuth = z.infer<typeof SitePublishingAuthSchema>;

/** The official `SitePublishingAuthUpdate`: a URL left out is unchanged, `null` unsets it. */
export interface SitePublishingAuthUpdate {
  backend: "custom" | "integration";
  fallbackURL?: string | null;
  logoutURL?: string | null;
}

function publishingAuthPath(organizationId: string, siteId: string): string {
  return `${sitePath(organizationId, siteId)}/publishing/auth`;
}

export async function getSitePublishingAuth(client: HttpClient, organizationId: string, siteId: string) {
  return call(client, SitePublishingAuthSchema, "GET", publishingAuthPath(organizationId, siteId));
}

export async function updateSitePublishingAuth(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  body: SitePublishingAuthUpdate,
) {
  return call(client, SitePublishingAuthSchema, "PATCH", publishingAuthPath(organizationId, siteId), { body });
}

/** A new signing key: tokens signed with the old one stop working at once. */
export async function regenerateSitePublishingAuth(client: HttpClient, organizationId: string, siteId: string) {
  const path = `${publishingAuthPath(organizationId, siteId)}/regenerate`;
  return call(client, SitePublishingAuthSchema, "POST", path);
}
