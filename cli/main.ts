#!/usr/bin/env node
/**
 * docs-platform: bring an existing organization under code (`import`) and list what the code does not manage
 * (`unmanaged`). Same credentials as the provider: DOCS_API_TOKEN, and DOCS_API_URL for another API.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs, promisify } from "node:util";
import { emitProgram } from "./emit";
import { projectFiles, writeProject } from "./project";
import { ENV_KEYS, lifecycle } from "./provider";
import { describeResolutions, pendingCreates, REFRESH_ARGS, recoveredState, resolvePendingCreates } from "./recover";
import { describeUnmanaged, inventory, managedByState, unmanagedObjects } from "./unmanaged";
import { WALKED_KINDS, walkOrganization } from "./walk";

/** Exit codes a CI script can rely on. */
export const EXIT = {
  ok: 0,
  /** The API, the state or the file system failed; the message says which. */
  failure: 1,
  /** Wrong arguments. */
  usage: 2,
  /**
   * `unmanaged` found objects the stack does not manage; `import` left objects out of the program; `recover` left
   * pending creates for the user to decide.
   */
  found: 3,
} as const;

const EXIT_HELP = `Exit codes:
  0  success (unmanaged: every object is managed)
  1  failure: the API, the stack's state or the file system (the message says which)
  2  usage: unknown command or option, missing value
  3  unmanaged: some objects are not managed; import: some objects were left out (listed on stderr);
     recover: some pending creates need a decision (listed)`;

const CREDENTIALS_HELP = `Environment:
  ${ENV_KEYS.apiToken}        API token (required), as for the provider
  ${ENV_KEYS.apiUrl}          API base URL (default https://api.gitbook.com/v1)
  ${ENV_KEYS.organizationId}  the organization when --organization is left out, as for the provider`;

const HELP = {
  main: `Usage: docs-platform <command> [options]

Commands:
  import      write a Pulumi TypeScript project that adopts every object of an organization
  unmanaged   list the objects of an organization that a stack does not manage
  recover     resolve the creates a killed \`pulumi up\` left pending: import what they made, clear the rest

Run \`docs-platform <command> --help\` for a command's options.

${CREDENTIALS_HELP}

${EXIT_HELP}
`,
  import: `Usage: docs-platform import --organization <id> --out <dir> [options]

Walks every object of the organization (collections, spaces, teams and their members, SAML providers, OpenAPI
specs, the roles granted on spaces and collections, and every site with its sections, section groups, site spaces,
share links, adaptive schema and grants) and writes a Pulumi TypeScript project into <dir> (Pulumi.yaml,
package.json, tsconfig.json, index.ts, README.md) whose first \`pulumi up\` adopts them all without changing
anything. Spaces are declared with retainOnDelete: removing one, or destroying the stack, leaves it and its content.
Files of the same names in <dir> are overwritten.

Options:
  --organization <id>   the organization to walk (required, or ${ENV_KEYS.organizationId})
  --out <dir>           where to write the project (required)
  --kinds <list>        only these kinds, comma-separated (default: all):
                        ${WALKED_KINDS.join(", ")}
  --site <id>           of the sites, only this one
  --name <name>         the Pulumi project name (default: docs-platform)
  --quiet               no progress on stderr
  -h, --help            this help

${CREDENTIALS_HELP}

${EXIT_HELP}
`,
  unmanaged: `Usage: docs-platform unmanaged --organization <id> [options]

Lists, by kind, every object of the organization that the stack's state does not manage, with ids and titles.
The state is read with \`pulumi stack export\` in the current directory, or from --state.

Options:
  --organization <id>   the organization to inspect (required, or ${ENV_KEYS.organizationId})
  --stack <name>        the stack to export (default: the selected stack)
  --state <file|->      read \`pulumi stack export\` output from a file, or stdin with -
  --json                print {"organizationId","managed","unmanaged":[{kind,id,title,under?}]}
  --include-spaces      also list spaces (many stacks leave spaces alone; grants on them are always listed)
  -h, --help            this help

${CREDENTIALS_HELP}

${EXIT_HELP}
`,
  recover: `Usage: docs-platform recover [options]

After \`pulumi up\` was killed, the stack's state lists the creates that were in flight as pending. For each one of
this package, looks in the organization for the object it may have made (by the key the API keeps unique, else by
the declared title among the parent's objects made since the create began). Then, in the current directory, writes
what was made into the state as the resource and drops the creates that made nothing (\`pulumi stack export\`,
edited, \`pulumi stack import\`), and runs \`pulumi refresh --yes --skip-preview\` so that the engine reads every
imported object through the provider: the next \`pulumi up\` neither duplicates nor orphans. Pulumi's own
\`refresh --import-pending-creates\` is not used: Pulumi 3.259 drops such a create instead of importing it.
The state is read with \`pulumi stack export --show-secrets\` (secret inputs are matched, never printed).

Options:
  --stack <name>   the stack (default: the selected stack)
  --dry-run        only print what would be imported and cleared, and the pulumi commands
  --json           print {"resolutions":[{urn,kind,action,id?,candidates?}],"commands":[[...]]} on stdout
  -h, --help       this help

${CREDENTIALS_HELP}

${EXIT_HELP}
`,
};

