import { definePermissionKind } from "./contentPermission";

export const sitePermissionKind = definePermissionKind({
  kind: "SitePermission",
  noun: "site",
  ids: ["organizationId", "siteId"],
  idTexts: { organizationId: "The organization of the site.", siteId: "The site the role is granted on." },
  target: ({ organizationId, siteId }) => ({ kind: "site", organizationId, siteId }),
  targetKind: "Site",
  scope: "site",
  apiPath: "/orgs/{organizationId}/sites/{siteId}/permissions",
  example: `new docs.SitePermission("ada-admin", { organizationId, siteId: site.id, userId: adaUserId, role: "admin" });`,
});
