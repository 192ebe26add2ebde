import { describe, expect, it } from "vitest";
import * as docs from "../../provider";
import { kinds, lifecycle } from "../../provider/runtime";

/**
 * Every state stores `require("pulumi-docs-platform/kinds/<Kind>")` as its provider: each registered kind must have
 * that module, exporting the provider methods, and a Resource class of the same name for programs.
 */
describe("kind registry", () => {
  it("registers the eleven kinds", () => {
    expect([...kinds].sort()).toEqual(
      [
        "Collection",
        "OpenApiSpec",
        "SamlProvider",
        "Site",
        "SiteAdaptiveSchema",
        "SiteSection",
        "SiteSectionGroup",
        "SiteShareLink",
        "SiteSpace",
        "Team",
        "TeamMember",
      ].sort(),
    );
  });

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
