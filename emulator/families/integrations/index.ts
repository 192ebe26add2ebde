/**
 * The integrations family: integration installations (organization, site, space). Its tables, each with the records it
 * hangs on (the cascade of a delete is derived from them, tables.ts), and its routes; families/index.ts lists the
 * families.
 */

import { onSite, parent, table } from "../../tableDecl";
import { defineFamily } from "../family";
import { integrationRoutes } from "./integrations";
import type {
  IntegrationInstallationRec,
  IntegrationSiteInstallationRec,
  IntegrationSpaceInstallationRec,
} from "./records";

export const integrationsFamily = defineFamily("integrations", {
  tables: {
    integrationInstallations: table<IntegrationInstallationRec>([parent("orgs", (i) => i.orgId)]),
    /** key `${installationId}/${siteId}` */
    integrationSiteInstallations: table<IntegrationSiteInstallationRec>([
      parent("integrationInstallations", (i) => i.installationId),
      onSite(),
    ]),
    /** key `${installationId}/${spaceId}` */
    integrationSpaceInstallations: table<IntegrationSpaceInstallationRec>([
      parent("integrationInstallations", (i) => i.installationId),
      parent("spaces", (i) => i.spaceId),
    ]),
  },
  routes: [...integrationRoutes],
});
