/**
 * Parity of the provider's input checks with the API: ONE table of every limit, pattern and enumeration of the API
 * reference (its Limits table and each field's constraints) for the kinds the provider manages, plus the few rules only
 * the official document states for a managed property (marked OFFICIAL). For each entry and value, generated tests
 * assert:
 *
 * 1. the provider's `check` rejects the bad value before any request, with a failure whose `property` is the
 *    property and whose reason names the kind, the property and the rule (`Collection.title: must be at most 50
 *    characters`);
 * 2. the API (the emulator), sent the same value directly, answers 400 with the official error body
 *    `{error: {code: 400, message}}`, the message naming the API's field and the rule;
 * 3. the value at the exact limit (every value, for an enumeration) passes `check` and the direct API call (2xx).
 *
 * A value on which the two sides disagree (each following one of the two documents where they conflict, or the
 * provider narrowing a rule on purpose) is listed under the entry's `mismatches`, its `why` saying which side
 * follows what; the test pins both behaviours (check rejects, the API accepts) so that a change of either side
 * shows up here.
 *
 * Not covered, on purpose: `limit` on lists (the provider exposes no list), Site `hostname` (an output only; no
 * input sets it), OpenAPI version URL (no provider property), and rules of kinds the provider does not manage.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { newSiteCustomization } from "../../emulator/families/siteSettings/siteBranding";
import { SPACE_LANGUAGES, TRANSLATION_LANGUAGES } from "../../provider/client";
import { KeyedProperties } from "../../provider/framework/keyed";
import type { Props } from "../../provider/framework/kind";
import { lifecycle } from "../../provider/runtime";
import { deliberatelyInvalidRequests } from "../support/contract";
import { useEmulator } from "../support/emulator";
import {
  type ApiRequest,
  atLeast,
  atMost,
  letters,
  matches,
  oneOf,
  Parents,
  padded,
  type Rule,
  show,
  uri,
} from "./parity-support";

const fixture = useEmulator();
/** The parents of this test's direct API calls, created on first use (the emulator is reset before every test). */
let parents: Parents;
beforeEach(() => {
  parents = new Parents(fixture);
});

const LIMITS = "API reference: Limits table";
const FIELD = "API reference: field constraints";
const OFFICIAL = "OFFICIAL: the API reference states no rule; the official document does";

/** A value `check` rejects and the API accepts, with why (pinned: see the header). */
interface Mismatch {
  value: unknown;
  why: string;
}

interface Entry {
  kind: string;
  /** The provider's property, as `check` reports it (dotted for nested ones). */
  property: string;
  /** Where the rule comes from. */
  source: string;
  rule: Rule;
  /** Valid inputs of the kind with `value` at `property`. */
  inputs(value: unknown): Props;
  /** The same value sent to the API directly, under the API's field name. */
  request(p: Parents, value: unknown): Promise<ApiRequest>;
  mismatches?: Mismatch[];
}

/** Entries of one kind whose inputs are `base()` with the value at a top-level property (unless `inputs` says). */
function kind(name: string, base: () => Props) {
  return (
    property: string,
    entry: Omit<Entry, "kind" | "property" | "inputs"> & { inputs?: Entry["inputs"] },
  ): Entry => ({ kind: name, property, inputs: (value) => ({ ...base(), [property]: value }), ...entry });
}

