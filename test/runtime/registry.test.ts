import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { moduleOf } from "../../codegen/resourceTypes";
import * as docs from "../../provider";
import { definitions } from "../../provider/registry";
import { kinds, lifecycle } from "../../provider/runtime";

/**
 * Every state stores `require("pulumi-docs-platform/kinds/<Kind>")` as its provider: each registered kind must have
 * that module, exporting the provider methods, and a Resource class of the same name for programs.
 */
describe("kind registry", () => {
  it("has a kinds/ module for every registered kind and none for a kind it does not register", () => {
    const modules = readdirSync(path.join(__dirname, "../../provider/kinds")).map((file) => file.replace(/\.ts$/, ""));
    expect(modules.sort()).toEqual([...kinds].sort());
  });

  for (const definition of definitions) {
    it(`${definition.kind}: defined in resources/${moduleOf(definition.kind).file}.ts as ${moduleOf(definition.kind).exportName}`, async () => {
      const { file, exportName } = moduleOf(definition.kind);
      const loaded = await import(`../../provider/resources/${file}.ts`);
      expect(loaded[exportName]).toBe(definition);
    });
  }

  for (const kind of kinds) {
    it(`${kind}: a kinds/ module with the provider methods, a Resource class and a lifecycle`, async () => {
      const loaded = await import(`../../provider/kinds/${kind}.ts`);
      const provider = loaded.default ?? loaded;
      for (const method of ["configure", "check", "diff", "create", "read", "update", "delete"]) {
        expect(typeof provider[method], method).toBe("function");
      }
      expect(typeof (docs as Record<string, unknown>)[kind]).toBe("function");
      expect(lifecycle(kind).definition.kind).toBe(kind);
    });
  }

  it("names the package version to upgrade for an unknown kind", () => {
    expect(() => lifecycle("Nope")).toThrow(/unknown resource kind "Nope"; upgrade the package/);
  });
});
