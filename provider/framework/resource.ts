import * as pulumi from "@pulumi/pulumi";
import type { WithProviderDefaults } from "./defaults";
import type { ResourceSpec } from "./spec";

/** Program-side argument types: every property may be a plain value, a promise or an Output, at any depth. */
export type DeepInput<T> = T extends (infer E)[]
  ? pulumi.Input<DeepInput<E>[]>
  : T extends object
    ? pulumi.Input<{ [K in keyof T]: DeepInput<T[K]> }>
    : pulumi.Input<T>;
/** A kind's argument type; inputs with a provider default (`organizationId`, see ./defaults.ts) are optional. */
export type ArgsOf<T> = WithProviderDefaults<{ [K in keyof T]: DeepInput<T[K]> }>;

/** Adoption of an existing object, which every kind accepts (Pulumi's `import` option fails for dynamic resources). */
export interface AdoptionArgs {
  /**
   * Id of an existing object to take over on create instead of creating one; it is then updated to the declared
   * inputs. Changing it later has no effect.
   */
  importId?: pulumi.Input<string>;
}

/** The Pulumi resource of a kind: type token `pulumi-nodejs:dynamic/docs:<kind>`. */
export abstract class DocsResource extends pulumi.dynamic.Resource {
  protected constructor(
    spec: Pick<ResourceSpec, "kind" | "inputs" | "outputs" | "secretOutputs">,
    name: string,
    args: object,
    opts?: pulumi.CustomResourceOptions,
  ) {
    // Every property the program may read back must be registered, or its Output never resolves.
    const shape = (spec.inputs as unknown as { shape: Record<string, unknown> }).shape;
    const props: Record<string, unknown> = {};
    for (const key of [...Object.keys(shape), ...spec.outputs]) props[key] = undefined;
    Object.assign(props, args);
    const secrets = spec.secretOutputs ?? [];
    const options = secrets.length > 0 ? pulumi.mergeOptions(opts, { additionalSecretOutputs: [...secrets] }) : opts;
    // Loaded here rather than imported: the kind module loads the runtime, which loads every resource module.
    const provider: pulumi.dynamic.ResourceProvider = require(`../kinds/${spec.kind}`);
    super(provider, name, props, options, "docs", spec.kind);
  }
}
