/**
 * The rules of the docs platform policy pack: one table, the only place that names kinds and their fields. Each rule
 * is an id, a description, a default enforcement level, its settings (set through the standard policy config), the
 * properties it reads by kind (a kind's resources are judged on both routes: `pulumi-nodejs:dynamic/docs:<Kind>` and
 * `docs:index:<Kind>`), its check, and an example program that breaks it (the reference shows its message; the tests
 * run it). Everything else (reading what the engine sends, settings, messages, the reference) names no kind.
 *
 * Values not known at preview (ids, and anything computed from them) are the UNKNOWN sentinel: a check judges what it
 * knows and leaves the rest to the `up`, where the engine runs resource rules again with known values. Resources
 * refer to each other through their properties' dependencies (`siteId: site.id`), which are known at preview.
 */

import { BUILTIN_CONTEXT_CONNECTORS } from "../client/siteContextConnections";
import { dynamicType } from "../framework/typeTokens";
import { ROLES } from "../resources/common";
import type {
  CollectionArgs,
  CollectionPermissionArgs,
  GitSyncInstallationArgs,
  IntegrationInstallationArgs,
  IntegrationSiteInstallationArgs,
  IntegrationSpaceInstallationArgs,
  OpenApiSpecArgs,
  OrganizationSettingsArgs,
  SamlProviderArgs,
  SiteArgs,
  SiteChannelArgs,
  SiteContextConnectionArgs,
  SiteExternalLinkArgs,
  SiteMcpServerArgs,
  SitePermissionArgs,
  SiteShareLinkArgs,
  SiteVisitorAuthArgs,
  SpaceArgs,
  SpacePermissionArgs,
  TeamArgs,
  TeamMemberArgs,
} from "../resources/generated";
import { integer, type Level, oneOf, type Settings, type SettingValues, stringList } from "./settings";
import { type DocsResource, type Finding, isKnown, knownString, StackView, UNKNOWN } from "./view";

/** The kinds the rules read, with their arguments: a field a rule names is checked against its kind's arguments. */
interface KindArgs {
  Collection: CollectionArgs;
  CollectionPermission: CollectionPermissionArgs;
  GitSyncInstallation: GitSyncInstallationArgs;
  IntegrationInstallation: IntegrationInstallationArgs;
  IntegrationSiteInstallation: IntegrationSiteInstallationArgs;
  IntegrationSpaceInstallation: IntegrationSpaceInstallationArgs;
  OpenApiSpec: OpenApiSpecArgs;
  OrganizationSettings: OrganizationSettingsArgs;
  SamlProvider: SamlProviderArgs;
  Site: SiteArgs;
  SiteChannel: SiteChannelArgs;
  SiteContextConnection: SiteContextConnectionArgs;
  SiteExternalLink: SiteExternalLinkArgs;
  SiteMcpServer: SiteMcpServerArgs;
  SitePermission: SitePermissionArgs;
  SiteShareLink: SiteShareLinkArgs;
  SiteVisitorAuth: SiteVisitorAuthArgs;
  Space: SpaceArgs;
  SpacePermission: SpacePermissionArgs;
  Team: TeamArgs;
  TeamMember: TeamMemberArgs;
}
type Kind = keyof KindArgs;
type Field<K extends Kind> = Extract<keyof KindArgs[K], string>;

/** Properties of one kind a rule reads. */
export interface Read {
  kind: Kind;
  fields: readonly string[];
}

function on<K extends Kind>(kind: K, ...fields: Field<K>[]): Read {
  return { kind, fields };
}

interface RuleBase<S extends Settings> {
  id: string;
  description: string;
  enforcementLevel: Level;
  /** Why the default level is what it is. */
  levelWhy: string;
  settings: S;
  /** The properties the rule reads, by kind; a resource rule judges resources of these kinds only. */
  reads: readonly Read[];
  /** A program that breaks the rule under the default settings: the reference shows its first message. */
  example: readonly DocsResource[];
}

export interface ResourceRule<S extends Settings = Settings> extends RuleBase<S> {
  scope: "resource";
  check(resource: DocsResource, settings: SettingValues<S>): Finding[];
}

export interface StackRule<S extends Settings = Settings> extends RuleBase<S> {
  scope: "stack";
  check(stack: StackView, settings: SettingValues<S>): Finding[];
}

// biome-ignore lint/suspicious/noExplicitAny: each rule's settings have their own type; the table holds them all.
export type Rule = ResourceRule<any> | StackRule<any>;

const rule = <S extends Settings>(definition: ResourceRule<S> | StackRule<S>): Rule => definition;

// ---------------------------------------------------------------------------------------------------------------
// Examples: made-up resources as the engine would show them at preview (ids unknown, references as dependencies).

