/**
 * Every family's tables, in the order of FAMILIES (index.ts), which TABLES (../tables.ts) and so the `Store` are
 * composed from. Apart from the families' routes, so that no table module imports a route or a store.
 */
import { auditTables } from "./audit/tables";
import { contentTables } from "./content/tables";
import { gitSyncTables } from "./gitSync/tables";
import { integrationsTables } from "./integrations/tables";
import { openapiTables } from "./openapi/tables";
import { organizationTables } from "./organization/tables";
import { redirectsTables } from "./redirects/tables";
import { samlTables } from "./saml/tables";
import { siteSettingsTables } from "./siteSettings/tables";
import { siteStructureTables } from "./siteStructure/tables";
import { sitesTables } from "./sites/tables";
import { teamsTables } from "./teams/tables";
import { translationsTables } from "./translations/tables";

export const FAMILY_TABLES = [
  organizationTables,
  contentTables,
  sitesTables,
  siteSettingsTables,
  siteStructureTables,
  integrationsTables,
  redirectsTables,
  samlTables,
  teamsTables,
  openapiTables,
  translationsTables,
  gitSyncTables,
  auditTables,
] as const;
