import { definePermissionKind } from "./contentPermission";

export const sitePermissionKind = definePermissionKind<"organizationId" | "siteId", true>({
  kind: "SitePermission",
  noun: "site",
  ids: ["organizationId", "siteId"],
  idTexts: { organizationId: "The organization of the site.", siteId: "The site the role is granted on." },
  target: ({ organizationId, siteId }) => ({ kind: "site", organizationId, siteId }),
  targetKind: "Site",
  scope: "site",
  apiPath: "/orgs/{organizationId}/sites/{siteId}/permissions",
  guest:
    "Only sites take guests here: the listings of a space's or a collection's grants report a role only, so a guest " +
    "grant there could not be read back.",
  example: `new docs.SitePermission("ada-admin", { organizationId, siteId: site.id, userId: adaUserId, role: "admin" });`,
});
