import { z } from "zod";
import { listAll } from "./pagination";
import { call } from "./parse";
import { sitePath } from "./sites";
import type { HttpClient } from "./transport";

/** The official `SiteConfigurableChannelType`: where the site's agent can be reached besides the site itself. */
export const SITE_CHANNEL_TYPES = ["builtin:slack", "builtin:linear", "builtin:github", "builtin:discord"] as const;
export type SiteChannelType = (typeof SITE_CHANNEL_TYPES)[number];
/** The official `SiteChannelRole`. */
export const SITE_CHANNEL_ROLES = ["collaborator", "support"] as const;
export type SiteChannelRole = (typeof SITE_CHANNEL_ROLES)[number];

/**
 * The allow-list each type's `setupSettings` holds (the official `SiteChannelSetup` variants): Slack and Discord list
 * channels, Linear teams, GitHub repositories. An empty list allows all.
 */
export const ALLOW_LIST_OF = {
  "builtin:slack": "allowedChannels",
  "builtin:discord": "allowedChannels",
  "builtin:linear": "allowedTeams",
  "builtin:github": "allowedRepositories",
} as const satisfies Record<SiteChannelType, string>;
export type AllowListField = (typeof ALLOW_LIST_OF)[SiteChannelType];
export type SiteChannelSetupSettings = Partial<Record<AllowListField, string[]>>;

/** The official `SiteChannel`. A core channel (`site`, `embed`, `api`) may be listed too: its type is kept as given. */
export const SiteChannelSchema = z.object({
  id: z.string(),
  type: z.string(),
  setupSettings: z.record(z.string(), z.array(z.string())).optional(),
  role: z.enum(SITE_CHANNEL_ROLES).optional(),
  status: z.string().optional(),
  createdAt: z.string().optional(),
});
export type ApiSiteChannel = z.infer<typeof SiteChannelSchema>;

/** The create body: a `SiteChannelSetup` (type and its settings, both required) with an optional role. */
export interface SiteChannelBody {
  type: SiteChannelType;
  setupSettings: SiteChannelSetupSettings;
  role?: SiteChannelRole;
}
/** The official update body: a whole `SiteChannelSetup` (type with its settings), a role, or both. */
export type SiteChannelPatch = Partial<SiteChannelBody>;

export function siteChannelsPath(organizationId: string, siteId: string): string {
  return `${sitePath(organizationId, siteId)}/channels`;
}

const channelPath = (organizationId: string, siteId: string, id: string) =>
  `${siteChannelsPath(organizationId, siteId)}/${encodeURIComponent(id)}`;

/** `listSiteChannels`. */
export function listSiteChannels(client: HttpClient, organizationId: string, siteId: string) {
  return listAll(client, siteChannelsPath(organizationId, siteId), {}, SiteChannelSchema);
}

/** `createSiteChannel` (201). */
export function createSiteChannel(client: HttpClient, organizationId: string, siteId: string, body: SiteChannelBody) {
  return call(client, SiteChannelSchema, "POST", siteChannelsPath(organizationId, siteId), { body });
}

/** `updateSiteChannelById`. */
export function updateSiteChannel(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  id: string,
  patch: SiteChannelPatch,
) {
  return call(client, SiteChannelSchema, "PATCH", channelPath(organizationId, siteId, id), { body: patch });
}

/** `deleteSiteChannelById` (205 deleted, 204 did not exist). */
export function deleteSiteChannel(client: HttpClient, organizationId: string, siteId: string, id: string) {
  return client.delete(channelPath(organizationId, siteId, id));
}
