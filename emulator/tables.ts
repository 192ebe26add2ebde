/**
 * The store's tables and what every table shares: ids unique across tables, positions, the clock, and the reset to
 * the fixtures. Each table is declared once, by the family that owns it (families/<family>/index.ts), with the
 * records it hangs on (its parents); `TABLES` composes them. Deleting a record goes through `remove`, which derives the cascade from those declarations, so a new
 * table that names its parent is deleted with it without a hand-written list. Plain data otherwise: the family
 * stores composed over these tables (store.ts) own every other write and invariant.
 */
import { FAMILY_TABLES } from "./families/tables";
import { type FixtureInfo, loadFixtures } from "./fixtures";
import { randomId } from "./ids";
import type { TableDecl } from "./tableDecl";

export type { ParentDecl, TableDecl } from "./tableDecl";

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type Declared = UnionToIntersection<(typeof FAMILY_TABLES)[number]["tables"]>;

/** The object families (families/index.ts): each owns its tables, records, store, rendering and routes. */
export type Family = (typeof FAMILY_TABLES)[number]["name"];

/** Every table, once, from the family that declares it (its index.ts), with its parents. */
export const TABLES = {} as Declared;
const FAMILY_OF_TABLE: Record<string, Family> = {};
for (const family of FAMILY_TABLES) {
  for (const [name, decl] of Object.entries(family.tables)) {
    if (name in FAMILY_OF_TABLE)
      throw new Error(`table ${name}: declared by ${FAMILY_OF_TABLE[name]} and ${family.name}`);
    FAMILY_OF_TABLE[name] = family.name;
    Object.assign(TABLES, { [name]: decl });
  }
}

export type TableName = keyof Declared;
/** The record of a table. */
export type RecordOf<N extends TableName> = Declared[N] extends TableDecl<infer R> ? R : never;
/** The tables as maps, one property per declared table (`tables.sites`). */
export type TableMaps = { readonly [N in TableName]: Map<string, RecordOf<N>> };

export const TABLE_NAMES = Object.keys(TABLES) as TableName[];

/** The family that declares a table. */
export function familyOf(name: TableName): Family {
  return FAMILY_OF_TABLE[name]!;
}

/** The declaration of a table, loosely typed for the generic walks below. */
export function declarationOf(name: TableName): TableDecl<unknown> {
  return TABLES[name] as unknown as TableDecl<unknown>;
}

// One property per declared table is added by the constructor; the interface lets the compiler see them.
export interface Tables extends TableMaps {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: see above
export class Tables {
  readonly fixtures: FixtureInfo;
  private positionCounter = 0;

  /** Milliseconds since the epoch; replaceable (EmulatorOptions.clock) so tests can drive time. */
  readonly clock: () => number;

  constructor(clock: () => number = Date.now) {
    for (const name of TABLE_NAMES) Object.defineProperty(this, name, { value: new Map(), enumerable: true });
    this.clock = clock;
    this.fixtures = loadFixtures(this);
  }

  /** The table by name. */
  table<N extends TableName>(name: N): Map<string, RecordOf<N>> {
    return this[name] as Map<string, RecordOf<N>>;
  }

  /**
   * Deletes a record and, from the declarations, what hangs on it: records whose parent it is are deleted in turn
   * (or changed as their declaration says). False when there was no such record.
   */
  remove(name: TableName, key: string): boolean {
    const map = this.table(name) as Map<string, unknown>;
    const rec = map.get(key);
    if (rec === undefined) return false;
    map.delete(key);
    for (const child of TABLE_NAMES) {
      for (const decl of declarationOf(child).parents) {
        if (decl.table !== name) continue;
        for (const [childKey, childRec] of [...this.table(child)]) {
          if (decl.key(childRec) !== key || !this.table(child).has(childKey)) continue;
          if (decl.onDelete) decl.onDelete(childRec, rec, this);
          else this.remove(child, childKey);
        }
      }
    }
    return true;
  }

  /** Back to the fixtures (same ids as before). */
  reset(): void {
    for (const name of TABLE_NAMES) this.table(name).clear();
    this.positionCounter = 0;
    loadFixtures(this);
  }

  /** An id no table uses as a key (keys made of other ids never equal a random id). */
  newId(): string {
    let id = randomId();
    while (TABLE_NAMES.some((name) => this.table(name).has(id))) id = randomId();
    return id;
  }

  nextPosition(): number {
    this.positionCounter += 1;
    return this.positionCounter;
  }

  /** Current time as an ISO 8601 timestamp (from the clock). */
  now(): string {
    return new Date(this.clock()).toISOString();
  }
}

/**
 * Records whose declared parent is gone (what a cascade must never leave): `table: key → parent table key`. A record
 * that is not live may keep a missing parent (a space in the trash is detached when restored).
 */
export function orphans(tables: Tables): string[] {
  const found: string[] = [];
  for (const name of TABLE_NAMES) {
    const decl = declarationOf(name);
    for (const [key, rec] of tables.table(name)) {
      if (decl.live && !decl.live(rec)) continue;
      for (const p of decl.parents) {
        const parentKey = p.key(rec);
        if (parentKey !== undefined && !tables.table(p.table as TableName).has(parentKey)) {
          found.push(`${name}: ${key} → ${p.table} ${parentKey}`);
        }
      }
    }
  }
  return found;
}
