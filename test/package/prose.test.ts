import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as lookups from "../../provider/lookups";
import { definitions } from "../../provider/registry";

/**
 * Counts written in prose go stale the day a kind lands ("the same 23 kinds" stood for months beside 32). Where a
 * document states how many kinds the package has, or what a folder of tests holds, it is checked here against the
 * registry and the tree.
 */
const repoRoot = path.resolve(__dirname, "../..");
const read = (file: string) => readFileSync(path.join(repoRoot, file), "utf8");

function markdownFiles(dir: string): string[] {
  return readdirSync(path.join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return ["node_modules", "fixtures"].includes(entry.name) ? [] : markdownFiles(relative);
    return entry.name.endsWith(".md") ? [relative] : [];
  });
}

const documents = [
  "README.md",
  "provider/README.md",
  "emulator/README.md",
  ...markdownFiles("docs"),
  ...markdownFiles("examples"),
];

/** Phrases that state the package's whole count: "the 32 kinds", "all 32 kinds", "the same 32 kinds". */
const TOTAL = /\b(?:the(?: same)?|all|every one of the)\s+(\d+)\s+kinds\b/g;

describe("counts in prose", () => {
  it("every statement of how many kinds there are says the registry's count", () => {
    const wrong: string[] = [];
    let statements = 0;
    for (const file of documents) {
      for (const match of read(file).matchAll(TOTAL)) {
        statements++;
        if (Number(match[1]) !== definitions.length) wrong.push(`${file}: "${match[0]}"`);
      }
    }
    const description: string = JSON.parse(read("package.json")).description;
    for (const match of description.matchAll(TOTAL)) wrong.push(`package.json description: "${match[0]}"`);
    expect(statements, "the generated per-kind facts state the total").toBeGreaterThan(0);
    expect(wrong, `the registry has ${definitions.length} kinds`).toEqual([]);
  });

  it("the README's count of the demo's kinds is the demo program's", () => {
    const stated = /demo's program, (\d+) kinds/.exec(read("README.md"));
    expect(stated).not.toBeNull();
    const dir = "examples/docs-site";
    const source = readdirSync(path.join(repoRoot, dir))
      .filter((file) => file.endsWith(".ts"))
      .map((file) => read(path.join(dir, file)))
      .join("\n");
    const kinds = new Set(
      [...source.matchAll(/new docs\.([A-Z][A-Za-z]+)\(/g)]
        .map((match) => match[1]!)
        .filter((kind) => definitions.some((definition) => definition.kind === kind)),
    );
    expect(Number(stated![1])).toBe(kinds.size);
  });

  it("the README's list of lookups names every lookup that has an Output form, and no other", () => {
    const sentence = read("README.md").match(/Each lookup has a Promise form \(([^)]*)\)/)?.[1] ?? "";
    const named = [...sentence.matchAll(/`(get\w+)`/g)].map((m) => m[1]).sort();
    const exported = Object.keys(lookups)
      .filter((name) => /^get\w+Output$/.test(name))
      .map((name) => name.replace(/Output$/, ""))
      .sort();
    expect(exported.length).toBeGreaterThan(0);
    expect(named).toEqual(exported);
  });

  it("the README's table of test folders has a row for each folder of test/, and none for a folder that is gone", () => {
    const readme = read("README.md");
    const table = readme.slice(readme.indexOf("### What the tests check"));
    const rows = [...table.matchAll(/^\| `test\/([a-z0-9-]+)\/` \|/gm)].map((match) => match[1]!);
    const folders = readdirSync(path.join(repoRoot, "test"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== "support")
      .map((entry) => entry.name);
    expect(rows.toSorted()).toEqual(folders.toSorted());
  });
});
