/**
 * The store's tables and what every table shares: ids unique across tables, positions, the clock, and the reset to
 * the fixtures. Each table is declared once (`TABLES`): the family that owns it and the records it hangs on (its
 * parents). Deleting a record goes through `remove`, which derives the cascade from those declarations, so a new
 * table that names its parent is deleted with it without a hand-written list. Plain data otherwise: the family
 * stores composed over these tables (store.ts) own every other write and invariant.
 */

import type { AgentInstructionsRec } from "./agentInstructionsStore";
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
import type { SiteChannelRec } from "./siteChannelStore";

/** The object families (after moto's backends): each owns its tables, store, rendering and routes. */
export type Family =
  | "organization"
  | "content"
  | "teams"
  | "saml"
  | "openapi"
  | "integrations"
  | "gitSync"
  | "translations"
  | "sites"
  | "siteStructure"
  | "siteSettings"
  | "redirects"
  | "audit";

/**
 * A record this table's records hang on. `key` names the parent's key (undefined: none of this table). Deleting
 * the parent deletes the record, unless `onDelete` says what else happens to it (a reference cleared, a child
 * lifted to its grandparent, a space moved to the trash): it must leave the record no orphan.
 */
export interface ParentDecl<R> {
  /** A declared table's name (a plain string here: the declarations' types are inferred from these very objects). */
  table: string;
  key: (rec: R) => string | undefined;
  onDelete?: (rec: R, parent: unknown, clock: { now(): string }) => void;
}

export interface TableDecl<R> {
  family: Family;
  parents: readonly ParentDecl<R>[];
  /** A record that is not live (a space in the trash) may keep a parent that is gone: restoring it detaches it. */
  live?: (rec: R) => boolean;
}

const table = <R>(family: Family, parents: ParentDecl<R>[] = [], extra: Partial<TableDecl<R>> = {}): TableDecl<R> => ({
  family,
  parents,
  ...extra,
});
const parent = <R>(t: string, key: (rec: R) => string | undefined, onDelete?: ParentDecl<R>["onDelete"]) => ({
  table: t,
  key,
  onDelete,
});
const onSite = <R extends { siteId: string }>() => parent<R>("sites", (r) => r.siteId);
/** Sections, groups and links of a deleted group move up to the group's own parent level. */
const liftOutOf =
  <R>(field: keyof R) =>
  (rec: R, group: unknown) => {
    (rec as Record<keyof R, unknown>)[field] = (group as SectionGroupRec).parentGroupId;
  };
const grantOn = (target: PermissionRec["target"], t: string) =>
  parent<PermissionRec>(t, (g) => (g.target === target ? g.targetId : undefined));

/** Every table, once, with its owner and parents. A new kind declares its table here. */
export const TABLES = {
  orgs: table<OrgRec>("organization"),
  users: table<UserRec>("organization"),
  /** key `${orgId}/${userId}` */
  members: table<MemberRec>("organization", [parent("orgs", (m) => m.orgId), parent("users", (m) => m.userId)]),
  /** key: organization id; made by the first PUT */
  agentInstructions: table<AgentInstructionsRec>("organization", [parent("orgs", (i) => i.orgId)]),
  spaces: table<SpaceRec>(
    "content",
    [
      parent("orgs", (s) => s.orgId),
      parent(
        "collections",
        (s) => s.parentId,
        (s, _c, tables) => {
          if (!s.deletedAt) s.deletedAt = tables.now();
        },
      ),
    ],
    { live: (s) => !s.deletedAt },
  ),
  collections: table<CollectionRec>("content", [
    parent("orgs", (c) => c.orgId),
    parent("collections", (c) => c.parentId),
  ]),
  sites: table<SiteRec>("sites", [parent("orgs", (s) => s.orgId)]),
  sections: table<SectionRec>("siteStructure", [
    onSite(),
    parent("sectionGroups", (s) => s.groupId, liftOutOf("groupId")),
  ]),
  sectionGroups: table<SectionGroupRec>("siteStructure", [
    onSite(),
    parent("sectionGroups", (g) => g.parentGroupId, liftOutOf("parentGroupId")),
  ]),
  externalLinks: table<ExternalLinkRec>("siteStructure", [
    onSite(),
    parent("sectionGroups", (l) => l.groupId, liftOutOf("groupId")),
  ]),
  siteSpaces: table<SiteSpaceRec>("siteStructure", [onSite(), parent("sections", (s) => s.sectionId)]),
  shareLinks: table<ShareLinkRec>("siteSettings", [onSite()]),
  redirects: table<SiteRedirectRec>("redirects", [onSite()]),
  /** key: site id */
  adaptiveSchemas: table<AdaptiveSchemaRec>("siteSettings", [onSite()]),
  /** key: site id; a site without a record has the new-site customization */
  siteCustomizations: table<SiteCustomizationRec>("siteSettings", [onSite()]),
  /** key: site id; a site without a record has the new-site agent settings */
  siteAgentSettings: table<SiteAgentSettingsRec>("siteSettings", [onSite()]),
  mcpServers: table<SiteMcpServerRec>("siteSettings", [onSite()]),
  siteChannels: table<SiteChannelRec>("siteSettings", [onSite()]),
  integrationInstallations: table<IntegrationInstallationRec>("integrations", [parent("orgs", (i) => i.orgId)]),
  /** key `${installationId}/${siteId}` */
  integrationSiteInstallations: table<IntegrationSiteInstallationRec>("integrations", [
    parent("integrationInstallations", (i) => i.installationId),
    onSite(),
  ]),
  /** key `${installationId}/${spaceId}` */
  integrationSpaceInstallations: table<IntegrationSpaceInstallationRec>("integrations", [
    parent("integrationInstallations", (i) => i.installationId),
    parent("spaces", (i) => i.spaceId),
  ]),
  /** key: site id; made on first use */
  publishingAuths: table<PublishingAuthRec>("siteSettings", [onSite()]),
  samlProviders: table<SamlRec>("saml", [
    parent("orgs", (p) => p.orgId),
    parent(
      "teams",
      (p) => p.defaultTeamId,
      (p) => {
        p.defaultTeamId = undefined;
      },
    ),
  ]),
  teams: table<TeamRec>("teams", [parent("orgs", (t) => t.orgId)]),
  openApiSpecs: table<OpenApiSpecRec>("openapi", [parent("orgs", (s) => s.orgId)]),
  openApiVersions: table<OpenApiVersionRec>("openapi", [parent("openApiSpecs", (v) => v.specId)]),
  /** key `${target}/${targetId}/${grantee}/${granteeId}` */
  permissions: table<PermissionRec>("teams", [
    grantOn("space", "spaces"),
    grantOn("collection", "collections"),
    grantOn("site", "sites"),
    parent("teams", (g) => (g.grantee === "team" ? g.granteeId : undefined)),
    parent("users", (g) => (g.grantee === "user" ? g.granteeId : undefined)),
  ]),
  translations: table<TranslationRec>("translations", [
    parent("orgs", (t) => t.orgId),
    parent("spaces", (t) => t.sourceSpaceId),
  ]),
  glossaryEntries: table<GlossaryEntryRec>("translations", [parent("orgs", (e) => e.orgId)]),
  gitSyncInstallations: table<GitSyncInstallationRec>("gitSync", [
    parent("orgs", (i) => i.orgId),
    parent("spaces", (i) => (i.target.type === "space" ? i.target.spaceId : undefined)),
    parent("sites", (i) => (i.target.type === "site" ? i.target.siteId : undefined)),
  ]),
  /** In the order they occurred (audit.ts appends). */
  auditEvents: table<AuditEventRec>("audit", [parent("orgs", (e) => e.orgId)]),
};

