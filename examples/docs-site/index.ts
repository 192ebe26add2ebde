/**
 * A documentation platform as code: nested collections for the organization's spaces, and a published docs site.
 *
 * Configuration (`pulumi config set …`): `organizationId`, and `spaceIds`, a JSON list of at least three existing
 * space ids. The API token comes from `pulumi config set --secret docs:apiToken …` or DOCS_API_TOKEN.
 */
import * as pulumi from "@pulumi/pulumi";
import * as docs from "pulumi-docs-platform";

const config = new pulumi.Config();
const organizationId = config.require("organizationId");

const handbook = new docs.Collection("handbook", {
  organizationId,
  title: "Handbook",
  description: "How we work",
  defaultLevel: "read",
});
const engineering = new docs.Collection("engineering", {
  organizationId,
  title: "Engineering",
  parentId: handbook.id,
});
new docs.Collection("onboarding", { organizationId, title: "Onboarding", parentId: engineering.id });

export const handbookUrl = handbook.urls.apply((urls) => urls.app);
export const collectionIds = { handbook: handbook.id, engineering: engineering.id };
