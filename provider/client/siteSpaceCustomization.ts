import { call } from "./parse";
import { type ApiSiteCustomization, SiteCustomizationSchema } from "./siteCustomization";
import { siteSpacesPath } from "./siteSpaces";
import type { HttpClient } from "./transport";

function overridePath(organizationId: string, siteId: string, siteSpaceId: string): string {
  return `${siteSpacesPath(organizationId, siteId)}/${encodeURIComponent(siteSpaceId)}/customization`;
}

/** The site space's effective customization (official `getSiteSpaceCustomizationById`): its overrides over the site's. */
export async function getSiteSpaceCustomization(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
): Promise<ApiSiteCustomization> {
  return call(client, SiteCustomizationSchema, "GET", overridePath(organizationId, siteId, siteSpaceId));
}

/**
 * Overrides the fields the body names (official `overrideSiteSpaceCustomizationById`, a partial PATCH: a field left
 * out keeps its override or lack of one); answers the effective customization.
 */
export async function overrideSiteSpaceCustomization(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
  overrides: Record<string, unknown>,
): Promise<ApiSiteCustomization> {
  const path = overridePath(organizationId, siteId, siteSpaceId);
  return call(client, SiteCustomizationSchema, "PATCH", path, { body: overrides });
}

/** Removes every override (official `deleteSiteSpaceCustomizationById`): the site space follows the site again. */
export function deleteSiteSpaceCustomization(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  siteSpaceId: string,
): Promise<void> {
  return client.delete(overridePath(organizationId, siteId, siteSpaceId));
}
