/**
 * A documentation platform as code: the spaces that hold the content; a docs site in review before its launch (open
 * to whoever has its share link) with two sections in a group, extra site spaces, a declared navigation order,
 * branding (theme and header links), redirects and an adaptive-content schema; a partner portal whose readers sign in
 * (visitor authentication, with its signing key as a secret output); nested collections; SSO; a team; and an OpenAPI
 * spec.
 *
 * Configuration (`pulumi config set …`):
 * - `organizationId`: the organization to manage;
 * - `userIds`: a JSON list of at least three organization members' user ids.
 * The API token comes from `pulumi config set --secret docs:apiToken …` or the DOCS_API_TOKEN environment variable.
 */
import * as pulumi from "@pulumi/pulumi";
import * as docs from "pulumi-docs-platform";

const config = new pulumi.Config();
const organizationId = config.require("organizationId");
const [lead, writer, reviewer] = config.requireObject<string[]>("userIds");

// Collections that hold the organization's spaces.
const handbook = new docs.Collection("handbook", {
  organizationId,
  title: "Handbook",
  description: "How we work",
  defaultLevel: "read",
});
const engineering = new docs.Collection("engineering", { organizationId, title: "Engineering", parentId: handbook.id });
new docs.Collection("onboarding", { organizationId, title: "Onboarding", parentId: engineering.id });

// The spaces that hold the content, created in Engineering (examples/adopt-existing takes over existing objects).
// Deleting a space deletes its content (restorable for 7 days): with real content, pass { protect: true } or { retainOnDelete: true }.
const parentId = engineering.id;
const guidesSpace = new docs.Space("guides-space", { organizationId, parentId, title: "Guides", emoji: "1f4d8" });
const apiSpace = new docs.Space("api-space", { organizationId, parentId, title: "API reference" });
const changelogSpace = new docs.Space("changelog-space", { organizationId, parentId, title: "Changelog" });
const legacySpace = new docs.Space("legacy-space", {
  organizationId,
  parentId,
  title: "Legacy guides",
  editMode: "locked",
});

// The docs site, published for review before its launch: only readers with a share link (below) can open it. At the
// launch, set `visibility: "public"` and remove the share link, which opens nothing on a public site.
const site = new docs.Site("docs", {
  organizationId,
  title: "Acme Docs",
  visibility: "share-link",
  adaptiveContent: true,
  published: true,
});
const siteId = site.id;

const guides = new docs.SiteSection("guides", {
  organizationId,
  siteId,
  spaceId: guidesSpace.id,
  title: "Guides",
  icon: "book",
  default: true,
});
const apiReference = new docs.SiteSection("api-reference", {
  organizationId,
  siteId,
  spaceId: apiSpace.id,
  title: "API reference",
  icon: "code",
  description: "Every endpoint, generated from our OpenAPI spec",
});
const product = new docs.SiteSectionGroup("product", {
  organizationId,
  siteId,
  title: "Product",
  sectionIds: [guides.id, apiReference.id],
});

// Extra site spaces: a changelog next to the guides, and the old guides shown only to visitors on the legacy plan.
const changelog = new docs.SiteSpace("changelog", {
  organizationId,
  siteId,
  spaceId: changelogSpace.id,
  sectionId: guides.id,
  path: "changelog",
});
new docs.SiteSpace("legacy-guides", {
  organizationId,
  siteId,
  spaceId: legacySpace.id,
  sectionId: apiReference.id,
  path: "v1",
  condition: 'visitor.claims.plan == "legacy"',
  default: true,
});

// The navigation as the program states it, whatever order the engine created things in.
new docs.SiteStructure("navigation", {
  organizationId,
  siteId,
  order: [product.id],
  // A section always has its own site space: `siteSpaceId` is null only in states of older versions.
  siteSpaces: [{ sectionId: guides.id, siteSpaceIds: [guides.siteSpaceId as pulumi.Output<string>, changelog.id] }],
});

// Branding: only what is declared here is managed; the rest stays as edited in the app.
new docs.SiteCustomization("branding", {
  organizationId,
  siteId,
  styling: { theme: "bold", primaryColor: { light: "#0B5FFF", dark: "#6EA8FF" } },
  header: {
    links: [
      { title: "Status", to: { kind: "url", url: "https://status.acme.example" }, links: [] },
      {
        title: "Support",
        style: "button-primary",
        to: { kind: "url", url: "https://support.acme.example" },
        links: [],
      },
    ],
  },
});

// The reviewers' way in until the launch: its URL carries a secret token (a secret output).
const reviewLink = new docs.SiteShareLink("review-link", { organizationId, siteId, name: "Reviewers" });

// Old URLs from before the restructure: the site's whole redirect list, applied with one bulk request.
new docs.SiteRedirects("redirects", {
  organizationId,
  siteId,
  redirects: [
    { source: "/getting-started/*", destination: { kind: "site-section", siteSectionId: guides.id }, permanent: true },
    { source: "/status", destination: { kind: "external", url: "https://status.acme.example/" } },
  ],
});

new docs.SiteAdaptiveSchema("visitor-claims", {
  organizationId,
  siteId,
  jsonSchema: {
    type: "object",
    additionalProperties: false,
    properties: {
      plan: { type: "string", enum: ["free", "pro", "legacy"], description: "The visitor's plan" },
      beta: { type: "boolean", description: "Whether the visitor joined the beta programme" },
    },
  },
});

// A partner portal whose readers sign in through Acme's own backend, which signs their tokens with the key below.
const partners = new docs.Site("partners", {
  organizationId,
  title: "Acme Partner Portal",
  visibility: "visitor-auth",
});
const partnerSignIn = new docs.SiteVisitorAuth("partner-sign-in", {
  organizationId,
  siteId: partners.id,
  fallbackURL: "https://auth.acme.example/docs/login",
  logoutURL: "https://auth.acme.example/docs/logout",
  rotation: { quarter: "2026-Q4" },
});

// People and sign-in.
const writers = new docs.Team("writers", {
  organizationId,
  title: "Technical writers",
  members: [{ user: lead, role: "owner" }, { user: writer }],
});
const reviewers = new docs.Team("reviewers", { organizationId, title: "Reviewers" });
new docs.TeamMember("reviewer", { organizationId, teamId: reviewers.id, userId: reviewer, role: "member" });

const sso = new docs.SamlProvider("okta", {
  organizationId,
  label: "Okta",
  entityId: "http://www.okta.example/exk1a2b3c4",
  ssoUrl: "https://acme.okta.example/app/docs/exk1a2b3c4/sso/saml",
  certificate: "MIIDpDCCAoygAwIBAgIGAXoM2Q8HMA0GCSqGSIb3DQEBCwUAMIGSMQswCQYDVQQGEwJVUzETMBEGA1UECAwK",
  defaultTeamId: writers.id,
  defaultRole: "read",
});

// The API reference's source.
const petstore = new docs.OpenApiSpec("petstore", {
  organizationId,
  slug: "petstore",
  sourceText: JSON.stringify({
    openapi: "3.1.0",
    info: { title: "Petstore", version: "1.0.0" },
    paths: { "/pets": { get: { summary: "List pets", responses: { "200": { description: "The pets" } } } } },
  }),
});

export const siteUrl = site.urls.apply((urls) => urls.published ?? urls.app);
export const reviewUrl = reviewLink.url;
export const ssoAcsUrl = sso.acsUrl;
export const openApiVersion = petstore.lastVersionId;
export const partnerSigningKey = partnerSignIn.privateKey;
export const collectionIds = { handbook: handbook.id, engineering: engineering.id };
