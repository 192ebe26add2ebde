// `pulumi-docs-platform/plugin`: the resource classes of the plugin route, for a program whose resources the `docs`
// provider plugin serves (docs/plugin-migration.md). Loads @pulumi/pulumi and nothing of the provider.
export type { AdoptionArgs } from "../framework/resource";
// The provider's functions (`docs:index:getSpace`, …): `getSpace` and `getSpaceOutput`, invoked through the plugin.
export * from "./functions";
export { PluginResource, Provider, type ProviderArgs } from "./resource";
// One class and one `<Kind>Args` interface per registered kind, generated from its schemas.
export * from "./resources";
