import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { INTEGRATION_CATALOGUE } from "../../emulator/families/integrations/integrationCatalogue";

/** emulator/README.md's table of the integration catalogue says what integrationCatalogue.ts holds. */
describe("the emulator README's integration catalogue", () => {
  const readme = readFileSync(path.join(__dirname, "../../emulator/README.md"), "utf8");
  const lines = readme.split("\n");
  const header = lines.findIndex((line) => line.trim().startsWith("| Integration | Target |"));
  const end = lines.findIndex((line, i) => i > header && !line.trim().startsWith("|"));
  const rows = lines.slice(header + 2, end);

  it("has one row per integration of the catalogue, and no other", () => {
    const named = rows.map((row) => /`([^`]+)`/.exec(row)?.[1]);
    expect(named.sort()).toEqual(INTEGRATION_CATALOGUE.map((integration) => integration.name).sort());
    expect(named).toContain("googleanalytics");
  });

  it("names each integration's target and every key of each level, marking the required ones", () => {
    for (const integration of INTEGRATION_CATALOGUE) {
      const row = rows.find((line) => line.trimStart().startsWith(`| \`${integration.name}\` (`)) ?? "";
      const cells = row.split("|").map((cell) => cell.trim());
      // cells: "", name, target, account, site, space, ""
      expect(cells[2], integration.name).toBe(integration.target);
      const levels = [integration.account, integration.site, integration.space];
      levels.forEach((schema, i) => {
        const cell = cells[3 + i] ?? "";
        if (schema === undefined) {
          expect(cell, `${integration.name} level ${i}`).toMatch(/^\(none: not on/);
          return;
        }
        const keys = Object.keys(schema.properties);
        if (keys.length === 0) expect(cell).toBe("none");
        for (const key of keys) {
          const required = schema.required?.includes(key) === true;
          expect(cell, `${integration.name}.${key}`).toContain(required ? `\`${key}\`*` : `\`${key}\``);
          if (!required) expect(cell).not.toContain(`\`${key}\`*`);
        }
      });
    }
  });
});
