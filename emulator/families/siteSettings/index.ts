/**
 * The siteSettings family: a site's settings and lists (share links, MCP servers, customization, agent settings,
 * adaptive schema, publishing auth). Its tables, each with the records it hangs on (the cascade of a delete is derived
 * from them, tables.ts), and its routes; families/index.ts lists the families.
 */

import { onSite, table } from "../../tableDecl";
import { defineFamily } from "../family";
import { adaptiveSchemaRoutes } from "./adaptiveSchema";
import type {
  AdaptiveSchemaRec,
  PublishingAuthRec,
  ShareLinkRec,
  SiteAgentSettingsRec,
  SiteCustomizationRec,
  SiteMcpServerRec,
} from "./records";
import { shareLinkRoutes } from "./shareLinks";
import { siteAgentSettingsRoutes } from "./siteAgentSettings";
import { siteBrandingRoutes } from "./siteBranding";
import type { SiteChannelRec } from "./siteChannelStore";
import { siteChannelRoutes } from "./siteChannels";
import { siteMcpServerRoutes } from "./siteMcpServers";
import { siteSpaceCustomizationRoutes } from "./siteSpaceCustomization";

export const siteSettingsFamily = defineFamily("siteSettings", {
  tables: {
    shareLinks: table<ShareLinkRec>([onSite()]),
    /** key: site id */
    adaptiveSchemas: table<AdaptiveSchemaRec>([onSite()]),
    /** key: site id; a site without a record has the new-site customization */
    siteCustomizations: table<SiteCustomizationRec>([onSite()]),
    /** key: site id; a site without a record has the new-site agent settings */
    siteAgentSettings: table<SiteAgentSettingsRec>([onSite()]),
    mcpServers: table<SiteMcpServerRec>([onSite()]),
    siteChannels: table<SiteChannelRec>([onSite()]),
    /** key: site id; made on first use */
    publishingAuths: table<PublishingAuthRec>([onSite()]),
  },
  routes: [
    ...adaptiveSchemaRoutes,
    ...siteBrandingRoutes,
    ...siteSpaceCustomizationRoutes,
    ...shareLinkRoutes,
    ...siteMcpServerRoutes,
    ...siteChannelRoutes,
    ...siteAgentSettingsRoutes,
  ],
});
