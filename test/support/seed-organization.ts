/**
 * A realistic organization built by hand, through the emulator's HTTP API only (as an admin would in the app): what
 * `docs-platform import` must turn into a program. At least one object of every kind it imports (how many in all:
 * `SeededOrganization.count`): the organization's settings (its default site among them), collections nested three
 * deep, the fixture's spaces and one made in a collection, three sites (one with section groups, external links,
 * conditional sections and site spaces, a share link turned off, an MCP server with a secret header, agent settings,
 * an adaptive schema and redirects; one whose readers sign in, with its visitor authentication), unicode and
 * duplicate titles, a SAML provider pointing at a team, teams with owners and members, two OpenAPI specs (one from a
 * URL, one from text), a translation of a space into French (and the French space its run made), the translation
 * glossary, integrations installed on the organization, a site and a space, a space synced with a GitHub repository,
 * roles granted to teams and users on spaces, collections and sites, and issue 40's fields: a staged section with
 * localized labels and a home page, a staged site space with one, a space generated from the text spec and the docs
 * site's style guide space; and the docs agent's instructions, its Slack channel and a source it reads (a context
 * connection with a secret token).
 */
import { callApi } from "./emulator";

export interface SeedTarget {
  url: string;
  token: string;
  organizationId: string;
  spaceIds: string[];
  userIds: string[];
}

export interface SeededOrganization {
  /** Ids per kind, in creation order; team members as `<teamId>/<userId>`. */
  ids: Record<string, string[]>;
  /** Every object created. */
  count: number;
  /**
   * The resources `docs-platform import` declares for it: one per object but team members (declared inside their
   * team), and one navigation order (SiteStructure) per site. test/cli/import.test.ts checks the walk against `ids`.
   */
  declared: number;
  /**
   * Per kind, the object that carries issue 40's fields (a staged section with localized labels and a home page, a
   * staged site space with one, the space generated from a spec, the site with a style guide), which tests that pick
   * one object of a kind take over the first.
   */
  withNewFields: Record<string, string>;
}

const CERTIFICATE = [
  "-----BEGIN CERTIFICATE-----",
  "MIIC+zCCAeOgAwIBAgIJAKZ7D5Yv0Vq7MA0GCSqGSIb3DQEBCwUAMBQxEjAQBgNVBAMMCWxvY2FsaG9z",
  "dDAeFw0yNDAxMDEwMDAwMDBaFw0zNDAxMDEwMDAwMDBaMBQxEjAQBgNVBAMMCWxvY2FsaG9zdDCCASIw",
  "-----END CERTIFICATE-----",
].join("\n");

const BILLING_API = `openapi: 3.0.3
info:
  title: Billing API
  version: "2.1"
paths:
  /invoices:
    get:
      summary: List invoices
      responses:
        "200":
          description: The invoices
`;

