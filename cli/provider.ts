/**
 * Everything the command-line tool takes from the provider, in one place: the kinds' definitions (their listing
 * facets say how an organization is enumerated), each kind's lifecycle (read, check, diff: the single source of every
 * object's inputs), the shared listings and the credentials.
 */
export {
  type ApiAuditEvent,
  DocsApiError,
  ForbiddenError,
  getOrganization,
  type HttpClient,
  listAuditEvents,
  UserTokenRequiredError,
} from "../provider/client";
export {
  type Batch,
  enumerate as enumerateKinds,
  enumerationOrder,
  KindFailure,
  siteRootKind,
} from "../provider/framework/enumerate";
export { causeOfType } from "../provider/framework/explain";
export { importIdOf, parseImportId } from "../provider/framework/importIds";
export type { ListedObject } from "../provider/framework/kind";
export {
  apiUrlSetting,
  CONFIG_KEYS,
  ENV_KEYS,
  MissingCredentialsError,
  nonEmpty,
} from "../provider/framework/settings";
export { kindOfType, pluginType } from "../provider/framework/typeTokens";
export { definitions } from "../provider/registry";
export { apiClient, lifecycle, sharedContext, startOperation } from "../provider/runtime";
