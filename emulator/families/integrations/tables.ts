/** The integrations family's tables, each with the records it hangs on (the cascade of a delete is derived from them,
 * tables.ts). Apart from the routes, so that the tables import no route and no store. */
import { defineTables, onSite, parent, table } from "../../tableDecl";
import type {
  IntegrationInstallationRec,
  IntegrationSiteInstallationRec,
  IntegrationSpaceInstallationRec,
} from "./records";

export const integrationsTables = defineTables("integrations", {
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
});
