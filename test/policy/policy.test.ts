import {
  type PolicyResource,
  type ResourceValidation,
  type ResourceValidationArgs,
  type ResourceValidationPolicy,
  type StackValidationArgs,
  type StackValidationPolicy,
  unknownCheckingProxy,
} from "@pulumi/policy";
import { describe, expect, it } from "vitest";
import { renderPolicyReference } from "../../codegen/policyDocs";
import { dynamicType, kindOfType, pluginType } from "../../provider/framework/typeTokens";
import { UNKNOWN } from "../../provider/framework/unknown";
import { docsPolicies } from "../../provider/policy";
import { exampleFindings, kindsOf, RULES, UNJUDGED } from "../../provider/policy/rules";
import { configProblems, type Settings } from "../../provider/policy/settings";
import { messageOf } from "../../provider/policy/view";
import { definitions } from "../../provider/registry";

/** A made-up resource as a program declares it; `refs` names the resources properties' values come from. */
interface Made {
  kind: string;
  name: string;
  props: Record<string, unknown>;
  protect?: boolean;
  refs?: Record<string, string>;
}

type Route = "dynamic" | "plugin";
const tokenOf = (kind: string, route: Route) => (route === "dynamic" ? dynamicType(kind) : pluginType(kind));
const urnOf = (type: string, name: string) => `urn:pulumi:dev::docs::${type}::${name}`;

function options(protect: boolean) {
  return {
    protect,
    ignoreChanges: [],
    aliases: [],
    customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 },
    additionalSecretOutputs: [],
  };
}

/** What the policy SDK hands a policy: the properties behind its proxy, whose reads of an unknown value throw. */
function resourceArgs(made: Made, route: Route, config: object): ResourceValidationArgs {
  const type = tokenOf(made.kind, route);
  return {
    type,
    name: made.name,
    urn: urnOf(type, made.name),
    props: unknownCheckingProxy(made.props),
    opts: options(made.protect === true),
    stackTags: new Map(),
    isType: () => false,
    asType: () => undefined,
    getConfig: <T>() => config as T,
    notApplicable: () => {
      throw new Error("not expected");
    },
  } as ResourceValidationArgs;
}

function stackArgs(made: Made[], route: Route, config: object): StackValidationArgs {
  const resources: PolicyResource[] = made.map((m) => {
    const type = tokenOf(m.kind, route);
    return {
      type,
      name: m.name,
      urn: urnOf(type, m.name),
      props: unknownCheckingProxy(m.props),
      opts: options(m.protect === true),
      dependencies: [],
      propertyDependencies: {},
      isType: () => false,
      asType: () => undefined,
    };
  });
  resources.forEach((resource, i) => {
    for (const [field, target] of Object.entries(made[i]!.refs ?? {})) {
      const found = resources.find((candidate) => candidate.name === target);
      if (!found) throw new Error(`no resource named ${target}`);
      resource.propertyDependencies[field] = [found];
      resource.dependencies.push(found);
    }
  });
  return {
    resources,
    stackTags: new Map(),
    getConfig: <T>() => config as T,
    notApplicable: () => {
      throw new Error("not expected");
    },
  };
}

const policies = () => docsPolicies();
function policyNamed(id: string) {
  const found = policies().find((policy) => policy.name === id);
  if (!found) throw new Error(`no policy ${id}`);
  return found;
}

/** The violations a rule reports on a program, as messages with the URN each names (stack rules). */
async function judge(id: string, made: Made[], config: object = {}, route: Route = "dynamic") {
  const policy = policyNamed(id);
  const found: { message: string; urn?: string }[] = [];
  const report = (message: string, urn?: string) => found.push({ message, urn });
  if ("validateStack" in policy) {
    await (policy as StackValidationPolicy).validateStack(stackArgs(made, route, config), report);
  } else {
    const validate = (policy as ResourceValidationPolicy).validateResource as ResourceValidation;
    for (const m of made) await validate(resourceArgs(m, route, config), report);
  }
  return found;
}
const messages = async (id: string, made: Made[], config: object = {}, route: Route = "dynamic") =>
  (await judge(id, made, config, route)).map((v) => v.message);

