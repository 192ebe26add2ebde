/**
 * The integrations family: integration installations (organization, site, space). Its tables, each with the records it
 * hangs on (the cascade of a delete is derived from them, tables.ts), and its routes; families/index.ts lists the
 * families.
 */
import { defineFamily } from "../family";
import { integrationRoutes } from "./integrations";
import { integrationsTables } from "./tables";

export const integrationsFamily = defineFamily(integrationsTables, [...integrationRoutes]);
