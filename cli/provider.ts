/**
 * Everything the command-line tool takes from the provider, in one place: each kind's lifecycle (read, check, diff:
 * the single source of every object's inputs), the shared listings, the credentials and the client's listing calls.
 */
export {
  type ApiGrant,
  DocsApiError,
  type Grantee,
  getOrganization,
  granteesPath,
  type HttpClient,
  listCollections,
  listGrants,
  listOpenApiSpecs,
  listOrganizationMembers,
  listSamlProviders,
  listSiteRedirects,
  listSiteSectionGroups,
  listSiteSections,
  listSiteShareLinks,
  listSiteSpaces,
  listSites,
  listSpaces,
  listTeamMembers,
  listTeams,
  type PermissionTarget,
  siteRedirectsPath,
  siteSectionGroupsPath,
  siteSectionsPath,
  siteShareLinksPath,
  siteSpacesPath,
} from "../provider/client";
export {
  apiClient,
  apiUrlSetting,
  CONFIG_KEYS,
  ENV_KEYS,
  MissingCredentialsError,
} from "../provider/framework/connection";
export { lifecycle, sharedListing } from "../provider/runtime";
