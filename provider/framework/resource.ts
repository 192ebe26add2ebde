import * as pulumi from "@pulumi/pulumi";
import { Connection } from "../connection";
import type { KindDefinition } from "./kind";
import { CONNECTION } from "./resourceConnection";

/** Program-side argument types: every property may be a plain value, a promise or an Output, at any depth. */
export type DeepInput<T> = T extends (infer E)[]
  ? pulumi.Input<DeepInput<E>[]>
  : T extends object
    ? pulumi.Input<{ [K in keyof T]: DeepInput<T[K]> }>
    : pulumi.Input<T>;

/** Adoption of an existing object, which every kind accepts (Pulumi's `import` option fails for dynamic resources). */
export interface AdoptionArgs {
  /**
   * Id of an existing object to take over on create instead of creating one; it is then updated to the declared
   * inputs. Changing it later has no effect.
   */
  importId?: pulumi.Input<string>;
}

/**
 * The Pulumi resource of a kind: type token `pulumi-nodejs:dynamic/docs:<kind>`. The per-kind classes, with their
 * typed and documented properties, are generated from the kinds' schemas (../resources/generated.ts).
 */
export abstract class DocsResource extends pulumi.dynamic.Resource {
  protected constructor(
    definition: Pick<KindDefinition, "kind" | "inputs" | "outputs" | "secretOutputs">,
    name: string,
    args: object,
    opts?: pulumi.CustomResourceOptions,
  ) {
    // Every property the program may read back must be registered, or its Output never resolves.
    const shape = (definition.inputs as unknown as { shape: Record<string, unknown> }).shape;
    const props: Record<string, unknown> = {};
    for (const key of [...Object.keys(shape), ...definition.outputs]) props[key] = undefined;
    const { [CONNECTION]: connection, ...rest } = args as Record<string, unknown>;
    Object.assign(props, rest);
    const secrets = [...(definition.secretOutputs ?? [])];
    if (connection !== undefined) {
      if (!(connection instanceof Connection)) {
        throw new Error(
          `${definition.kind} "${name}": connection must be a docs.Connection (new docs.Connection({...})).`,
        );
      }
      props[CONNECTION] = connection.resourceInput();
      // The engine keeps a secret input's token secret in the outputs too; this makes sure of it.
      if (connection.token !== undefined) secrets.push(CONNECTION);
    }
    const options = secrets.length > 0 ? pulumi.mergeOptions(opts, { additionalSecretOutputs: secrets }) : opts;
    // Loaded here rather than imported: the kind module loads the runtime, which loads every resource module.
    const provider: pulumi.dynamic.ResourceProvider = require(`../kinds/${definition.kind}`);
    super(provider, name, props, options, "docs", definition.kind);
  }
}
