/**
 * A docs platform that passes every rule of the docs policy pack, with ../policy-config.json: each block says which
 * rules it satisfies. Stack config: `docs:organizationId`, and `userIds`, a JSON list of two existing members' user
 * ids (a lead and a writer), and `ticketsApiKey` (secret), an integration's API key. The API token is `docs:apiToken`
 * (secret) or the DOCS_API_TOKEN environment variable.
 */
import * as pulumi from "@pulumi/pulumi";
import * as docs from "pulumi-docs-platform";

const config = new pulumi.Config();
const [lead, writer] = config.requireObject<string[]>("userIds");

// The content, protected from deletion (docs-content-protected); every member reads it (docs-default-level). The
// scratch space needs no protection: policy-config.json lists it in the rule's `exempt`.
const handbook = new docs.Collection("handbook", { title: "Handbook", defaultLevel: "read" }, { protect: true });
const guides = new docs.Space(
  "guides",
  { title: "Guides", parentId: handbook.id, defaultLevel: "read" },
  { protect: true },
);
new docs.Space("scratch", { title: "Scratchpad" });

// Teams with a member declared each, in `members` or by a TeamMember (docs-team-members).
const writers = new docs.Team("writers", { title: "Technical writers", members: [{ user: lead!, role: "owner" }] });
const reviewers = new docs.Team("reviewers", { title: "Reviewers" });
new docs.TeamMember("reviewer", { teamId: reviewers.id, userId: writer! });

// Admin goes to a team; a single user gets less (docs-admin-to-teams).
new docs.SpacePermission("writers-admin-guides", { spaceId: guides.id, teamId: writers.id, role: "admin" });
new docs.CollectionPermission("writer-edits-handbook", { collectionId: handbook.id, userId: writer!, role: "edit" });

// SSO over https (docs-https-urls), a default role below admin (docs-default-role), and enforced (docs-sso-enforced).
const okta = new docs.SamlProvider("okta", {
  label: "Okta",
  entityId: "http://www.okta.example/exk1acme",
  ssoUrl: "https://acme.okta.example/app/docs/exk1acme/sso/saml",
  certificate: "MIIDqDCCApCgAwIBAgIGAYv1acme",
  defaultTeamId: writers.id,
  defaultRole: "read",
});
new docs.OrganizationSettings("settings", { sso: true, defaultRole: "read" }, { dependsOn: [okta] });

// The public site, reviewed: policy-config.json lists it in allowedSites (docs-public-site-allowed). No share link:
// a public site needs none (docs-no-share-links-on-public-sites).
const site = new docs.Site("docs", { title: "Acme Docs", visibility: "public", published: true });
new docs.SiteSection("guides", { siteId: site.id, spaceId: guides.id, title: "Guides", default: true });
new docs.SitePermission("writers-admin-site", { siteId: site.id, teamId: writers.id, role: "admin" });

// A site in review: its share links are named (docs-share-link-named), and at most three (docs-share-links-per-site).
const beta = new docs.Site("beta", { title: "Acme Beta Docs", visibility: "share-link", published: true });
new docs.SiteShareLink("beta-reviewers", { siteId: beta.id, name: "Reviewers" });
new docs.SiteShareLink("beta-partner", { siteId: beta.id, name: "Partner: Initech" });

// A portal readers sign in to, with its SiteVisitorAuth (docs-visitor-auth-configured), over https (docs-https-urls).
const partners = new docs.Site("partners", { title: "Acme Partner Portal", visibility: "visitor-auth" });
new docs.SiteVisitorAuth("partners-sign-in", {
  siteId: partners.id,
  fallbackURL: "https://auth.acme.example/docs/login",
});

// A public API's spec, allowed in policy-config.json (docs-openapi-public-allowed, turned on there).
new docs.OpenApiSpec("petstore", {
  slug: "petstore",
  visibility: "public",
  sourceText: JSON.stringify({ openapi: "3.1.0", info: { title: "Petstore", version: "1.0.0" }, paths: {} }),
});

// An MCP server and an external link over https (docs-https-urls); the integration's API key in secrets
// (docs-credentials-in-secrets).
new docs.SiteMcpServer("tickets-mcp", {
  siteId: beta.id,
  name: "Tickets",
  url: "https://mcp.acme.example/tickets",
  headers: { Authorization: pulumi.interpolate`Bearer ${config.requireSecret("ticketsApiKey")}` },
});
// docs-context-sources: the agent reads the public status page, a source only the team writes to.
new docs.SiteContextConnection("status-page", {
  siteId: beta.id,
  connector: "builtin:website",
  setupSettings: { url: "https://status.acme.example/" },
  label: "Status page",
});
new docs.IntegrationInstallation("tickets", {
  integrationName: "ticket-sync",
  configuration: { workspace: "acme" },
  secrets: { apiKey: config.requireSecret("ticketsApiKey") },
});

// The guides are written in their repository: policy-config.json allows priority git there (docs-git-sync-priority).
new docs.GitSyncInstallation("guides-git", {
  provider: "github",
  spaceId: guides.id,
  repositoryId: 1001,
  priority: "git",
});

export const siteId = site.id;
