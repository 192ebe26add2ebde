/**
 * The `docs` provider plugin's entry: the engine starts `pulumi-resource-docs` (bin/) with
 * `[--logtostderr] [-v=N] [--tracing <endpoint>] <engine address>` and reads the port from the first line of stdout.
 * One plugin process serves one provider (the stack's default one, or one `pulumi:providers:docs` resource) for one
 * operation, which is what the runtime's single Operation assumes.
 */

import { readSchemaText } from "../framework/schema";
import { FUNCTIONS } from "../functions";
import { definitions } from "../registry";
import { currentOperation } from "../runtime";
import { EngineLog } from "./engineLog";
import { serve } from "./server";

const { version } = require("pulumi-docs-platform/package.json") as { version: string };

/** The engine's address: the one argument that is neither a flag nor a flag's value. */
export function engineAddress(args: readonly string[]): string | undefined {
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--tracing") i++;
    else if (!arg.startsWith("-")) positional.push(arg);
  }
  return positional[0];
}

export async function main(args: readonly string[]): Promise<void> {
  const log = new EngineLog();
  const address = engineAddress(args);
  if (address !== undefined) log.attach(address);
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
