/**
 * The plugin's package schema as a file: `npm run docs` writes it (codegen/schema.ts builds it from the kinds' type
 * model) and the package ships it, so the plugin answers `GetSchema` by reading it, never by building it at run time.
 */
import { readFileSync } from "node:fs";
import path from "node:path";

/** Where `npm run docs` writes the schema, from the repository root; shipped at the same path in the package. */
export const SCHEMA_FILE = "provider/plugin/schema.json";

/** Where the schema is, in the repository and in the installed package (`files` ships it at the same path). */
export function schemaPath(): string {
  return path.join(path.dirname(require.resolve("pulumi-docs-platform/package.json")), SCHEMA_FILE);
}

/** The checked-in schema's text, which the plugin answers `GetSchema` with. */
export function readSchemaText(): string {
  return readFileSync(schemaPath(), "utf8");
}
