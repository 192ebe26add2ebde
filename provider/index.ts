export type { AdoptionArgs } from "./framework/resource";
// One class and one `<Kind>Args` interface per registered kind, generated from its schemas.
export * from "./resources/generated";
