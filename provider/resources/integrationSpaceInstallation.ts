import { z } from "zod";
import {
  type ApiIntegrationSpaceInstallation,
  getIntegrationSpaceInstallation,
  installIntegrationOnSpace,
  integrationSpaceInstallationsPath,
  listIntegrationInstallationSpaces,
  listOrganizationInstallations,
  organizationInstallationsPath,
  spaceIdOfInstallation,
  uninstallIntegrationFromSpace,
  updateIntegrationSpaceInstallation,
} from "../client";
import { apiId, apiIdPair, defineKind, idRef } from "../framework/kind";
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

const inputs = z
  .strictObject({
    organizationId: apiId.describe("The organization of the space and the installation."),
    spaceId: idRef("Space").describe("The space, e.g. `space.id`."),
    installationId: idRef("IntegrationInstallation").describe(
      "The organization's installation of the integration, e.g. `installation.id` of an `IntegrationInstallation`.",
    ),
    integrationName: integrationName.describe(
      "The installation's integration name (every path of the API names it), e.g. `installation.integrationName`.",
    ),
    ...configurationInputs("space", "space"),
  })
  .superRefine(eachKeyDeclaredOnce);

const state = z.object({
  organizationId: z.string(),
  spaceId: z.string(),
  installationId: z.string(),
  integrationName: z.string(),
  ...configurationState,
  status: z.string().default("").describe("The organization installation's status: `active`, `pending` or `paused`."),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;
type Parents = Pick<State, "organizationId" | "spaceId" | "installationId" | "integrationName">;

function toState(
  item: ApiIntegrationSpaceInstallation,
  known: Parents & Pick<Partial<State>, "configuration" | "secrets">,
): State {
  return {
    organizationId: known.organizationId,
    spaceId: known.spaceId,
    installationId: known.installationId,
    integrationName: known.integrationName,
    ...declaredAsHeld(item.configuration, known),
    status: item.status ?? "",
  };
}

const calls: OnTargetCalls<ApiIntegrationSpaceInstallation> = {
  kind: "IntegrationSpaceInstallation",
  target: "spaceId",
  install: installIntegrationOnSpace,
  get: getIntegrationSpaceInstallation,
  update: updateIntegrationSpaceInstallation,
  uninstall: uninstallIntegrationFromSpace,
  list: listIntegrationInstallationSpaces,
  listPath: integrationSpaceInstallationsPath,
  targetOf: spaceIdOfInstallation,
};

export const integrationSpaceInstallationKind = defineKind<Inputs, State>({
  kind: "IntegrationSpaceInstallation",
  docs: {
    description:
      "An organization's integration installation enabled on one of its spaces, with its space-level configuration " +
      "(`/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}`).",
    adoption:
      '`importId: "<spaceId>/<installationId>"`; `configuration` and `secrets` keys are managed from the first `up` ' +
      "that declares them.",
    notes: [
      "- Create is `POST …/installations/{installationId}/spaces` with the space (the body names it `space`), then one " +
        "`PATCH` when a configuration key is declared.",
      "- As on `IntegrationInstallation`, only the declared `configuration` and `secrets` keys are managed and read " +
        "back; a change sends the whole configuration with the declared keys laid over it.",
      configurationPreflightNote("space-level", "space"),
      "- Reads come from the installation's space listing (`GET …/installations/{installationId}/spaces`), one request " +
        "per organization installation in a refresh. `docs-platform import` and `unmanaged` find space installations " +
        "the same way, under every installation of the organization (the space's own `GET /spaces/{spaceId}/" +
        "integrations` names integrations, not installations, and would cost a request per space).",
    ],
    example: `// Slack is authorized in the app (OAuth): the program adopts that installation and picks a channel per space.
const slack = new docs.IntegrationInstallation("slack", {
  organizationId,
  integrationName: "slack",
  importId: "<installationId>",
});
new docs.IntegrationSpaceInstallation("handbook-slack", {
  organizationId,
  spaceId: handbook.id,
  installationId: slack.id,
  integrationName: slack.integrationName,
  configuration: { channel: "#docs-handbook", notify_content_update: true },
});`,
  },
  preflightChecks: (api, news) => checkConfigurationKeys("IntegrationSpaceInstallation", "space", api, news),
  scope: "organization",
  inputs,
  state,
  parent: { kind: "Space", input: "spaceId" },
  id: { pair: "installationId" },
  listing: {
    path: (ids) => `/spaces/${encodeURIComponent(String(ids.spaceId))}/integrations`,
    async list(ctx, { ids, title }) {
      const [org, space] = [String(ids.organizationId), String(ids.spaceId)];
      const installations = await ctx.listings.get(organizationInstallationsPath(org), () =>
        listOrganizationInstallations(ctx.client, org),
      );
      const listed = [];
      for (const { installation, integration } of installations) {
        const spaces = await targetsOf(ctx, calls, integration.name, installation.id);
        if (!spaces.some((item) => spaceIdOfInstallation(item) === space)) continue;
        listed.push({
          id: onTargetId(space, installation.id),
          title: integration.title ?? integration.name,
          known: {
            organizationId: org,
            spaceId: space,
            installationId: installation.id,
            integrationName: integration.name,
          },
          under: `space "${title}"`,
        });
      }
      return listed;
    },
    noun: "integration installation of the space",
    unmanaged: true,
  },
  imported: { word: "integration", leaveOut: ["configuration", "secrets"] },
  outputs: ["status"],
  secretOutputs: ["secrets"],
  idFormat: "`<spaceId>/<installationId>`",
  importId: apiIdPair,
  replaceOnChanges: ["organizationId", "spaceId", "installationId", "integrationName"],
  // One installation per space and organization installation: the new one could not be made beside the old.
  deleteBeforeReplace: true,
  programRules: { uniqueBy: ["installationId", "spaceId"] },

  ...onTargetLifecycle(calls, toState),
});
