/**
 * How a family declares its tables (in its index.ts): the records each table's records hang on (their parents).
 * tables.ts composes the families' declarations into `TABLES` and derives the delete cascade from them.
 */

/**
 * A record this table's records hang on. `key` names the parent's key (undefined: none of this table). Deleting
 * the parent deletes the record, unless `onDelete` says what else happens to it (a reference cleared, a child
 * lifted to its grandparent, a space moved to the trash): it must leave the record no orphan.
 */
export interface ParentDecl<R> {
  /** A declared table's name (a plain string here: the declarations' types are inferred from these very objects). */
  table: string;
  key: (rec: R) => string | undefined;
  onDelete?: (rec: R, parent: unknown, clock: { now(): string }) => void;
}

export interface TableDecl<R> {
  parents: readonly ParentDecl<R>[];
  /** A record that is not live (a space in the trash) may keep a parent that is gone: restoring it detaches it. */
  live?: (rec: R) => boolean;
}

export const table = <R>(parents: ParentDecl<R>[] = [], extra: Partial<TableDecl<R>> = {}): TableDecl<R> => ({
  parents,
  ...extra,
});

export const parent = <R>(t: string, key: (rec: R) => string | undefined, onDelete?: ParentDecl<R>["onDelete"]) => ({
  table: t,
  key,
  onDelete,
});

/** A table of records that live under a site (deleted with it). */
export const onSite = <R extends { siteId: string }>() => parent<R>("sites", (r) => r.siteId);

/** A family's tables (families/<family>/tables.ts), declared apart from its routes (families/family.ts). */
export interface FamilyTables<N extends string, T> {
  name: N;
  /** Table name → declaration; a table's records type is the declaration's. Names are unique across families. */
  tables: T;
}

export function defineTables<N extends string, T extends Record<string, TableDecl<never>>>(
  name: N,
  tables: T,
): FamilyTables<N, T> {
  return { name, tables };
}
