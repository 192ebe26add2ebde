/**
 * The smallest useful program: a published public docs site whose first section shows an existing space, a
 * collection to keep the docs' spaces in, and the team that writes them.
 *
 * Stack config: `docs:organizationId` (the default organization of every resource), `spaceId` (an existing space to
 * publish), and the API token as `docs:apiToken` (secret) or the DOCS_API_TOKEN environment variable.
 */
import * as pulumi from "@pulumi/pulumi";
import * as docs from "pulumi-docs-platform";

const config = new pulumi.Config();

new docs.Collection("product-docs", { title: "Product docs", description: "Spaces published on docs.acme.example" });

const site = new docs.Site("docs", { title: "Acme Docs", visibility: "public", published: true });
new docs.SiteSection("guides", { siteId: site.id, spaceId: config.require("spaceId"), title: "Guides", default: true });

const writers = new docs.Team("writers", { title: "Technical writers" });

export const siteUrl = site.urls.apply((urls) => urls.published ?? urls.app);
export const teamId = writers.id;
