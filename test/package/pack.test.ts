import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const repoRoot = path.resolve(__dirname, "../..");
const manifest = require("../../package.json");

/**
 * What `npm pack` ships: the built provider, emulator and CLI, their declarations, the README, CHANGELOG and LICENSE, and
 * nothing else (no tests, no sources, no source maps pointing at sources that are not shipped). attw and publint
 * (`npm run lint:package`) check how the types resolve; this checks the file list.
 */
describe("the packed package", () => {
  let files: string[] | undefined;
  const packed = (): string[] => {
    if (files) return files;
    if (!existsSync(path.join(repoRoot, "dist/provider/index.js"))) throw new Error("dist/ is missing: npm run build");
    const [report] = JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json"], { cwd: repoRoot, encoding: "utf8" }),
    );
    files = report.files.map((file: { path: string }) => file.path).sort() as string[];
    return files;
  };

  it("holds only the built code, its declarations and the package documents", () => {
    const list = packed();
    const outside = list.filter(
      (file) =>
        !/^dist\/(provider|emulator|cli)\/.+\.(js|d\.ts)$/.test(file) &&
        !/^[A-Z]+\.md$|^LICENSE$|^package\.json$|^emulator\/README\.md$/.test(file) &&
        // The provider plugin's launcher and the schema it answers GetSchema with; the schema of \`drift --json\`.
        !/^bin\/pulumi-resource-docs$|^provider\/plugin\/schema\.json$|^docs\/drift-report\.schema\.json$/.test(file),
    );
    expect(outside).toEqual([]);
    expect(list).toEqual(
      expect.arrayContaining([
        "README.md",
        "CHANGELOG.md",
        "LICENSE",
        "package.json",
        "emulator/README.md",
        "bin/pulumi-resource-docs",
        "provider/plugin/schema.json",
        "docs/drift-report.schema.json",
      ]),
    );
    expect(list.filter((file) => /\.map$|test|\.ts$/.test(file) && !file.endsWith(".d.ts"))).toEqual([]);
  });

  it("ships every file the exports map, the bin and typesVersions point to", () => {
    const shipped = new Set(packed());
    const kindFiles = [...shipped].filter((file) => file.startsWith("dist/provider/kinds/"));
    expect(kindFiles.length).toBeGreaterThan(0);
    const targets: string[] = [manifest.main, manifest.types, ...Object.values(manifest.bin as Record<string, string>)];
    for (const [subpath, entry] of Object.entries(manifest.exports as Record<string, unknown>)) {
      if (subpath.includes("*") || typeof entry === "string") continue;
      const { types, default: main } = entry as { types: string; default: string };
      targets.push(types, main);
    }
    for (const [, [target]] of Object.entries(manifest.typesVersions["*"] as Record<string, string[]>)) {
      if (!target!.includes("*")) targets.push(target!);
    }
    for (const target of targets) expect(shipped.has(target.replace(/^\.\//, "")), target).toBe(true);
    // What only the tests use is left out of the declarations (`@internal`, stripped by tsconfig.build.json).
    const generatedTypes = readFileSync(path.join(repoRoot, "dist/provider/resources/generated.d.ts"), "utf8");
    expect(generatedTypes).toContain("export declare class SiteSpace ");
    expect(generatedTypes).not.toContain("RegisteredClasses");
    // Each kind module is loaded by states as require("pulumi-docs-platform/kinds/<Kind>"): its .js and .d.ts ship.
    for (const file of kindFiles.filter((f) => f.endsWith(".js")))
      expect(shipped.has(file.replace(/\.js$/, ".d.ts"))).toBe(true);
  });
});
