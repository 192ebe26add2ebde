import * as pulumi from "@pulumi/pulumi";
import { CONNECTION, Connection } from "./connection";
import { type RegisteredKind, registration } from "./registration";
import { PACKAGE } from "./typeTokens";

/**
 * Program-side argument types: every property may be a plain value, a promise or an Output, at any depth. The
 * Input wraps a union whole (`Input<"a" | "b">`, not `Input<"a"> | Input<"b">`), so an `Output<boolean>` or an
 * Output of an enum is accepted; objects and lists are mapped member by member.
 */
export type DeepInput<T> = pulumi.Input<InputMembers<T>>;
type InputMembers<T> = T extends readonly (infer E)[]
  ? DeepInput<E>[]
  : T extends object
    ? { [K in keyof T]: DeepInput<T[K]> }
    : T;

/** Adoption of an existing object, which every kind accepts (Pulumi's `import` option fails for dynamic resources). */
export interface AdoptionArgs {
  /**
   * Id of an existing object to take over on create instead of creating one; it is then updated to the declared
   * inputs. Changing it later has no effect.
   */
  importId?: pulumi.Input<string>;
}

/**
 * What a resource of the dynamic route registers (./registration.ts), plus its connection as its resource input.
 * Kept apart from the constructor so a fast test sees it without Pulumi serializing a provider.
 */
export function dynamicRegistration(
  registered: RegisteredKind,
  name: string,
  args: object,
  opts?: pulumi.CustomResourceOptions,
): { props: Record<string, unknown>; options: pulumi.CustomResourceOptions | undefined } {
  const { [CONNECTION]: connection, ...rest } = args as Record<string, unknown>;
  const { props, options } = registration(registered, rest, opts);
  if (connection !== undefined) {
    if (!(connection instanceof Connection)) {
      throw new Error(
        `${registered.kind} "${name}": connection must be a docs.Connection (new docs.Connection({...})).`,
      );
    }
    // A token goes in as a secret. Dynamic providers do not accept secrets, so the engine hands the provider plain
    // values and marks every value the provider returns at a secret input's path secret again, in check, create,
    // read and update (annotateSecrets, sdk/go/common/resource/plugin/provider_plugin.go): `connection.token` stays
    // ciphertext in the stored inputs and outputs. Not `additionalSecretOutputs: ["connection"]`: a refresh
    // would then rewrite the nested secret as a whole-object one, an output change after every up.
    props[CONNECTION] = connection.resourceInput();
  }
  return { props, options };
}

/**
 * The Pulumi resource of a kind: type token `pulumi-nodejs:dynamic/docs:<kind>`. The per-kind classes, with their
 * typed and documented properties, are generated from the kinds' schemas (../resources/generated.ts).
 */
export abstract class DocsResource extends pulumi.dynamic.Resource {
  protected constructor(registered: RegisteredKind, name: string, args: object, opts?: pulumi.CustomResourceOptions) {
    const { props, options } = dynamicRegistration(registered, name, args, opts);
    // Loaded here rather than imported: the kind module loads the runtime, which loads every resource module.
    const provider: pulumi.dynamic.ResourceProvider = require(`../kinds/${registered.kind}`);
    super(provider, name, props, options, PACKAGE, registered.kind);
  }
}
