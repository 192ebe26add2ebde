import * as pulumi from "@pulumi/pulumi";
import { withSecretInputs } from "./secretInputs";

/**
 * What a kind registers with the engine, the same on both routes: every input and output property (registered as
 * `undefined` unless given, so that each output the program reads resolves from the state), its sensitive inputs
 * (made secrets however the program gives them) and its secret outputs. Printed once per kind into
 * resources/generatedTypes.ts by `npm run docs` (codegen/resourceTypes.ts), which both routes' classes read, so a
 * program loads no kind definition to register a resource.
 */
export interface RegisteredKind {
  kind: string;
  properties: readonly string[];
  sensitiveInputs?: readonly string[];
  secretOutputs?: readonly string[];
}

/**
 * The properties and options a resource registers, on either route: `route` holds what the route adds to the
 * options (the plugin route's aliases). The program's options are passed through as they are when nothing is added.
 * Kept apart from the constructors so a fast test sees it without Pulumi serializing a provider.
 */
export function registration(
  registered: RegisteredKind,
  args: Record<string, unknown>,
  opts: pulumi.CustomResourceOptions | undefined,
  route: pulumi.CustomResourceOptions = {},
): { props: Record<string, unknown>; options: pulumi.CustomResourceOptions | undefined } {
  const props: Record<string, unknown> = {};
  for (const key of registered.properties) props[key] = undefined;
  Object.assign(props, withSecretInputs(args, registered.sensitiveInputs ?? []));
  const secrets = registered.secretOutputs ?? [];
  const own: pulumi.CustomResourceOptions =
    secrets.length > 0 ? { ...route, additionalSecretOutputs: [...secrets] } : route;
  const options = Object.keys(own).length > 0 ? pulumi.mergeOptions(opts, own) : opts;
  return { props, options };
}
