/**
 * What provider/README.md's table says a new kind touches, checked for every registered kind, so a file left out
 * fails here by name instead of silently (the table names the test for each row).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { definitions } from "../../provider/registry";
import { CENSUS_KINDS, NOT_IN_CENSUS } from "../support/census";
import { RECOVERY_CASES } from "./recoveryCases";

const root = path.join(__dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

/** The kinds a `describeLifecycle` table in test/runtime names (`kind: "<Kind>"` in a file that calls it). */
const lifecycleTables = new Set(
  readdirSync(path.join(root, "test/runtime"))
    .filter((file) => file.endsWith(".test.ts"))
    .map((file) => read(`test/runtime/${file}`))
    .filter((source) => source.includes("describeLifecycle("))
    .flatMap((source) => [...source.matchAll(/\bkind: "([A-Z][A-Za-z]+)"/g)].map((match) => match[1])),
);
const parity = read("test/contract/parity.test.ts");
/** Kinds with no input the official document limits or enumerates, so no parity entry to write. */
const NO_PARITY_ENTRY: Readonly<Record<string, string>> = {
  OrganizationAgentInstructions:
    "its one input, instructions, is free text: the official JSONDocument it becomes states no limit or enumeration",
  SiteStructure: "its only input is a list of ids of its site's objects, checked by its own tests",
  IntegrationSpaceInstallation:
    "its one limited input, integrationName, is a path parameter (an unknown name is a 404, no 400 to compare); " +
    "its configuration follows each integration's own schema",
  IntegrationSiteInstallation:
    "its one limited input, integrationName, is a path parameter (an unknown name is a 404, no 400 to compare); " +
    "its configuration follows each integration's own schema",
};
const changelog = read("CHANGELOG.md");

describe("a new kind touches every file provider/README.md lists", () => {
  for (const { kind } of definitions) {
    it(`${kind}: has a describeLifecycle table in test/runtime`, () => {
      expect(lifecycleTables.has(kind), `no describeLifecycle table names kind "${kind}"`).toBe(true);
    });
    it(`${kind}: has parity entries in test/contract/parity.test.ts, or says why not`, () => {
      const entry = parity.includes(`kind("${kind}"`);
      expect(entry || kind in NO_PARITY_ENTRY, `no kind("${kind}", …) in parity.test.ts`).toBe(true);
      expect(entry && kind in NO_PARITY_ENTRY, `${kind} has parity entries: drop it from NO_PARITY_ENTRY`).toBe(false);
    });
    it(`${kind}: is counted by the census of test/support/census.ts, or says why not`, () => {
      expect(
        CENSUS_KINDS.has(kind) !== kind in NOT_IN_CENSUS,
        `${kind}: in exactly one of CENSUS_KINDS and NOT_IN_CENSUS`,
      ).toBe(true);
    });
    it(`${kind}: has a row in test/runtime/recoveryCases.ts when it has findCreated`, () => {
      const definition = definitions.find((d) => d.kind === kind)!;
      const row = RECOVERY_CASES.some((c) => c.kind === kind);
      expect(row, `${kind} has findCreated and no row in RECOVERY_CASES (test/runtime/recoveryCases.ts)`).toBe(
        definition.findCreated !== undefined,
      );
    });
    it(`${kind}: is named in CHANGELOG.md`, () => {
      expect(changelog.includes(`\`${kind}\``), `CHANGELOG.md never names \`${kind}\``).toBe(true);
    });
  }
});

/** The rows of the guide's table whose header is `header`: its cells, split. */
function tableRows(guide: string, header: string): string[][] {
  const lines = guide.slice(guide.indexOf(header)).split("\n").slice(2);
  const rows = lines.slice(
    0,
    lines.findIndex((line) => !line.startsWith("|")),
  );
  return rows.map((row) =>
    row
      .slice(1, -1)
      .split(" | ")
      .map((cell) => cell.trim()),
  );
}
/** The files a cell names: backticked paths of files or folders. */
const filesIn = (cell: string) =>
  [...cell.matchAll(/`([\w./<>-]+(?:\.(?:ts|md|json)|\/))`/g)].map((match) => match[1]!);

describe("provider/README.md's walk of a new kind", () => {
  const guide = read("provider/README.md");
  const touched = tableRows(guide, "| File | What you write | Fails when forgotten |");
  const alsoTouched = tableRows(guide, "| File | When | What you write |");

  it("names, for every row of the table, a test that exists (or the typecheck)", () => {
    const unnamed = touched.filter(([, , fails]) => {
      const tests = [...fails!.matchAll(/`(test\/[\w./-]+\.ts)`/g)].map((match) => match[1]!);
      return (
        !fails!.includes("npm run typecheck") &&
        (tests.length === 0 || !tests.every((t) => existsSync(path.join(root, t))))
      );
    });
    expect(unnamed.map(([files]) => files)).toEqual([]);
  });

  it("states the count of hand-edited files its tables give for a site-level kind with its own API object", () => {
    const always = new Set(
      touched.filter(([, what]) => !what!.startsWith("Only")).flatMap(([files]) => filesIn(files!)),
    );
    const withSecond = new Set([
      ...always,
      ...alsoTouched
        .filter(([, when]) => when === "Always" || when!.startsWith("A site-level kind"))
        .flatMap(([files]) => filesIn(files!)),
    ]);
    const flat = guide.replace(/\s+/g, " ");
    expect(flat).toContain(`hand-edits ${always.size} files`);
    expect(flat).toContain(`and ${withSecond.size} with the second table's rows`);
  });
});
