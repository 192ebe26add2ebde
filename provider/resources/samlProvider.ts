import { z } from "zod";
import {
  type ApiSamlProvider,
  createSamlProvider,
  deleteSamlProvider,
  getSamlProvider,
  listSamlProviders,
  type SamlProviderFields,
  samlProvidersPath,
  updateSamlProvider,
} from "../client";
import { apiId, defineKind, idRef, SENSITIVE } from "../framework/kind";
import { readListed } from "../framework/listings";
import { allDeclared, changedFields } from "../framework/patch";
import { createdSince } from "../framework/recovery";
import { ROLES } from "./common";

const inputs = z.strictObject({
  organizationId: apiId.describe("The organization the provider signs users in to."),
  label: z.string().min(1).max(30).describe("The name shown on the sign-in button."),
  entityId: z
    .string()
    .max(1024)
    .optional()
    .describe('The identity provider\'s entity id (API `entityID`); `""` clears it.'),
  certificate: z
    .string()
    .max(10000)
    .optional()
    .meta(SENSITIVE)
    .describe(
      'The identity provider\'s X.509 signing certificate (PEM); `""` clears it. Public, so not a secret output, but often kept in secret config: a failed check never shows it.',
    ),
  // SAML redirects only work over http(s).
  ssoUrl: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .optional()
    .describe(
      "The identity provider's single sign-on URL (API `ssoURL`), `http` or `https`. Cannot be cleared once set.",
    ),
  defaultTeamId: idRef("Team")
    .optional()
    .describe("The team users signing in through this provider join (API `defaultTeam`). Cannot be cleared once set."),
  defaultRole: z
    .enum(ROLES)
    .nullable()
    .optional()
    .describe("The organization role of users signing in through this provider; `null` makes them guests."),
});

const state = z.object({
  organizationId: z.string(),
  label: z.string(),
  entityId: z.string().default(""),
  certificate: z.string().default(""),
  ssoUrl: z.string().nullable().default(null),
  defaultTeamId: z.string().nullable().default(null),
  defaultRole: z.string().nullable().default(null),
  status: z
    .string()
    .default("")
    .describe("`active` once `ssoUrl`, `entityId` and `certificate` are configured, else `pending`."),
  acsUrl: z.string().default("").describe("The Assertion Consumer Service URL to enter in the identity provider."),
  startUrl: z.string().default("").describe("The URL that starts a sign-in through this provider."),
  serviceEntityId: z
    .string()
    .default("")
    .describe("The service provider's entity id to enter in the identity provider."),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

function toState(organizationId: string, provider: ApiSamlProvider): State {
  const team = provider.defaultTeam;
  return {
    organizationId,
    label: provider.label,
    entityId: provider.entityID ?? "",
    certificate: provider.certificate ?? "",
    ssoUrl: provider.ssoURL ?? null,
    defaultTeamId: typeof team === "string" ? team : (team?.id ?? null),
    defaultRole: provider.defaultRole ?? null,
    status: provider.status ?? "",
    acsUrl: provider.service?.acsURL ?? "",
    startUrl: provider.service?.startURL ?? "",
    serviceEntityId: provider.service?.entityID ?? "",
  };
}

/** The API's field names for the declared, changed inputs: create and update send the same body shape. */
const fieldsOf = (news: Inputs, changed: ReadonlySet<string>) =>
  changedFields<SamlProviderFields>(news, changed, {
    label: "label",
    entityId: "entityID",
    certificate: "certificate",
    ssoUrl: "ssoURL",
    defaultTeamId: "defaultTeam",
    defaultRole: "defaultRole",
  }) ?? {};

export const samlProviderKind = defineKind<Inputs, State>({
  kind: "SamlProvider",
  docs: {
    description: "A SAML single sign-on provider of an organization.",
    adoption: '`importId: "<samlProviderId>"`; the organization comes from `organizationId`.',
    notes: [
      "- Create is one `POST /orgs/{organizationId}/saml` with every declared argument; changes are one `PATCH`.",
      "- `ssoUrl` and `defaultTeamId` do not accept `null`, so once set they can be changed but not cleared from a " +
        "program; removing them leaves the current value.",
      "- The SAML operations accept only a user's API token (not an integration or OAuth token).",
    ],
    example: `const sso = new docs.SamlProvider("okta", {
  organizationId,
  label: "Okta",
  entityId: config.require("samlEntityId"),
  ssoUrl: config.require("samlSsoUrl"),
  certificate: config.requireSecret("samlCertificate"),
  defaultRole: "read",
});
export const acsUrl = sso.acsUrl; // enter it, with sso.serviceEntityId, in the identity provider`,
  },
  scope: "organization",
  inputs,
  state,
  listing: {
    path: ({ organizationId }) => samlProvidersPath(String(organizationId)),
    async list(ctx, { ids }) {
      const org = String(ids.organizationId);
      const all = await ctx.listings.get(samlProvidersPath(org), () => listSamlProviders(ctx.client, org));
      return all.map((p) => ({ id: p.id, title: p.label, known: ids, item: p }));
    },
    noun: "SAML provider",
    unmanaged: true,
  },
  imported: { word: "saml", heading: "SAML single sign-on." },
  outputs: ["status", "acsUrl", "startUrl", "serviceEntityId"],
  idFormat: "the SAML provider id (API `id`); the organization comes from `organizationId`",
  // No endpoint moves a provider to another organization.
  replaceOnChanges: ["organizationId"],

  async findCreated({ client }, news, since) {
    const all = await listSamlProviders(client, news.organizationId);
    return all
      .filter((provider) => provider.label === news.label && createdSince(provider.createdAt, since))
      .map((provider) => ({ id: provider.id, title: provider.label }));
  },
  async create({ client }, news) {
    const provider = await createSamlProvider(client, news.organizationId, {
      label: news.label,
      ...fieldsOf(news, allDeclared(news)),
    });
    return { id: provider.id, state: toState(news.organizationId, provider) };
  },

  // One listing of the organization's SAML providers (the same OrganizationSAMLProvider objects as the single GET)
  // serves every provider of a refresh; one missing from it is gone.
  async read({ client, listings }, id, { organizationId }) {
    const provider = await readListed(listings, {
      path: samlProvidersPath(organizationId),
      list: () => listSamlProviders(client, organizationId),
      matches: (item) => item.id === id,
      single: () => getSamlProvider(client, organizationId, id),
    });
    return provider && { id, state: toState(organizationId, provider) };
  },

  async update({ client }, id, olds, news, changed) {
    const patch = fieldsOf(news, changed);
    const provider =
      Object.keys(patch).length > 0
        ? await updateSamlProvider(client, olds.organizationId, id, patch)
        : await getSamlProvider(client, olds.organizationId, id);
    return toState(olds.organizationId, provider);
  },

  delete: ({ client }, id, olds) => deleteSamlProvider(client, olds.organizationId, id),
});
