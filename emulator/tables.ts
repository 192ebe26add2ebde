/**
 * The store's tables, one per kind, and what every table shares: ids unique across tables, positions, the clock, and
 * the reset to the fixtures. Plain data: the stores composed over them (store.ts) own every write and invariant.
 */
import { type FixtureInfo, loadFixtures } from "./fixtures";
import { randomId } from "./ids";
import type {
  AdaptiveSchemaRec,
  AuditEventRec,
  CollectionRec,
  ExternalLinkRec,
  GitSyncInstallationRec,
  GlossaryEntryRec,
  IntegrationInstallationRec,
  IntegrationSiteInstallationRec,
  IntegrationSpaceInstallationRec,
  MemberRec,
  OpenApiSpecRec,
  OpenApiVersionRec,
  OrgRec,
  PermissionRec,
  PublishingAuthRec,
  SamlRec,
  SectionGroupRec,
  SectionRec,
  ShareLinkRec,
  SiteAgentSettingsRec,
  SiteCustomizationRec,
  SiteMcpServerRec,
  SiteRec,
  SiteRedirectRec,
  SiteSpaceRec,
  SpaceRec,
  TeamRec,
  TranslationRec,
  UserRec,
} from "./records";

export class Tables {
  readonly orgs = new Map<string, OrgRec>();
  readonly users = new Map<string, UserRec>();
  /** key `${orgId}/${userId}` */
  readonly members = new Map<string, MemberRec>();
  readonly spaces = new Map<string, SpaceRec>();
  readonly collections = new Map<string, CollectionRec>();
  readonly sites = new Map<string, SiteRec>();
  readonly sections = new Map<string, SectionRec>();
  readonly sectionGroups = new Map<string, SectionGroupRec>();
  readonly externalLinks = new Map<string, ExternalLinkRec>();
  readonly siteSpaces = new Map<string, SiteSpaceRec>();
  readonly shareLinks = new Map<string, ShareLinkRec>();
  readonly redirects = new Map<string, SiteRedirectRec>();
  /** key: site id */
  readonly adaptiveSchemas = new Map<string, AdaptiveSchemaRec>();
  /** key: site id; a site without a record has the new-site customization */
  readonly siteCustomizations = new Map<string, SiteCustomizationRec>();
  /** key: site id; a site without a record has the new-site agent settings */
  readonly siteAgentSettings = new Map<string, SiteAgentSettingsRec>();
  readonly mcpServers = new Map<string, SiteMcpServerRec>();
  readonly integrationInstallations = new Map<string, IntegrationInstallationRec>();
  /** key `${installationId}/${siteId}` */
  readonly integrationSiteInstallations = new Map<string, IntegrationSiteInstallationRec>();
  /** key `${installationId}/${spaceId}` */
  readonly integrationSpaceInstallations = new Map<string, IntegrationSpaceInstallationRec>();
  /** key: site id; made on first use */
  readonly publishingAuths = new Map<string, PublishingAuthRec>();
  readonly samlProviders = new Map<string, SamlRec>();
  readonly teams = new Map<string, TeamRec>();
  readonly openApiSpecs = new Map<string, OpenApiSpecRec>();
  readonly openApiVersions = new Map<string, OpenApiVersionRec>();
  /** key `${target}/${targetId}/${grantee}/${granteeId}` */
  readonly permissions = new Map<string, PermissionRec>();
  readonly translations = new Map<string, TranslationRec>();
  readonly glossaryEntries = new Map<string, GlossaryEntryRec>();
  readonly gitSyncInstallations = new Map<string, GitSyncInstallationRec>();
  /** In the order they occurred (audit.ts appends). */
  readonly auditEvents = new Map<string, AuditEventRec>();

  /**
   * Every table, once: `reset` empties them all and a new id is one no table uses as a key (members and adaptive
   * schemas are keyed by other ids, which a random id never equals). A new kind adds its table here.
   */
  private readonly tables: readonly Map<string, unknown>[] = [
    this.orgs,
    this.users,
    this.members,
    this.spaces,
    this.collections,
    this.sites,
    this.sections,
    this.sectionGroups,
    this.externalLinks,
    this.siteSpaces,
    this.shareLinks,
    this.redirects,
    this.adaptiveSchemas,
    this.siteCustomizations,
    this.siteAgentSettings,
    this.mcpServers,
    this.integrationInstallations,
    this.integrationSiteInstallations,
    this.integrationSpaceInstallations,
    this.publishingAuths,
    this.samlProviders,
    this.teams,
    this.openApiSpecs,
    this.openApiVersions,
    this.permissions,
    this.translations,
    this.glossaryEntries,
    this.gitSyncInstallations,
    this.auditEvents,
  ];

  readonly fixtures: FixtureInfo;
  private positionCounter = 0;

  /** Milliseconds since the epoch; replaceable (EmulatorOptions.clock) so tests can drive time. */
  readonly clock: () => number;

  constructor(clock: () => number = Date.now) {
    this.clock = clock;
    this.fixtures = loadFixtures(this);
  }

  /** Back to the fixtures (same ids as before). */
  reset(): void {
    for (const table of this.tables) table.clear();
    this.positionCounter = 0;
    loadFixtures(this);
  }

  newId(): string {
    let id = randomId();
    while (this.tables.some((table) => table.has(id))) id = randomId();
    return id;
  }

  nextPosition(): number {
    this.positionCounter += 1;
    return this.positionCounter;
  }

  /** Current time as an ISO 8601 timestamp (from the clock). */
  now(): string {
    return new Date(this.clock()).toISOString();
  }
}