describe("the rules' table", () => {
  it("has unique ids, a description and a default level each, and one policy per rule", () => {
    const ids = RULES.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(policies().map((policy) => policy.name)).toEqual(ids);
    for (const rule of RULES) {
      expect(rule.id).toMatch(/^docs-[a-z-]+$/);
      expect(rule.description.length, rule.id).toBeGreaterThan(40);
      expect(["advisory", "mandatory", "disabled"]).toContain(rule.enforcementLevel);
    }
    expect(new Set(RULES.map((rule) => rule.enforcementLevel))).toEqual(new Set(["advisory", "mandatory", "disabled"]));
  });

  it("names only registered kinds and their fields: inputs for resource rules, inputs and outputs for stack rules", () => {
    const byKind = new Map(definitions.map((d) => [d.kind, d]));
    const shape = (schema: unknown) => Object.keys((schema as { shape?: object }).shape ?? {});
    for (const rule of RULES) {
      for (const read of rule.reads) {
        const definition = byKind.get(read.kind);
        expect(definition, `${rule.id}: ${read.kind}`).toBeDefined();
        const inputs = [...shape(definition!.inputs), "importId"];
        for (const field of read.fields) {
          expect(inputs, `${rule.id}: ${read.kind}.${field} is an input`).toContain(field);
          // A stack rule reads outputs: the state must carry the field under the same name.
          if (rule.scope === "stack")
            expect(shape(definition!.state), `${rule.id}: ${read.kind}.${field} is an output`).toContain(field);
        }
      }
    }
  });

  it("judges every registered kind, or says why not: a new kind without a rule or a reason fails here", () => {
    const judged = new Set(RULES.flatMap(kindsOf));
    for (const { kind } of definitions) {
      expect(
        judged.has(kind) !== kind in UNJUDGED,
        `${kind}: judged by a rule, or in UNJUDGED with why, not both`,
      ).toBe(true);
    }
    const registered = new Set(definitions.map((d) => d.kind));
    for (const kind of Object.keys(UNJUDGED))
      expect(registered.has(kind), `${kind} in UNJUDGED is registered`).toBe(true);
  });

  it("docs/policy.md has a row per registered kind, naming its rules or why none", () => {
    const reference = renderPolicyReference(definitions.map((d) => d.kind));
    for (const { kind } of definitions) {
      const row = reference.split("\n").find((line) => line.startsWith(`| \`${kind}\` |`));
      expect(row, kind).toBeDefined();
      const rules = RULES.filter((rule) => kindsOf(rule).includes(kind));
      for (const rule of rules) expect(row).toContain(`[\`${rule.id}\`](#${rule.id})`);
      if (rules.length === 0) expect(row).toContain(`none: ${UNJUDGED[kind]}`);
    }
    expect(renderPolicyReference(["Widget"])).toContain("| `Widget` | none: no rule yet |");
  });

  it("gives each rule an example that breaks it, with a message naming the resource, the field and the fix", () => {
    for (const rule of RULES) {
      const findings = exampleFindings(rule);
      expect(findings.length, rule.id).toBeGreaterThan(0);
      for (const finding of findings) {
        const message = messageOf(finding);
        expect(message).toMatch(new RegExp(`^${finding.resource.kind} "${finding.resource.name}", \\S`));
        expect(message, rule.id).toContain(`, ${finding.field}: `);
        expect(message, rule.id).toMatch(/\. Fix: .+\.$/);
      }
    }
  });
});

describe("every rule through its policy, on both routes' type tokens", () => {
  for (const rule of RULES) {
    for (const route of ["dynamic", "plugin"] as const) {
      it(`${rule.id} reports its example's message for ${tokenOf(kindsOf(rule)[0]!, route)}`, async () => {
        const made = rule.example.map((resource) => ({
          kind: resource.kind,
          name: resource.name,
          props: { ...resource.props },
          protect: resource.protect,
          refs: Object.fromEntries(
            Object.entries(resource.dependsOn).map(([field, urns]) => [field, urns[0]!.split("::").pop()!]),
          ),
        }));
        const found = await judge(rule.id, made, {}, route);
        expect(found.map((v) => v.message)).toEqual(exampleFindings(rule).map(messageOf));
        if (rule.scope === "stack") {
          for (const violation of found) expect(kindOfType(violation.urn!.split("::")[2]!)).toBeDefined();
        }
      });
    }
  }

  it("pass a stack with no docs resources quietly, and judge no other provider's resources", async () => {
    const bucket = { kind: "Bucket", name: "assets", props: { acl: "public-read", visibility: "public" } };
    for (const policy of policies()) {
      const found: string[] = [];
      const other = { ...stackArgs([], "dynamic", {}) };
      other.resources = [
        {
          ...stackArgs([bucket], "dynamic", {}).resources[0]!,
          type: "aws:s3/bucket:Bucket",
          urn: "urn:pulumi:dev::docs::aws:s3/bucket:Bucket::assets",
        },
      ];
      if ("validateStack" in policy) await (policy as StackValidationPolicy).validateStack(other, (m) => found.push(m));
      else {
        const args = { ...resourceArgs(bucket, "dynamic", {}), type: "aws:s3/bucket:Bucket" };
        await ((policy as ResourceValidationPolicy).validateResource as ResourceValidation)(args, (m) => found.push(m));
      }
      expect(found, policy.name).toEqual([]);
    }
  });
});

