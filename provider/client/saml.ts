import { z } from "zod";
import { call } from "./parse";
import type { HttpClient } from "./transport";

/*
 * The official document admits a user's personal API token only to every SAML provider operation (`security` is
 * `user`): each call says `userTokenOnly`, so that an integration or OAuth token's 401 here leaves it usable elsewhere.
 */

export const SamlProviderSchema = z.object({
  id: z.string(),
  label: z.string(),
  ssoURL: z.string().nullish(),
  entityID: z.string().nullish(),
  certificate: z.string().nullish(),
  /** The Team object in responses (a bare id is accepted too). */
  defaultTeam: z.union([z.string(), z.object({ id: z.string() })]).nullish(),
  defaultRole: z.string().nullish(),
  /** `active` or `pending` (not fully configured yet). */
  status: z.string().optional(),
  createdAt: z.string().optional(),
  /** What to configure in the identity provider. */
  service: z.object({ acsURL: z.string(), startURL: z.string(), entityID: z.string() }).partial().optional(),
});
export type ApiSamlProvider = z.infer<typeof SamlProviderSchema>;

export interface SamlProviderFields {
  label?: string;
  entityID?: string;
  certificate?: string;
  ssoURL?: string;
  /** A team id. */
  defaultTeam?: string;
  defaultRole?: string | null;
}

export function samlProvidersPath(organizationId: string): string {
  return `/orgs/${encodeURIComponent(organizationId)}/saml`;
}

export function samlProviderPath(organizationId: string, id: string): string {
  return `${samlProvidersPath(organizationId)}/${encodeURIComponent(id)}`;
}

export async function createSamlProvider(
  client: HttpClient,
  organizationId: string,
  body: SamlProviderFields & { label: string },
): Promise<ApiSamlProvider> {
  const path = samlProvidersPath(organizationId);
  return call(client, SamlProviderSchema, "POST", path, { userTokenOnly: true, body });
}

export async function getSamlProvider(
  client: HttpClient,
  organizationId: string,
  id: string,
): Promise<ApiSamlProvider> {
  const path = samlProviderPath(organizationId, id);
  return call(client, SamlProviderSchema, "GET", path, { userTokenOnly: true });
}

export async function updateSamlProvider(
  client: HttpClient,
  organizationId: string,
  id: string,
  patch: SamlProviderFields,
): Promise<ApiSamlProvider> {
  const path = samlProviderPath(organizationId, id);
  return call(client, SamlProviderSchema, "PATCH", path, { userTokenOnly: true, body: patch });
}

export function deleteSamlProvider(client: HttpClient, organizationId: string, id: string): Promise<void> {
  return client.delete(samlProviderPath(organizationId, id), { userTokenOnly: true });
}
