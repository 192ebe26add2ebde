import { z } from "zod";
import {
  type ApiIntegrationInstallation,
  getIntegrationInstallation,
  INTEGRATION_SELECTIONS,
  type IntegrationInstallationPatch,
  installIntegration,
  listOrganizationInstallations,
  NotFoundError,
  organizationInstallationsPath,
  uninstallIntegration,
  updateIntegrationInstallation,
} from "../client";
import { undoOnFailure } from "../framework/cleanup";
import { ResourceError } from "../framework/explain";
import { apiId, defineKind } from "../framework/kind";
import { readListed } from "../framework/listings";
import { changedFields } from "../framework/patch";
import { createdSince } from "../framework/recovery";
import {
  checkConfigurationKeys,
  configurationInputs,
  configurationPreflightNote,
  configurationState,
  configurationToSend,
  declaredAsHeld,
  eachKeyDeclaredOnce,
  integrationName,
} from "./integrationCommon";

/** Whether an installation acts on every space (or site) of the organization or only on those it is installed on. */
const selection = z.enum(INTEGRATION_SELECTIONS).meta({ id: "IntegrationSelection" });

const inputs = z
  .strictObject({
    organizationId: apiId.describe("The organization the integration is installed in."),
    integrationName: integrationName.describe(
      "The integration's name, as in `https://app.gitbook.com/integrations/<name>` (e.g. `googleanalytics`). " +
        "A change installs the other integration (replace).",
    ),
    spaceSelection: selection
      .optional()
      .describe("Which spaces the installation may act on: `all`, or only those it is installed on (`selected`)."),
    siteSelection: selection
      .optional()
      .describe("Which sites the installation may act on: `all`, or only those it is installed on (`selected`)."),
    ...configurationInputs("organization", "account"),
  })
  .superRefine(eachKeyDeclaredOnce);

