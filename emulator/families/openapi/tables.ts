/** The openapi family's tables, each with the records it hangs on (the cascade of a delete is derived from them,
 * tables.ts). Apart from the routes, so that the tables import no route and no store. */
import { defineTables, parent, table } from "../../tableDecl";
import type { OpenApiSpecRec, OpenApiVersionRec } from "./records";

export const openapiTables = defineTables("openapi", {
  openApiSpecs: table<OpenApiSpecRec>([parent("orgs", (s) => s.orgId)]),
  openApiVersions: table<OpenApiVersionRec>([parent("openApiSpecs", (v) => v.specId)]),
});