type Declared = typeof TABLES;
export type TableName = keyof Declared;
/** The record of a table. */
export type RecordOf<N extends TableName> = Declared[N] extends TableDecl<infer R> ? R : never;
/** The tables as maps, one property per declared table (`tables.sites`). */
export type TableMaps = { readonly [N in TableName]: Map<string, RecordOf<N>> };

export const TABLE_NAMES = Object.keys(TABLES) as TableName[];

/** The declaration of a table, loosely typed for the generic walks below. */
export function declarationOf(name: TableName): TableDecl<unknown> {
  return TABLES[name] as unknown as TableDecl<unknown>;
}

// One property per declared table is added by the constructor; the interface lets the compiler see them.
export interface Tables extends TableMaps {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: see above
export class Tables {
  readonly fixtures: FixtureInfo;
  private positionCounter = 0;

  /** Milliseconds since the epoch; replaceable (EmulatorOptions.clock) so tests can drive time. */
  readonly clock: () => number;

  constructor(clock: () => number = Date.now) {
    for (const name of TABLE_NAMES) Object.defineProperty(this, name, { value: new Map(), enumerable: true });
    this.clock = clock;
    this.fixtures = loadFixtures(this);
  }

  /** The table by name. */
  table<N extends TableName>(name: N): Map<string, RecordOf<N>> {
    return this[name] as Map<string, RecordOf<N>>;
  }

  /**
   * Deletes a record and, from the declarations, what hangs on it: records whose parent it is are deleted in turn
   * (or changed as their declaration says). False when there was no such record.
   */
  remove(name: TableName, key: string): boolean {
    const map = this.table(name) as Map<string, unknown>;
    const rec = map.get(key);
    if (rec === undefined) return false;
    map.delete(key);
    for (const child of TABLE_NAMES) {
      for (const decl of declarationOf(child).parents) {
        if (decl.table !== name) continue;
        for (const [childKey, childRec] of [...this.table(child)]) {
          if (decl.key(childRec) !== key || !this.table(child).has(childKey)) continue;
          if (decl.onDelete) decl.onDelete(childRec, rec, this);
          else this.remove(child, childKey);
        }
      }
    }
    return true;
  }

  /** Back to the fixtures (same ids as before). */
  reset(): void {
    for (const name of TABLE_NAMES) this.table(name).clear();
    this.positionCounter = 0;
    loadFixtures(this);
  }

  /** An id no table uses as a key (keys made of other ids never equal a random id). */
  newId(): string {
    let id = randomId();
    while (TABLE_NAMES.some((name) => this.table(name).has(id))) id = randomId();
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

/**
 * Records whose declared parent is gone (what a cascade must never leave): `table: key → parent table key`. A record
 * that is not live may keep a missing parent (a space in the trash is detached when restored).
 */
export function orphans(tables: Tables): string[] {
  const found: string[] = [];
  for (const name of TABLE_NAMES) {
    const decl = declarationOf(name);
    for (const [key, rec] of tables.table(name)) {
      if (decl.live && !decl.live(rec)) continue;
      for (const p of decl.parents) {
        const parentKey = p.key(rec);
        if (parentKey !== undefined && !tables.table(p.table as TableName).has(parentKey)) {
          found.push(`${name}: ${key} → ${p.table} ${parentKey}`);
        }
      }
    }
  }
  return found;
}
