/**
 * Who can see and edit what, reviewed in pull requests and checked for drift every night: spaces in collections, a
 * site publishing them, teams with members, grants of those teams on a space, a collection and the site, SSO enforced
 * organization-wide, and a member's role.
 *
 * Stack config: `docs:organizationId` (the default organization of every resource), `userIds` (a JSON list of three
 * existing members' user ids: a lead, a writer, an engineer), and optionally `enforceSso` (default `true`) and
 * `leadRole` (default `admin`). The API token is `docs:apiToken` (secret) or the DOCS_API_TOKEN environment variable.
 */
import * as pulumi from "@pulumi/pulumi";
import * as docs from "pulumi-docs-platform";

const config = new pulumi.Config();
const [lead, writer, engineer] = config.requireObject<string[]>("userIds");

// Spaces in collections. Deleting a space deletes its content: in your own program give spaces that hold content
// `protect: true` (or `retainOnDelete: true`); this example leaves them off so that `pulumi destroy` cleans up.
const guides = new docs.Collection("guides", { title: "Guides", defaultLevel: "read" });
const internal = new docs.Collection("internal", { title: "Internal", defaultLevel: null });
const handbook = new docs.Space("handbook", { title: "Handbook", emoji: "1f4d8", parentId: guides.id });
const apiSpace = new docs.Space("api", { title: "API reference", parentId: guides.id });
new docs.Space("runbooks", { title: "Runbooks", parentId: internal.id, defaultLevel: null });

// A site publishing the guides' spaces.
const site = new docs.Site("docs", { title: "Acme Docs", visibility: "public", published: true });
new docs.SiteSection("handbook", { siteId: site.id, spaceId: handbook.id, title: "Handbook", default: true });
new docs.SiteSection("api", { siteId: site.id, spaceId: apiSpace.id, title: "API reference" });

// Teams, with their whole membership declared.
const writers = new docs.Team("writers", { title: "Technical writers", members: [{ user: writer! }] });
const engineers = new docs.Team("engineers", { title: "Engineers", members: [{ user: engineer! }] });

// Grants: one resource per team and object, as pulumi-github's TeamRepository. A grant changed or removed by hand is
// drift, shown by `pulumi preview --refresh`.
new docs.SpacePermission("writers-edit-handbook", { spaceId: handbook.id, teamId: writers.id, role: "edit" });
new docs.CollectionPermission("engineers-edit-internal", {
  collectionId: internal.id,
  teamId: engineers.id,
  role: "edit",
});
new docs.SitePermission("writers-admin-site", { siteId: site.id, teamId: writers.id, role: "admin" });

// SSO: the identity provider first, then enforcement for every member. Deleting OrganizationSettings leaves the
// organization as it is: to stop enforcing SSO, set `enforceSso` to false and run `pulumi up` before removing it.
const okta = new docs.SamlProvider("okta", {
  label: "Okta",
  entityId: "http://www.okta.com/exk1acme",
  ssoUrl: "https://acme.okta.example/app/gitbook/sso/saml",
  certificate: "MIIDqDCCApCgAwIBAgIGAYv1acme",
  defaultTeamId: writers.id,
  defaultRole: "read",
});
new docs.OrganizationSettings("settings", { sso: config.getBoolean("enforceSso") ?? true }, { dependsOn: [okta] });

// The lead's role. Nobody is added or removed: the lead must already be a member, and deleting this resource leaves
// their role as it is (`removeOnDelete: true` would remove them from the organization).
const leadRole = (config.get("leadRole") ?? "admin") as "admin" | "create" | "edit" | "review" | "comment" | "read";
new docs.OrganizationMember("lead", { userId: lead!, role: leadRole });

export const siteId = site.id;
export const handbookSpaceId = handbook.id;
export const writersTeamId = writers.id;
