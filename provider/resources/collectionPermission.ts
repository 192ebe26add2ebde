import { definePermissionKind } from "./contentPermission";

export const collectionPermissionKind = definePermissionKind({
  kind: "CollectionPermission",
  noun: "collection",
  ids: ["collectionId"],
  idTexts: { collectionId: "The collection the role is granted on (its spaces inherit it)." },
  target: ({ collectionId }) => ({ kind: "collection", collectionId }),
  targetKind: "Collection",
  scope: "organization",
  apiPath: "/collections/{collectionId}/permissions",
  example: `new docs.CollectionPermission("support-reads-guides", { collectionId: guides.id, teamId: support.id, role: "read" });`,
});
