import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as docs from "../../provider";
import { generatedFiles, renderReference } from "../../provider/framework/reference";
import { definitions } from "../../provider/registry";

const root = path.join(__dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

/** The same comparison as `npm run docs:check`, so that `npm test` fails on stale generated files too. */
describe("files generated from the kinds' schemas", () => {
  // Generated inside each test, not once for the file: a mutation run activates a mutant for a test, so output
  // computed while the file is collected would never see one (test/runtime/reference.test.ts killed 99 of 399).
  const generate = () => generatedFiles(definitions, read("README.md"));

  for (const file of Object.keys(generate())) {
    it(`${file} is what \`npm run docs\` writes`, () => {
      const text = generate()[file];
      expect(read(file) === text, `${file} is stale: run \`npm run docs\` and commit the result`).toBe(true);
    });
  }

  it("documents every argument and output of every kind, with the text of its schema", () => {
    const reference = renderReference(definitions);
    for (const definition of definitions) {
      expect(reference).toContain(`## ${definition.kind}\n`);
      expect(reference).toContain(definition.example);
    }
    expect(reference).toContain(
      "| `title` | string, at most 50 characters | update in place | required | The collection's title. |",
    );
    expect(reference).toContain(
      "| `organizationId` | id | replace (delete before replace) | default: stack config `docs:organizationId` or `DOCS_ORGANIZATION_ID` |",
    );
  });

  it("gives each registered kind a generated class and a documented property per state field", () => {
    for (const definition of definitions) {
      expect(typeof (docs as Record<string, unknown>)[definition.kind], definition.kind).toBe("function");
    }
    const generated = generate()["provider/resources/generated.ts"] ?? "";
    expect(generated).toContain("/** The collection's title. */\n  declare readonly title: pulumi.Output<string>;");
  });
});
