import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, it } from "vitest";

const repoRoot = path.resolve(__dirname, "../..");

function report(providerOperations: Record<string, number>): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "api-coverage-")), "summary.json");
  writeFileSync(file, JSON.stringify({ providerOperations }));
  return execFileSync(process.execPath, ["tools/api-coverage.mjs", file], { cwd: repoRoot, encoding: "utf8" });
}
const count = (text: string, row: string) => Number(text.match(new RegExp(`\\| ${row} \\| \\**(\\d+)`))?.[1]);

/** tools/api-coverage.mjs: the note's operation count, from a run's provider requests and the document. */
it("counts configuration operations used, and says why each other operation is left out", () => {
  const none = report({});
  const some = report({ createSpace: 3, listSites: 1, askInOrganization: 1, unmatched: 2 });
  expect(count(none, "of those, used by the provider")).toBe(0);
  // createSpace and listSites are configuration; asking a question is not, and is reported used all the same.
  expect(count(some, "of those, used by the provider")).toBe(2);
  expect(count(some, "used by the provider, all told")).toBe(3);
  expect(some).toContain("(used all the same: `askInOrganization`)");
  expect(count(some, "of those, configuration")).toBe(count(none, "of those, configuration"));
  expect(none).toContain("- `createSpace` (POST /orgs/{organizationId}/spaces, spaces)");
  expect(some).not.toContain("- `createSpace` (");
  // A single channel's GET is needed only by a provider that does not read channels from their listing.
  const unneededLine = (text: string) => text.split("\n").find((line) => line.startsWith("and ")) ?? "";
  expect(unneededLine(report({ listSiteChannels: 1 }))).toContain("`getSiteChannelById`");
  expect(unneededLine(none)).not.toContain("`getSiteChannelById`");
  expect(none).toContain("- `getSiteChannelById` (");
  // Staff-only and integration-only operations are counted apart, by name.
  expect(none).toMatch(/Not callable with a user's personal token \(\d+: .*`listCustomFonts`/);
});
