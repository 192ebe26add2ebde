/**
 * The openapi family: OpenAPI specs and their versions. Its tables, each with the records it hangs on (the cascade of
 * a delete is derived from them, tables.ts), and its routes; families/index.ts lists the families.
 */
import { defineFamily } from "../family";
import { openApiRoutes } from "./openapi";
import { openapiTables } from "./tables";

export const openapiFamily = defineFamily(openapiTables, [...openApiRoutes]);
