/**
 * The siteSettings family: a site's settings and lists (share links, MCP servers, customization, agent settings,
 * adaptive schema, publishing auth). Its tables, each with the records it hangs on (the cascade of a delete is derived
 * from them, tables.ts), and its routes; families/index.ts lists the families.
 */
import { defineFamily } from "../family";
import { adaptiveSchemaRoutes } from "./adaptiveSchema";
import { shareLinkRoutes } from "./shareLinks";
import { siteAgentSettingsRoutes } from "./siteAgentSettings";
import { siteBrandingRoutes } from "./siteBranding";
import { siteChannelRoutes } from "./siteChannels";
import { siteContextConnectionRoutes } from "./siteContextConnections";
import { siteMcpServerRoutes } from "./siteMcpServers";
import { siteSpaceCustomizationRoutes } from "./siteSpaceCustomization";
import { siteSettingsTables } from "./tables";

export const siteSettingsFamily = defineFamily(siteSettingsTables, [
  ...adaptiveSchemaRoutes,
  ...siteBrandingRoutes,
  ...siteSpaceCustomizationRoutes,
  ...shareLinkRoutes,
  ...siteMcpServerRoutes,
  ...siteChannelRoutes,
  ...siteContextConnectionRoutes,
  ...siteAgentSettingsRoutes,
]);
