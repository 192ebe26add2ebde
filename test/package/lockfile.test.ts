import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * `npm ci` (what a user's CI and ours run) refuses a lock file that disagrees with package.json, or that lacks an
 * entry any locked package asks for, optional platform binaries included: biome's binaries for other platforms once
 * went missing that way, and `npm ci` failed on every fresh clone. These are the checks `npm ci` makes, without its
 * minute of install.
 */
const repoRoot = path.resolve(__dirname, "../..");
const manifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8"));
const lock = JSON.parse(readFileSync(path.join(repoRoot, "package-lock.json"), "utf8"));

type LockedPackage = {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  link?: boolean;
};
const packages: Record<string, LockedPackage> = lock.packages;

/** Node's resolution as the lock lays it out: the nearest `node_modules/<name>` above the package's own folder. */
function resolve(from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = base === "" ? `node_modules/${name}` : `${base}/node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (base === "") return undefined;
    const parent = base.lastIndexOf("/node_modules/");
    base = parent === -1 ? "" : base.slice(0, parent);
  }
}

describe("package-lock.json", () => {
  it("is the lock of this package.json (name, version and every declared range)", () => {
    const root = packages[""]!;
    expect(lock.name).toBe(manifest.name);
    expect(root.version).toBe(manifest.version);
    for (const field of ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"] as const) {
      expect(root[field] ?? {}, field).toEqual(manifest[field] ?? {});
    }
  });

  it("holds every package a locked package depends on, optional platform binaries included", () => {
    const missing: string[] = [];
    for (const [where, locked] of Object.entries(packages)) {
      if (locked.link) continue;
      const wanted = {
        ...locked.dependencies,
        ...locked.optionalDependencies,
        ...(where === "" ? locked.devDependencies : {}),
      };
      for (const name of Object.keys(wanted)) {
        if (!resolve(where, name)) missing.push(`${name} (for ${where || "the package"})`);
      }
    }
    expect(Object.keys(packages).length).toBeGreaterThan(100);
    expect(missing, "run `npm install` and commit package-lock.json").toEqual([]);
  });

  it("holds every platform binary of biome, so `npm ci` passes on any platform", () => {
    const biome = packages["node_modules/@biomejs/biome"]!;
    const platforms = Object.keys(biome.optionalDependencies ?? {});
    expect(platforms.length).toBeGreaterThanOrEqual(8);
    for (const name of platforms) expect(packages[`node_modules/${name}`], name).toMatchObject({ optional: true });
  });
});
