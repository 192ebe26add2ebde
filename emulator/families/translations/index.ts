/**
 * The translations family: translations and the glossary. Its tables, each with the records it hangs on (the cascade
 * of a delete is derived from them, tables.ts), and its routes; families/index.ts lists the families.
 */
import { defineFamily } from "../family";
import { translationsTables } from "./tables";
import { translationRoutes } from "./translations";

export const translationsFamily = defineFamily(translationsTables, [...translationRoutes]);