/** The official `MergeRule` rules: three name users, `custom` takes an expression, the others nothing. */
const PLAIN_MERGE_RULES = [
  "require_at_least_one_review",
  "require_at_least_one_approved_review",
  "require_all_reviews_approved",
  "require_agent_review",
  "require_up_to_date_change_request",
  "require_change_request_subject",
  "require_change_request_description",
  "require_author_to_merge",
];
const MERGE_RULES = [
  "require_specific_reviewers",
  "require_one_of_specific_reviewers",
  "allow_bypass",
  ...PLAIN_MERGE_RULES,
  "custom",
];
/** The API reference's roles (member roles, default levels), in its order. */
const ROLES = ["admin", "create", "review", "edit", "comment", "read"] as const;
const PROXY_ORIGIN = /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const PETSTORE = "https://petstore.example/openapi.json";
const DRAFT_07 = "http://json-schema.org/draft-07/schema#";
const UNSIGNED = "Unsigned claims of the site visitor.";
const VISITOR_SCHEMA = {
  type: "object",
  properties: {
    beta: { type: "boolean", description: "Beta tester" },
    unsigned: {
      type: "object",
      description: UNSIGNED,
      properties: { partner: { type: "boolean", description: "Signed in from a partner portal" } },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

let specCount = 0;
/** A slug no other spec of this test has (a second POST of one slug is a 409). */
const freshSlug = () => `parity-${++specCount}`;

const collection = kind("Collection", () => ({ organizationId: fixture.org(), title: "Docs" }));
const space = kind("Space", () => ({ organizationId: fixture.org(), title: "Docs" }));
const spacePermission = kind("SpacePermission", () => ({ spaceId: "space-id", teamId: "team-id", role: "read" }));
const collectionPermission = kind("CollectionPermission", () => ({
  collectionId: "c-id",
  teamId: "t-id",
  role: "read",
}));
const sitePermission = kind("SitePermission", () => ({ ...underSite, userId: "user-id", role: "read" }));
const saml = kind("SamlProvider", () => ({ organizationId: fixture.org(), label: "Okta" }));
const team = kind("Team", () => ({ organizationId: fixture.org(), title: "Ops" }));
const teamMember = kind("TeamMember", () => ({
  organizationId: fixture.org(),
  teamId: "team-id",
  userId: fixture.user(1),
}));
const openApiSpec = kind("OpenApiSpec", () => ({
  organizationId: fixture.org(),
  slug: "petstore",
  sourceUrl: PETSTORE,
}));
const site = kind("Site", () => ({ organizationId: fixture.org(), title: "Docs" }));
const organizationSettings = kind("OrganizationSettings", () => ({ organizationId: fixture.org() }));
const organizationMember = kind("OrganizationMember", () => ({
  organizationId: fixture.org(),
  userId: fixture.user(2),
}));
const underSite = { organizationId: "org-id", siteId: "site-id" };
const section = kind("SiteSection", () => ({ ...underSite, spaceId: "space-id" }));
const sectionGroup = kind("SiteSectionGroup", () => ({ ...underSite, title: "Guides" }));
const siteSpace = kind("SiteSpace", () => ({ ...underSite, spaceId: "space-id" }));
const externalLink = kind("SiteExternalLink", () => ({
  ...underSite,
  title: "Status",
  url: "https://status.example/",
}));
const shareLink = kind("SiteShareLink", () => ({ ...underSite, name: "Partners" }));
const mcpServer = kind("SiteMcpServer", () => ({ ...underSite, name: "Tickets", url: "https://mcp.example/" }));
const channel = kind("SiteChannel", () => ({ ...underSite, type: "builtin:slack" }));
const contextConnection = kind("SiteContextConnection", () => ({ ...underSite, connector: "builtin:api" }));
const agentSettings = kind("SiteAgentSettings", () => ({ ...underSite }));
const translation = kind("Translation", () => ({
  organizationId: "org-id",
  sourceSpaceId: "space-id",
  sourceLanguage: "en",
  language: "fr",
}));
const gitSync = kind("GitSyncInstallation", () => ({
  organizationId: "org-id",
  provider: "github",
  spaceId: "space-id",
}));
/** A Git Sync installation of a new site each time: the API keeps one per target. */
const gitSyncOnNewSite = async (provider = "github") =>
  fixture.apiCreate("/git/installations", { provider, target: { type: "site", siteId: await fixture.makeSite() } });
const glossary = kind("TranslationGlossary", () => ({ organizationId: "org-id", sourceLanguage: "en", entries: [] }));
/** A glossary entry's term or translation, sent as one insert of the official batch. */
const glossaryValue = (property: string, rule: Rule, entry: (value: unknown) => Props, language: string) =>
  glossary(property, {
    source: OFFICIAL,
    rule,
    inputs: (value) => ({ organizationId: "org-id", sourceLanguage: "en", entries: [entry(value)] }),
    request: async (_p, value) =>
      put(`/orgs/${fixture.org()}/translations-glossary`, `operations[0].translations.${language}`, {
        operations: [{ type: "insert", translations: { en: "term", [language]: value } }],
      }),
  });
const adaptiveSchema = kind("SiteAdaptiveSchema", () => ({ ...underSite, jsonSchema: VISITOR_SCHEMA }));
const EXTERNAL = { kind: "external", url: "https://new.example/" };
const redirect = kind("SiteRedirect", () => ({ ...underSite, source: "/old", destination: EXTERNAL }));
const redirects = kind("SiteRedirects", () => ({ ...underSite, redirects: [] }));
/** The official SiteRedirectSourcePath pattern, which each side words in its own way. */
const redirectSourcePattern: Rule = {
  text: "the official SiteRedirectSourcePath pattern",
  rejected: ["old", "/", "/*", "/a*/b", "/a b", "/a//b", "/é"],
  accepted: ["/a", "/docs/old-page.html", "/docs/*", "/docs*", "/%7Euser/a_b~c+d"],
  acceptedAs: "a matching value",
  provider: (reason) => expect(reason).toMatch(/^must be a path such as `\/old\/page`/),
  api: (message) => expect(message).toMatch(/^must be a path of \/-separated segments/),
};

const customization = kind("SiteCustomization", () => ({ ...underSite }));
const visitorAuth = kind("SiteVisitorAuth", () => ({ ...underSite }));

/** A SiteCustomization rule at a dotted path: the kind's inputs hold `section`, the PUT a new site's whole settings. */
const customizationRule = (path: string, rule: Rule, section: (value: unknown) => Props) =>
  customization(path, {
    source: OFFICIAL,
    rule,
    inputs: (value) => ({ ...underSite, ...section(value) }),
    request: async (p, value) => {
      const body: Props = newSiteCustomization();
      for (const [key, part] of Object.entries(section(value))) {
        body[key] = typeof part === "object" ? { ...(body[key] as Props), ...(part as Props) } : part;
      }
      return put(`${await p.sitePath()}/customization`, path, body);
    },
  });

const spaceCustomization = kind("SiteSpaceCustomization", () => ({ ...underSite, siteSpaceId: "site-space-id" }));

/** A SiteSpaceCustomization rule at a dotted path: the kind's inputs and the override PATCH both hold `section`. */
const spaceCustomizationRule = (path: string, rule: Rule, section: (value: unknown) => Props) =>
  spaceCustomization(path, {
    source: OFFICIAL,
    rule,
    inputs: (value) => ({ ...underSite, siteSpaceId: "site-space-id", ...section(value) }),
    request: async (p, value) =>
      patch(`${await p.sitePath()}/site-spaces/${await p.siteSpace()}/customization`, path, section(value)),
  });

const post = (path: string, field: string, body: unknown): ApiRequest => ({ method: "POST", path, field, body });
const patch = (path: string, field: string, body: unknown): ApiRequest => ({ method: "PATCH", path, field, body });
const put = (path: string, field: string, body: unknown): ApiRequest => ({ method: "PUT", path, field, body });

/** A channel allow-list entry's pattern: both sides say what shape it must have, in words of their own. */
function channelPattern(pattern: RegExp, rejected: string[], accepted: string[]): Rule {
  return {
    text: `matches ${pattern.source}`,
    rejected,
    accepted,
    acceptedAs: "a matching value",
    provider: (reason) => expect(reason).toMatch(/^must be (a channel name or pattern|`owner\/repository`)/),
    api: (message) => expect(message).toMatch(/^must be (a name or pattern|owner\/repository)/),
  };
}

const collectionField = (property: string, source: string, rule: Rule) =>
  collection(property, {
    source,
    rule,
    request: async (p, value) => patch(`/collections/${await p.collection()}`, property, { [property]: value }),
  });

/** An organization setting, sent on `PATCH /orgs/{o}`. */
const orgField = (property: string, rule: Rule) =>
  organizationSettings(property, {
    source: OFFICIAL,
    rule,
    request: async (p, value) => patch(`/orgs/${p.org}`, property, { [property]: value }),
  });

/** A Space field sent on create (`POST /orgs/{o}/spaces`) or, with `patchOnly`, on `PATCH /spaces/{s}`. */
const spaceField = (property: string, rule: Rule, patchOnly = false) =>
  space(property, {
    source: OFFICIAL,
    rule,
    request: async (p, value) =>
      patchOnly
        ? patch(`/spaces/${p.space(0)}`, property, { [property]: value })
        : post(`/orgs/${p.org}/spaces`, property, { [property]: value }),
  });

const samlField = (property: string, field: string, source: string, rule: Rule, mismatches?: Mismatch[]) =>
  saml(property, {
    source,
    rule,
    request: async (p, value) =>
      post(`/orgs/${p.org}/saml`, field, field === "label" ? { label: value } : { label: "Okta", [field]: value }),
    mismatches,
  });

const teamTitle = (rule: Rule) =>
  team("title", {
    source: OFFICIAL,
    rule,
    request: async (p, value) => put(`/orgs/${p.org}/teams`, "title", { title: value }),
  });

const slugRule = (rule: Rule, mismatches?: Mismatch[]) =>
  openApiSpec("slug", {
    source: LIMITS,
    rule,
    request: async (p, value) => post(`/orgs/${p.org}/openapi`, "slug", { slug: value, source: { url: PETSTORE } }),
    mismatches,
  });

const sourceUrlRule = (source: string, rule: Rule, mismatches?: Mismatch[]) =>
  openApiSpec("sourceUrl", {
    source,
    rule,
    request: async (p, value) =>
      post(`/orgs/${p.org}/openapi`, "source.url", { slug: freshSlug(), source: { url: value } }),
    mismatches,
  });

const siteCreate = (property: string, source: string, rule: Rule) =>
  site(property, {
    source,
    rule,
    request: async (p, value) =>
      post(
        `/orgs/${p.org}/sites`,
        property,
        property === "title" ? { title: value } : { title: "Docs", [property]: value },
      ),
  });

const siteUpdate = (property: string, source: string, rule: Rule) =>
  site(property, {
    source,
    rule,
    request: async (p, value) => patch(await p.sitePath(), property, { [property]: value }),
  });

const sectionField = (property: string, source: string, rule: Rule, mismatches?: Mismatch[]) =>
  section(property, {
    source,
    rule,
    request: async (p, value) =>
      patch(`${await p.sitePath()}/sections/${await p.section()}`, property, { [property]: value }),
    mismatches,
  });

const groupField = (property: string, source: string, rule: Rule) =>
  sectionGroup(property, {
    source,
    rule,
    request: async (p, value) =>
      post(`${await p.sitePath()}/section-groups`, property, { title: "Guides", [property]: value }),
  });

/** A link needs a section-based site: the site gets its section first. */
const linkField = (property: string, rule: Rule) =>
  externalLink(property, {
    source: OFFICIAL,
    rule,
    request: async (p, value) => {
      await p.section();
      return post(`${await p.sitePath()}/external-links`, property, {
        title: "Status",
        url: "https://status.example/",
        [property]: value,
      });
    },
  });

const mcpField = (property: string, rule: Rule) =>
  mcpServer(property, {
    source: OFFICIAL,
    rule,
    request: async (p, value) =>
      post(`${await p.sitePath()}/mcp-servers`, property, {
        name: "Tickets",
        url: "https://mcp.example/",
        headers: {},
        [property]: value,
      }),
  });

const integrationInstallation = kind("IntegrationInstallation", () => ({
  organizationId: fixture.org(),
  integrationName: "ticket-sync",
}));
/** An IntegrationInstallation rule, sent in the PATCH of a fresh installation under the API's snake_case name. */
const installationField = (property: string, field: string, rule: Rule) =>
  integrationInstallation(property, {
    source: OFFICIAL,
    rule,
    request: async (_p, value) => {
      const id = await fixture.apiCreate("/integrations/ticket-sync/installations", { organization: fixture.org() });
      return patch(`/integrations/ticket-sync/installations/${id}`, field, { [field]: value });
    },
  });

/** A SiteAgentSettings rule: the PUT requires all three parts, so the request sends them around the value. */
const agentRule = (property: string, field: string, rule: Rule, part: (value: unknown) => Props) =>
  agentSettings(property, {
    source: OFFICIAL,
    rule,
    request: async (p, value) =>
      put(`${await p.sitePath()}/agent-settings`, field, {
        scans: { topics: "auto" },
        findings: { changeRequests: "never" },
        editing: { customInstructions: { object: "document", data: {}, nodes: [] } },
        ...part(value),
      }),
  });

const siteSpaceField = (property: string, source: string, rule: Rule, mismatches?: Mismatch[]) =>
  siteSpace(property, {
    source,
    rule,
    request: async (p, value) =>
      patch(`${await p.sitePath()}/site-spaces/${await p.siteSpace()}`, property, { [property]: value }),
    mismatches,
  });

/** The visitor schema with `value` at a dotted path inside it. */
function visitorSchema(path: string, value: unknown): Props {
  const schema = structuredClone(VISITOR_SCHEMA) as Props;
  const keys = path.split(".");
  const parent = keys.slice(0, -1).reduce<Props>((node, key) => node[key] as Props, schema);
  parent[keys[keys.length - 1]!] = value;
  return schema;
}

/** A rule inside the visitor schema, at a dotted path relative to `jsonSchema` (the API's field is the same path). */
const schemaRule = (path: string, source: string, rule: Rule) =>
  adaptiveSchema(`jsonSchema.${path}`, {
    source,
    rule,
    inputs: (value) => ({ ...underSite, jsonSchema: visitorSchema(path, value) }),
    request: async (p, value) =>
      put(`${await p.sitePath()}/adaptive-schema`, `jsonSchema.${path}`, { jsonSchema: visitorSchema(path, value) }),
  });

const table: Entry[] = [
  // Collection: title max 50, description max 100 (Limits); defaultLevel a nullable role (official adds inherit).
  collection("title", {
    source: LIMITS,
    rule: atMost(50),
    request: async (p, value) => post(`/orgs/${p.org}/collections`, "title", { title: value }),
  }),
  collectionField("description", LIMITS, atMost(100)),
  collectionField(
    "defaultLevel",
    `${FIELD} (nullable role); \`inherit\` from the official DefaultLevel`,
    oneOf([...ROLES, null, "inherit"], ["owner", "guest", "Admin"]),
  ),

  // Space: title and emoji max 50, editMode and language enumerations (create), defaultLevel and icon (PATCH only).
  spaceField("title", atMost(50)),
  spaceField("emoji", atMost(50)),
  spaceField("editMode", oneOf(["live", "locked"], ["open", "Live"])),
  spaceField("language", oneOf(SPACE_LANGUAGES, ["xx", "EN", "pt_BR"])),
  spaceField("defaultLevel", oneOf([...ROLES, null, "inherit"], ["owner", "guest"]), true),
  spaceField("icon", atMost(2048, padded("https://cdn.example/")), true),

  // Content permissions: the granted role is a MemberRole (the grant body also takes null, a guest, which no kind
  // sends: a grant's listing reports roles only).
  spacePermission("role", {
    source: OFFICIAL,
    rule: oneOf(ROLES, ["owner", "Admin"]),
    request: async (p, value) =>
      post(`/spaces/${p.space(0)}/permissions`, "role", { role: value, users: [fixture.user(1)] }),
  }),
  collectionPermission("role", {
    source: OFFICIAL,
    rule: oneOf(ROLES, ["owner", "guest"]),
    request: async (p, value) =>
      post(`/collections/${await p.collection()}/permissions`, "role", { role: value, users: [fixture.user(1)] }),
  }),
  sitePermission("role", {
    source: OFFICIAL,
    // The provider also takes "guest", which it sends as the API's null (MemberRoleOrGuest).
    rule: { ...oneOf(ROLES, ["owner", "Read"]), provider: oneOf([...ROLES, "guest"], []).provider },
    request: async (p, value) =>
      post(`${await p.sitePath()}/permissions`, "role", { role: value, users: [fixture.user(1)] }),
  }),

  // SamlProvider: label 1..30, entityID max 1024, certificate max 10000, ssoURL URI max 2048 (Limits); defaultRole.
  samlField("label", "label", LIMITS, atLeast(1)),
  samlField("label", "label", LIMITS, atMost(30)),
  samlField("entityId", "entityID", LIMITS, atMost(1024)),
  samlField("certificate", "certificate", LIMITS, atMost(10000)),
  samlField("ssoUrl", "ssoURL", LIMITS, atMost(2048, padded("https://idp.example/sso/"))),
  samlField(
    "ssoUrl",
    "ssoURL",
    FIELD,
    uri({
      rejected: ["idp.example/sso", "not a url"],
      accepted: ["https://idp.example/sso", "http://localhost:8080/saml?app=docs"],
    }),
    [
      {
        value: "ftp://idp.example/sso",
        why:
          "MISMATCH: any absolute URI is valid under the API reference and the official document; the provider " +
          "accepts only http(s), on purpose (samlProvider.ts: SAML redirects only work over http(s)).",
      },
    ],
  ),
  samlField("defaultRole", "defaultRole", FIELD, oneOf([...ROLES, null], ["inherit", "owner", "Read"])),

  // Team: the API reference gives the title no limits (the official document: 1..64); member roles owner | member.
  teamTitle(atLeast(1)),
  teamTitle(atMost(64)),
  team("members.0.role", {
    source: `${FIELD} (TeamMember role)`,
    rule: oneOf(["owner", "member"], ["admin", "Owner"]),
    inputs: (value) => ({
      organizationId: fixture.org(),
      title: "Ops",
      members: [{ user: fixture.user(1), role: value }],
    }),
    request: async (p, value) =>
      put(`/orgs/${p.org}/teams/${await p.team()}/members`, `memberships.${p.user(1)}.role`, {
        add: [p.user(1)],
        memberships: { [p.user(1)]: { role: value } },
      }),
  }),

  // TeamMember: role owner | member.
  teamMember("role", {
    source: FIELD,
    rule: oneOf(["owner", "member"], ["admin", "Member"]),
    request: async (p, value) =>
      put(`/orgs/${p.org}/teams/${await p.team()}/members/${p.user(1)}`, "role", { role: value }),
  }),

  // OrganizationSettings (official updateOrganizationById): title 2..255, hostname 3..32, defaultRole a MemberRole or
  // null (guests), logo a URL of at most 2048 characters.
  orgField("title", atLeast(2, letters)),
  orgField("title", atMost(255)),
  orgField("hostname", atLeast(3, letters)),
  orgField("hostname", atMost(32, letters)),
  orgField("defaultRole", oneOf([...ROLES, null], ["owner", "guest"])),
  orgField("logo", atMost(2048, padded("https://cdn.example/"))),
  // OrganizationSettings and Space mergeRules (OFFICIAL MergeRule): the rule is one of the document's; the provider
  // checks a rule as a discriminated union on `rule`.
  organizationSettings("mergeRules.rules.0.rule", {
    source: OFFICIAL,
    rule: oneOf(MERGE_RULES, ["require_everything", "Custom"], PLAIN_MERGE_RULES),
    inputs: (rule) => ({ organizationId: fixture.org(), mergeRules: { type: "rules", rules: [{ rule }] } }),
    request: async (p, rule) =>
      patch(`/orgs/${p.org}`, "mergeRules.rules[0].rule", { mergeRules: { type: "rules", rules: [{ rule }] } }),
  }),
  space("mergeRules.rules.0.rule", {
    source: OFFICIAL,
    rule: oneOf(MERGE_RULES, ["require_everything", "Custom"], PLAIN_MERGE_RULES),
    inputs: (rule) => ({
      organizationId: fixture.org(),
      title: "Docs",
      mergeRules: { type: "rules", rules: [{ rule }] },
    }),
    request: async (p, rule) =>
      patch(`/spaces/${p.space(0)}`, "mergeRules.rules[0].rule", { mergeRules: { type: "rules", rules: [{ rule }] } }),
  }),

  // OrganizationMember (official updateMemberInOrganizationById): role a MemberRole or null (a guest).
  organizationMember("role", {
    source: OFFICIAL,
    rule: oneOf([...ROLES, null], ["owner", "Admin"]),
    request: async (p, value) => patch(`/orgs/${p.org}/members/${p.user(2)}`, "role", { role: value }),
  }),

  // OpenApiSpec: slug 1..100 with the API reference's pattern, source URL max 2048 (Limits), a URI; text sources
  // (official).
  slugRule(atLeast(1, letters)),
  slugRule(atMost(100, letters)),
  slugRule(
    matches(
      SLUG,
      // Lowercase only, as the API reference says; the official document also allows capitals (both sides follow the
      // API reference: test/contract/deviations.ts, capital-openapi-slugs).
      { rejected: ["My-API", "my--api", "-api", "api-", "my_api", "my api"], accepted: ["a", "v2", "my-api-2"] },
      /^must match /,
    ),
  ),
  sourceUrlRule(LIMITS, atMost(2048, padded("https://petstore.example/"))),
  sourceUrlRule(
    FIELD,
    uri({
      rejected: ["petstore.example/openapi.json", "not a url"],
      accepted: [PETSTORE, "http://localhost:8080/openapi.yaml"],
    }),
    [
      {
        value: "ftp://petstore.example/openapi.json",
        why:
          "MISMATCH: any absolute URI is valid under the API reference and the official document; the provider " +
          "accepts only http(s) (openApiSpec.ts: where the API fetches the document from over http(s)).",
      },
    ],
  ),
  openApiSpec("sourceText", {
    source: OFFICIAL,
    rule: atLeast(1),
    inputs: (value) => ({ organizationId: fixture.org(), slug: "petstore", sourceText: value }),
    request: async (p, value) =>
      post(`/orgs/${p.org}/openapi`, "source.text", { slug: freshSlug(), source: { text: value } }),
  }),

  // Site: title 2..128, basename 1..100, proxy max 512 with its pattern (Limits); type, visibility. The API
  // reference's agentsContext is not an input (absent from the official document: test/contract/deviations.ts).
  // hostname (max 512, pattern) is an output only: no input sets it.
  siteCreate("title", LIMITS, atLeast(2)),
  siteCreate("title", LIMITS, atMost(128)),
  siteCreate(
    "type",
    `${FIELD} (the API reference shows only \`basic\`; values: official SiteType)`,
    oneOf(["basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium"], ["enterprise", "Basic"]),
  ),
  siteCreate(
    "visibility",
    FIELD,
    oneOf(["public", "unlisted", "share-link", "visitor-auth"], ["private", "in-collection", "Public"]),
  ),
  siteUpdate("defaultLevel", OFFICIAL, oneOf([...ROLES, null, "inherit"], ["owner", "guest", "Admin"])),
  siteUpdate("basename", LIMITS, atLeast(1)),
  siteUpdate("basename", LIMITS, atMost(100)),
  siteUpdate("proxy", LIMITS, atMost(512, padded("example.com/"))),
  siteUpdate(
    "proxy",
    FIELD,
    matches(
      PROXY_ORIGIN,
      {
        rejected: ["example.com", "https://example.com/docs", "localhost/docs", "example.com/docs/"],
        accepted: ["example.com/docs", "www.example.co.uk/developer/docs"],
      },
      /^must be a host name followed by one or more path segments/,
    ),
  ),

  // SiteSection: title 2..128, path 1..100, condition 1..1024, description max 256 (Limits); icon max 50.
  sectionField("title", LIMITS, atLeast(2)),
  sectionField("title", LIMITS, atMost(128)),
  sectionField("path", LIMITS, atLeast(1)),
  sectionField("path", LIMITS, atMost(100)),
  // The API reference's 1..1024, stricter than the official 0..1024: null, not "", removes a condition
  // (test/contract/deviations.ts, empty-condition).
  sectionField("condition", LIMITS, atLeast(1)),
  sectionField("condition", LIMITS, atMost(1024)),
  sectionField("description", LIMITS, atMost(256)),
  sectionField("icon", FIELD, atMost(50)),

  // SiteSectionGroup: title 1..100 (Limits); icon max 50.
  groupField("title", LIMITS, atLeast(1)),
  groupField("title", LIMITS, atMost(100)),
  groupField("icon", FIELD, atMost(50)),

  // SiteExternalLink (OFFICIAL; the API reference has no links): title 2..128, url an absolute URI of at most 2048,
  // description max 256, icon max 50, condition max 1024.
  linkField("title", atLeast(2)),
  linkField("title", atMost(128)),
  linkField("url", uri({ rejected: ["not a url", "status.example.com"], accepted: ["https://status.example.com/"] })),
  linkField("url", atMost(2048, padded("https://status.example/"))),
  linkField("description", atMost(256)),
  linkField("icon", atMost(50)),
  linkField("condition", atMost(1024)),

  // SiteSpace: path 1..100, condition 1..1024 (Limits).
  siteSpaceField("path", LIMITS, atLeast(1)),
  siteSpaceField("path", LIMITS, atMost(100)),
  siteSpaceField("condition", LIMITS, atLeast(1)),
  siteSpaceField("condition", LIMITS, atMost(1024)),

  // SiteShareLink: name max 50 (Limits).
  shareLink("name", {
    source: LIMITS,
    rule: atMost(50),
    request: async (p, value) => post(`${await p.sitePath()}/share-links`, "name", { name: value }),
  }),

  // SiteMcpServer (OFFICIAL; the API reference has no MCP servers): name 1..100, url an absolute URI of at most 2048,
  // transport sse or http, condition max 1024.
  mcpField("name", atLeast(1)),
  mcpField("name", atMost(100)),
  mcpField("url", uri({ rejected: ["not a url", "mcp.example.com"], accepted: ["https://mcp.example.com/"] })),
  mcpField("url", atMost(2048, padded("https://mcp.example/"))),
  mcpField("transport", oneOf(["sse", "http"], ["ws", "SSE"])),
  mcpField("condition", atMost(1024)),

  // SiteContextConnection (OFFICIAL): ContextConnectionLabel (by update only) and ContextConnectionFilter, the
  // ContextSearchBoost of its usage settings, and the repository pattern of the GitHub connectors' setup.
  contextConnection("label", {
    source: OFFICIAL,
    rule: atMost(128),
    request: async (p, value) =>
      patch(`${await p.sitePath()}/context-connections/${await p.contextConnection()}`, "label", { label: value }),
  }),
  contextConnection("filter", {
    source: OFFICIAL,
    rule: atMost(1024),
    request: async (p, value) =>
      post(`${await p.sitePath()}/context-connections`, "filter", { connector: "builtin:api", filter: value }),
  }),
  contextConnection("usageSettings.searchBoost", {
    source: OFFICIAL,
    rule: oneOf(["x0.8", "x1.0", "x1.2"], ["x2", "1.0"]),
    inputs: (value) => ({
      ...underSite,
      connector: "builtin:api",
      usageSettings: { search: true, changeRequests: false, searchBoost: value },
    }),
    request: async (p, value) =>
      post(`${await p.sitePath()}/context-connections`, "usageSettings.searchBoost", {
        connector: "builtin:api",
        usageSettings: { search: true, changeRequests: false, searchBoost: value },
      }),
  }),
  contextConnection("setupSettings.repository", {
    source: OFFICIAL,
    rule: {
      text: "matches ^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$",
      rejected: ["acme", "https://github.com/acme/docs", "acme/docs/x", "acme/*"],
      accepted: ["acme/docs", "my.org/my_repo"],
      acceptedAs: "a matching value",
      provider: (reason) => expect(reason).toBe("must be `owner/repository` (not a URL)"),
      api: (message) => expect(message).toBe("must be owner/repository"),
    },
    inputs: (value) => ({
      ...underSite,
      connector: "builtin:github-issues",
      setupSettings: { repository: value },
      credentials: { token: "parity-token" },
    }),
    request: async (p, value) =>
      post(`${await p.sitePath()}/context-connections`, "setupSettings.repository", {
        connector: "builtin:github-issues",
        setupSettings: { repository: value, token: "parity-token" },
      }),
  }),

  // SiteChannel (OFFICIAL): type one of SiteConfigurableChannelType, role one of SiteChannelRole, and each
  // allow-list entry a GenericChannelPattern or GitHubRepositoryPattern (the provider and the API word it themselves).
  channel("type", {
    source: OFFICIAL,
    rule: oneOf(["builtin:slack", "builtin:linear", "builtin:github", "builtin:discord"], ["slack", "site"]),
    request: async (p, value) => post(`${await p.sitePath()}/channels`, "type", { type: value, setupSettings: {} }),
  }),
  channel("role", {
    source: OFFICIAL,
    rule: oneOf(["collaborator", "support"], ["owner", "Support"]),
    request: async (p, value) =>
      post(`${await p.sitePath()}/channels`, "role", { type: "builtin:slack", setupSettings: {}, role: value }),
  }),
  channel("allowedChannels.0", {
    source: OFFICIAL,
    rule: channelPattern(/^[a-zA-Z0-9_*-]+$/, ["#general", "help desk", ""], ["general", "support-*", "a_b"]),
    inputs: (value) => ({ ...underSite, type: "builtin:slack", allowedChannels: [value] }),
    request: async (p, value) =>
      post(`${await p.sitePath()}/channels`, "setupSettings.allowedChannels[0]", {
        type: "builtin:slack",
        setupSettings: { allowedChannels: [value] },
      }),
  }),
  channel("allowedRepositories.0", {
    source: OFFICIAL,
    rule: channelPattern(
      /^[a-zA-Z0-9._*-]+\/[a-zA-Z0-9._*-]+$/,
      ["acme", "https://github.com/acme/docs", "acme/docs/x"],
      ["acme/docs", "acme/*", "my.org/my_repo"],
    ),
    inputs: (value) => ({ ...underSite, type: "builtin:github", allowedRepositories: [value] }),
    request: async (p, value) =>
      post(`${await p.sitePath()}/channels`, "setupSettings.allowedRepositories[0]", {
        type: "builtin:github",
        setupSettings: { allowedRepositories: [value] },
      }),
  }),

  // Translation (OFFICIAL; the API reference's translations are another object): both languages are one of the
  // official TranslationLanguage codes (the other language of each request is a different one, which the API needs).
  translation("language", {
    source: OFFICIAL,
    rule: oneOf(TRANSLATION_LANGUAGES, ["klingon", "FR", "pt_BR"], ["fr", "de", "pt-br", "zh-tw", "sl"]),
    request: async (p, value) =>
      post(`/orgs/${fixture.org()}/translations`, "language", {
        source: { space: p.space(0), language: "en" },
        language: value,
      }),
  }),
  translation("sourceLanguage", {
    source: OFFICIAL,
    rule: oneOf(TRANSLATION_LANGUAGES, ["klingon", "EN"], ["en", "de", "ja", "yue"]),
    request: async (p, value) =>
      post(`/orgs/${fixture.org()}/translations`, "source.language", {
        source: { space: p.space(0), language: value },
        language: "fr",
      }),
  }),

  // TranslationGlossary (OFFICIAL GlossaryTranslations): each term 1..255 characters. Language keys are free in the
  // document; the provider takes the 39 TranslationLanguage codes (stricter on purpose: a key no translation reads
  // would never be used).
  glossaryValue("entries.0.term", atMost(255), (term) => ({ term, translations: {} }), "en"),
  glossaryValue("entries.0.translations.fr", atLeast(1), (fr) => ({ term: "term", translations: { fr } }), "fr"),
  glossaryValue("entries.0.translations.fr", atMost(255), (fr) => ({ term: "term", translations: { fr } }), "fr"),
  // GitSyncInstallation (OFFICIAL GitSyncInstallationProvider on the install, GitSyncInstallationPriority on the
  // PATCH, which requires the provider and its configuration around any field).
  gitSync("provider", {
    source: OFFICIAL,
    rule: oneOf(["github", "gitlab"], ["bitbucket", "GitHub"]),
    request: async (_p, value) =>
      post("/git/installations", "provider", {
        provider: value,
        target: { type: "site", siteId: await fixture.makeSite() },
      }),
  }),
  gitSync("priority", {
    source: OFFICIAL,
    rule: oneOf(["git", "gitbook"], ["both", "Git"]),
    request: async (_p, value) =>
      patch(`/git/installations/${await gitSyncOnNewSite()}`, "priority", {
        provider: "github",
        providerConfiguration: {},
        priority: value,
      }),
  }),

  // IntegrationInstallation (OFFICIAL UpdateIntegrationInstallation): the selections.
  installationField("spaceSelection", "space_selection", oneOf(["all", "selected"], ["some", "All"])),
  installationField("siteSelection", "site_selection", oneOf(["all", "selected"], ["some", "All"])),

  // SiteAgentSettings (OFFICIAL SiteAgentSettingsInput): the scans' topics and the findings' change requests.
  agentRule("scanTopics", "scans.topics", oneOf(["auto", "never"], ["always", "Auto"]), (topics) => ({
    scans: { topics },
  })),
  agentRule(
    "findingChangeRequests",
    "findings.changeRequests",
    oneOf(["always", "auto-fixable", "never"], ["auto", "Never"]),
    (changeRequests) => ({
      findings: { changeRequests },
    }),
  ),

  // SiteRedirect and SiteRedirects (OFFICIAL; the API reference has no redirects): source max 512 with the official
  // pattern, an external destination's URL (format uri, max 2048).
  redirect("source", {
    source: OFFICIAL,
    rule: atMost(512, padded("/")),
    request: async (p, value) =>
      post(`${await p.sitePath()}/redirects`, "source", { source: value, destination: EXTERNAL }),
  }),
  redirect("source", {
    source: OFFICIAL,
    rule: redirectSourcePattern,
    request: async (p, value) =>
      post(`${await p.sitePath()}/redirects`, "source", { source: value, destination: EXTERNAL }),
  }),
  redirect("destination.url", {
    source: OFFICIAL,
    rule: atMost(2048, padded("https://new.example/")),
    inputs: (value) => ({ ...underSite, source: "/old", destination: { kind: "external", url: value } }),
    request: async (p, value) =>
      post(`${await p.sitePath()}/redirects`, "destination.url", {
        source: "/old",
        destination: { kind: "external", url: value },
      }),
  }),
  redirects("redirects.0.source", {
    source: OFFICIAL,
    rule: redirectSourcePattern,
    inputs: (value) => ({ ...underSite, redirects: [{ source: value, destination: EXTERNAL }] }),
    request: async (p, value) =>
      put(`${await p.sitePath()}/redirects`, "redirects[0].source", {
        redirects: [{ source: value, destination: EXTERNAL }],
      }),
  }),

  // SiteAdaptiveSchema: a draft-07 JSON Schema of type object, additionalProperties false, with boolean claims
  // (the official document adds string, number, array and object claims).
  schemaRule("$schema", FIELD, oneOf([DRAFT_07], ["https://json-schema.org/draft/2020-12/schema"])),
  schemaRule("type", FIELD, oneOf(["object"], ["array", "Object"])),
  schemaRule("additionalProperties", FIELD, oneOf([false], [true])),
  schemaRule(
    "properties.beta.type",
    `${FIELD} (boolean claims; the official document adds string, number, array and object)`,
    oneOf(["boolean", "string", "number", "array", "object"], ["date", "integer"], ["boolean", "string", "number"]),
  ),
  schemaRule("properties.unsigned.description", OFFICIAL, oneOf([UNSIGNED], ["Unsigned claims"])),

  // SiteCustomization (official SiteCustomizationSettingsInput; the API reference has no customization).
  customizationRule("title", atLeast(2), (title) => ({ title })),
  customizationRule("title", atMost(128), (title) => ({ title })),
  customizationRule("styling.theme", oneOf(["clean", "muted", "bold", "gradient"], ["dark", "Clean"]), (theme) => ({
    styling: { theme },
  })),
  customizationRule("footer.copyright", atMost(512), (copyright) => ({ footer: { copyright } })),
  ...[atLeast(2), atMost(128)].map((rule) =>
    customizationRule("announcement.message", rule, (message) => ({
      announcement: { enabled: true, message, style: "info" },
    })),
  ),
  customizationRule("announcement.style", oneOf(["info", "warning", "danger", "success"], ["loud"]), (style) => ({
    announcement: { enabled: true, message: "Hello", style },
  })),

  // SiteSpaceCustomization (the official override PATCH, whose fields are SiteCustomizationSettings' own).
  spaceCustomizationRule("title", atLeast(2), (title) => ({ title })),
  spaceCustomizationRule("title", atMost(128), (title) => ({ title })),
  spaceCustomizationRule(
    "styling.theme",
    oneOf(["clean", "muted", "bold", "gradient"], ["dark", "Clean"]),
    (theme) => ({ styling: { theme } }),
  ),
  spaceCustomizationRule("footer.copyright", atMost(512), (copyright) => ({ footer: { copyright } })),
  ...[atLeast(2), atMost(128)].map((rule) =>
    spaceCustomizationRule("announcement.message", rule, (message) => ({
      announcement: { enabled: true, message, style: "info" },
    })),
  ),
  spaceCustomizationRule("announcement.style", oneOf(["info", "warning", "danger", "success"], ["loud"]), (style) => ({
    announcement: { enabled: true, message: "Hello", style },
  })),

  // SiteVisitorAuth (official SitePublishingAuthUpdate).
  visitorAuth("backend", {
    source: OFFICIAL,
    rule: oneOf(["custom", "integration"], ["saml", "Custom"]),
    request: async (p, value) => patch(`${await p.sitePath()}/publishing/auth`, "backend", { backend: value }),
  }),
  visitorAuth("fallbackURL", {
    source: OFFICIAL,
    rule: uri({ rejected: ["not a url", "/login"], accepted: ["https://auth.example.com/login"] }),
    request: async (p, value) =>
      patch(`${await p.sitePath()}/publishing/auth`, "fallbackURL", { backend: "custom", fallbackURL: value }),
  }),
];

/** The value at a dotted path (array indexes included). */
function at(value: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], value);
}

/** Runs `check` and asserts that it sent nothing. */
async function checkOffline(entry: Entry, value: unknown) {
  fixture.emulator.clearRequests();
  const result = await lifecycle(entry.kind).check({}, entry.inputs(value));
  expect(fixture.emulator.requests()).toEqual([]);
  // Check returns keyed properties (SiteRedirects' rules) as the engine stores them: read them back as declared.
  const keyed = new KeyedProperties(lifecycle(entry.kind).definition.keyedProperties);
  return result.inputs ? { ...result, inputs: keyed.plain(result.inputs) } : result;
}

/** Asserts a rejection by `check`: every failure is the property's, and one states the rule. */
function expectCheckFailure(entry: Entry, result: Awaited<ReturnType<typeof checkOffline>>) {
  expect(result.inputs).toBeUndefined();
  const failures = result.failures ?? [];
  expect(failures.length).toBeGreaterThan(0);
  const prefix = `${entry.kind}.${entry.property}: `;
  for (const failure of failures) {
    // A sensitive or huge value is reported without naming the property, so the engine does not print the value;
    // the reason still names it.
    const hidden = failure.reason.includes("(value not shown: ");
    expect(failure.property).toBe(hidden ? "" : entry.property);
    expect(failure.reason.slice(0, prefix.length)).toBe(prefix);
  }
  const stated = failures.map((failure) =>
    failure.reason.slice(prefix.length).replace(/ \(value not shown: [^)]+\)$/, ""),
  );
  const states = (said: string) => {
    try {
      entry.rule.provider(said);
      return true;
    } catch {
      return false;
    }
  };
  // Several failures (e.g. an empty slug is too short and off the pattern): one of them must state this rule.
  if (!stated.some(states)) entry.rule.provider(stated[0]!);
}

