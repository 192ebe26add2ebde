/** The translations family's tables, each with the records it hangs on (the cascade of a delete is derived from them,
 * tables.ts). Apart from the routes, so that the tables import no route and no store. */
import { defineTables, parent, table } from "../../tableDecl";
import type { GlossaryEntryRec, TranslationRec } from "./records";

export const translationsTables = defineTables("translations", {
  translations: table<TranslationRec>([parent("orgs", (t) => t.orgId), parent("spaces", (t) => t.sourceSpaceId)]),
  glossaryEntries: table<GlossaryEntryRec>([parent("orgs", (e) => e.orgId)]),
});
