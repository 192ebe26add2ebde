import { definePermissionKind } from "./contentPermission";

export const spacePermissionKind = definePermissionKind({
  kind: "SpacePermission",
  noun: "space",
  ids: ["spaceId"],
  idTexts: { spaceId: "The space the role is granted on." },
  target: ({ spaceId }) => ({ kind: "space", spaceId }),
  targetKind: "Space",
  scope: "organization",
  apiPath: "/spaces/{spaceId}/permissions",
  example: `new docs.SpacePermission("writers-edit-handbook", { spaceId: handbook.id, teamId: writers.id, role: "edit" });`,
});
