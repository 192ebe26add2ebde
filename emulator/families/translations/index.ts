/**
 * The translations family: translations and the glossary. Its tables, each with the records it hangs on (the cascade
 * of a delete is derived from them, tables.ts), and its routes; families/index.ts lists the families.
 */

import { parent, table } from "../../tableDecl";
import { defineFamily } from "../family";
import type { GlossaryEntryRec, TranslationRec } from "./records";
import { translationRoutes } from "./translations";

export const translationsFamily = defineFamily("translations", {
  tables: {
    translations: table<TranslationRec>([parent("orgs", (t) => t.orgId), parent("spaces", (t) => t.sourceSpaceId)]),
    glossaryEntries: table<GlossaryEntryRec>([parent("orgs", (e) => e.orgId)]),
  },
  routes: [...translationRoutes],
});
