/**
 * The content family: spaces and collections (the content tree). Its tables, each with the records it hangs on (the
 * cascade of a delete is derived from them, tables.ts), and its routes; families/index.ts lists the families.
 */
import { defineFamily } from "../family";
import { collectionRoutes } from "./collections";
import { pageRoutes } from "./pages";
import { spaceRoutes } from "./spaces";
import { contentTables } from "./tables";

export const contentFamily = defineFamily(contentTables, [...spaceRoutes, ...collectionRoutes, ...pageRoutes]);
