/**
 * A docs platform that breaks every rule of the docs policy pack, one block per rule (or two), each named: with
 * ../policy-config.json, `pulumi preview --policy-pack` lists every violation and fails on the mandatory ones. Stack
 * config: `docs:organizationId`, and `userIds`, a JSON list of one existing member's user id.
 */
import * as pulumi from "@pulumi/pulumi";
import * as docs from "pulumi-docs-platform";

const config = new pulumi.Config();
const [lead] = config.requireObject<string[]>("userIds");

// docs-default-level (advisory) and docs-content-protected (advisory): every member administers an unprotected space.
const guides = new docs.Space("guides", { title: "Guides", defaultLevel: "admin" });

// docs-admin-to-teams: admin granted to a single user.
new docs.SpacePermission("lead-admin-guides", { spaceId: guides.id, userId: lead!, role: "admin" });

// docs-team-members (advisory): a team nobody is in.
new docs.Team("reviewers", { title: "Reviewers" });

// docs-default-role, docs-https-urls and docs-sso-enforced: everyone signing in is an admin, the sign-in URL is http,
// and no OrganizationSettings enforces SSO.
new docs.SamlProvider("okta", {
  label: "Okta",
  ssoUrl: "http://acme.okta.example/app/docs/exk1acme/sso/saml",
  defaultRole: "admin",
});

// docs-public-site-allowed and docs-no-share-links-on-public-sites: a public site nobody reviewed, with a leftover
// share link.
const launch = new docs.Site("launch", { title: "Launch Notes", visibility: "public", published: true });
new docs.SiteShareLink("launch-leftover", { siteId: launch.id, name: "Old reviewers" });

// docs-share-link-named and docs-share-links-per-site: four links on a site in review, one of them unnamed.
const beta = new docs.Site("beta", { title: "Acme Beta Docs", visibility: "share-link" });
for (const [name, label] of [
  ["beta-unnamed", ""],
  ["beta-partner-a", "Partner A"],
  ["beta-partner-b", "Partner B"],
  ["beta-partner-c", "Partner C"],
]) {
  new docs.SiteShareLink(name!, { siteId: beta.id, name: label! });
}

// docs-visitor-auth-configured: a portal readers must sign in to, with nowhere to sign in.
new docs.Site("partners", { title: "Acme Partner Portal", visibility: "visitor-auth" });

// docs-openapi-public-allowed (advisory in policy-config.json): a public spec that is not in allowedSpecs.
new docs.OpenApiSpec("internal-api", {
  slug: "internal-api",
  visibility: "public",
  sourceText: JSON.stringify({ openapi: "3.1.0", info: { title: "Internal", version: "1.0.0" }, paths: {} }),
});

// docs-https-urls and docs-credentials-in-secrets: an MCP server over plain http, and an integration's API key in its
// plain-text configuration instead of secrets.
new docs.SiteMcpServer("tickets-mcp", { siteId: beta.id, name: "Tickets", url: "http://mcp.acme.example/tickets" });
new docs.IntegrationInstallation("tickets", {
  integrationName: "ticket-sync",
  configuration: { workspace: "acme", apiKey: "not-a-real-key" },
});

// docs-git-sync-priority (advisory): the repository overwrites what editors change in the beta site in GitBook.
new docs.GitSyncInstallation("beta-git", { provider: "github", siteId: beta.id, repositoryId: 1001, priority: "git" });

// docs-channel-allow-list (advisory): the beta site's agent in Slack, with no allow-list, answers in every channel.
new docs.SiteChannel("beta-slack", { siteId: beta.id, type: "builtin:slack" });

// docs-context-sources (advisory): the beta site's agent reads an inbound mailbox anyone can write to.
new docs.SiteContextConnection("beta-inbox", { siteId: beta.id, connector: "builtin:email" });
