import type { Props } from "../../provider/framework/kind";
import type { EmulatorFixture, Json } from "../support/emulator";

/**
 * One row per kind whose create can be lost: how to make its parents and inputs, the write that creates its object
 * (what a fault targets), the objects of the kind now under that parent (what the store must hold exactly one of),
 * and how to make a same-keyed object out of band (so that a lost create finds two candidates), where the API
 * allows one.
 */
export interface RecoveryCase {
  kind: string;
  inputs(fixture: EmulatorFixture): Promise<Props>;
  /** The creating request: method and path pattern (regular expression source, as faults take it). */
  create: { method: "POST" | "PUT"; path: string };
  /** Objects of the kind that the inputs' key or title names, as the API lists them under the inputs' parent. */
  objects(fixture: EmulatorFixture, inputs: Props): Promise<Json[]>;
  /** Makes another object the lookup cannot tell from the lost one; absent where the API keeps the key unique. */
  twin?(fixture: EmulatorFixture, inputs: Props): Promise<string>;
  /** Whether the client repeats the creating request itself (an idempotent PUT): the lookup is then never needed. */
  idempotent?: boolean;
}

const under = (inputs: Props, tail: string) => `/orgs/${inputs.organizationId}/sites/${inputs.siteId}/${tail}`;
/** The external links among structure items, at any depth. */
const linksIn = (items: Json[]): Json[] =>
  items.flatMap((item) => [...(item.object === "site-external-link" ? [item] : []), ...linksIn(item.children ?? [])]);
const CERT = "-----BEGIN CERTIFICATE-----\nMIIDpDCCAoygAwIBAgIGAXoTpbV4MA0=\n-----END CERTIFICATE-----";

