import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { FAMILIES } from "../../emulator/families";
import { FAMILY_TABLES } from "../../emulator/families/tables";
import { declarationOf, orphans, TABLE_NAMES, type TableName, type Tables } from "../../emulator/tables";
import type { Route } from "../../emulator/types";
import { startTestEmulator } from "../support/emulator";
import { seedOrganization } from "../support/seed-organization";

/**
 * The delete cascade, derived from each table's declared parents (emulator/tables.ts): in a world where every
 * table has records (the seeded organization), deleting one record of every table that is some table's parent
 * leaves no orphan in any table. The tables come from the declarations, so a new table is covered without an edit.
 */

/** Tables with no parent: the roots the fixtures make (the API deletes neither an organization nor a user). */
const ROOTS: readonly TableName[] = ["orgs", "users"];

const parentTables = [...new Set(TABLE_NAMES.flatMap((name) => declarationOf(name).parents.map((p) => p.table)))];

let emulator: RunningEmulator;
let world: Map<TableName, Map<string, unknown>>;

function snapshot(tables: Tables): Map<TableName, Map<string, unknown>> {
  return new Map(TABLE_NAMES.map((name) => [name, structuredClone(tables.table(name) as Map<string, unknown>)]));
}

function restore(tables: Tables): void {
  for (const name of TABLE_NAMES) {
    const table = tables.table(name) as Map<string, unknown>;
    table.clear();
    for (const [key, rec] of structuredClone(world.get(name)!)) table.set(key, rec);
  }
}

beforeAll(async () => {
  emulator = await startTestEmulator({ port: 0 });
  await seedOrganization(emulator);
  // The seeded organization leaves every site with the new-site customization: give one a record of its own.
  const site = [...emulator.store.sites.values()][0]!;
  emulator.store.siteSettingsStore.setCustomization(site, { title: site.title });
  world = snapshot(emulator.store.tables);
});
afterAll(() => emulator?.close());

describe("the declared tables", () => {
  it("name only declared tables as parents, and every table but the roots has a parent", () => {
    expect(parentTables.filter((t) => !TABLE_NAMES.includes(t as TableName))).toEqual([]);
    const parentless = TABLE_NAMES.filter((name) => declarationOf(name).parents.length === 0);
    expect(parentless, "a table without a declared parent is never deleted with anything").toEqual(ROOTS);
  });

  it("all hold records in the seeded world, so the cascade below deletes real children", () => {
    expect(TABLE_NAMES.filter((name) => world.get(name)!.size === 0)).toEqual([]);
    expect(orphans(emulator.store.tables)).toEqual([]);
  });
});

describe("deleting a parent of every kind", () => {
  it.each(parentTables)("a record of %s leaves no orphan in any table", (parent) => {
    const tables = emulator.store.tables;
    restore(tables);
    const name = parent as TableName;
    // The parent with the most children, so the cascade has something to do.
    const children = (key: string) =>
      TABLE_NAMES.reduce(
        (n, child) =>
          n +
          [...tables.table(child).values()].filter((rec) =>
            declarationOf(child).parents.some((p) => p.table === name && p.key(rec) === key),
          ).length,
        0,
      );
    const keys = [...tables.table(name).keys()].sort((a, b) => children(b) - children(a));
    const key = keys[0]!;
    expect(children(key), `no record in the seeded world hangs on a record of ${name}`).toBeGreaterThan(0);
    expect(tables.remove(name, key)).toBe(true);
    expect(tables.table(name).has(key)).toBe(false);
    expect(orphans(tables)).toEqual([]);
    expect(children(key)).toBe(0);
  });

  it("through the API: deleting a site, a section group and a collection leaves no orphan", async () => {
    const { store } = emulator;
    restore(store.tables);
    const api = async (path: string) => {
      const res = await fetch(`${emulator.url}${path}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${emulator.token}` },
      });
      expect([204, 205], path).toContain(res.status);
    };
    const org = emulator.organizationId;
    const group = [...store.sectionGroups.values()][0]!;
    await api(`/orgs/${org}/sites/${group.siteId}/section-groups/${group.id}`);
    const collection = [...store.collections.values()].find((c) => !c.parentId)!;
    await api(`/collections/${collection.id}`);
    for (const site of [...store.sites.values()]) await api(`/orgs/${org}/sites/${site.id}`);
    expect(orphans(store.tables)).toEqual([]);
    for (const name of TABLE_NAMES) {
      if (!declarationOf(name).parents.some((p) => p.table === "sites")) continue;
      const onSite = [...store.tables.table(name).values()].filter(
        (rec) =>
          declarationOf(name)
            .parents.find((p) => p.table === "sites")
            ?.key(rec) !== undefined,
      );
      expect(onSite, `${name} kept records of deleted sites`).toEqual([]);
    }
  });
});

describe("the emulator's files", () => {
  const root = join(__dirname, "../../emulator");
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((entry) => {
      const path = join(dir, entry);
      return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : [];
    });

  /**
   * A family's routes and their helpers: every file of a family folder but its declarations (index.ts, whose
   * `onDelete` hooks are the cascade's), its records and rendering, and its store (`*Store.ts`), which does write.
   */
  const routeModules = files(join(root, "families")).filter(
    (path) => !/(?:\/index|\/records|\/render|\/family|\/tables|Store)\.ts$/.test(path),
  );

  it("every family folder is listed in families/index.ts, and serves every route its modules export", async () => {
    const folders = readdirSync(join(root, "families")).filter((entry) =>
      statSync(join(root, "families", entry)).isDirectory(),
    );
    expect(folders.filter((folder) => !FAMILIES.some((family) => family.name === folder))).toEqual([]);
    // TABLES is composed from the tables list, the router from FAMILIES: both name every family, in one order.
    expect(FAMILY_TABLES.map((family) => family.name)).toEqual(FAMILIES.map((family) => family.name));
    const unserved: string[] = [];
    for (const path of routeModules) {
      const family = FAMILIES.find((f) => path.includes(`/families/${f.name}/`));
      const exports = (await import(path)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(exports)) {
        if (!name.endsWith("Routes") || !Array.isArray(value)) continue;
        for (const route of value as Route[]) {
          if (!family?.routes.includes(route)) unserved.push(`${name}: ${route.method} ${route.path} (${path})`);
        }
      }
    }
    expect(unserved, "route modules whose routes their family's index.ts does not list").toEqual([]);
  });

  it("routes change records only through their store: no field assignment but to the objects they render", () => {
    /** What a route builds itself to answer with. */
    const RENDERED = new Set(["out", "urls"]);
    const assignment =
      /(?<![\w.$])([a-z]\w*)(?:\.\w+|\[[^\]]+\])+\s*(?:=|\+=|-=|\?\?=|\|\|=)(?![=>])|(?<![\w.$])([a-z]\w*)(?:\.\w+)+(?:\+\+|--)/g;
    const writes = routeModules.flatMap((path) =>
      readFileSync(path, "utf8")
        .split("\n")
        .flatMap((line, i) =>
          [...line.matchAll(assignment)]
            .filter((match) => !RENDERED.has((match[1] ?? match[2])!))
            .map(() => `${path.slice(root.length + 1)}:${i + 1}: ${line.trim()}`),
        ),
    );
    expect(writes).toEqual([]);
  });

  it("are at most 400 lines each", () => {
    const long = files(root)
      .map((path) => ({ path: path.slice(root.length + 1), lines: readFileSync(path, "utf8").split("\n").length - 1 }))
      .filter((f) => f.lines > 400);
    expect(long).toEqual([]);
  });
});
