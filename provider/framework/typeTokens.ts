/**
 * The type tokens of a kind on the package's two routes. This module imports nothing: the plugin route's classes,
 * which load nothing but @pulumi/pulumi, use it too.
 */

/**
 * The package of both routes: the dynamic resources' module (`pulumi-nodejs:dynamic/docs:<Kind>`), the provider
 * plugin's package (`docs:index:<Kind>`, `pulumi:providers:docs`, `pulumi-resource-docs`) and the stack config's
 * namespace (`docs:apiToken`). The engine hands a default provider only the config keys of its own package
 * (pkg/resource/deploy/target.go), so one config serves both routes.
 */
export const PACKAGE = "docs";

/** The type token of a kind served by the provider plugin: `docs:index:<Kind>`. */
export function pluginType(kind: string): string {
  return `${PACKAGE}:index:${kind}`;
}

/** The type token of a kind's dynamic resources (`pulumi.dynamic.Resource` with module `docs`). */
export function dynamicType(kind: string): string {
  return `pulumi-nodejs:dynamic/${PACKAGE}:${kind}`;
}

/** The kind a resource of either route is of, by its type token; undefined for any other resource. */
export function kindOfType(type: string): string | undefined {
  for (const prefix of [pluginType(""), dynamicType("")]) {
    if (type.startsWith(prefix) && type.length > prefix.length) return type.slice(prefix.length);
  }
  return undefined;
}
