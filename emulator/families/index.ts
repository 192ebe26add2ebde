/**
 * Every family of the emulator, the one list the router (its routes), `TABLES` (its tables) and so the `Store`
 * (one read-only property per table) are composed from. A new family is a folder with an index.ts and one line here.
 */
import { auditFamily } from "./audit";
import { contentFamily } from "./content";
import { gitSyncFamily } from "./gitSync";
import { integrationsFamily } from "./integrations";
import { openapiFamily } from "./openapi";
import { organizationFamily } from "./organization";
import { redirectsFamily } from "./redirects";
import { samlFamily } from "./saml";
import { siteSettingsFamily } from "./siteSettings";
import { siteStructureFamily } from "./siteStructure";
import { sitesFamily } from "./sites";
import { teamsFamily } from "./teams";
import { translationsFamily } from "./translations";

export const FAMILIES = [
  organizationFamily,
  contentFamily,
  sitesFamily,
  siteSettingsFamily,
  siteStructureFamily,
  integrationsFamily,
  redirectsFamily,
  samlFamily,
  teamsFamily,
  openapiFamily,
  translationsFamily,
  gitSyncFamily,
  auditFamily,
] as const;
