import { z } from "zod";
import {
  type ApiIntegrationSiteInstallation,
  getIntegrationSiteInstallation,
  installIntegrationOnSite,
  integrationSiteInstallationsPath,
  listIntegrationInstallationSites,
  listOrganizationInstallations,
  organizationInstallationsPath,
  siteIdOfInstallation,
  uninstallIntegrationFromSite,
  updateIntegrationSiteInstallation,
} from "../client";
import { apiIdPair, defineKind, idRef } from "../framework/kind";
import {
  checkConfigurationKeys,
  configurationInputs,
  configurationPreflightNote,
  configurationState,
  declaredAsHeld,
  eachKeyDeclaredOnce,
  integrationName,
  type OnTargetCalls,
  onTargetId,
  onTargetLifecycle,
  targetsOf,
} from "./integrationCommon";
import { organizationId, siteId, siteIdsOf, UNDER_SITE, underSiteTitled } from "./siteCommon";

const inputs = z
  .strictObject({
    organizationId,
    siteId,
    installationId: idRef("IntegrationInstallation").describe(
      "The organization's installation of the integration, e.g. `installation.id` of an `IntegrationInstallation`.",
    ),
    integrationName: integrationName.describe(
      "The installation's integration name (every path of the API names it), e.g. `installation.integrationName`.",
    ),
    ...configurationInputs("site", "site"),
  })
  .superRefine(eachKeyDeclaredOnce);

const state = z.object({
  organizationId: z.string(),
  siteId: z.string(),
  installationId: z.string(),
  integrationName: z.string(),
  ...configurationState,
  status: z.string().default("").describe("The organization installation's status: `active`, `pending` or `paused`."),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;
type Parents = Pick<State, "organizationId" | "siteId" | "installationId" | "integrationName">;

function toState(
  item: ApiIntegrationSiteInstallation,
  known: Parents & Pick<Partial<State>, "configuration" | "secrets">,
): State {
  return {
    organizationId: known.organizationId,
    siteId: known.siteId,
    installationId: known.installationId,
    integrationName: known.integrationName,
    ...declaredAsHeld(item.configuration, known),
    status: item.status ?? "",
  };
}

const calls: OnTargetCalls<ApiIntegrationSiteInstallation> = {
  kind: "IntegrationSiteInstallation",
  target: "siteId",
  install: installIntegrationOnSite,
  get: getIntegrationSiteInstallation,
  update: updateIntegrationSiteInstallation,
  uninstall: uninstallIntegrationFromSite,
  list: listIntegrationInstallationSites,
  listPath: integrationSiteInstallationsPath,
  targetOf: siteIdOfInstallation,
};

export const integrationSiteInstallationKind = defineKind<Inputs, State>({
  kind: "IntegrationSiteInstallation",
  docs: {
    description:
      "An organization's integration installation enabled on one of its sites, with its site-level configuration " +
      "(`/integrations/{integrationName}/installations/{installationId}/sites/{siteId}`).",
    adoption:
      '`importId: "<siteId>/<installationId>"`; `configuration` and `secrets` keys are managed from the first `up` ' +
      "that declares them.",
    notes: [
      "- Create is `POST …/installations/{installationId}/sites` with the site, then one `PATCH` when a configuration " +
        "key is declared.",
      "- As on `IntegrationInstallation`, only the declared `configuration` and `secrets` keys are managed and read " +
        "back; a change sends the whole configuration with the declared keys laid over it.",
      configurationPreflightNote("site-level", "site"),
      "- Reads come from the installation's site listing (`GET …/installations/{installationId}/sites`), one request " +
        "per organization installation in a refresh. `docs-platform import` and `unmanaged` find site installations " +
        "the same way, under every installation of the organization (the site's own `GET …/sites/{siteId}/" +
        "integrations` names integrations, not installations).",
    ],
    example: `const analytics = new docs.IntegrationInstallation("google-analytics", {
  organizationId,
  integrationName: "googleanalytics",
  siteSelection: "selected",
});
new docs.IntegrationSiteInstallation("docs-analytics", {
  organizationId,
  siteId: site.id,
  installationId: analytics.id,
  integrationName: analytics.integrationName,
  configuration: { tracking_id: "G-ACME0DOCS" },
});`,
  },
  preflightChecks: (api, news) => checkConfigurationKeys("IntegrationSiteInstallation", "site", api, news),
  scope: "site",
  inputs,
  state,
  parent: UNDER_SITE,
  id: { pair: "installationId" },
  listing: {
    path: (ids) => {
      const [org, site] = siteIdsOf(ids);
      return `/orgs/${encodeURIComponent(org)}/sites/${encodeURIComponent(site)}/integrations`;
    },
    async list(ctx, { ids, title }) {
      const [org, site] = siteIdsOf(ids);
      const installations = await ctx.listings.get(organizationInstallationsPath(org), () =>
        listOrganizationInstallations(ctx.client, org),
      );
      const listed = [];
      for (const { installation, integration } of installations) {
        const sites = await targetsOf(ctx, calls, integration.name, installation.id);
        if (!sites.some((item) => siteIdOfInstallation(item) === site)) continue;
        listed.push({
          id: onTargetId(site, installation.id),
          title: integration.title ?? integration.name,
          known: {
            organizationId: org,
            siteId: site,
            installationId: installation.id,
            integrationName: integration.name,
          },
          under: underSiteTitled(title),
        });
      }
      return listed;
    },
    noun: "integration installation of the site",
    unmanaged: true,
  },
  imported: { word: "integration", leaveOut: ["configuration", "secrets"] },
  outputs: ["status"],
  secretOutputs: ["secrets"],
  idFormat: "`<siteId>/<installationId>`",
  importId: apiIdPair,
  replaceOnChanges: ["organizationId", "siteId", "installationId", "integrationName"],
  // One installation per site and organization installation: the new one could not be made beside the old.
  deleteBeforeReplace: true,
  programRules: { uniqueBy: ["installationId", "siteId"] },

  ...onTargetLifecycle(calls, toState),
});
