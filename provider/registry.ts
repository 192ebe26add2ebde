/**
 * The one list of kinds. Everything else follows from it: the runtime's lifecycles, the generated classes
 * (resources/generated.ts), the reference (docs/resources.md) and the README's table. Each kind also needs its
 * `kinds/<Kind>.ts` module, whose path every state stores (test/runtime/registry.test.ts checks both).
 */
import type { KindDefinition } from "./framework/kind";
import { collectionKind } from "./resources/collection";
import { collectionPermissionKind } from "./resources/collectionPermission";
import { gitSyncInstallationKind } from "./resources/gitSyncInstallation";
import { integrationInstallationKind } from "./resources/integrationInstallation";
import { integrationSiteInstallationKind } from "./resources/integrationSiteInstallation";
import { integrationSpaceInstallationKind } from "./resources/integrationSpaceInstallation";
import { openApiSpecKind } from "./resources/openApiSpec";
import { organizationAgentInstructionsKind } from "./resources/organizationAgentInstructions";
import { organizationMemberKind } from "./resources/organizationMember";
import { organizationSettingsKind } from "./resources/organizationSettings";
import { samlProviderKind } from "./resources/samlProvider";
import { siteKind } from "./resources/site";
import { siteAdaptiveSchemaKind } from "./resources/siteAdaptiveSchema";
import { siteAgentSettingsKind } from "./resources/siteAgentSettings";
import { siteChannelKind } from "./resources/siteChannel";
import { siteContextConnectionKind } from "./resources/siteContextConnection";
import { siteCustomizationKind } from "./resources/siteCustomization";
import { siteExternalLinkKind } from "./resources/siteExternalLink";
import { siteMcpServerKind } from "./resources/siteMcpServer";
import { sitePermissionKind } from "./resources/sitePermission";
import { siteRedirectKind } from "./resources/siteRedirect";
import { siteRedirectsKind } from "./resources/siteRedirects";
import { siteSectionKind } from "./resources/siteSection";
import { siteSectionGroupKind } from "./resources/siteSectionGroup";
import { siteShareLinkKind } from "./resources/siteShareLink";
import { siteSpaceKind } from "./resources/siteSpace";
import { siteSpaceCustomizationKind } from "./resources/siteSpaceCustomization";
import { siteStructureKind } from "./resources/siteStructure";
import { siteVisitorAuthKind } from "./resources/siteVisitorAuth";
import { spaceKind } from "./resources/space";
import { spacePermissionKind } from "./resources/spacePermission";
import { teamKind } from "./resources/team";
import { teamMemberKind } from "./resources/teamMember";
import { translationKind } from "./resources/translation";
import { translationGlossaryKind } from "./resources/translationGlossary";

// biome-ignore lint/suspicious/noExplicitAny: kinds have different input and state types.
export type AnyKind = KindDefinition<any, any>;

/**
 * In reference order, which is also the order `docs-platform import` declares and lists kinds in (parents before what
 * refers to them): organization-level kinds, then the site family.
 */
const kindsInReferenceOrder = [
  organizationSettingsKind,
  organizationAgentInstructionsKind,
  collectionKind,
  spaceKind,
  teamKind,
  teamMemberKind,
  samlProviderKind,
  openApiSpecKind,
  integrationInstallationKind,
  integrationSpaceInstallationKind,
  spacePermissionKind,
  collectionPermissionKind,
  organizationMemberKind,
  translationKind,
  translationGlossaryKind,
  siteKind,
  gitSyncInstallationKind,
  siteSectionKind,
  siteSectionGroupKind,
  siteExternalLinkKind,
  siteSpaceKind,
  siteShareLinkKind,
  siteMcpServerKind,
  siteChannelKind,
  siteContextConnectionKind,
  integrationSiteInstallationKind,
  siteAdaptiveSchemaKind,
  siteStructureKind,
  siteVisitorAuthKind,
  siteAgentSettingsKind,
  sitePermissionKind,
  siteRedirectsKind,
  siteRedirectKind,
  siteCustomizationKind,
  siteSpaceCustomizationKind,
] as const;
export const definitions: readonly AnyKind[] = kindsInReferenceOrder;

/** The kinds' own types, in the order of `definitions`: test/runtime/types.test.ts holds each generated class to its kind. */
export type RegisteredKinds = typeof kindsInReferenceOrder;