describe("resource rules", () => {
  const site = (props: Record<string, unknown>, name = "docs"): Made => ({ kind: "Site", name, props });

  it("docs-public-site-allowed: a published public site passes when its title, name or importId is allowed", async () => {
    const open = { title: "Acme Docs", visibility: "public", published: true };
    expect(await messages("docs-public-site-allowed", [site(open)])).toEqual([
      expect.stringMatching(/^Site "docs", visibility: the site "Acme Docs" is published with visibility "public"/),
    ]);
    for (const allowed of ["Acme Docs", "docs", "site-123"]) {
      const config = { allowedSites: [allowed] };
      expect(await messages("docs-public-site-allowed", [site({ ...open, importId: "site-123" })], config)).toEqual([]);
    }
    for (const props of [
      { ...open, published: false },
      { ...open, published: UNKNOWN },
      { ...open, visibility: "share-link" },
      { ...open, visibility: UNKNOWN },
    ]) {
      expect(await messages("docs-public-site-allowed", [site(props)]), JSON.stringify(props)).toEqual([]);
    }
  });

  it("docs-share-link-named: blank or short names fail; unknown ones wait for the up", async () => {
    const link = (name: unknown): Made => ({ kind: "SiteShareLink", name: "link", props: { name, siteId: UNKNOWN } });
    expect(await messages("docs-share-link-named", [link("   ")])).toEqual([
      expect.stringContaining('SiteShareLink "link", name: "   " is shorter than 1 character(s) (minLength)'),
    ]);
    expect(await messages("docs-share-link-named", [link("Reviewers")])).toEqual([]);
    expect(await messages("docs-share-link-named", [link(UNKNOWN)])).toEqual([]);
    expect(await messages("docs-share-link-named", [link("QA")], { minLength: 3 })).toHaveLength(1);
  });

  it("docs-default-role: a SAML provider's or the organization's default role above maxRole fails", async () => {
    const saml = (defaultRole: unknown): Made => ({ kind: "SamlProvider", name: "okta", props: { defaultRole } });
    expect(await messages("docs-default-role", [saml("admin")])).toEqual([
      expect.stringContaining('SamlProvider "okta", defaultRole: "admin" is above "create"'),
    ]);
    for (const role of ["create", "read", null, undefined, UNKNOWN]) {
      expect(await messages("docs-default-role", [saml(role)]), String(role)).toEqual([]);
    }
    const settings: Made = { kind: "OrganizationSettings", name: "settings", props: { defaultRole: "edit" } };
    expect(await messages("docs-default-role", [settings], { maxRole: "read" })).toEqual([
      expect.stringContaining('OrganizationSettings "settings", defaultRole: "edit" is above "read"'),
    ]);
  });

  it("docs-default-level: a space's or collection's defaultLevel above maxLevel fails; inherit passes", async () => {
    const space = (defaultLevel: unknown): Made => ({ kind: "Space", name: "guides", props: { defaultLevel } });
    expect(await messages("docs-default-level", [space("create")])).toHaveLength(1);
    expect(await messages("docs-default-level", [space("edit"), space("inherit"), space(null)])).toEqual([]);
    const collection: Made = { kind: "Collection", name: "handbook", props: { defaultLevel: "edit" } };
    expect(await messages("docs-default-level", [collection], { maxLevel: "read" })).toEqual([
      expect.stringContaining('Collection "handbook", defaultLevel: "edit" is above "read"'),
    ]);
  });

  it("docs-https-urls: every URL field it lists fails over http, unless its host is allowed", async () => {
    const cases: Made[] = [
      { kind: "OpenApiSpec", name: "spec", props: { sourceUrl: "http://specs.example/a.yaml" } },
      { kind: "SamlProvider", name: "okta", props: { ssoUrl: "HTTP://idp.example/sso" } },
      { kind: "SiteVisitorAuth", name: "auth", props: { fallbackURL: "http://a.example/in", logoutURL: null } },
      { kind: "SiteVisitorAuth", name: "auth2", props: { logoutURL: "http://a.example/out" } },
      { kind: "OrganizationSettings", name: "settings", props: { logo: "http://cdn.example/logo.png" } },
      { kind: "Space", name: "guides", props: { icon: "http://cdn.example/icon.png" } },
    ];
    const found = await messages("docs-https-urls", cases);
    expect(found).toEqual([
      expect.stringContaining(
        'OpenApiSpec "spec", sourceUrl: "http://specs.example/a.yaml" is http. Fix: use https://',
      ),
      expect.stringContaining('SamlProvider "okta", ssoUrl: '),
      expect.stringContaining('SiteVisitorAuth "auth", fallbackURL: '),
      expect.stringContaining('SiteVisitorAuth "auth2", logoutURL: '),
      expect.stringContaining('OrganizationSettings "settings", logo: '),
      expect.stringContaining('Space "guides", icon: '),
    ]);
    const allowed = { allowedHttpHosts: ["specs.example", "idp.example", "a.example", "cdn.example"] };
    expect(await messages("docs-https-urls", cases, allowed)).toEqual([]);
    const fine: Made = { kind: "OpenApiSpec", name: "spec", props: { sourceUrl: "https://specs.example/a.yaml" } };
    const unknown: Made = { kind: "OpenApiSpec", name: "spec", props: { sourceUrl: UNKNOWN } };
    expect(await messages("docs-https-urls", [fine, unknown])).toEqual([]);
  });

  it("docs-channel-allow-list: a channel whose type's allow-list is left out or empty is flagged, naming the field", async () => {
    const open: Made[] = [
      { kind: "SiteChannel", name: "slack", props: { type: "builtin:slack" } },
      { kind: "SiteChannel", name: "github", props: { type: "builtin:github", allowedRepositories: [] } },
      // Another type's list does not count: a Linear channel's is allowedTeams.
      { kind: "SiteChannel", name: "linear", props: { type: "builtin:linear", allowedChannels: ["help"] } },
    ];
    expect(await messages("docs-channel-allow-list", open)).toEqual([
      expect.stringContaining(
        'SiteChannel "slack", allowedChannels: the builtin:slack channel\'s agent may answer anywhere in the workspace: allowedChannels is not declared. Fix: list where it may answer, e.g. allowedChannels: ["help", "support-*"]',
      ),
      expect.stringContaining('SiteChannel "github", allowedRepositories: '),
      expect.stringContaining('SiteChannel "linear", allowedTeams: '),
    ]);
    const closed: Made[] = [
      { kind: "SiteChannel", name: "discord", props: { type: "builtin:discord", allowedChannels: ["docs"] } },
      { kind: "SiteChannel", name: "later", props: { type: "builtin:github", allowedRepositories: UNKNOWN } },
      { kind: "SiteChannel", name: "unknown", props: { type: UNKNOWN } },
    ];
    expect(await messages("docs-channel-allow-list", closed)).toEqual([]);
  });

  it("docs-context-sources: a connector outside allowedConnectors is flagged; by default only the open mailbox", async () => {
    const made = (name: string, connector: unknown): Made => ({
      kind: "SiteContextConnection",
      name,
      props: { connector },
    });
    const all = [
      made("inbox", "builtin:email"),
      made("issues", "builtin:github-issues"),
      made("tickets", "integration:ticket-sync"),
      made("later", UNKNOWN),
    ];
    expect(await messages("docs-context-sources", all)).toEqual([
      expect.stringContaining(
        'SiteContextConnection "inbox", connector: the docs agent would read builtin:email, which allowedConnectors ' +
          "does not list. Fix: read a source only the team writes to",
      ),
    ]);
    const narrowed = { allowedConnectors: ["builtin:github-issues"] };
    expect(await messages("docs-context-sources", all, narrowed)).toEqual([
      expect.stringContaining('SiteContextConnection "inbox", connector: '),
      expect.stringContaining(
        'SiteContextConnection "tickets", connector: the docs agent would read integration:ticket-sync, which ' +
          "allowedConnectors does not list. Fix: add integration:ticket-sync to allowedConnectors",
      ),
    ]);
    expect(await messages("docs-context-sources", all, { allowedConnectors: ["builtin:*", "integration:*"] })).toEqual(
      [],
    );
  });

  it("docs-https-urls: an MCP server's and an external link's url and a GitLab instance over http fail", async () => {
    const cases: Made[] = [
      { kind: "SiteMcpServer", name: "tickets", props: { url: "http://mcp.example/tickets", headers: UNKNOWN } },
      { kind: "SiteExternalLink", name: "status", props: { url: "http://status.example" } },
      { kind: "GitSyncInstallation", name: "git", props: { customInstanceURL: "http://gitlab.example" } },
    ];
    expect(await messages("docs-https-urls", cases)).toEqual([
      expect.stringContaining('SiteMcpServer "tickets", url: "http://mcp.example/tickets" is http. Fix: use https://'),
      expect.stringContaining('SiteExternalLink "status", url: "http://status.example" is http'),
      expect.stringContaining('GitSyncInstallation "git", customInstanceURL: "http://gitlab.example" is http'),
    ]);
    const secure: Made[] = [
      { kind: "SiteMcpServer", name: "tickets", props: { url: "https://mcp.example/tickets" } },
      { kind: "SiteExternalLink", name: "status", props: { url: UNKNOWN } },
      { kind: "GitSyncInstallation", name: "git", props: { customInstanceURL: null } },
    ];
    expect(await messages("docs-https-urls", secure)).toEqual([]);
    expect(
      await messages("docs-https-urls", cases, {
        allowedHttpHosts: ["mcp.example", "status.example", "gitlab.example"],
      }),
    ).toEqual([]);
  });

  it("docs-credentials-in-secrets: a credential-looking configuration key fails, named without its value", async () => {
    const VALUE = "v4lue-never-shown";
    const install = (kind: string, configuration: unknown, secrets?: unknown): Made => ({
      kind,
      name: "tickets",
      props: { configuration, secrets },
    });
    for (const kind of ["IntegrationInstallation", "IntegrationSiteInstallation", "IntegrationSpaceInstallation"]) {
      const found = await messages("docs-credentials-in-secrets", [
        install(kind, { workspace: "acme", api_key: VALUE }),
      ]);
      expect(found).toEqual([
        `${kind} "tickets", configuration.api_key: the key looks like a credential (it matches "api_key" of credentialPatterns), and configuration is stored and shown in plain text. Fix: move api_key from configuration to secrets (secrets: { api_key: <the value> }, a Pulumi secret however it is given), or, if it holds no credential, leave "api_key" out of credentialPatterns of docs-credentials-in-secrets.`,
      ]);
      expect(found.join("")).not.toContain(VALUE);
    }
    const keys = [
      "apiKey",
      "API-Key",
      "githubToken",
      "client_secret",
      "clientSecret",
      "PASSWORD",
      "private-key",
      "signingSecret",
    ];
    const flagged = await messages("docs-credentials-in-secrets", [
      install("IntegrationInstallation", Object.fromEntries(keys.map((key) => [key, VALUE]))),
    ]);
    expect(flagged.map((message) => /configuration\.(\S+):/.exec(message)?.[1])).toEqual(keys);
    // Keys that name no credential, a credential in secrets, numbers and booleans, and unknowns pass.
    const passing = [
      install("IntegrationSiteInstallation", { tracking_id: "G-1", project: "DOCS", tokenCount: 3, secretMode: true }),
      install("IntegrationInstallation", { workspace: "acme" }, { apiKey: VALUE, token: VALUE }),
      install("IntegrationInstallation", UNKNOWN),
      install("IntegrationInstallation", undefined),
    ];
    expect(await messages("docs-credentials-in-secrets", passing)).toEqual([]);
    // The patterns are a setting.
    const custom = { credentialPatterns: ["tracking"] };
    expect(
      await messages(
        "docs-credentials-in-secrets",
        [install("IntegrationInstallation", { tracking_id: "x", api_key: "y" })],
        custom,
      ),
    ).toEqual([
      expect.stringContaining('configuration.tracking_id: the key looks like a credential (it matches "tracking"'),
    ]);
  });

  it("docs-credentials-in-secrets and docs-git-sync-priority refuse a non-string in their lists, naming rule and setting", () => {
    const settings = new Map(RULES.map((rule) => [rule.id, rule.settings as Settings]));
    expect(
      configProblems(
        {
          "docs-credentials-in-secrets": { credentialPatterns: ["token", 7] },
          "docs-git-sync-priority": { allowed: "Guides" },
        },
        settings,
      ),
    ).toEqual([
      'docs-credentials-in-secrets: credentialPatterns must be a list of strings, not ["token",7] (a list)',
      'docs-git-sync-priority: allowed must be a list of strings, not "Guides" (a string)',
    ]);
  });

  it("docs-content-protected: unprotected spaces and collections warn, unless protected or exempt", async () => {
    const space: Made = { kind: "Space", name: "guides", props: { title: "Guides" } };
    expect(await messages("docs-content-protected", [space])).toEqual([
      expect.stringContaining('Space "guides", protect (resource option): is not set'),
    ]);
    expect(await messages("docs-content-protected", [{ ...space, protect: true }])).toEqual([]);
    expect(await messages("docs-content-protected", [space], { exempt: ["Guides"] })).toEqual([]);
    expect(await messages("docs-content-protected", [space], { exempt: ["guides"] })).toEqual([]);
  });

  it("docs-admin-to-teams: admin granted to a user fails, to a team passes, an allowed user passes", async () => {
    const grant = (kind: string, props: Record<string, unknown>): Made => ({ kind, name: "grant", props });
    for (const kind of ["SpacePermission", "CollectionPermission", "SitePermission"]) {
      expect(await messages("docs-admin-to-teams", [grant(kind, { role: "admin", userId: "usr-1" })])).toEqual([
        expect.stringContaining(
          `${kind} "grant", userId: grants role "admin" to the user "usr-1" rather than to a team`,
        ),
      ]);
    }
    expect(
      await messages("docs-admin-to-teams", [grant("SpacePermission", { role: "admin", userId: UNKNOWN })]),
    ).toEqual([expect.stringContaining('grants role "admin" to a user rather than to a team')]);
    const passing = [
      grant("SpacePermission", { role: "admin", teamId: UNKNOWN }),
      grant("SpacePermission", { role: "edit", userId: "usr-1" }),
      grant("SpacePermission", { role: UNKNOWN, userId: "usr-1" }),
    ];
    expect(await messages("docs-admin-to-teams", passing)).toEqual([]);
    const allowed = { allowedUsers: ["usr-1"] };
    expect(
      await messages("docs-admin-to-teams", [grant("SitePermission", { role: "admin", userId: "usr-1" })], allowed),
    ).toEqual([]);
  });

  it("docs-openapi-public-allowed: is disabled by default; when on, a public spec must be allowed", () => {
    expect(policyNamed("docs-openapi-public-allowed").enforcementLevel).toBe("disabled");
  });

  it("docs-openapi-public-allowed: a public spec not in allowedSpecs fails; allowed or private ones pass", async () => {
    const spec = (props: Record<string, unknown>): Made => ({ kind: "OpenApiSpec", name: "internal", props });
    expect(await messages("docs-openapi-public-allowed", [spec({ slug: "internal", visibility: "public" })])).toEqual([
      expect.stringContaining('OpenApiSpec "internal", visibility: the spec "internal" is public'),
    ]);
    const allowed = { allowedSpecs: ["internal"] };
    expect(
      await messages("docs-openapi-public-allowed", [spec({ slug: "internal", visibility: "public" })], allowed),
    ).toEqual([]);
    expect(await messages("docs-openapi-public-allowed", [spec({ slug: "internal", visibility: "private" })])).toEqual(
      [],
    );
  });
});

