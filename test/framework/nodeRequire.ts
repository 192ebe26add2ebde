import { createRequire } from "node:module";
import path from "node:path";

/**
 * The provider methods load the runtime, and the Resource classes their kind's provider object, with a plain
 * `require` of a relative path, as the plugin process does with the built package. Under vitest such a `require`
 * cannot resolve a TypeScript module: this hands it, for the requests named, the module vitest loaded instead (the
 * same instance the test fixtures reset). Returns the function that undoes it.
 */
type ModuleInternals = {
  _resolveFilename(request: string, ...rest: unknown[]): string;
  new (id: string): { exports: unknown; loaded: boolean; filename: string };
};

const nodeRequire = createRequire(__filename);
const Module = nodeRequire("node:module") as ModuleInternals;
const providerDir = path.resolve(__dirname, "../../provider");

/** `modules`: request as written in provider/framework (`../runtime`, `../kinds/Team`) → the loaded module's exports. */
export function serveRequires(modules: Record<string, unknown>): () => void {
  const files = Object.fromEntries(
    Object.keys(modules).map((request) => [request, path.join(providerDir, "framework", `${request}.ts`)]),
  );
  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function (request: string, ...rest: unknown[]) {
    return files[request] ?? resolveFilename.call(this, request, ...rest);
  };
  for (const [request, exports] of Object.entries(modules)) {
    const file = files[request] as string;
    const loaded = new Module(file);
    Object.assign(loaded, { exports, loaded: true, filename: file });
    nodeRequire.cache[file] = loaded as unknown as NodeJS.Module;
  }
  return () => {
    Module._resolveFilename = resolveFilename;
    for (const file of Object.values(files)) delete nodeRequire.cache[file];
  };
}