async function sendDirectly(entry: Entry, value: unknown) {
  const request = await entry.request(parents, value);
  return { request, answer: await fixture.api(request.method, request.path, request.body) };
}

function expectAccepted(answer: { status: number; body: unknown }) {
  expect(answer.status, JSON.stringify(answer.body)).toBeGreaterThanOrEqual(200);
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
}

describe("provider check and API parity: limits, patterns and enumerations", () => {
  for (const entry of table) {
    describe(`${entry.kind}.${entry.property}: ${entry.rule.text} (${entry.source})`, () => {
      for (const value of entry.rule.rejected) {
        it(`check rejects ${show(value)} before any request`, async () => {
          expectCheckFailure(entry, await checkOffline(entry, value));
        });

        it(`the API answers ${show(value)} with 400 and the official error body naming the field`, async () => {
          // Sent with fetch, not the provider's client: the contract counts these only if the emulator accepts them.
          deliberatelyInvalidRequests();
          const { request, answer } = await sendDirectly(entry, value);
          expect(answer.status).toBe(400);
          expect(answer.body).toEqual({ error: { code: 400, message: expect.any(String) } });
          const message = (answer.body as { error: { message: string } }).error.message;
          const prefix = `${request.field}: `;
          expect(message.slice(0, prefix.length)).toBe(prefix);
          entry.rule.api(message.slice(prefix.length));
        });
      }

      for (const value of entry.rule.accepted) {
        it(`accepts ${show(value)} (${entry.rule.acceptedAs}) in check and in the API`, async () => {
          const result = await checkOffline(entry, value);
          expect(result.failures ?? []).toEqual([]);
          expect(at(result.inputs, entry.property)).toEqual(value);
          expectAccepted((await sendDirectly(entry, value)).answer);
        });
      }

      for (const mismatch of entry.mismatches ?? []) {
        it(`MISMATCH (pinned): check rejects ${show(mismatch.value)}, the API accepts it`, async () => {
          expectCheckFailure(entry, await checkOffline(entry, mismatch.value));
          const { answer } = await sendDirectly(entry, mismatch.value);
          expect(answer.status, `${mismatch.why} ${JSON.stringify(answer.body)}`).toBeGreaterThanOrEqual(200);
          expect(answer.status, `${mismatch.why} ${JSON.stringify(answer.body)}`).toBeLessThan(300);
        });
      }
    });
  }
});
