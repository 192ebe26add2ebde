/** The content family's tables, each with the records it hangs on (the cascade of a delete is derived from them,
 * tables.ts). Apart from the routes, so that the tables import no route and no store. */
import { defineTables, parent, table } from "../../tableDecl";
import type { CollectionRec, SpaceRec } from "./records";

export const contentTables = defineTables("content", {
  spaces: table<SpaceRec>(
    [
      parent("orgs", (s) => s.orgId),
      parent(
        "collections",
        (s) => s.parentId,
        (s, _c, tables) => {
          if (!s.deletedAt) s.deletedAt = tables.now();
        },
      ),
    ],
    { live: (s) => !s.deletedAt },
  ),
  collections: table<CollectionRec>([parent("orgs", (c) => c.orgId), parent("collections", (c) => c.parentId)]),
});
