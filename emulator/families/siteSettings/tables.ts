/** The siteSettings family's tables, each with the records it hangs on (the cascade of a delete is derived from them,
 * tables.ts). Apart from the routes, so that the tables import no route and no store. */
import { defineTables, onSite, table } from "../../tableDecl";
import type {
  AdaptiveSchemaRec,
  PublishingAuthRec,
  ShareLinkRec,
  SiteAgentSettingsRec,
  SiteChannelRec,
  SiteContextConnectionRec,
  SiteCustomizationRec,
  SiteMcpServerRec,
} from "./records";

export const siteSettingsTables = defineTables("siteSettings", {
  shareLinks: table<ShareLinkRec>([onSite()]),
  /** key: site id */
  adaptiveSchemas: table<AdaptiveSchemaRec>([onSite()]),
  /** key: site id; a site without a record has the new-site customization */
  siteCustomizations: table<SiteCustomizationRec>([onSite()]),
  /** key: site id; a site without a record has the new-site agent settings */
  siteAgentSettings: table<SiteAgentSettingsRec>([onSite()]),
  mcpServers: table<SiteMcpServerRec>([onSite()]),
  siteChannels: table<SiteChannelRec>([onSite()]),
  contextConnections: table<SiteContextConnectionRec>([onSite()]),
  /** key: site id; made on first use */
  publishingAuths: table<PublishingAuthRec>([onSite()]),
});