class UsageError extends Error {}

/** Where a command writes: stdout for results, stderr for progress and errors. */
export interface Io {
  out: { write(text: string): unknown };
  err: { write(text: string): unknown };
}

export async function main(argv: string[], io: Io = { out: process.stdout, err: process.stderr }): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === "--help" || command === "-h" || command === "help") {
      (command === undefined ? io.err : io.out).write(HELP.main);
      return command === undefined ? EXIT.usage : EXIT.ok;
    }
    if (command === "import") return await importCommand(rest, io);
    if (command === "unmanaged") return await unmanagedCommand(rest, io);
    if (command === "recover") return await recoverCommand(rest, io);
    throw new UsageError(`unknown command "${command}"`);
  } catch (error) {
    if (error instanceof UsageError || isParseArgsError(error)) {
      io.err.write(`docs-platform: ${(error as Error).message}\nRun \`docs-platform --help\` for usage.\n`);
      return EXIT.usage;
    }
    io.err.write(`docs-platform: ${(error as Error).message}\n`);
    return EXIT.failure;
  }
}

function isParseArgsError(error: unknown): boolean {
  return (
    typeof (error as { code?: unknown })?.code === "string" &&
    (error as { code: string }).code.startsWith("ERR_PARSE_ARGS")
  );
}

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== "string" || value === "") throw new UsageError(`--${name} is required`);
  return value;
}

/** `--organization`, else the provider's own default from the environment: one setting serves both. */
function organizationOf(values: { organization?: string }): string {
  const id = values.organization || process.env[ENV_KEYS.organizationId]?.trim();
  if (!id) throw new UsageError(`--organization is required (or set ${ENV_KEYS.organizationId})`);
  return id;
}

