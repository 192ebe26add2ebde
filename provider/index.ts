export type { AdoptionArgs } from "./framework/resource";
export { Collection, type CollectionArgs } from "./resources/collection";
