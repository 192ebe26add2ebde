/**
 * The content family: spaces and collections (the content tree). Its tables, each with the records it hangs on (the
 * cascade of a delete is derived from them, tables.ts), and its routes; families/index.ts lists the families.
 */

import { parent, table } from "../../tableDecl";
import { defineFamily } from "../family";
import { collectionRoutes } from "./collections";
import { pageRoutes } from "./pages";
import type { CollectionRec, SpaceRec } from "./records";
import { spaceRoutes } from "./spaces";

export const contentFamily = defineFamily("content", {
  tables: {
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
  },
  routes: [...spaceRoutes, ...collectionRoutes, ...pageRoutes],
});