function resource(
  kind: Kind,
  name: string,
  props: Record<string, unknown>,
  options: { protect?: boolean; refs?: Record<string, string> } = {},
): DocsResource {
  const dependsOn: Record<string, string[]> = {};
  for (const [field, target] of Object.entries(options.refs ?? {})) {
    const [targetKind, targetName] = target.split("/");
    dependsOn[field] = [urnOf(targetKind!, targetName!)];
  }
  return { kind, name, urn: urnOf(kind, name), props, protect: options.protect === true, dependsOn };
}

function urnOf(kind: string, name: string): string {
  return `urn:pulumi:dev::docs::${dynamicType(kind)}::${name}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Shared checks

const quoted = (values: readonly string[]) => values.map((value) => `"${value}"`).join(", ");

/** A finding when a role or level field is above `max` in ROLES' order (`inherit`, `null` and unknown pass). */
function aboveRole(resource: DocsResource, field: string, max: string, setting: string, ruleId: string): Finding[] {
  const value = resource.props[field];
  const rank = ROLES.indexOf(value as (typeof ROLES)[number]);
  if (rank < 0 || rank <= ROLES.indexOf(max as (typeof ROLES)[number])) return [];
  const allowed = ROLES.slice(0, ROLES.indexOf(max as (typeof ROLES)[number]) + 1);
  return [
    {
      resource,
      field,
      problem: `"${value}" is above "${max}", the highest role ${setting} of ${ruleId} allows`,
      fix: `set ${field} to one of ${quoted(allowed)} (grant more to a team through a permission instead), or raise ${setting} in the policy config`,
    },
  ];
}

/** Whether one of a resource's names (its program name, or the known values of `fields`) is in `list`. */
function listed(resource: DocsResource, fields: readonly string[], list: readonly string[]): boolean {
  const names = [resource.name, ...fields.map((field) => knownString(resource.props[field]))];
  return names.some((name) => name !== undefined && list.includes(name));
}

/** The words naming what a reference resolved to: a resource of the stack by its name, or an id. */
function named(target: { resource: DocsResource } | { id: string }): string {
  return "resource" in target ? `"${target.resource.name}"` : `"${target.id}" (not in this stack)`;
}

/** Whether a share link gives access: `active` omitted means active, and an unknown one may be. */
const isActive = (link: DocsResource) => link.props.active !== false;

/** Whether two resources are of the same organization, or might be (an unknown or defaulted organizationId). */
function sameOrganization(a: DocsResource, b: DocsResource): boolean {
  const left = knownString(a.props.organizationId);
  const right = knownString(b.props.organizationId);
  return left === undefined || right === undefined || left === right;
}

/** URLs the platform fetches, or sends people to. */
const URL_FIELDS: readonly Read[] = [
  on("OpenApiSpec", "sourceUrl"),
  on("SamlProvider", "ssoUrl"),
  on("SiteVisitorAuth", "fallbackURL", "logoutURL"),
  on("OrganizationSettings", "logo"),
  on("Space", "icon"),
  on("SiteMcpServer", "url"),
  on("SiteExternalLink", "url"),
  on("GitSyncInstallation", "customInstanceURL"),
];

/** The installations whose `configuration` is stored and shown in plain text, next to a `secrets` that is not. */
const CONFIGURATION_FIELDS: readonly Read[] = [
  on("IntegrationInstallation", "configuration"),
  on("IntegrationSiteInstallation", "configuration"),
  on("IntegrationSpaceInstallation", "configuration"),
];

/** Key names that hold credentials: matched case-insensitively, `-` and `_` ignored, anywhere in the key. */
const CREDENTIAL_PATTERNS = ["token", "secret", "password", "api_key", "apikey", "private_key", "client_secret"];

/** A name as credential patterns compare it: `API-Key`, `api_key` and `apiKey` are all `apikey`. */
const squashed = (name: string) => name.toLowerCase().replace(/[-_]/g, "");

/** Where a resource option goes, in both program forms. */
const resourceOption = (option: string) =>
  `${option} as a resource option (TypeScript: { ${option} } as the resource's options; YAML: options: { ${option} })`;

// ---------------------------------------------------------------------------------------------------------------
// The table

export const RULES: readonly Rule[] = [
  rule({
    id: "docs-public-site-allowed",
    scope: "resource",
    description:
      "A site published with visibility `public` is one the platform team reviewed and allowed: its title, its " +
      "name in the program or its id (an adopted site's `importId`) is in `allowedSites`.",
    enforcementLevel: "mandatory",
    levelWhy: "publishing to the whole internet is what a review is for",
    settings: {
      allowedSites: stringList(
        "Titles, program names or site ids of the sites that may be published with visibility `public`.",
      ),
    },
    reads: [on("Site", "visibility", "published", "title", "importId")],
    check(site, { allowedSites }) {
      if (site.props.visibility !== "public" || site.props.published !== true) return [];
      if (listed(site, ["title", "importId"], allowedSites)) return [];
      const title = knownString(site.props.title) ?? site.name;
      return [
        {
          resource: site,
          field: "visibility",
          problem: `the site "${title}" is published with visibility "public" but is not in allowedSites`,
          fix: `once the site is reviewed, add "${title}" to allowedSites of docs-public-site-allowed in the policy config; until then publish it with visibility "share-link" (reviewers open it through a SiteShareLink) or set published: false`,
        },
      ];
    },
    example: [resource("Site", "docs", { title: "Acme Docs", visibility: "public", published: true })],
  }),

  rule({
    id: "docs-share-link-named",
    scope: "resource",
    description:
      "Every share link has a name of at least `minLength` characters, so that whoever reviews the site's links " +
      "knows whom each one was given to, and which to deactivate.",
    enforcementLevel: "mandatory",
    levelWhy: "an unnamed link cannot be told apart, so it is never revoked",
    settings: { minLength: integer("The fewest characters a link's name has, spaces around it aside.", 1, 1) },
    reads: [on("SiteShareLink", "name")],
    check(link, { minLength }) {
      const name = link.props.name;
      if (!isKnown(name) || (typeof name === "string" && name.trim().length >= minLength)) return [];
      return [
        {
          resource: link,
          field: "name",
          problem: `${JSON.stringify(name ?? "")} is shorter than ${minLength} character(s) (minLength)`,
          fix: 'name the link after whom it is for, e.g. name: "Reviewers" or name: "Partner: Initech"',
        },
      ];
    },
    example: [resource("SiteShareLink", "review-link", { name: "", active: true }, { refs: { siteId: "Site/docs" } })],
  }),

  rule({
    id: "docs-channel-allow-list",
    scope: "resource",
    description:
      "A site channel names where its agent answers: its allow-list (`allowedChannels` for Slack and Discord, " +
      "`allowedTeams` for Linear, `allowedRepositories` for GitHub) is declared and not empty. Left out or `[]`, the " +
      "agent answers in every channel, team or repository of the connected workspace, public ones included.",
    enforcementLevel: "advisory",
    levelWhy: "a support agent open to a whole workspace is sometimes intended; the warning makes it a decision",
    settings: {},
    reads: [on("SiteChannel", "type", "allowedChannels", "allowedTeams", "allowedRepositories")],
    check(channel) {
      const type = knownString(channel.props.type);
      const field =
        type === "builtin:linear"
          ? "allowedTeams"
          : type === "builtin:github"
            ? "allowedRepositories"
            : type === undefined
              ? undefined
              : "allowedChannels";
      if (field === undefined) return [];
      const list = channel.props[field];
      if (!isKnown(list) || (Array.isArray(list) && list.length > 0)) return [];
      const example =
        field === "allowedRepositories"
          ? '["acme/docs"]'
          : field === "allowedTeams"
            ? '["DOC"]'
            : '["help", "support-*"]';
      return [
        {
          resource: channel,
          field,
          problem: `the ${type} channel's agent may answer anywhere in the workspace: ${field} is ${list === undefined ? "not declared" : "empty"}`,
          fix: `list where it may answer, e.g. ${field}: ${example}`,
        },
      ];
    },
    example: [
      resource(
        "SiteChannel",
        "slack",
        { type: "builtin:slack", role: "collaborator" },
        { refs: { siteId: "Site/docs" } },
      ),
    ],
  }),

  rule({
    id: "docs-context-sources",
    scope: "resource",
    description:
      "A context connection reads a source its connector allow-list names. What the docs agent reads becomes its " +
      "answers and its change requests, so which sources feed it is a reviewed decision. By default every connector " +
      "but `builtin:email` is allowed: its ingestion address takes mail from anyone who knows it, so anyone could " +
      "put words in the agent's mouth.",
    enforcementLevel: "advisory",
    levelWhy: "a support inbox as a source is sometimes the point; the warning makes it a decision",
    settings: {
      allowedConnectors: {
        ...stringList(
          "Connectors a context connection may read, e.g. `builtin:github-issues`; `integration:*` allows every " +
            "integration's connector.",
        ),
        default: [...BUILTIN_CONTEXT_CONNECTORS.filter((connector) => connector !== "builtin:email"), "integration:*"],
      },
    },
    reads: [on("SiteContextConnection", "connector")],
    check(connection, { allowedConnectors }) {
      const connector = knownString(connection.props.connector);
      if (connector === undefined) return [];
      const allowed = allowedConnectors.some((entry) =>
        entry.endsWith("*") ? connector.startsWith(entry.slice(0, -1)) : entry === connector,
      );
      if (allowed) return [];
      return [
        {
          resource: connection,
          field: "connector",
          problem: `the docs agent would read ${connector}, which allowedConnectors does not list`,
          fix:
            connector === "builtin:email"
              ? "read a source only the team writes to (e.g. builtin:github-issues with a label filter), or add " +
                "builtin:email to allowedConnectors in the policy config if anyone may feed the agent"
              : `add ${connector} to allowedConnectors in the policy config, or read another source`,
        },
      ];
    },
    example: [
      resource(
        "SiteContextConnection",
        "support-inbox",
        { connector: "builtin:email", label: "Support inbox" },
        { refs: { siteId: "Site/docs" } },
      ),
    ],
  }),

  rule({
    id: "docs-default-role",
    scope: "resource",
    description:
      "The role people get without anyone granting it, when they sign in through a SAML provider " +
      "(`SamlProvider.defaultRole`) or join the organization (`OrganizationSettings.defaultRole`), is at most " +
      "`maxRole`: never `admin` by default.",
    enforcementLevel: "mandatory",
    levelWhy: "a default admin role makes everyone who signs in an administrator",
    settings: { maxRole: oneOf("The highest default role allowed.", ROLES, "create") },
    reads: [on("SamlProvider", "defaultRole"), on("OrganizationSettings", "defaultRole")],
    check: (subject, { maxRole }) => aboveRole(subject, "defaultRole", maxRole, "maxRole", "docs-default-role"),
    example: [resource("SamlProvider", "okta", { label: "Okta", defaultRole: "admin" })],
  }),

  rule({
    id: "docs-default-level",
    scope: "resource",
    description:
      "The access every organization member gets to a space or a collection (`defaultLevel`) is at most " +
      "`maxLevel`; more goes to teams, through permissions.",
    enforcementLevel: "advisory",
    levelWhy: "some organizations let every member edit; the warning makes it a decision",
    settings: { maxLevel: oneOf("The highest default level allowed.", ROLES, "edit") },
    reads: [on("Space", "defaultLevel"), on("Collection", "defaultLevel")],
    check: (subject, { maxLevel }) => aboveRole(subject, "defaultLevel", maxLevel, "maxLevel", "docs-default-level"),
    example: [resource("Collection", "handbook", { title: "Handbook", defaultLevel: "admin" })],
  }),

  rule({
    id: "docs-https-urls",
    scope: "resource",
    description:
      "URLs the platform fetches or sends people to use https: an OpenAPI spec's `sourceUrl`, a SAML provider's " +
      "`ssoUrl`, a visitor sign-in's `fallbackURL` and `logoutURL`, the organization's `logo`, a space's `icon`, " +
      "an MCP server's `url` (its headers often carry a credential), an external link's `url` and a self-hosted " +
      "GitLab's `customInstanceURL` (Git Sync sends it the access token); hosts in `allowedHttpHosts` may use http.",
    enforcementLevel: "mandatory",
    levelWhy: "over http, a spec or a sign-in page can be altered on the way, and a token or a header read",
    settings: { allowedHttpHosts: stringList("Host names allowed over http, e.g. an internal mirror.") },
    reads: URL_FIELDS,
    check(subject, { allowedHttpHosts }) {
      const fields = URL_FIELDS.find((read) => read.kind === subject.kind)?.fields ?? [];
      return fields.flatMap((field) => {
        const value = knownString(subject.props[field]);
        if (value === undefined || !/^http:\/\//i.test(value)) return [];
        const host = URL.canParse(value) ? new URL(value).hostname : "";
        if (allowedHttpHosts.includes(host)) return [];
        return [
          {
            resource: subject,
            field,
            problem: `${JSON.stringify(value)} is http`,
            fix: `use https://${value.slice("http://".length)}, or list "${host}" in allowedHttpHosts of docs-https-urls`,
          },
        ];
      });
    },
    example: [
      resource("OpenApiSpec", "petstore", { slug: "petstore", sourceUrl: "http://specs.acme.example/petstore.yaml" }),
    ],
  }),

  rule({
    id: "docs-content-protected",
    scope: "resource",
    description:
      "Spaces and collections, which hold the content, are protected from deletion (`protect: true`), unless " +
      "listed in `exempt` (by title or program name).",
    enforcementLevel: "advisory",
    levelWhy:
      "policies are not told a resource's `retainOnDelete` (the analyzer protocol of CLI 3.259 carries `protect` " +
      "only), so a resource kept that way would fail a mandatory rule until it is listed in `exempt`",
    settings: {
      exempt: stringList(
        "Titles or program names of spaces and collections that need no protection (scratch content, or kept " +
          "with `retainOnDelete`).",
      ),
    },
    reads: [on("Space", "title"), on("Collection", "title")],
    check(subject, { exempt }) {
      if (subject.protect || listed(subject, ["title"], exempt)) return [];
      const what = subject.kind === "Space" ? "the space and its content" : "the collection and what it holds";
      return [
        {
          resource: subject,
          field: "protect (resource option)",
          problem: `is not set, so deleting the resource or replacing it deletes ${what}`,
          fix: `set ${resourceOption("protect: true")}; one kept with retainOnDelete: true instead goes in exempt of docs-content-protected (policies cannot see retainOnDelete)`,
        },
      ];
    },
    example: [resource("Space", "guides-space", { title: "Guides" })],
  }),

  rule({
    id: "docs-admin-to-teams",
    scope: "resource",
    description:
      "`admin` on a space, a collection or a site is granted to teams, never to a single user (`userId`), unless " +
      "the user is in `allowedUsers`.",
    enforcementLevel: "mandatory",
    levelWhy: "a team's admins are listed and reviewed in one place; a user's grant outlives their role",
    settings: {
      allowedUsers: stringList("User ids that may hold `admin` grants of their own (break-glass accounts)."),
    },
    reads: [
      on("SpacePermission", "role", "userId"),
      on("CollectionPermission", "role", "userId"),
      on("SitePermission", "role", "userId"),
    ],
    check(grant, { allowedUsers }) {
      const user = grant.props.userId;
      if (grant.props.role !== "admin" || user === undefined || user === null) return [];
      if (typeof user === "string" && allowedUsers.includes(user)) return [];
      const who = user === UNKNOWN ? "a user" : `the user "${user}"`;
      return [
        {
          resource: grant,
          field: "userId",
          problem: `grants role "admin" to ${who} rather than to a team`,
          fix: "grant admin to a team (teamId) the user is a member of, and give the user a lower role, or list the user id in allowedUsers of docs-admin-to-teams",
        },
      ];
    },
    example: [resource("SpacePermission", "ada-admin", { role: "admin", userId: "usr-ada" })],
  }),

  rule({
    id: "docs-openapi-public-allowed",
    scope: "resource",
    description:
      "An OpenAPI spec published with visibility `public` is in `allowedSpecs` (by slug or program name). Off by " +
      "default: turn it on where specs of internal APIs live next to public ones.",
    enforcementLevel: "disabled",
    levelWhy: "a public API's spec is meant to be public; organizations with internal APIs opt in",
    settings: { allowedSpecs: stringList("Slugs or program names of the specs that may be public.") },
    reads: [on("OpenApiSpec", "visibility", "slug")],
    check(spec, { allowedSpecs }) {
      if (spec.props.visibility !== "public" || listed(spec, ["slug"], allowedSpecs)) return [];
      const slug = knownString(spec.props.slug) ?? spec.name;
      return [
        {
          resource: spec,
          field: "visibility",
          problem: `the spec "${slug}" is public (anyone with the link reads it) but is not in allowedSpecs`,
          fix: `set visibility: "private", or add "${slug}" to allowedSpecs of docs-openapi-public-allowed`,
        },
      ];
    },
    example: [resource("OpenApiSpec", "internal-api", { slug: "internal-api", visibility: "public" })],
  }),

  rule({
    id: "docs-visitor-auth-configured",
    scope: "stack",
    description:
      "A site with visibility `visitor-auth` has a SiteVisitorAuth whose `siteId` is that site's: readers are " +
      "asked to sign in, so the program declares where (`fallbackURL`) and holds the signing key.",
    enforcementLevel: "mandatory",
    levelWhy: "without it, readers of the site cannot sign in",
    settings: {},
    reads: [on("Site", "visibility"), on("SiteVisitorAuth", "siteId")],
    check(stack) {
      const auths = stack.ofKind("SiteVisitorAuth");
      return stack
        .ofKind("Site")
        .filter((site) => site.props.visibility === "visitor-auth")
        .filter((site) => !auths.some((auth) => stack.refersTo(auth, "siteId", site)))
        .map((site) => ({
          resource: site,
          field: "visibility",
          problem: `is "visitor-auth" but no SiteVisitorAuth of the stack takes the site's id as siteId, so nothing declares where readers sign in or holds the signing key`,
          fix: `declare a SiteVisitorAuth whose siteId is this site's id and fallbackURL where readers sign in (TypeScript: new SiteVisitorAuth("${site.name}-sign-in", { siteId: ${site.name}.id, fallbackURL: "https://…/login" }); YAML: type: docs:SiteVisitorAuth, properties: { siteId: \${${site.name}.id}, fallbackURL: "https://…/login" }), or change visibility`,
        }));
    },
    example: [resource("Site", "partners", { title: "Partner Portal", visibility: "visitor-auth" })],
  }),

  rule({
    id: "docs-sso-enforced",
    scope: "stack",
    description:
      "Where a SamlProvider is declared, the stack also declares its organization's OrganizationSettings with " +
      "`sso: true`, so that members sign in through it rather than with a password.",
    enforcementLevel: "mandatory",
    levelWhy: "an SSO provider that is not enforced leaves password logins open",
    settings: {},
    reads: [on("SamlProvider", "organizationId"), on("OrganizationSettings", "organizationId", "sso")],
    check(stack) {
      const findings: Finding[] = [];
      const allSettings = stack.ofKind("OrganizationSettings");
      for (const provider of stack.ofKind("SamlProvider")) {
        const settings = allSettings.filter((candidate) => sameOrganization(candidate, provider));
        if (settings.some((candidate) => candidate.props.sso === true || candidate.props.sso === UNKNOWN)) continue;
        if (settings.length === 0) {
          findings.push({
            resource: provider,
            field: "organizationId",
            problem: `the organization this SAML provider signs in to has no OrganizationSettings in the stack that enforces SSO (sso: true), so members can still log in with a password`,
            fix: `declare the organization's OrganizationSettings with sso: true (TypeScript: new OrganizationSettings("settings", { sso: true }); YAML: type: docs:OrganizationSettings, properties: { sso: true }); it takes over the organization's settings and changes only those declared`,
          });
        }
        for (const unenforced of settings) {
          findings.push({
            resource: unenforced,
            field: "sso",
            problem: `is ${unenforced.props.sso === undefined ? "not set" : String(unenforced.props.sso)} while SamlProvider "${provider.name}" signs members in to the organization, so they can still log in with a password`,
            fix: "set sso: true",
          });
        }
      }
      // One finding per settings resource, however many providers its organization has.
      return findings.filter((finding, i) => findings.findIndex((f) => f.resource === finding.resource) === i);
    },
    example: [
      resource("SamlProvider", "okta", { organizationId: "acme", label: "Okta" }),
      resource("OrganizationSettings", "settings", { organizationId: "acme", sso: false }),
    ],
  }),

  rule({
    id: "docs-team-members",
    scope: "stack",
    description:
      "Every Team has a member declared: in its `members`, by a TeamMember whose `teamId` is the team's, or by a " +
      "SamlProvider that adds people to it (`defaultTeamId`); teams in `exempt` (by title or program name) aside.",
    enforcementLevel: "advisory",
    levelWhy: "an empty team grants nothing, so it is untidy rather than unsafe",
    settings: { exempt: stringList("Titles or program names of teams that may have no declared member.") },
    reads: [on("Team", "members", "title"), on("TeamMember", "teamId"), on("SamlProvider", "defaultTeamId")],
    check(stack, { exempt }) {
      const joiners = [
        ...stack.ofKind("TeamMember").map((member) => ({ from: member, field: "teamId" })),
        ...stack.ofKind("SamlProvider").map((provider) => ({ from: provider, field: "defaultTeamId" })),
      ];
      return stack
        .ofKind("Team")
        .filter((team) => {
          const members = team.props.members;
          if (members === UNKNOWN || (Array.isArray(members) && members.length > 0)) return false;
          if (listed(team, ["title"], exempt)) return false;
          return !joiners.some(({ from, field }) => stack.refersTo(from, field, team));
        })
        .map((team) => ({
          resource: team,
          field: "members",
          problem:
            "declares no member: the team lists none, and no TeamMember (teamId) or SamlProvider (defaultTeamId) of the stack refers to it",
          fix: `list its members in members, declare a TeamMember whose teamId is this team's id (TypeScript: teamId: ${team.name}.id; YAML: teamId: \${${team.name}.id}), or list "${knownString(team.props.title) ?? team.name}" in exempt of docs-team-members`,
        }));
    },
    example: [resource("Team", "reviewers", { title: "Reviewers" })],
  }),

  rule({
    id: "docs-share-links-per-site",
    scope: "stack",
    description:
      "A site has at most `maxPerSite` active share links (`active: false` ones do not count), so that access to a " +
      "site in review stays with a few named groups.",
    enforcementLevel: "mandatory",
    levelWhy: "every link is a bearer token to the site; the limit keeps them few and reviewed",
    settings: { maxPerSite: integer("The most active share links one site may have.", 0, 3) },
    reads: [on("SiteShareLink", "siteId", "active")],
    check(stack, { maxPerSite }) {
      const bySite = new Map<string, { site: string; links: DocsResource[] }>();
      for (const link of stack.ofKind("SiteShareLink").filter(isActive)) {
        const site = stack.target(link, "siteId", "Site");
        if (site === undefined) continue;
        const key = "resource" in site ? site.resource.urn : site.id;
        const group = bySite.get(key) ?? { site: named(site), links: [] };
        group.links.push(link);
        bySite.set(key, group);
      }
      return [...bySite.values()]
        .filter((group) => group.links.length > maxPerSite)
        .map(({ site, links }) => ({
          resource: links[links.length - 1]!,
          field: "siteId",
          problem: `site ${site} would have ${links.length} active share links (${links.map((l) => `"${l.name}"`).join(", ")}), more than maxPerSite (${maxPerSite})`,
          fix: "remove links no longer needed or set active: false on them, or raise maxPerSite of docs-share-links-per-site",
        }));
    },
    example: [
      resource("Site", "docs", { title: "Acme Docs", visibility: "share-link", published: true }),
      ...["Partner A", "Partner B", "Partner C", "Partner D"].map((name) =>
        resource(
          "SiteShareLink",
          name.toLowerCase().replace(" ", "-"),
          { name, active: true },
          { refs: { siteId: "Site/docs" } },
        ),
      ),
    ],
  }),

  rule({
    id: "docs-no-share-links-on-public-sites",
    scope: "stack",
    description:
      "A public site has no active share link: the link opens nothing more, and would give access again if the " +
      "site were later restricted to share links.",
    enforcementLevel: "mandatory",
    levelWhy: "a leftover link turns into access the day the site is restricted",
    settings: {},
    reads: [on("SiteShareLink", "siteId", "active"), on("Site", "visibility")],
    check(stack) {
      return stack
        .ofKind("SiteShareLink")
        .filter(isActive)
        .flatMap((link) => {
          const site = stack.target(link, "siteId", "Site");
          if (site === undefined || !("resource" in site) || site.resource.props.visibility !== "public") return [];
          return [
            {
              resource: link,
              field: "siteId",
              problem: `site "${site.resource.name}" is public, so the link is a leftover that would give access again if the site were restricted to share links`,
              fix: 'delete the link (or set active: false), or keep the site in review with visibility: "share-link"',
            },
          ];
        });
    },
    example: [
      resource("Site", "docs", { title: "Acme Docs", visibility: "public", published: true }),
      resource("SiteShareLink", "review-link", { name: "Reviewers", active: true }, { refs: { siteId: "Site/docs" } }),
    ],
  }),

  rule({
    id: "docs-credentials-in-secrets",
    scope: "resource",
    description:
      "An integration installation keeps credentials in `secrets`, never in `configuration`: a `configuration` key " +
      "whose name looks like a credential (it contains one of `credentialPatterns`, case-insensitively, `-` and `_` " +
      "ignored: `apiKey`, `API-Key` and `api_key` all match `api_key`) fails, named without its value. `configuration` " +
      "is stored and shown in plain text; `secrets` is a Pulumi secret, `[secret]` in previews and kept out of errors.",
    enforcementLevel: "mandatory",
    levelWhy: "a credential in `configuration` is in plain text in the state, every preview and the CI logs",
    settings: {
      credentialPatterns: {
        ...stringList(
          "Parts of key names that mark a credential, compared case-insensitively with `-` and `_` ignored.",
        ),
        default: CREDENTIAL_PATTERNS,
      },
    },
    reads: CONFIGURATION_FIELDS,
    check(installation, { credentialPatterns }) {
      const configuration = installation.props.configuration;
      if (configuration === null || typeof configuration !== "object" || Array.isArray(configuration)) return [];
      const patterns = credentialPatterns.map((pattern) => ({ pattern, squashed: squashed(pattern) }));
      return Object.entries(configuration as Record<string, unknown>).flatMap(([key, value]) => {
        // A number or a boolean is a setting, whatever its name; `secrets` holds strings only.
        if (typeof value === "number" || typeof value === "boolean") return [];
        const match = patterns.find((pattern) => pattern.squashed !== "" && squashed(key).includes(pattern.squashed));
        if (match === undefined) return [];
        return [
          {
            resource: installation,
            field: `configuration.${key}`,
            problem: `the key looks like a credential (it matches "${match.pattern}" of credentialPatterns), and configuration is stored and shown in plain text`,
            fix: `move ${key} from configuration to secrets (secrets: { ${key}: <the value> }, a Pulumi secret however it is given), or, if it holds no credential, leave "${match.pattern}" out of credentialPatterns of docs-credentials-in-secrets`,
          },
        ];
      });
    },
    example: [
      resource("IntegrationInstallation", "tickets", {
        integrationName: "ticket-sync",
        configuration: { workspace: "acme", api_key: "<a value>" },
      }),
    ],
  }),

  rule({
    id: "docs-git-sync-priority",
    scope: "stack",
    description:
      "Git Sync with `priority: git` (the repository's content overwrites GitBook's at every sync) is only on the " +
      "spaces and sites `allowed` names, by title, program name or id (or by the installation's own program name): " +
      "elsewhere edits made in GitBook are lost.",
    enforcementLevel: "advisory",
    levelWhy: "docs-as-code teams want it; the warning makes overwriting the editors' work a decision",
    settings: {
      allowed: stringList(
        "Titles, program names or ids of the spaces and sites (or program names of the GitSyncInstallations) that " +
          "may sync with priority `git`.",
      ),
    },
    reads: [on("GitSyncInstallation", "priority", "spaceId", "siteId"), on("Space", "title"), on("Site", "title")],
    check(stack, { allowed }) {
      return stack
        .ofKind("GitSyncInstallation")
        .filter((installation) => installation.props.priority === "git")
        .flatMap((installation) => {
          if (allowed.includes(installation.name)) return [];
          const field =
            installation.props.spaceId !== undefined && installation.props.spaceId !== null ? "spaceId" : "siteId";
          const target = stack.target(installation, field, field === "spaceId" ? "Space" : "Site");
          if (target === undefined) return [];
          const names =
            "resource" in target
              ? [
                  target.resource.name,
                  knownString(target.resource.props.title),
                  knownString(target.resource.props.importId),
                ]
              : [target.id];
          if (names.some((name) => name !== undefined && allowed.includes(name))) return [];
          const what = field === "spaceId" ? "space" : "site";
          const title =
            "resource" in target ? (knownString(target.resource.props.title) ?? target.resource.name) : target.id;
          return [
            {
              resource: installation,
              field: "priority",
              problem: `is "git" on ${what} ${named(target)}, which allowed does not name, so every sync overwrites what editors changed in GitBook`,
              fix: `set priority: "gitbook" (GitBook's content wins; the repository still receives each change), or add "${title}" to allowed of docs-git-sync-priority`,
            },
          ];
        });
    },
    example: [
      resource("Space", "handbook", { title: "Handbook" }),
      resource(
        "GitSyncInstallation",
        "handbook-git",
        { provider: "github", priority: "git", repositoryId: 1001, spaceId: UNKNOWN },
        { refs: { spaceId: "Space/handbook" } },
      ),
    ],
  }),
];

/**
 * Why no rule judges a kind: every registered kind is judged by a rule or listed here (test/policy/policy.test.ts),
 * and docs/policy.md's table of kinds shows both.
 */
export const UNJUDGED: Readonly<Record<string, string>> = {
  OrganizationMember:
    "a member's organization role is granted per person by the admins; defaults are judged by docs-default-role",
  SiteSection: "a section only arranges a site's content; who sees it is the site's visibility",
  SiteSectionGroup: "a group only arranges a site's sections",
  SiteSpace: "a site space only places a space's content in a site; who sees it is the site's visibility",
  SiteCustomization: "branding and layout: nothing a platform team gates",
  SiteSpaceCustomization: "branding and layout of one space in a site: nothing a platform team gates",
  SiteRedirect: "a redirect stays within the site's own URLs",
  SiteRedirects: "redirects stay within the site's own URLs",
  SiteStructure: "the order of a site's sections and spaces",
  SiteAdaptiveSchema: "the claims adaptive content reads; it grants no access",
  Translation: "a translated copy of a space the program already declares and the rules judge",
  TranslationGlossary: "terms for translations: no access, URL or credential",
  SiteAgentSettings: "the editing agent's topics and instructions: no access, URL or credential",
  OrganizationAgentInstructions: "the Docs agent's instructions: no access, URL or credential",
};

/** The kinds a rule judges. */
export function kindsOf(entry: Rule): string[] {
  return [...new Set(entry.reads.map((read) => read.kind))];
}

/** The example program as a stack view, with the rule's findings under its default settings. */
export function exampleFindings(entry: Rule): Finding[] {
  const defaults = Object.fromEntries(Object.entries(entry.settings as Settings).map(([name, s]) => [name, s.default]));
  if (entry.scope === "stack") return entry.check(new StackView(entry.example), defaults);
  return entry.example.flatMap((subject) => entry.check(subject, defaults));
}
