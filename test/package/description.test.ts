import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { definitions } from "../../provider/registry";

const repoRoot = path.resolve(__dirname, "../..");
const manifest = require("../../package.json");

/**
 * The kind families: the leading word of each kind's name (Site for SiteSection and SiteRedirects, Organization for
 * OrganizationSettings and OrganizationMember, Open for OpenApiSpec). A new family is a new part of the organization
 * the package manages, which the two summaries a reader meets first must then name.
 */
const families = [...new Set(definitions.map((definition) => /^[A-Z][a-z]+/.exec(definition.kind)![0]))];

/** The README's first paragraph: what the npm page and the repository show first. */
function readmeIntro() {
  const readme = readFileSync(path.join(repoRoot, "README.md"), "utf8");
  return readme.split(/\n\n/)[1]!;
}

describe("what the package says it manages", () => {
  const summaries = { "package.json description": manifest.description as string, "README intro": readmeIntro() };

  for (const [where, text] of Object.entries(summaries)) {
    it(`the ${where} names every kind family`, () => {
      expect(families.length).toBeGreaterThan(1);
      const unnamed = families.filter((family) => !new RegExp(`\\b${family}`, "i").test(text));
      expect(unnamed, `${where}: ${text}`).toEqual([]);
    });
  }
});
