#!/usr/bin/env node
/**
 * docs-platform-emulator: the emulated API in a process of its own, for the Pulumi CLI and other tools. See --help.
 */
import { setFlagsFromString } from "node:v8";
import { type EmulatorOptions, parseRateLimit, startEmulator } from "./index";
import { MAX_REQUEST_LOG_LIMIT } from "./requestLog";

const HELP = `usage: docs-platform-emulator [options]

Serves an in-memory emulator of the GitBook v1 API until SIGINT or SIGTERM.

Options:
  --port N              port to listen on (default 0: an ephemeral port)
  --token T             bearer token the API accepts (default test-token)
  --page-size N         default page size of lists, 1..1000 (default 20)
  --openapi-step-ms N   duration of each OpenAPI processing step (default 50)
  --translation-step-ms N  duration of each step of a translation's run (default 0: a run completes at once)
  --rate-limit R/W      rate limit per token: R requests per window W, e.g. 60/60s, 20/5s, 100/1m
                        (X-RateLimit-* headers on every /v1 answer, 429 once spent; default off)
  --request-log-limit N request log entries kept, the newest, 0..10000000 (default 10000; 0 keeps none,
                        the counters still count); GET /__admin/requests says how many were dropped
  -h, --help            this help

Output: once listening, one JSON line on stdout, then nothing:
  {"url":"http://127.0.0.1:PORT/v1","token":"...","organizationId":"...","secondOrganizationId":"...",
   "spaceIds":["..."],"userIds":["..."]}
  url is the API base (set DOCS_API_URL to it), token the bearer token (DOCS_API_TOKEN), organizationId the
  fixture organization, secondOrganizationId another organization the token reaches, spaceIds the spaces of the
  first organization and userIds its members. Admin API (no auth): <origin>/__admin/... (see emulator/README.md).
`;

function usage(message: string): never {
  process.stderr.write(`docs-platform-emulator: ${message}\nusage: docs-platform-emulator [options] (see --help)\n`);
  process.exit(2);
}

function parseArgs(argv: string[]): EmulatorOptions {
  const out: EmulatorOptions = { port: 0 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
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
      case "--translation-step-ms":
        out.translationStepMs = int(value(), 0, 600_000);
        break;
      case "--rate-limit":
        try {
          out.rateLimit = parseRateLimit(value());
        } catch (err) {
          usage(`--rate-limit: ${err instanceof Error ? err.message : String(err)}`);
        }
        break;
      case "--request-log-limit":
        out.requestLogLimit = int(value(), 0, MAX_REQUEST_LOG_LIMIT);
        break;
      case "-h":
      case "--help":
        process.stdout.write(HELP);
        process.exit(0);
        break;
      default:
        usage(`unknown argument ${arg}`);
    }
  }
  return out;
}

/**
 * Under steady load V8 doubles its young generation up to its maximum (64 MiB of semi-spaces on Node 24), which
 * doubled the bin's resident size over an hour while its live heap stayed flat (bench/README.md, "soak"). The
 * maximum is fixed when the heap is set up, so `--max-semi-space-size` works only on the command line; the growth
 * factor is read at each growth, so setting it to 1 here keeps the young generation at its initial size. A user who
 * chose a semi-space size in NODE_OPTIONS or on the command line keeps their choice.
 */
function keepYoungGenerationSmall(): void {
  const chosen = [...process.execArgv, process.env.NODE_OPTIONS ?? ""].some((arg) => arg.includes("semi-space"));
  if (!chosen) setFlagsFromString("--semi-space-growth-factor=1");
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  keepYoungGenerationSmall();
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