async function importCommand(args: string[], io: Io) {
  const { values } = parseArgs({
    args,
    options: {
      organization: { type: "string" },
      out: { type: "string" },
      kinds: { type: "string" },
      site: { type: "string" },
      name: { type: "string", default: "docs-platform" },
      quiet: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    io.out.write(HELP.import);
    return EXIT.ok;
  }
  const organizationId = organizationOf(values);
  const out = required(values, "out");
  const kinds = values.kinds?.split(",").map((kind) => kind.trim());
  const unknown = kinds?.filter((kind) => !(WALKED_KINDS as readonly string[]).includes(kind));
  if (unknown?.length)
    throw new UsageError(`--kinds: unknown kind(s) ${unknown.join(", ")}; known: ${WALKED_KINDS.join(", ")}`);
  if (!/^[\w.-]+$/.test(values.name)) throw new UsageError("--name: letters, digits, '.', '_' and '-' only");

  const started = Date.now();
  const progress = values.quiet ? undefined : (line: string) => io.err.write(`docs-platform: ${line}\n`);
  const walk = await walkOrganization({ organizationId, kinds, siteId: values.site, progress });
  const command = ["docs-platform import", `--organization ${organizationId}`]
    .concat(values.kinds ? [`--kinds ${kinds!.join(",")}`] : [], values.site ? [`--site ${values.site}`] : [])
    .join(" ");
  const program = emitProgram(walk, command);
  const files = projectFiles({
    name: values.name,
    program: program.source,
    organizationId,
    command,
    objects: walk.objects.length,
  });
  writeProject(out, files);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  progress?.(
    `${walk.objects.length} objects in ${seconds} s; wrote ${path.join(out, "index.ts")} ` +
      `(${program.source.split("\n").length - 1} lines). Next: cd ${out} && npm install && pulumi up`,
  );
  for (const problem of walk.problems) {
    io.err.write(`docs-platform: left out ${problem.kind} ${problem.id} "${problem.title}": ${problem.reason}\n`);
  }
  return walk.problems.length > 0 ? EXIT.found : EXIT.ok;
}

async function unmanagedCommand(args: string[], io: Io) {
  const { values } = parseArgs({
    args,
    options: {
      organization: { type: "string" },
      stack: { type: "string" },
      state: { type: "string" },
      json: { type: "boolean", default: false },
      "include-spaces": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    io.out.write(HELP.unmanaged);
    return EXIT.ok;
  }
  const organizationId = organizationOf(values);
  if (values.stack && values.state) throw new UsageError("--stack and --state exclude each other");
  const managed = managedByState(JSON.parse(await readState(values.state, values.stack)));
  const objects = await inventory(organizationId, { includeSpaces: values["include-spaces"] });
  const unmanaged = unmanagedObjects(objects, managed);
  io.out.write(
    values.json
      ? `${JSON.stringify({ organizationId, managed: managed.count, unmanaged }, null, 2)}\n`
      : describeUnmanaged(organizationId, unmanaged, managed),
  );
  return unmanaged.length > 0 ? EXIT.found : EXIT.ok;
}

async function recoverCommand(args: string[], io: Io) {
  const { values } = parseArgs({
    args,
    options: {
      stack: { type: "string" },
      "dry-run": { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    io.out.write(HELP.recover);
    return EXIT.ok;
  }
  const stack = values.stack ? ["--stack", values.stack] : [];
  const exported = JSON.parse(await pulumi(["stack", "export", "--show-secrets", ...stack]));
  const resolutions = await resolvePendingCreates(pendingCreates(exported), (kind, inputs, since) =>
    lifecycle(kind).findCreated(inputs, since),
  );
  const recovered = await recoveredState(exported, resolutions, async (kind, id, inputs) => {
    const read = await lifecycle(kind).lookup(id, inputs, inputs);
    return read.id === "" ? undefined : read.props;
  });
  const commands = recovered
    ? [
        ["stack", "import", ...stack],
        [...REFRESH_ARGS, ...stack, "--non-interactive"],
      ]
    : [];
  if (values.json) io.out.write(`${JSON.stringify({ resolutions, commands }, null, 2)}\n`);
  else {
    io.out.write(describeResolutions(resolutions));
    for (const command of commands) {
      io.out.write(`${values["dry-run"] ? "Would run" : "Running"}: pulumi ${command.join(" ")}\n`);
    }
  }
  if (recovered && !values["dry-run"]) {
    await pulumi(commands[0]!, JSON.stringify(recovered.exported));
    await pulumi(commands[1]!);
  }
  const undecided = resolutions.some((r) => r.action === "ambiguous" || r.action === "foreign");
  return undecided ? EXIT.found : EXIT.ok;
}

/** Runs the pulumi CLI of the PATH; `input` goes to its stdin. */
async function pulumi(args: string[], input?: string): Promise<string> {
  try {
    const running = promisify(execFile)("pulumi", args, { maxBuffer: 256 << 20 });
    running.child.stdin?.end(input);
    const { stdout } = await running;
    return stdout;
  } catch (error) {
    const detail = (error as { stderr?: string }).stderr?.trim() || (error as Error).message;
    throw new Error(`\`pulumi ${args.join(" ")}\` failed: ${detail}`);
  }
}

async function readState(source: string | undefined, stack: string | undefined): Promise<string> {
  if (source === "-") return readFileSync(0, "utf8");
  if (source) return readFileSync(source, "utf8");
  return pulumi(["stack", "export", "--non-interactive", ...(stack ? ["--stack", stack] : [])]);
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
