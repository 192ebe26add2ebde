import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  type ApiSamlProvider,
  createSamlProvider,
  deleteSamlProvider,
  getSamlProvider,
  type SamlProviderFields,
  updateSamlProvider,
} from "../client";
import { allDeclared, changedFields } from "../framework/patch";
import { type AdoptionArgs, type ArgsOf, DocsResource } from "../framework/resource";
import { defineResource } from "../framework/spec";
import { ROLES } from "./common";

const inputs = z.strictObject({
  organizationId: z.string().min(1),
  label: z.string().min(1).max(30),
  /** The identity provider's entity id (API `entityID`). Unmanaged when omitted, like every optional field here. */
  entityId: z.string().max(1024).optional(),
  /** The identity provider's X.509 signing certificate (PEM). Public, so not a secret. */
  certificate: z.string().max(10000).optional(),
  /** The identity provider's single sign-on URL (API `ssoURL`); SAML redirects only work over http(s). */
  ssoUrl: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .optional(),
  /** Team that users signing in through this provider join (API `defaultTeam`). */
  defaultTeamId: z.string().min(1).optional(),
  /** Organization role of users signing in through this provider; null makes them guests. */
  defaultRole: z.enum(ROLES).nullable().optional(),
});

const state = z.object({
  organizationId: z.string(),
  label: z.string(),
  entityId: z.string().default(""),
  certificate: z.string().default(""),
  ssoUrl: z.string().nullable().default(null),
  defaultTeamId: z.string().nullable().default(null),
  defaultRole: z.string().nullable().default(null),
  /** `active` once the identity provider is fully configured, `pending` before. */
  status: z.string().default(""),
  acsUrl: z.string().default(""),
  startUrl: z.string().default(""),
  serviceEntityId: z.string().default(""),
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

export const samlProviderSpec = defineResource<Inputs, State>({
  kind: "SamlProvider",
  inputs,
  state,
  outputs: ["status", "acsUrl", "startUrl", "serviceEntityId"],
  idFormat: "the SAML provider id (API `id`); the organization comes from organizationId",
  // No endpoint moves a provider to another organization.
  replaceOnChanges: ["organizationId"],

  async create({ client }, news) {
    const provider = await createSamlProvider(client, news.organizationId, {
      label: news.label,
      ...fieldsOf(news, allDeclared(news)),
    });
    return { id: provider.id, state: toState(news.organizationId, provider) };
  },

  async read({ client }, id, known) {
    const organizationId = known.organizationId as string;
    return { id, state: toState(organizationId, await getSamlProvider(client, organizationId, id)) };
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

export type SamlProviderArgs = ArgsOf<z.input<typeof inputs>> & AdoptionArgs;

/** A SAML single sign-on provider of an organization. Id: the provider id. */
export class SamlProvider extends DocsResource {
  declare readonly organizationId: pulumi.Output<string>;
  declare readonly label: pulumi.Output<string>;
  declare readonly entityId: pulumi.Output<string>;
  declare readonly certificate: pulumi.Output<string>;
  declare readonly ssoUrl: pulumi.Output<string | null>;
  declare readonly defaultTeamId: pulumi.Output<string | null>;
  declare readonly defaultRole: pulumi.Output<string | null>;
  /** `active` once ssoUrl, entityId and certificate are configured, else `pending`. */
  declare readonly status: pulumi.Output<string>;
  /** Assertion Consumer Service URL to enter in the identity provider. */
  declare readonly acsUrl: pulumi.Output<string>;
  /** URL that starts a sign-in through this provider. */
  declare readonly startUrl: pulumi.Output<string>;
  /** The service provider's entity id to enter in the identity provider. */
  declare readonly serviceEntityId: pulumi.Output<string>;

  constructor(name: string, args: SamlProviderArgs, opts?: pulumi.CustomResourceOptions) {
    super(samlProviderSpec, name, args, opts);
  }
}