describe("stack rules, matching resources through their properties' dependencies", () => {
  it("docs-visitor-auth-configured: a visitor-auth site needs a SiteVisitorAuth whose siteId came from it", async () => {
    const partners: Made = { kind: "Site", name: "partners", props: { visibility: "visitor-auth" } };
    const other: Made = { kind: "Site", name: "other", props: { visibility: "share-link" } };
    const auth = (site: string): Made => ({
      kind: "SiteVisitorAuth",
      name: "sign-in",
      props: { siteId: UNKNOWN },
      refs: { siteId: site },
    });
    expect(await messages("docs-visitor-auth-configured", [partners, other, auth("partners")])).toEqual([]);
    const found = await judge("docs-visitor-auth-configured", [partners, other, auth("other")]);
    expect(found).toEqual([
      {
        message: expect.stringContaining('Site "partners", visibility: is "visitor-auth"'),
        urn: expect.stringMatching(/::partners$/),
      },
    ]);
    const unknown: Made = { kind: "Site", name: "partners", props: { visibility: UNKNOWN } };
    expect(await messages("docs-visitor-auth-configured", [unknown])).toEqual([]);
  });

  it("docs-sso-enforced: a SAML provider needs its organization's settings with sso: true", async () => {
    const saml: Made = { kind: "SamlProvider", name: "okta", props: { organizationId: "acme" } };
    const settings = (sso: unknown, organizationId = "acme"): Made => ({
      kind: "OrganizationSettings",
      name: "settings",
      props: { organizationId, sso },
    });
    expect(await messages("docs-sso-enforced", [saml])).toEqual([
      expect.stringContaining(
        'SamlProvider "okta", organizationId: the organization this SAML provider signs in to has no OrganizationSettings',
      ),
    ]);
    expect(await messages("docs-sso-enforced", [saml, settings(true)])).toEqual([]);
    expect(await messages("docs-sso-enforced", [saml, settings(UNKNOWN)])).toEqual([]);
    expect(await messages("docs-sso-enforced", [saml, settings(undefined)])).toEqual([
      expect.stringContaining('OrganizationSettings "settings", sso: is not set while SamlProvider "okta"'),
    ]);
    // Another organization's settings do not enforce SSO for this one.
    expect(await messages("docs-sso-enforced", [saml, settings(true, "other")])).toHaveLength(1);
    expect(await messages("docs-sso-enforced", [settings(false)])).toEqual([]);
  });

  it("docs-team-members: a team needs members, a TeamMember or a SAML provider filling it", async () => {
    const team = (members?: unknown): Made => ({
      kind: "Team",
      name: "reviewers",
      props: { title: "Reviewers", members },
    });
    expect(await messages("docs-team-members", [team(), { ...team([]), name: "empty" }])).toEqual([
      expect.stringContaining('Team "empty", members: declares no member'),
      expect.stringContaining('Team "reviewers", members: declares no member'),
    ]);
    expect(await messages("docs-team-members", [team([{ user: "usr-1", role: "member" }])])).toEqual([]);
    expect(await messages("docs-team-members", [team(UNKNOWN)])).toEqual([]);
    const member: Made = { kind: "TeamMember", name: "m", props: { teamId: UNKNOWN }, refs: { teamId: "reviewers" } };
    expect(await messages("docs-team-members", [team(), member])).toEqual([]);
    const saml: Made = {
      kind: "SamlProvider",
      name: "okta",
      props: { defaultTeamId: UNKNOWN },
      refs: { defaultTeamId: "reviewers" },
    };
    expect(await messages("docs-team-members", [team(), saml])).toEqual([]);
    expect(await messages("docs-team-members", [team()], { exempt: ["Reviewers"] })).toEqual([]);
  });

  it("docs-share-links-per-site: counts the active links of each site, by dependency or by a literal site id", async () => {
    const docs: Made = { kind: "Site", name: "docs", props: { visibility: "share-link" } };
    const blog: Made = { kind: "Site", name: "blog", props: { visibility: "share-link" } };
    const link = (name: string, site: string, active: unknown = true): Made => ({
      kind: "SiteShareLink",
      name,
      props: { name, siteId: UNKNOWN, active },
      refs: { siteId: site },
    });
    const three = [link("a", "docs"), link("b", "docs"), link("c", "docs")];
    expect(await messages("docs-share-links-per-site", [docs, blog, ...three, link("d", "blog")])).toEqual([]);
    expect(await messages("docs-share-links-per-site", [docs, ...three, link("d", "docs", false)])).toEqual([]);
    // The engine hands the stack's resources over in no particular order: the message reads the same whatever it is.
    const found = await judge("docs-share-links-per-site", [link("d", "docs", UNKNOWN), ...three.reverse(), docs]);
    expect(found).toEqual([
      {
        message: expect.stringContaining(
          'SiteShareLink "d", siteId: site "docs" would have 4 active share links ("a", "b", "c", "d"), more than maxPerSite (3)',
        ),
        urn: expect.stringMatching(/::d$/),
      },
    ]);
    expect(await messages("docs-share-links-per-site", [docs, link("a", "docs")], { maxPerSite: 0 })).toHaveLength(1);
    const literal = (name: string, siteId: unknown): Made => ({ kind: "SiteShareLink", name, props: { name, siteId } });
    expect(
      await messages("docs-share-links-per-site", [literal("a", "site-9"), literal("b", "site-9")], { maxPerSite: 1 }),
    ).toEqual([expect.stringContaining('site "site-9" (not in this stack) would have 2 active share links')]);
    expect(
      await messages("docs-share-links-per-site", [literal("a", UNKNOWN), literal("b", UNKNOWN)], { maxPerSite: 1 }),
    ).toEqual([]);
  });

  it("docs-git-sync-priority: priority git warns unless its space or site is allowed", async () => {
    const handbook: Made = { kind: "Space", name: "handbook", props: { title: "Handbook" } };
    const site: Made = { kind: "Site", name: "docs", props: { title: "Acme Docs" } };
    const git = (priority: unknown, target: "spaceId" | "siteId" = "spaceId"): Made => ({
      kind: "GitSyncInstallation",
      name: "handbook-git",
      props: { priority, [target]: UNKNOWN },
      refs: { [target]: target === "spaceId" ? "handbook" : "docs" },
    });
    expect(await judge("docs-git-sync-priority", [handbook, git("git")])).toEqual([
      {
        message: expect.stringContaining(
          'GitSyncInstallation "handbook-git", priority: is "git" on space "handbook", which allowed does not name, so every sync overwrites what editors changed in GitBook. Fix: set priority: "gitbook"',
        ),
        urn: expect.stringMatching(/::handbook-git$/),
      },
    ]);
    expect(await messages("docs-git-sync-priority", [site, git("git", "siteId")])).toEqual([
      expect.stringContaining('is "git" on site "docs"'),
    ]);
    for (const allowed of ["Handbook", "handbook", "handbook-git"]) {
      expect(await messages("docs-git-sync-priority", [handbook, git("git")], { allowed: [allowed] }), allowed).toEqual(
        [],
      );
    }
    for (const priority of ["gitbook", undefined, UNKNOWN]) {
      expect(await messages("docs-git-sync-priority", [handbook, git(priority)]), String(priority)).toEqual([]);
    }
    const literal: Made = { kind: "GitSyncInstallation", name: "g", props: { priority: "git", spaceId: "spc-9" } };
    expect(await messages("docs-git-sync-priority", [literal])).toEqual([
      expect.stringContaining('is "git" on space "spc-9" (not in this stack)'),
    ]);
    expect(await messages("docs-git-sync-priority", [literal], { allowed: ["spc-9"] })).toEqual([]);
  });

  it("docs-no-share-links-on-public-sites: an active link of a public site fails", async () => {
    const site = (visibility: unknown): Made => ({ kind: "Site", name: "docs", props: { visibility } });
    const link = (active: unknown = true): Made => ({
      kind: "SiteShareLink",
      name: "review",
      props: { siteId: UNKNOWN, active },
      refs: { siteId: "docs" },
    });
    expect(await messages("docs-no-share-links-on-public-sites", [site("public"), link()])).toEqual([
      expect.stringContaining('SiteShareLink "review", siteId: site "docs" is public'),
    ]);
    expect(await messages("docs-no-share-links-on-public-sites", [site("public"), link(false)])).toEqual([]);
    expect(await messages("docs-no-share-links-on-public-sites", [site("share-link"), link()])).toEqual([]);
    expect(await messages("docs-no-share-links-on-public-sites", [site(UNKNOWN), link()])).toEqual([]);
  });

  it("docs-no-share-links-on-public-sites: a literal siteId matches the site of that id; one of no site passes", async () => {
    const literal = (siteId: unknown): Made => ({ kind: "SiteShareLink", name: "adopted-link", props: { siteId } });
    // Adopted with `import` (its outputs read from the API), with importId, or created: known by its API URL.
    const adopted: Made = {
      kind: "Site",
      name: "adopted",
      props: { visibility: "public", urls: { location: "https://api.example.test/v1/orgs/o1/sites/site-42" } },
    };
    const byImportId: Made = {
      kind: "Site",
      name: "by-import-id",
      props: { visibility: "public", importId: "site-7" },
    };
    expect(await messages("docs-no-share-links-on-public-sites", [adopted, byImportId, literal("site-42")])).toEqual([
      expect.stringContaining('SiteShareLink "adopted-link", siteId: site "adopted" is public'),
    ]);
    expect(await messages("docs-no-share-links-on-public-sites", [adopted, byImportId, literal("site-7")])).toEqual([
      expect.stringContaining('SiteShareLink "adopted-link", siteId: site "by-import-id" is public'),
    ]);
    // A literal of no site of the stack: its visibility is unknown, so no violation.
    expect(await messages("docs-no-share-links-on-public-sites", [adopted, byImportId, literal("site-9")])).toEqual([]);
    expect(await messages("docs-no-share-links-on-public-sites", [adopted, literal(UNKNOWN)])).toEqual([]);
    const shareLinkSite: Made = { ...adopted, props: { ...adopted.props, visibility: "share-link" } };
    expect(await messages("docs-no-share-links-on-public-sites", [shareLinkSite, literal("site-42")])).toEqual([]);
  });
});
