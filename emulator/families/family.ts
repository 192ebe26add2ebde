/**
 * A family of API objects (after moto's backends): the tables it owns, each declared once with its parents, and
 * its routes. Its records, rendering and store live beside it in its folder. The tables are declared apart from the
 * routes (`<family>/tables.ts`), so that `TABLES` is composed without loading a route: routes use the store, and the
 * store is made of the tables.
 */
import type { FamilyTables } from "../tableDecl";
import type { Route } from "../types";

export interface FamilyDecl<N extends string, T> extends FamilyTables<N, T> {
  routes: readonly Route[];
}

export function defineFamily<N extends string, T>(
  tables: FamilyTables<N, T>,
  routes: readonly Route[],
): FamilyDecl<N, T> {
  return { ...tables, routes };
}