const state = z.object({
  organizationId: z.string(),
  integrationName: z.string(),
  spaceSelection: z.string().default("selected"),
  siteSelection: z.string().default("selected"),
  ...configurationState,
  status: z.string().default("").describe("`active`, `pending` (not configured yet) or `paused`."),
  spaces: z.number().default(0).describe("How many spaces the installation manages."),
  externalIds: z.array(z.string()).default([]).describe("The ids the integration assigned to the installation."),
  urls: z
    .object({ location: z.string(), app: z.string(), publicEndpoint: z.string() })
    .partial()
    .default({})
    .describe("`location` (the API URL), `app` (the installation in the web app) and `publicEndpoint`."),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;
type Declared = Pick<Partial<State>, "configuration" | "secrets">;

function toState(
  installation: ApiIntegrationInstallation,
  parents: { organizationId: string; integrationName: string },
  declared: Declared,
): State {
  return {
    organizationId: parents.organizationId,
    integrationName: parents.integrationName,
    spaceSelection: installation.space_selection ?? "selected",
    siteSelection: installation.site_selection ?? "selected",
    ...declaredAsHeld(installation.configuration, declared),
    status: installation.status ?? "",
    spaces: installation.spaces ?? 0,
    externalIds: installation.externalIds ?? [],
    urls: {
      location: installation.urls?.location,
      app: installation.urls?.app,
      publicEndpoint: installation.urls?.publicEndpoint,
    },
  };
}

/** The PATCH for the changed selections and the declared configuration keys that differ (configurationToSend). */
function patchOf(
  current: ApiIntegrationInstallation,
  news: Inputs,
  changed: ReadonlySet<string>,
): IntegrationInstallationPatch | undefined {
  const patch: IntegrationInstallationPatch =
    changedFields<IntegrationInstallationPatch>(news, changed, {
      spaceSelection: "space_selection",
      siteSelection: "site_selection",
    }) ?? {};
  const configuration = configurationToSend(current.configuration, news);
  if (configuration) patch.configuration = configuration;
  return Object.keys(patch).length > 0 ? patch : undefined;
}

export const integrationInstallationKind = defineKind<Inputs, State>({
  kind: "IntegrationInstallation",
  docs: {
    description:
      "An integration installed in an organization, with its organization-level configuration " +
      "(`/integrations/{integrationName}/installations`).",
    adoption:
      '`importId: "<installationId>"`, with the installation\'s `integrationName`; `configuration` and `secrets` ' +
      "keys are managed from the first `up` that declares them.",
    notes: [
      "- Create is `POST /integrations/{integrationName}/installations`, then one `PATCH` when a selection or a " +
        "configuration key is declared; an unknown `integrationName` fails there, naming it.",
      "- Only the declared `configuration` and `secrets` keys are managed and read back: integrations write keys of " +
        "their own (tokens of the third-party service) into the same configuration, and those are neither drift nor " +
        "shown. A change sends the whole configuration, the current one with the declared keys laid over it.",
      configurationPreflightNote("organization-level", "account"),
      "- `secrets` are secret in the state, `[secret]` in previews and taken out of errors; `docs-platform import` " +
        "leaves `configuration` and `secrets` out of the program it writes.",
      "- Reads come from the organization's listing (`GET /orgs/{organizationId}/installations`), one request (per " +
        "page) per organization in a refresh.",
      "- The uninstall accepts only a user's personal API token (the document's `security` is `user`).",
    ],
    example: `// Google Analytics (its site-level \`tracking_id\` is set per site: IntegrationSiteInstallation).
const analytics = new docs.IntegrationInstallation("google-analytics", {
  organizationId,
  integrationName: "googleanalytics",
  siteSelection: "selected",
});`,
  },
  preflightChecks: (api, news) => checkConfigurationKeys("IntegrationInstallation", "account", api, news),
  scope: "organization",
  inputs,
  state,
  listing: {
    path: ({ organizationId }) => organizationInstallationsPath(String(organizationId)),
    async list(ctx, { ids }) {
      const org = String(ids.organizationId);
      const all = await ctx.listings.get(organizationInstallationsPath(org), () =>
        listOrganizationInstallations(ctx.client, org),
      );
      return all.map(({ installation, integration }) => ({
        id: installation.id,
        title: integration.title ?? integration.name,
        known: { ...ids, integrationName: integration.name },
        item: installation,
      }));
    },
    noun: "integration installation",
    unmanaged: true,
  },
  imported: { word: "integration", leaveOut: ["configuration", "secrets"] },
  outputs: ["status", "spaces", "externalIds", "urls"],
  secretOutputs: ["secrets"],
  idFormat: "the installation id (listed by `GET /orgs/<organizationId>/installations`)",
  // No endpoint moves an installation to another organization or integration.
  replaceOnChanges: ["organizationId", "integrationName"],
  // The document does not say an organization may hold two installations of one integration.
  deleteBeforeReplace: true,
  programRules: { uniqueBy: ["organizationId", "integrationName"] },

  async findCreated({ client }, news, since) {
    const all = await listOrganizationInstallations(client, news.organizationId);
    return all
      .filter(
        ({ installation, integration }) =>
          integration.name === news.integrationName && createdSince(installation.createdAt, since),
      )
      .map(({ installation, integration }) => ({ id: installation.id, title: integration.title ?? integration.name }));
  },

  async create({ client }, news) {
    const name = news.integrationName;
    let installed: ApiIntegrationInstallation;
    try {
      installed = await installIntegration(client, name, news.organizationId);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      throw new ResourceError({
        what:
          `integrationName "${name}": no such integration (${error.message}); check the name in the ` +
          "integration's URL, https://app.gitbook.com/integrations/<name>",
        cause: error,
      });
    }
    const patch = patchOf(installed, news, new Set(["spaceSelection", "siteSelection"]));
    const installation = patch
      ? await undoOnFailure(
          { kind: "IntegrationInstallation", id: installed.id, title: name },
          () => uninstallIntegration(client, name, installed.id),
          () => updateIntegrationInstallation(client, name, installed.id, patch),
        )
      : installed;
    return { id: installation.id, state: toState(installation, news, news) };
  },

  // Every installation of a refresh comes from one listing of its organization, which carries the same
  // IntegrationInstallation objects as the single GET.
  async read({ client, listings }, id, known) {
    const found = await readListed(listings, {
      path: organizationInstallationsPath(known.organizationId),
      list: () => listOrganizationInstallations(client, known.organizationId),
      matches: (item) => item.installation.id === id,
      single: async () => ({
        installation: await getIntegrationInstallation(client, known.integrationName, id),
        integration: { name: known.integrationName },
      }),
    });
    if (!found) return undefined;
    const parents = { organizationId: known.organizationId, integrationName: found.integration.name };
    return { id, state: toState(found.installation, parents, known) };
  },

  async update({ client }, id, _olds, news, changed) {
    const name = news.integrationName;
    const current = await getIntegrationInstallation(client, name, id);
    const patch = patchOf(current, news, changed);
    const installation = patch ? await updateIntegrationInstallation(client, name, id, patch) : current;
    return toState(installation, news, news);
  },

  delete: ({ client }, id, olds) => uninstallIntegration(client, olds.integrationName, id),
});
