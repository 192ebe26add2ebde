/**
 * Takes over objects that already exist, made by hand in the web app: on the first `up` each resource reads the object
 * named by its `importId` and updates it to the declared inputs instead of creating a new one. After that they are
 * managed like any other resource (and `pulumi destroy` deletes them: see README.md for keeping them).
 *
 * Stack config: `docs:organizationId`, and `existing`: the ids of the objects to adopt
 * (`{"collectionId": "…", "spaceId": "…", "teamId": "…", "siteId": "…"}`). The API token: `docs:apiToken` (secret) or DOCS_API_TOKEN.
 */
import * as pulumi from "@pulumi/pulumi";
import * as docs from "pulumi-docs-platform";

interface ExistingIds {
  collectionId: string;
  spaceId: string;
  teamId: string;
  siteId: string;
}

const existing = new pulumi.Config().requireObject<ExistingIds>("existing");

const handbook = new docs.Collection("handbook", {
  importId: existing.collectionId,
  title: "Handbook",
  description: "How we work, now managed with Pulumi",
});

// A space holds content: deleting it deletes its pages (restorable for 7 days). Add `{ retainOnDelete: true }` to keep
// it when the stack is destroyed, or `{ protect: true }` to refuse that destroy.
const guides = new docs.Space("guides", { importId: existing.spaceId, title: "Guides" });

const writers = new docs.Team("writers", { importId: existing.teamId, title: "Technical writers" });

const site = new docs.Site("docs", {
  importId: existing.siteId,
  title: "Acme Docs",
  visibility: "public",
  published: true,
});

export const adopted = { collection: handbook.id, space: guides.id, team: writers.id, site: site.id };
