/**
 * A family of API objects (after moto's backends): the tables it owns, each declared once with its parents, and
 * its routes. Its records, rendering and store live beside it in its folder.
 */
import type { TableDecl } from "../tableDecl";
import type { Route } from "../types";

export interface FamilyDecl<N extends string, T> {
  name: N;
  /** Table name → declaration; a table's records type is the declaration's. Names are unique across families. */
  tables: T;
  routes: readonly Route[];
}

export function defineFamily<N extends string, T extends Record<string, TableDecl<never>>>(
  name: N,
  parts: { tables: T; routes: readonly Route[] },
): FamilyDecl<N, T> {
  return { name, ...parts };
}
