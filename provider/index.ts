export { Connection, type ConnectionArgs, type ConnectionOption } from "./framework/connection";
export type { AdoptionArgs } from "./framework/resource";
export * from "./lookups";
// One class and one `<Kind>Args` interface per registered kind, generated from its schemas.
export * from "./resources/generated";
