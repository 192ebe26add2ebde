/**
 * One OpenApiSpec per OpenAPI document in this repository's openapi/ folder, its text read from the file: a merged
 * change to a document is a diff of its spec on the pull request's preview, and `up` on merge publishes the new
 * version. A new file adds a spec; the slug is the file name.
 *
 * Stack config: `docs:organizationId`; the API token as `docs:apiToken` (secret) or DOCS_API_TOKEN.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import * as docs from "pulumi-docs-platform";

const folder = path.join(__dirname, "openapi");
const documents = readdirSync(folder)
  .filter((file) => /\.(ya?ml|json)$/.test(file))
  .sort();

const specs = documents.map((file) => {
  const slug = path.parse(file).name;
  return new docs.OpenApiSpec(slug, {
    slug,
    sourceText: readFileSync(path.join(folder, file), "utf8"),
    // How long `up` waits for the API to process a new version before failing.
    processingTimeoutSeconds: 600,
  });
});

export const versions = Object.fromEntries(specs.map((spec, i) => [documents[i]!, spec.lastVersionId]));