export const RECOVERY_CASES: RecoveryCase[] = [
  {
    kind: "Collection",
    inputs: async (f) => ({ organizationId: f.org(), title: "Handbook", description: "How we work" }),
    create: { method: "POST", path: "/collections$" },
    objects: async (f, i) =>
      (await f.listAll(`/orgs/${i.organizationId}/collections`)).filter((c: Json) => c.title === i.title),
    twin: (f, i) => f.apiCreate(`/orgs/${i.organizationId}/collections`, { title: i.title }),
  },
  {
    kind: "Site",
    inputs: async (f) => ({ organizationId: f.org(), title: "Docs", published: true }),
    create: { method: "POST", path: "/sites$" },
    objects: async (f, i) =>
      (await f.listAll(`/orgs/${i.organizationId}/sites`)).filter((s: Json) => s.title === i.title),
    twin: (f, i) => f.makeSite({ title: i.title }),
  },
  {
    kind: "SamlProvider",
    inputs: async (f) => ({
      organizationId: f.org(),
      label: "Okta",
      entityId: "http://www.okta.example/exk1",
      certificate: CERT,
      ssoUrl: "https://acme.okta.example/app/acme_docs/exk1/sso/saml",
    }),
    create: { method: "POST", path: "/saml$" },
    objects: async (f, i) =>
      (await f.listAll(`/orgs/${i.organizationId}/saml`)).filter((p: Json) => p.label === i.label),
    twin: (f, i) => f.apiCreate(`/orgs/${i.organizationId}/saml`, { label: i.label }),
  },
  {
    kind: "Team",
    inputs: async (f) => ({ organizationId: f.org(), title: "Writers", members: [{ user: f.user(0) }] }),
    create: { method: "PUT", path: "/teams$" },
    objects: async (f, i) =>
      (await f.listAll(`/orgs/${i.organizationId}/teams`)).filter((t: Json) => t.title === i.title),
    twin: (f, i) => f.apiCreate(`/orgs/${i.organizationId}/teams`, { title: i.title }, "PUT"),
  },
  {
    kind: "OpenApiSpec",
    inputs: async (f) => ({ organizationId: f.org(), slug: "petstore", sourceUrl: "https://specs.example/pet.json" }),
    create: { method: "POST", path: "/openapi$" },
    objects: async (f, i) =>
      (await f.listAll(`/orgs/${i.organizationId}/openapi`)).filter((s: Json) => s.slug === i.slug),
  },
  {
    kind: "Space",
    inputs: async (f) => ({ organizationId: f.org(), title: "Runbooks", emoji: "1f4d8", defaultLevel: "read" }),
    create: { method: "POST", path: "/orgs/[^/]+/spaces$" },
    objects: async (f, i) =>
      (await f.listAll(`/orgs/${i.organizationId}/spaces`)).filter((s: Json) => s.title === i.title),
    twin: (f, i) => f.apiCreate(`/orgs/${i.organizationId}/spaces`, { title: i.title }),
  },
  {
    kind: "SiteShareLink",
    inputs: async (f) => ({
      organizationId: f.org(),
      siteId: await f.makeSite({ visibility: "share-link" }),
      name: "Partners",
      active: false,
    }),
    create: { method: "POST", path: "/share-links$" },
    objects: async (f, i) => (await f.listAll(under(i, "share-links"))).filter((l: Json) => l.name === i.name),
    twin: (f, i) => f.apiCreate(under(i, "share-links"), { name: i.name }),
  },
  {
    kind: "SiteMcpServer",
    inputs: async (f) => ({
      organizationId: f.org(),
      siteId: await f.makeSite(),
      name: "Tickets",
      url: "https://mcp.example.com/tickets",
      headers: { Authorization: "Bearer recovery-token" },
    }),
    create: { method: "POST", path: "/mcp-servers$" },
    objects: async (f, i) => (await f.listAll(under(i, "mcp-servers"))).filter((s: Json) => s.name === i.name),
    twin: (f, i) => f.apiCreate(under(i, "mcp-servers"), { name: i.name, url: i.url, headers: {} }),
  },
  {
    kind: "SiteChannel",
    inputs: async (f) => ({
      organizationId: f.org(),
      siteId: await f.makeSite(),
      type: "builtin:slack",
      allowedChannels: ["help"],
    }),
    create: { method: "POST", path: "/channels$" },
    objects: async (f, i) => (await f.listAll(under(i, "channels"))).filter((c: Json) => c.type === i.type),
    twin: (f, i) => f.apiCreate(under(i, "channels"), { type: i.type, setupSettings: { allowedChannels: [] } }),
  },
  {
    kind: "SiteContextConnection",
    inputs: async (f) => ({
      organizationId: f.org(),
      siteId: await f.makeSite(),
      connector: "builtin:website",
      setupSettings: { url: "https://status.acme.example/" },
      label: "Status page",
    }),
    create: { method: "POST", path: "/context-connections$" },
    objects: async (f, i) =>
      (await f.listAll(under(i, "context-connections"))).filter((c: Json) => c.connector === i.connector),
    twin: (f, i) =>
      f.apiCreate(under(i, "context-connections"), { connector: i.connector, setupSettings: i.setupSettings }),
  },
  {
    kind: "SiteExternalLink",
    inputs: async (f) => {
      const siteId = await f.makeSite();
      await f.makeSection(siteId, f.space(0));
      return { organizationId: f.org(), siteId, title: "Forum", url: "https://forum.example/" };
    },
    create: { method: "POST", path: "/external-links$" },
    // Links have no listing of their own: the site's structure holds them, at the top level or in a group.
    objects: async (f, i) =>
      linksIn(((await f.api("GET", under(i, "structure"))).body as Json).structure).filter(
        (l: Json) => l.title === i.title && l.url === i.url,
      ),
    twin: (f, i) => f.apiCreate(under(i, "external-links"), { title: i.title, url: i.url }),
  },
  {
    kind: "Translation",
    inputs: async (f) => ({
      organizationId: f.org(),
      sourceSpaceId: f.space(0),
      sourceLanguage: "en",
      language: "fr",
      instructions: "Address readers with vous.",
    }),
    create: { method: "POST", path: "/translations$" },
    objects: async (f, i) =>
      (await f.listAll(`/orgs/${i.organizationId}/translations`)).filter(
        (t: Json) => t.source.space === i.sourceSpaceId && t.language === i.language,
      ),
    twin: (f, i) =>
      f.apiCreate(`/orgs/${i.organizationId}/translations`, {
        source: { space: i.sourceSpaceId, language: i.sourceLanguage },
        language: i.language,
      }),
  },
  {
    kind: "GitSyncInstallation",
    inputs: async (f) => ({ organizationId: f.org(), provider: "github", spaceId: f.space(0), repositoryId: 1001 }),
    create: { method: "POST", path: "/git/installations$" },
    // The space names the installation syncing it; the API keeps one per space (no twin can be made).
    objects: async (f, i) => {
      const gitSync = ((await f.api("GET", `/spaces/${i.spaceId}`)).body as Json).gitSync;
      return gitSync ? [{ id: gitSync.installationId }] : [];
    },
  },
  {
    kind: "IntegrationInstallation",
    inputs: async (f) => ({ organizationId: f.org(), integrationName: "ticket-sync" }),
    create: { method: "POST", path: "/integrations/ticket-sync/installations$" },
    objects: async (f, i) =>
      (await f.listAll(`/orgs/${f.org()}/installations`))
        .filter((item: Json) => (item.integration as Json).name === i.integrationName)
        .map((item: Json) => item.installation),
    twin: (f) => f.apiCreate("/integrations/ticket-sync/installations", { organization: f.org() }),
  },
  {
    kind: "IntegrationSiteInstallation",
    inputs: async (f) => ({
      organizationId: f.org(),
      siteId: await f.makeSite(),
      installationId: await f.apiCreate("/integrations/ticket-sync/installations", { organization: f.org() }),
      integrationName: "ticket-sync",
    }),
    create: { method: "POST", path: "/installations/[^/]+/sites$" },
    // The pair is unique: the API keeps one installation per site (no twin can be made).
    objects: async (f, i) =>
      (await f.listAll(`/integrations/ticket-sync/installations/${i.installationId}/sites`))
        .filter((item: Json) => item.site === i.siteId)
        .map((item: Json) => ({ ...item, id: `${item.site}/${item.installation}` })),
  },
  {
    kind: "IntegrationSpaceInstallation",
    inputs: async (f) => ({
      organizationId: f.org(),
      spaceId: await f.apiCreate(`/orgs/${f.org()}/spaces`, { title: "Handbook" }),
      installationId: await f.apiCreate("/integrations/ticket-sync/installations", { organization: f.org() }),
      integrationName: "ticket-sync",
    }),
    create: { method: "POST", path: "/installations/[^/]+/spaces$" },
    // The pair is unique: the API keeps one installation per space (no twin can be made).
    objects: async (f, i) =>
      (await f.listAll(`/integrations/ticket-sync/installations/${i.installationId}/spaces`))
        .filter((item: Json) => item.space === i.spaceId)
        .map((item: Json) => ({ ...item, id: `${item.space}/${item.installation}` })),
  },
  {
    kind: "SiteSection",
    inputs: async (f) => ({
      organizationId: f.org(),
      siteId: await f.makeSite(),
      spaceId: f.space(0),
      title: "Guides",
      path: "guides",
    }),
    create: { method: "POST", path: "/sections$" },
    objects: async (f, i) =>
      (await f.listAll(under(i, "sections"))).filter((s: Json) =>
        s.siteSpaces.some((ss: Json) => ss.space.id === i.spaceId),
      ),
    twin: (f, i) => f.apiCreate(under(i, "sections"), { spaceId: i.spaceId, title: i.title }),
  },
  {
    kind: "SiteSpace",
    inputs: async (f) => {
      const siteId = await f.makeSite();
      const sectionId = await f.makeSection(siteId, f.space(0));
      return { organizationId: f.org(), siteId, sectionId, spaceId: f.space(1), path: "start" };
    },
    create: { method: "POST", path: "/site-spaces$" },
    objects: async (f, i) => (await f.listAll(under(i, "site-spaces"))).filter((s: Json) => s.space.id === i.spaceId),
  },
  {
    // A source is unique within a site: no twin can exist.
    kind: "SiteRedirect",
    inputs: async (f) => ({
      organizationId: f.org(),
      siteId: await f.makeSite(),
      source: "/old/*",
      destination: { kind: "external", url: "https://new.example/" },
      permanent: true,
    }),
    create: { method: "POST", path: "/redirects$" },
    objects: async (f, i) => (await f.listAll(under(i, "redirects"))).filter((r: Json) => r.source === i.source),
  },
  {
    kind: "SiteSectionGroup",
    inputs: async (f) => ({ organizationId: f.org(), siteId: await f.makeSite(), title: "Products" }),
    create: { method: "POST", path: "/section-groups$" },
    objects: async (f, i) => (await f.listAll(under(i, "section-groups"))).filter((g: Json) => g.title === i.title),
    twin: (f, i) => f.apiCreate(under(i, "section-groups"), { title: i.title }),
  },
  {
    kind: "TeamMember",
    inputs: async (f) => ({
      organizationId: f.org(),
      teamId: await f.makeTeam("Ops"),
      userId: f.user(1),
      role: "owner",
    }),
    create: { method: "PUT", path: "/members/[^/]+$" },
    objects: async (f, i) =>
      (await f.listAll(`/orgs/${i.organizationId}/teams/${i.teamId}/members`)).filter(
        (m: Json) => m.organization.user.id === i.userId,
      ),
    idempotent: true,
  },
];
