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
import { undoOnFailure } from "../framework/cleanup";
import { apiIdPair, defineKind, idRef, type ResourceContext } from "../framework/kind";
import { readListed } from "../framework/listings";
import {
  configurationInputs,
  configurationState,
  configurationToSend,
  declaredAsHeld,
  eachKeyDeclaredOnce,
  integrationName,
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

/** Site and installation ids never contain a slash, so the pair makes an unambiguous resource id. */
const idOf = (site: string, installation: string) => `${site}/${installation}`;

function toState(
  item: ApiIntegrationSiteInstallation,
  parents: Parents,
  declared: Pick<Partial<State>, "configuration" | "secrets">,
): State {
  return {
    organizationId: parents.organizationId,
    siteId: parents.siteId,
    installationId: parents.installationId,
    integrationName: parents.integrationName,
    ...declaredAsHeld(item.configuration, declared),
    status: item.status ?? "",
  };
}

/** The sites of one organization installation, shared by every read and listing of the operation. */
const sitesOf = (ctx: ResourceContext, name: string, installation: string) =>
  ctx.listings.get(integrationSiteInstallationsPath(name, installation), () =>
    listIntegrationInstallationSites(ctx.client, name, installation),
  );

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
        const sites = await sitesOf(ctx, integration.name, installation.id);
        if (!sites.some((item) => siteIdOfInstallation(item) === site)) continue;
        listed.push({
          id: idOf(site, installation.id),
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

  // The pair is the key the API keeps unique.
  async findCreated({ client }, news) {
    const sites = await listIntegrationInstallationSites(client, news.integrationName, news.installationId);
    return sites
      .filter((item) => siteIdOfInstallation(item) === news.siteId)
      .map(() => ({ id: idOf(news.siteId, news.installationId), title: news.integrationName }));
  },

  async create({ client }, news) {
    const { integrationName: name, installationId: installation, siteId: site } = news;
    const installed = await installIntegrationOnSite(client, name, installation, site);
    const configuration = configurationToSend(installed.configuration, news);
    const id = idOf(site, installation);
    const item = configuration
      ? await undoOnFailure(
          { kind: "IntegrationSiteInstallation", id, title: name },
          () => uninstallIntegrationFromSite(client, name, installation, site),
          () => updateIntegrationSiteInstallation(client, name, installation, site, { configuration }),
        )
      : installed;
    return { id, state: toState(item, news, news) };
  },

  async read(ctx, id, known) {
    const item = await readListed(ctx.listings, {
      path: integrationSiteInstallationsPath(known.integrationName, known.installationId),
      list: () => listIntegrationInstallationSites(ctx.client, known.integrationName, known.installationId),
      matches: (listed) => siteIdOfInstallation(listed) === known.siteId,
      single: () =>
        getIntegrationSiteInstallation(ctx.client, known.integrationName, known.installationId, known.siteId),
    });
    return item && { id, state: toState(item, known, known) };
  },

  async update({ client }, _id, _olds, news) {
    const { integrationName: name, installationId: installation, siteId: site } = news;
    const current = await getIntegrationSiteInstallation(client, name, installation, site);
    const configuration = configurationToSend(current.configuration, news);
    const item = configuration
      ? await updateIntegrationSiteInstallation(client, name, installation, site, { configuration })
      : current;
    return toState(item, news, news);
  },

  delete: ({ client }, _id, olds) =>
    uninstallIntegrationFromSite(client, olds.integrationName, olds.installationId, olds.siteId),
});
