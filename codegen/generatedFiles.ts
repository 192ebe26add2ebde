/**
 * Every file `npm run docs` writes (tools/gen-docs.mjs), the one list of them: whole generated files, and the generated
 * blocks of the hand-written documents (conventionFacts.ts).
 */
import { type DocumentWithBlocks, factBlocks, withBlocks } from "./conventionFacts";
import {
  PLUGIN_CLASSES_FILE,
  PLUGIN_FUNCTIONS_FILE,
  renderPluginClasses,
  renderPluginFunctions,
} from "./pluginClasses";
import { POLICY_REFERENCE_FILE, renderPolicyReference } from "./policyDocs";
import { RESOURCE_CLASSES_FILE, renderClasses } from "./resourceClasses";
import { REFERENCE_FILE, renderKindsTable, renderReference } from "./resourceDocs";
import { RESOURCE_TYPES_FILE, renderTypes } from "./resourceTypes";
import { type FunctionSource, SCHEMA_FILE, schemaText } from "./schema";
import type { Definition } from "./typeModel";

/**
 * The dynamic route's module of a kind (`provider/kinds/<Kind>.ts`), whose path every state stores as `__provider`
 * (framework/resource.ts), so it must never move: derived from the registry like the classes, so a new kind has it
 * and test/runtime/registry.test.ts finds none without its kind.
 */
export function kindModule(kind: string): string {
  return `import { providerFor } from "../framework/dynamic";\n\nexport = providerFor("${kind}");\n`;
}

/**
 * Every generated file, by path from the repository root, given the current text of the hand-written documents
 * (`DOCUMENTS_WITH_BLOCKS`), of which only the generated blocks are rewritten.
 */
export function generatedFiles(
  definitions: readonly Definition[],
  documents: Readonly<Record<DocumentWithBlocks, string>>,
  functions: readonly FunctionSource[],
): Record<string, string> {
  const blocks = factBlocks(definitions);
  return {
    [REFERENCE_FILE]: renderReference(definitions),
    [RESOURCE_TYPES_FILE]: renderTypes(definitions),
    [RESOURCE_CLASSES_FILE]: renderClasses(definitions),
    [PLUGIN_CLASSES_FILE]: renderPluginClasses(definitions),
    [SCHEMA_FILE]: schemaText(definitions, functions),
    [PLUGIN_FUNCTIONS_FILE]: renderPluginFunctions(functions),
    [POLICY_REFERENCE_FILE]: renderPolicyReference(definitions.map((definition) => definition.kind)),
    ...Object.fromEntries(definitions.map(({ kind }) => [`provider/kinds/${kind}.ts`, kindModule(kind)])),
    "README.md": withBlocks("README.md", documents["README.md"], {
      ...blocks["README.md"],
      "kinds table": renderKindsTable(definitions),
    }),
    "docs/conventions.md": withBlocks(
      "docs/conventions.md",
      documents["docs/conventions.md"],
      blocks["docs/conventions.md"],
    ),
  };
}
