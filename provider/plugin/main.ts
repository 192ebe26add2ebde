/**
 * The `docs` provider plugin's entry: the engine starts `pulumi-resource-docs` (bin/) with
 * `[--logtostderr] [-v=N] [--tracing <endpoint>] <engine address>` and reads the port from the first line of stdout.
 * One plugin process serves one provider (the stack's default one, or one `pulumi:providers:docs` resource) for one
 * operation, which is what the runtime's single Operation assumes. It leaves when that engine is gone
 * (../framework/engineWatch.ts).
 */

import { engineAddress, leaveWhenEngineGone } from "../framework/engineWatch";
import { FUNCTIONS } from "../functions";
import { definitions } from "../registry";
import { currentOperation } from "../runtime";
import { EngineLog } from "./engineLog";
import { readSchemaText } from "./schemaFile";
import { serve } from "./server";

const { version } = require("pulumi-docs-platform/package.json") as { version: string };

export { engineAddress };

export async function main(args: readonly string[]): Promise<void> {
  const log = new EngineLog();
  const address = engineAddress(args);
  if (address !== undefined) log.attach(address);
  // Started by hand (`pulumi plugin run`, a test) there is no engine to watch: it serves until stopped.
  leaveWhenEngineGone(args, "pulumi-resource-docs");
  log.install();
  const { port } = await serve({
    definitions,
    functions: FUNCTIONS,
    operation: currentOperation,
    version,
    schema: readSchemaText,
    log,
  });
  process.stdout.write(`${port}\n`);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`pulumi-resource-docs: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
