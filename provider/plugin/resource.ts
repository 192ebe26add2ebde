import * as pulumi from "@pulumi/pulumi";
import { type RegisteredKind, registration } from "../framework/registration";
import { dynamicType, PACKAGE, pluginType } from "../framework/typeTokens";

/**
 * The program side of the plugin route: what the generated classes (./resources.ts) register with the engine. This
 * module and those classes load nothing but @pulumi/pulumi and the type tokens: the `docs` provider plugin does
 * the work in its own process, so a program that uses them never loads the provider's runtime, kinds or client.
 * Every resource is aliased to its kind's dynamic type, so that a stack written by the dynamic route moves over with
 * no replace: the engine finds the old resource under that type and diffs it through the plugin.
 */

/** The dynamic route's per-resource connection, which explicit providers replace on this route. */
const CONNECTION = "connection";

/** The plugin route's aliases of a kind's resource: its dynamic route's type (the schema states the same). */
export function pluginAliases(kind: string): { type: string }[] {
  return [{ type: dynamicType(kind) }];
}

/**
 * What a resource of the plugin route registers (../framework/registration.ts), aliased to its dynamic type; apart
 * from the constructor so a test sees it.
 */
export function pluginRegistration(
  registered: RegisteredKind,
  name: string,
  args: object,
  opts?: pulumi.CustomResourceOptions,
): { props: Record<string, unknown>; options: pulumi.CustomResourceOptions | undefined } {
  if ((args as Record<string, unknown>)[CONNECTION] !== undefined) {
    throw new Error(
      `${registered.kind} "${name}": connection is not an argument on the plugin route; give the resource a provider ` +
        `instead: new ${registered.kind}("${name}", {...}, { provider: new docs.Provider("...", { organizationId, ` +
        "apiUrl, apiToken }) }) (docs/plugin-migration.md).",
    );
  }
  return registration(registered, args as Record<string, unknown>, opts, { aliases: pluginAliases(registered.kind) });
}

/**
 * A resource of the `docs` provider plugin: type token `docs:index:<Kind>`. The per-kind classes, with the same names,
 * arguments and documented outputs as the dynamic route's, are generated from the kinds' schemas (./resources.ts).
 */
export abstract class PluginResource extends pulumi.CustomResource {
  protected constructor(registered: RegisteredKind, name: string, args: object, opts?: pulumi.CustomResourceOptions) {
    const { props, options } = pluginRegistration(registered, name, args, opts);
    super(pluginType(registered.kind), name, props, options);
  }
}

/**
 * The settings of one `docs` provider, named as the stack's `docs:*` config keys are. An explicit provider does not
 * read the stack config: a setting left out falls back to its environment variable (`DOCS_API_URL`, …).
 */
export interface ProviderArgs {
  /** The organization of the resources that leave `organizationId` out; default: `DOCS_ORGANIZATION_ID`. */
  organizationId?: pulumi.Input<string>;
  /** The API's base URL; default: `DOCS_API_URL`, else the public API. */
  apiUrl?: pulumi.Input<string>;
  /**
   * The API token, e.g. `config.requireSecret("otherToken")`; always stored as a Pulumi secret. Default:
   * `DOCS_API_TOKEN`.
   */
  apiToken?: pulumi.Input<string>;
  /** Verify references against the API in check (preview), as `docs:preflight` does; default: `DOCS_PREFLIGHT`. */
  preflight?: pulumi.Input<boolean>;
}

/**
 * An explicit instance of the `docs` provider (`pulumi:providers:docs`), for resources of another organization, API
 * or token than the stack's: `new docs.Collection("c", {...}, { provider })`. The dynamic route's `Connection`
 * becomes one of these.
 */
export class Provider extends pulumi.ProviderResource {
  declare readonly organizationId: pulumi.Output<string | undefined>;
  declare readonly apiUrl: pulumi.Output<string | undefined>;

  constructor(name: string, args: ProviderArgs = {}, opts?: pulumi.ResourceOptions) {
    const props = {
      organizationId: args.organizationId,
      apiUrl: args.apiUrl,
      apiToken: args.apiToken === undefined ? undefined : pulumi.secret(args.apiToken),
      // A string, as stack config gives it to the default provider (`docs:preflight: "true"`).
      preflight: args.preflight === undefined ? undefined : pulumi.output(args.preflight).apply(String),
    };
    super(PACKAGE, name, props, pulumi.mergeOptions(opts, { additionalSecretOutputs: ["apiToken"] }));
  }
}
