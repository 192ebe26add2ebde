/**
 * A site's channels (official `SiteChannel`): the record and every write to it, over the declared `siteChannels`
 * table (tables.ts), whose parent, the site, takes its channels with it. Routes: routes/siteChannels.ts.
 */

import type { Tables } from "../../tables";
import type { SiteRec } from "../sites/records";
import type { SiteChannelRec, SiteChannelRole, SiteChannelType } from "./records";

/** A site's channels, in the order they were made. */
export function channelsOf(tables: Tables, siteId: string): SiteChannelRec[] {
  return [...tables.siteChannels.values()].filter((channel) => channel.siteId === siteId);
}

/** A new channel; without a role it is `support` (the official document states no default). */
export function addChannel(
  tables: Tables,
  site: SiteRec,
  fields: { type: SiteChannelType; setupSettings: Record<string, string[]>; role?: SiteChannelRole },
): SiteChannelRec {
  const channel: SiteChannelRec = {
    id: tables.newId(),
    siteId: site.id,
    type: fields.type,
    setupSettings: structuredClone(fields.setupSettings),
    role: fields.role ?? "support",
    createdAt: tables.now(),
  };
  tables.siteChannels.set(channel.id, channel);
  return channel;
}

/** A setup given replaces the settings whole; the caller has checked that it keeps the channel's type. */
export function updateChannel(
  channel: SiteChannelRec,
  patch: { setupSettings?: Record<string, string[]>; role?: SiteChannelRole },
): void {
  if (patch.setupSettings !== undefined) channel.setupSettings = structuredClone(patch.setupSettings);
  if (patch.role !== undefined) channel.role = patch.role;
}

export function deleteChannel(tables: Tables, id: string): boolean {
  return tables.remove("siteChannels", id);
}
