#!/usr/bin/env node
/**
 * docs-platform-emulator [--port N] [--token T] [--page-size N] [--openapi-step-ms N]
 *
 * Prints one JSON line {"url","token","organizationId","spaceIds","userIds",...} on stdout and serves until
 * SIGINT/SIGTERM.
 */
import { startEmulator } from "./index";

function usage(message?: string): never {
  if (message) process.stderr.write(`docs-platform-emulator: ${message}\n`);
  process.stderr.write("usage: docs-platform-emulator [--port N] [--token T] [--page-size N] [--openapi-step-ms N]\n");
  process.exit(2);
}

function parseArgs(argv: string[]): { port: number; token?: string; pageSize?: number; openApiStepMs?: number } {
  const out: { port: number; token?: string; pageSize?: number; openApiStepMs?: number } = { port: 0 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf("=");
    const name = eq >= 0 ? arg.slice(0, eq) : arg;
    const value = (): string => {
      if (eq >= 0) return arg.slice(eq + 1);
      const v = argv[++i];
      if (v === undefined) usage(`${name} needs a value`);
      return v;
    };
    const int = (v: string, min: number, max: number): number => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) usage(`${name} must be an integer in ${min}..${max}`);
      return n;
    };
    switch (name) {
      case "--port":
        out.port = int(value(), 0, 65535);
        break;
      case "--token": {
        const t = value();
        if (!t) usage("--token must not be empty");
        out.token = t;
        break;
      }
      case "--page-size":
        out.pageSize = int(value(), 1, 1000);
        break;
      case "--openapi-step-ms":
        out.openApiStepMs = int(value(), 0, 600_000);
        break;
      case "-h":
      case "--help":
        usage();
        break;
      default:
        usage(`unknown argument ${arg}`);
    }
  }
  return out;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const emu = await startEmulator(args);
  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    emu.close().then(
      () => process.exit(0),
      () => process.exit(0),
    );
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
  process.stdout.write(
    `${JSON.stringify({
      url: emu.url,
      token: emu.token,
      organizationId: emu.organizationId,
      secondOrganizationId: emu.secondOrganizationId,
      spaceIds: emu.spaceIds,
      userIds: emu.userIds,
    })}\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`docs-platform-emulator: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