export async function seedOrganization(emulator: SeedTarget): Promise<SeededOrganization> {
  const org = `/orgs/${emulator.organizationId}`;
  const ids: Record<string, string[]> = {};
  const note = (kind: string, id: string) => {
    ids[kind] = [...(ids[kind] ?? []), id];
    return id;
  };
  const send = async (method: string, path: string, body?: unknown) => {
    const answer = await callApi(emulator, method, path, body);
    if (answer.status >= 300) throw new Error(`seed: ${method} ${path} answered ${answer.status}: ${answer.text}`);
    return answer.body as { id: string } & Record<string, unknown>;
  };
  const [guidesSpace, apiSpace, changelogSpace, legacySpace] = emulator.spaceIds as [string, string, string, string];
  const [ada, grace, linus] = emulator.userIds as [string, string, string];

  // Collections: three deep, duplicate titles at different places, unicode and non-latin titles.
  const collection = async (title: string, parent?: string, settings?: Record<string, unknown>) => {
    const created = await send("POST", `${org}/collections`, { title, ...(parent ? { parent } : {}) });
    if (settings) await send("PATCH", `/collections/${created.id}`, settings);
    return note("Collection", created.id);
  };
  const handbook = await collection("Handbook", undefined, { description: "How we work", defaultLevel: "read" });
  const engineering = await collection("Engineering", handbook, { defaultLevel: "inherit" });
  await collection("Onboarding", engineering, { description: "Your first week" });
  await collection("Design", handbook);
  const product = await collection("Product", undefined, { defaultLevel: "comment" });
  const roadmap = await collection("Roadmap", product);
  await collection("2025 Roadmap", roadmap);
  await collection("Releases", product, { description: 'Notes for "major" releases' });
  const archive = await collection("Archive", undefined, { defaultLevel: null });
  await collection("Handbook", archive, { description: "The 2019 handbook" });
  await collection("Ünïcödé Notes", undefined, { description: "Crème brûlée" });
  await collection("Руководство");
  await collection("Engineering");
  const marketing = await collection("Marketing");
  const campaigns = await collection("Campaigns", marketing);
  await collection("Q3 Launch", campaigns);
  await collection("Legal & Compliance");
  await collection("FAQ / Help");

  // Spaces: the organization's own (from the fixture), and one made in a collection with a default level.
  for (const space of emulator.spaceIds) note("Space", space);
  const runbooks = (await send("POST", `${org}/spaces`, { title: "Runbooks", emoji: "1f6e0", parent: engineering })).id;
  await send("PATCH", `/spaces/${runbooks}`, { defaultLevel: "read" });
  note("Space", runbooks);

  // Teams with owners and members, one without members.
  const team = async (title: string, members: [string, "owner" | "member"][]) => {
    const created = await send("PUT", `${org}/teams`, { title });
    note("Team", created.id);
    if (members.length > 0) {
      const memberships = Object.fromEntries(members.map(([user, role]) => [user, { role }]));
      await send("PUT", `${org}/teams/${created.id}/members`, { add: members.map(([user]) => user), memberships });
      for (const [user] of members) note("TeamMember", `${created.id}/${user}`);
    }
    return created.id;
  };
  const writers = await team("Writers", [
    [ada, "owner"],
    [grace, "member"],
  ]);
  const reviewers = await team("Reviewers", [
    [linus, "member"],
    [ada, "owner"],
  ]);
  await team("Platform", []);
  await team("Support", [
    [grace, "owner"],
    [linus, "member"],
  ]);

  // Roles granted on spaces, collections and sites, to teams and to users.
  const grant = async (
    kind: string,
    target: string,
    targetId: string,
    role: string,
    grantee: ["teams" | "users", string],
  ) => {
    await send("POST", `${target}/permissions`, { role, [grantee[0]]: [grantee[1]] });
    return note(kind, `${targetId}/${grantee[1]}`);
  };
  await grant("SpacePermission", `/spaces/${guidesSpace}`, guidesSpace, "edit", ["teams", writers]);
  await grant("SpacePermission", `/spaces/${apiSpace}`, apiSpace, "comment", ["users", linus]);
  await grant("SpacePermission", `/spaces/${runbooks}`, runbooks, "admin", ["teams", reviewers]);
  await grant("CollectionPermission", `/collections/${handbook}`, handbook, "review", ["teams", reviewers]);
  await grant("CollectionPermission", `/collections/${product}`, product, "edit", ["users", grace]);

  // SSO that puts new users into a team.
  const saml = await send("POST", `${org}/saml`, {
    label: "Okta",
    entityID: "http://www.okta.com/exk1acme",
    certificate: CERTIFICATE,
    ssoURL: "https://acme.okta.com/app/acme/sso/saml",
    defaultTeam: writers,
    defaultRole: "read",
  });
  note("SamlProvider", saml.id);

  // OpenAPI specs: one fetched from a URL, one given as text.
  note(
    "OpenApiSpec",
    (
      await send("POST", `${org}/openapi`, {
        slug: "petstore",
        source: { url: "https://specs.acme.test/petstore.json" },
      })
    ).id,
  );
  note(
    "OpenApiSpec",
    (await send("POST", `${org}/openapi`, { slug: "billing-api", source: { text: BILLING_API } })).id,
  );

  // The public docs site: sections (duplicate and non-latin titles), groups, conditional site spaces, links, schema.
  const docs = note("Site", (await send("POST", `${org}/sites`, { title: "Acme Docs", visibility: "public" })).id);
  const site = `${org}/sites/${docs}`;
  await send("PATCH", site, { adaptiveContent: { enabled: true } });
  await send("POST", `${site}/publish`);
  const section = async (spaceId: string, title: string, settings?: Record<string, unknown>) => {
    const created = await send("POST", `${site}/sections`, {
      spaceId,
      title,
      ...(title === "Guides" ? { icon: "book" } : {}),
    });
    if (settings) await send("PATCH", `${site}/sections/${created.id}`, settings);
    note("SiteSection", created.id);
    const own = (created.siteSpaces as { id: string }[])[0];
    if (own) note("SiteSpace", own.id);
    return created.id;
  };
  const guides = await section(guidesSpace, "Guides");
  const reference = await section(apiSpace, "API Reference", { description: "Every endpoint" });
  const changelog = await section(changelogSpace, "Changelog");
  await section(legacySpace, "Guides", { condition: "visitor.claims.unsigned.legacy == true" });
  const japanese = await section(guidesSpace, "日本語ガイド");
  await section(apiSpace, "Références");
  const group = async (title: string, sections: string[]) =>
    note("SiteSectionGroup", (await send("POST", `${site}/section-groups`, { title, sections })).id);
  await group("Product", [guides, reference]);
  const community = await group("Community", [changelog]);
  await group("International", [japanese]);
  const externalLink = async (title: string, url: string, extra: Record<string, unknown> = {}) =>
    note("SiteExternalLink", (await send("POST", `${site}/external-links`, { title, url, ...extra })).id);
  await externalLink("Status", "https://status.acme.example/", { icon: "signal" });
  await externalLink("Forum", "https://forum.acme.example/", { parent: community, description: "Ask the community" });
  const siteSpace = async (path: string, spaceId: string, sectionId: string | undefined, condition?: string) => {
    const created = await send("POST", `${path}/site-spaces`, { spaceId, ...(sectionId ? { sectionId } : {}) });
    if (condition) await send("PATCH", `${path}/site-spaces/${created.id}`, { condition });
    return note("SiteSpace", created.id);
  };
  await siteSpace(site, apiSpace, guides, "visitor.claims.unsigned.beta == true");
  await siteSpace(site, changelogSpace, guides, 'visitor.claims.unsigned.plan == "enterprise"');
  await siteSpace(site, guidesSpace, reference);
  const link = async (path: string, name: string, active = true) => {
    const created = await send("POST", `${path}/share-links`, { name });
    if (!active) await send("PATCH", `${path}/share-links/${created.id}`, { active: false });
    return note("SiteShareLink", created.id);
  };
  await link(site, "Reviewers");
  await link(site, "Partner preview");
  await link(site, "Partner preview", false);
  // The assistant's tool server, its key in a header; and instructions for the editing agent.
  const mcp = await send("POST", `${site}/mcp-servers`, {
    name: "Support tickets",
    url: "https://mcp.acme.example/tickets",
    transport: "http",
    headers: { Authorization: "Bearer seed-secret-key" },
  });
  note("SiteMcpServer", mcp.id);
  // The Docs agent's instructions, for the whole organization.
  await send("PUT", `/orgs/${emulator.organizationId}/agent-instructions`, {
    instructions: {
      object: "document",
      data: {},
      nodes: [
        {
          object: "block",
          type: "paragraph",
          data: {},
          nodes: [
            { object: "text", leaves: [{ object: "leaf", text: "Answer in the reader's language.", marks: [] }] },
          ],
        },
      ],
    },
  });
  note("OrganizationAgentInstructions", emulator.organizationId);
  // The docs agent in the team's Slack, answering in two channels.
  const slack = await send("POST", `${site}/channels`, {
    type: "builtin:slack",
    setupSettings: { allowedChannels: ["help", "support-*"] },
    role: "support",
  });
  note("SiteChannel", slack.id);
  // What the docs agent reads: the support repository's issues, with a secret token `import` leaves out.
  const issues = await send("POST", `${site}/context-connections`, {
    connector: "builtin:github-issues",
    setupSettings: { repository: "acme/support", token: "seed-context-token" },
    usageSettings: { search: true, changeRequests: true, searchBoost: "x1.2" },
    filter: "label:docs",
  });
  await send("PATCH", `${site}/context-connections/${issues.id}`, { label: "Support issues" });
  note("SiteContextConnection", issues.id);
  // An integration of the organization, configured with a credential: `import` declares it without its configuration.
  const installation = await send("POST", "/integrations/ticket-sync/installations", {
    organization: emulator.organizationId,
  });
  await send("PATCH", `/integrations/ticket-sync/installations/${installation.id}`, {
    configuration: { workspace: "acme", apiKey: "seed-integration-key" },
    site_selection: "all",
  });
  note("IntegrationInstallation", installation.id);
  // The same installation on the site, with a site-level key.
  const installationSites = `/integrations/ticket-sync/installations/${installation.id}/sites`;
  await send("POST", installationSites, { siteId: docs });
  await send("PATCH", `${installationSites}/${docs}`, { configuration: { project: "DOCS" } });
  note("IntegrationSiteInstallation", `${docs}/${installation.id}`);
  // And on a space, with a space-level key.
  const installationSpaces = `/integrations/ticket-sync/installations/${installation.id}/spaces`;
  await send("POST", installationSpaces, { space: runbooks });
  await send("PATCH", `${installationSpaces}/${runbooks}`, { configuration: { project: "OPS" } });
  note("IntegrationSpaceInstallation", `${runbooks}/${installation.id}`);
  // Runbooks synced with a GitHub repository: `import` declares the installation from the space's `gitSync`.
  const gitSync = await send("POST", "/git/installations", {
    provider: "github",
    target: { type: "space", spaceId: runbooks },
  });
  await send("PATCH", `/git/installations/${gitSync.id}`, {
    provider: "github",
    providerConfiguration: { repositoryId: 1002, branch: "refs/heads/main" },
    projectDirectory: "runbooks",
    priority: "git",
  });
  note("GitSyncInstallation", gitSync.id);
  await send("PUT", `${site}/agent-settings`, {
    scans: { topics: "never" },
    findings: { changeRequests: "always" },
    editing: {
      customInstructions: {
        object: "document",
        data: {},
        nodes: [
          {
            object: "block",
            type: "paragraph",
            data: {},
            nodes: [{ object: "text", leaves: [{ object: "leaf", text: "Write in US English.", marks: [] }] }],
          },
        ],
      },
    },
  });
  await send("PUT", `${site}/adaptive-schema`, {
    jsonSchema: {
      type: "object",
      properties: {
        unsigned: {
          type: "object",
          description: "Unsigned claims of the site visitor.",
          properties: {
            beta: { type: "boolean", description: "Sees beta features" },
            plan: { type: "string", description: "The visitor's plan", enum: ["free", "pro", "enterprise"] },
          },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    },
  });
  note("SiteAdaptiveSchema", docs);
  await send("PUT", `${site}/redirects`, {
    redirects: [
      { source: "/getting-started/*", destination: { kind: "site-section", siteSectionId: guides }, permanent: true },
      { source: "/status", destination: { kind: "external", url: "https://status.acme.example/" } },
    ],
  });
  note("SiteRedirects", docs);

  await grant("SitePermission", site, docs, "edit", ["teams", writers]);

  // An internal site shared by links, its spaces at the root level (no sections).
  const internal = note(
    "Site",
    (await send("POST", `${org}/sites`, { title: "Internal Handbook", visibility: "share-link" })).id,
  );
  const internalSite = `${org}/sites/${internal}`;
  for (const space of [guidesSpace, apiSpace, changelogSpace, legacySpace])
    await siteSpace(internalSite, space, undefined);
  await link(internalSite, "Contractors");
  await link(internalSite, "Auditors 2025");
  await link(internalSite, "Contractors");
  await grant("SitePermission", internalSite, internal, "admin", ["users", ada]);

  // A partner portal whose readers sign in through Acme's backend.
  const portal = note(
    "Site",
    (await send("POST", `${org}/sites`, { title: "Partner Portal", visibility: "visitor-auth" })).id,
  );
  await send("PATCH", `${org}/sites/${portal}/publishing/auth`, {
    backend: "custom",
    fallbackURL: "https://login.acme.example/partners",
  });
  note("SiteVisitorAuth", portal);

  // Issue 40's fields, one object of each (kept in this one block): a staged section with localized labels and a
  // custom home page, a staged site space with one, a space generated from the billing spec, and the docs site's
  // style guide (a space only createSiteStyleguideById makes, which also attaches it to the site).
  const pageAt = async (space: string, pagePath: string) =>
    (await send("GET", `/spaces/${space}/content/path/${encodeURIComponent(pagePath)}`)).id;
  const upcoming = await send("POST", `${site}/sections`, {
    spaceId: changelogSpace,
    title: "Upcoming",
    draft: true,
    pageId: await pageAt(changelogSpace, "getting-started"),
  });
  await send("PATCH", `${site}/sections/${upcoming.id}`, {
    localizedTitle: { fr: "À venir", de: "Demnächst" },
    localizedDescription: { fr: "Ce qui arrive bientôt" },
  });
  note("SiteSection", upcoming.id);
  note("SiteSpace", (upcoming.siteSpaces as { id: string }[])[0]!.id);
  note(
    "SiteSpace",
    (
      await send("POST", `${site}/site-spaces`, {
        spaceId: legacySpace,
        sectionId: upcoming.id,
        draft: true,
        pageId: await pageAt(legacySpace, "getting-started/quickstart"),
      })
    ).id,
  );
  const billingReference = await send("POST", `${org}/spaces`, {
    title: "Billing API reference",
    computedSource: {
      type: "builtin:openapi",
      props: { models: true, grouping: "by-tag" },
      dependencies: { spec: { ref: { kind: "openapi", spec: "billing-api" } } },
    },
  });
  note("Space", billingReference.id);
  note("Space", (await send("POST", `${site}/styleguide`, { template: "default" })).id);
  const withNewFields = {
    SiteSection: upcoming.id,
    SiteSpace: ids.SiteSpace!.at(-1)!,
    Space: billingReference.id,
    Site: docs,
  };

  // Every site has agent settings: the docs site's were written above, the others are as new sites have them.
  for (const siteId of ids.Site ?? []) note("SiteAgentSettings", siteId);

  // The guides translated into French (the emulator's first run completes at once and makes the French space), and
  // the organization's glossary.
  const translation = await send("POST", `${org}/translations`, {
    source: { space: guidesSpace, language: "en" },
    language: "fr",
    instructions: {
      object: "document",
      data: {},
      nodes: [
        {
          object: "block",
          type: "paragraph",
          data: {},
          nodes: [{ object: "text", leaves: [{ object: "leaf", text: "Address readers with vous.", marks: [] }] }],
        },
      ],
    },
  });
  note("Translation", translation.id);
  const french = (translation.result as { space?: string } | undefined)?.space;
  if (!french) throw new Error("seed: the translation's first run made no space (translationStepMs must be 0)");
  note("Space", french);
  await send("PUT", `${org}/translations-glossary`, {
    operations: [
      { type: "insert", translations: { en: "workspace", fr: "espace de travail", de: "Arbeitsbereich" } },
      { type: "insert", translations: { en: "Acme", fr: "Acme" } },
    ],
  });
  note("TranslationGlossary", emulator.organizationId);

  // The organization's settings: visitors of its hostname land on the public docs.
  await send("PATCH", org, {
    emailDomains: ["acme.example", "example.com"],
    defaultContent: { type: "site", site: docs },
  });
  note("OrganizationSettings", emulator.organizationId);

  // Processing of the OpenAPI specs finishes on the emulator's clock: wait until both are complete.
  for (let attempt = 0; ; attempt++) {
    const specs = (await send("GET", `${org}/openapi`)).items as { processingState: string }[];
    if (specs.every((spec) => spec.processingState === "complete")) break;
    if (attempt > 100) throw new Error("seed: the OpenAPI specs never finished processing");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const count = Object.values(ids).reduce((sum, list) => sum + list.length, 0);
  return { ids, count, declared: count - (ids.TeamMember?.length ?? 0) + (ids.Site?.length ?? 0), withNewFields };
}
