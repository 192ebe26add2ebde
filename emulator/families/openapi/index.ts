/**
 * The openapi family: OpenAPI specs and their versions. Its tables, each with the records it hangs on (the cascade of
 * a delete is derived from them, tables.ts), and its routes; families/index.ts lists the families.
 */

import { parent, table } from "../../tableDecl";
import { defineFamily } from "../family";
import { openApiRoutes } from "./openapi";
import type { OpenApiSpecRec, OpenApiVersionRec } from "./records";

export const openapiFamily = defineFamily("openapi", {
  tables: {
    openApiSpecs: table<OpenApiSpecRec>([parent("orgs", (s) => s.orgId)]),
    openApiVersions: table<OpenApiVersionRec>([parent("openApiSpecs", (v) => v.specId)]),
  },
  routes: [...openApiRoutes],
});
