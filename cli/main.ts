#!/usr/bin/env node
/**
 * docs-platform: bring an existing organization under code (`import`) and list what the code does not manage
 * (`unmanaged`). Same credentials as the provider: DOCS_API_TOKEN, and DOCS_API_URL for another API.
 */
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs, promisify } from "node:util";
import {
  AUDIT_WINDOW_NOTE,
  attribute,
  DRIFT_REPORT_VERSION,
  type DriftReport,
  engineFindings,
  type HistoryEntry,
  lastSuccessfulUpdate,
  MAX_AUDIT_PAGES,
  madeByRun,
  renderHtml,
  renderMarkdown,
  renderText,
  type StackRun,
  stackRuns,
  summaryOf,
  unmanagedFinding,
  updateName,
  withStateIds,
} from "./drift";
import { emitProgram, type ImportingStack, pluginImportFile } from "./emit";
import { projectFiles, writeProject } from "./project";
import {
  type ApiAuditEvent,
  apiClient,
  apiUrlSetting,
  CONFIG_KEYS,
  causeOfType,
  DocsApiError,
  ENV_KEYS,
  ForbiddenError,
  getOrganization,
  KindFailure,
  lifecycle,
  listAuditEvents,
  MissingCredentialsError,
  nonEmpty,
  startOperation,
  UserTokenRequiredError,
} from "./provider";
import { describeLiveProviders, projectDirectory, providerProcessesIn } from "./providerProcesses";
import {
  describeResolutions,
  pendingCreates,
  REFRESH_ARGS,
  type Resolution,
  recoveredState,
  resolvePendingCreates,
} from "./recover";
import { SPLIT_ADVISED_ABOVE, splitWalk } from "./split";
import { projectDirOfStack, stackNames } from "./stacks";
import {
  describeUnmanaged,
  inventoriedKinds,
  inventory,
  managedByState,
  organizationsInState,
  stateResources,
  UNMANAGED_KINDS,
  unmanagedObjects,
} from "./unmanaged";
import { DECLARED_INSIDE, NOT_WALKED, WALKED_KINDS, type Walk, walkOrganization } from "./walk";

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
     recover: some pending creates need a decision (listed); drift: drift or unmanaged objects were found`;

const CREDENTIALS_HELP = `Environment:
  ${ENV_KEYS.apiToken}        API token (required), as for the provider
  ${ENV_KEYS.apiUrl}          API base URL (default https://api.gitbook.com/v1)
  ${ENV_KEYS.organizationId}  the organization when --organization is left out, as for the provider`;

const HELP_WIDTH = 120;
/** Where an option's description starts. */
const KINDS_INDENT = " ".repeat(24);

/** Text broken into lines of at most HELP_WIDTH characters, each starting with `indent`. */
function wrapped(text: string, indent: string, first = indent): string {
  const lines: string[] = [];
  let line = first;
  let start = first.length;
  for (const word of text.split(" ")) {
    if (line.length > start && line.length + 1 + word.length > HELP_WIDTH) {
      lines.push(line);
      line = indent;
      start = indent.length;
    }
    line += line.length > start ? ` ${word}` : word;
  }
  lines.push(line);
  return lines.join("\n");
}

/** Kinds with why, one a line: the reason in a column after the kind. */
function kindTable(reasons: Readonly<Record<string, string>>, indent: string): string {
  const width = Math.max(...Object.keys(reasons).map((kind) => kind.length)) + 2;
  return Object.entries(reasons)
    .map(([kind, why]) => wrapped(why, indent + " ".repeat(width), indent + kind.padEnd(width)))
    .join("\n");
}

const HELP = {
  main: `Usage: docs-platform <command> [options]

Commands:
  import      write a Pulumi TypeScript project that adopts every object of an organization
  unmanaged   list the objects of an organization that a stack does not manage
  recover     resolve the creates a killed \`pulumi up\` left pending: import what they made, clear the rest
  drift       what changed outside the stack, who changed it, when and from where, as a report a team reads

Run \`docs-platform <command> --help\` for a command's options.

${CREDENTIALS_HELP}

${EXIT_HELP}
`,
  import: `Usage: docs-platform import --organization <id> --out <dir> [options]

Walks the organization and writes a Pulumi TypeScript project into <dir> (Pulumi.yaml, package.json, tsconfig.json,
index.ts, README.md) whose first \`pulumi up\` adopts every object it declares without changing anything: one
resource per object of the kinds --kinds lists, with every managed input at its current value. That includes the
organization's settings (OrganizationSettings), each site's navigation order (SiteStructure), its redirects as one
list (SiteRedirects) and, for a site whose readers sign in, its visitor authentication (SiteVisitorAuth; the signing
key stays a secret output, never in the program). Spaces are declared with retainOnDelete: removing one, or
destroying the stack, leaves it and its content. Files of the same names in <dir> are overwritten.

Declared inside another kind's resource:
${kindTable(DECLARED_INSIDE, "  ")}
Not imported (the output's last lines and the project's README say so too):
${kindTable(NOT_WALKED, "  ")}

Options:
  --organization <id>   the organization to walk (required, or ${ENV_KEYS.organizationId})
  --out <dir>           where to write the project (required)
  --kinds <list>        only these kinds, comma-separated (default: all):
${wrapped(WALKED_KINDS.join(", "), KINDS_INDENT)}
  --site <id>           of the sites, only this one
  --name <name>         the Pulumi project name (default: docs-platform)
  --plugin-json <file>  also write <file> for \`pulumi import --file <file>\`: the same objects under the same names,
                        as resources of the provider plugin (types docs:index:<Kind>, import ids with the organization)
  --split               one project per site and one for the organization's other objects, each in
                        <dir>/<name>-<site title>, <dir>/<name>-organization: stacks that stay small (advised above
                        ${SPLIT_ADVISED_ABOVE} resources); a site's program names the organization's objects by id
  --stack <name>        with --plugin-json: the stack that will import them: objects it already manages are left
                        out (with --site too), and ids leave out the organization where it is the stack's
                        ${CONFIG_KEYS.organizationId}, so that \`pulumi import\` writes references for them
  --quiet               no progress on stderr
  -h, --help            this help

${CREDENTIALS_HELP}

${EXIT_HELP}
`,
  unmanaged: `Usage: docs-platform unmanaged [--organization <id>] [options]

Lists, by kind, every object of the organization that the stack's state does not manage, with ids and titles.
A site's redirects are listed rule by rule (SiteRedirect), unless the state holds the site's SiteRedirects or a
SiteRedirect of that source. What every organization and site has (settings, customization, visitor authentication,
navigation order) is not an object and is not listed. The state is read with \`pulumi stack export\` in the current
directory, or from --state.

Options:
  --organization <id>   the organization to inspect; default: ${ENV_KEYS.organizationId}, else the stack's
                        ${CONFIG_KEYS.organizationId} (\`pulumi config get\`; not read with --state), else the one
                        organization the state's resources belong to (as in a program made by \`import\`)
  --stack <name>        the stack to export (default: the selected stack)
  --stacks <list>       several stacks, comma-separated (a split import's, as <project>/<stack> or
                        <org>/<project>/<stack>): what no one of them manages; each must belong to the organization
  --state <file|->      read \`pulumi stack export\` output from a file, or stdin with -
  --kinds <list>        only these kinds, comma-separated (default: all):
${wrapped(UNMANAGED_KINDS.join(", "), KINDS_INDENT)}
  --site <id>           of the sites, only this one
  --json                print {"organizationId","managed","unmanaged":[{kind,id,title,under?}]}
  --include-spaces      also list spaces (many stacks leave spaces alone; grants on them are always listed);
                        --kinds naming Space lists them too
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
imported object through the provider: the next \`pulumi up\` neither duplicates nor orphans.
It refuses to run, naming them, while a resource provider process of the program is still running (on Linux: a
process working in the project's directory whose command line is a \`pulumi-resource-*\` plugin or the SDK's
dynamic provider); elsewhere it says it could not check. Pulumi's own
\`refresh --import-pending-creates\` is not used: Pulumi 3.259 drops such a create instead of importing it.
The state is read with \`pulumi stack export --show-secrets\` (secret inputs are matched, never printed).

Options:
  --stack <name>   the stack (default: the selected stack)
  --stacks <list>  several stacks, comma-separated (a split import's, as <project>/<stack> or
                   <org>/<project>/<stack>), each recovered in its own project: the current directory, a folder
                   <project> in it, or a sibling folder <project> of the current project (as \`import --split\` writes
                   them); each must belong to one organization (--organization's, else the one their resources
                   name), a stack of another is refused, named, before any is touched
  --organization <id>  with --stacks: the organization every stack must belong to
  --dry-run        only print what would be imported and cleared, and the pulumi commands
  --json           print {"resolutions":[{urn,kind,action,id?,candidates?}],"commands":[[...]]} on stdout; with
                   --stacks, {"stacks":[{stack,resolutions,commands}]}
  -h, --help       this help

${CREDENTIALS_HELP}

${EXIT_HELP}
`,
};

const DRIFT_HELP = `Usage: docs-platform drift [options]

For the stack in the current directory (or --stack), reports:
  changed     the resources whose refreshed state differs from the program, each property declared → actual, from
              the engine's own \`pulumi preview --refresh --json\` (secrets show as [secret])
  deleted     the resources whose object is gone
  unmanaged   the objects no resource manages, as \`docs-platform unmanaged\` lists them
and, for each, who changed it, when, from where (ui, api, integration…) and the action: the organization's audit
events on its object since the stack's last successful update (\`pulumi stack history\`), read in one filtered
listing per organization (at most ${MAX_AUDIT_PAGES} pages of 100). Events made by the stack's own runs are told apart and
not reported. The audit trail needs an organization admin's personal API token (and the Enterprise plan): without
it, the report says so once and still reports the drift. Each finding comes with the command that reverts it and the
program change that adopts it.

Options:
  --stack <name>        the stack (default: the selected stack)
  --stacks <list>       several stacks, comma-separated (a split import's, as <project>/<stack> or
                        <org>/<project>/<stack>): each one's changed and deleted resources (its refreshed preview
                        runs in its project: the current directory, a folder <project> in it, or a sibling of the
                        current project), and the objects no one of them manages; the audit window starts at the
                        oldest of their last updates; a stack of another organization is refused, named
  --organization <id>   the organization for unmanaged objects; default as for \`unmanaged\`
  --kinds <list>        only these kinds of unmanaged objects (default: all, as \`unmanaged\`)
  --include-spaces      also list unmanaged spaces
  --markdown            print the report as Markdown (for a pull request, an issue or a chat message)
  --json                print the report as JSON (schema: docs/drift-report.schema.json in the package)
  --html <file>         also write the report as one self-contained HTML page (no external asset)
  -h, --help            this help

${CREDENTIALS_HELP}

Exit codes:
  0  no drift, every object managed
  1  failure: the API, the stack or the file system (the message says which)
  2  usage: unknown option, missing value
  3  drift or unmanaged objects were found
`;

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
    // A command is one operation: the listings it reads are kept until its own writes change them
    // (provider/framework/listings.ts), so a second command in the same process (a test, an embedding) lists afresh.
    startOperation();
    if (command === "import") return await importCommand(rest, io);
    if (command === "unmanaged") return await unmanagedCommand(rest, io);
    if (command === "recover") return await recoverCommand(rest, io);
    if (command === "drift") return await driftCommand(rest, io);
    throw new UsageError(`unknown command "${command}"`);
  } catch (error) {
    if (error instanceof UsageError || isParseArgsError(error)) {
      io.err.write(`docs-platform: ${(error as Error).message}\nRun \`docs-platform --help\` for usage.\n`);
      return EXIT.usage;
    }
    io.err.write(`docs-platform: ${withFix(error).message}\n`);
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

/** An organization id and the setting it came from, for messages that ask to check it. */
interface Organization {
  id: string;
  source: string;
}

/** `--organization`, else the provider's own default from the environment: one setting serves both. */
function givenOrganization(values: { organization?: string }): Organization | undefined {
  if (values.organization) return { id: values.organization, source: "--organization" };
  const fromEnvironment = nonEmpty(process.env[ENV_KEYS.organizationId]);
  return fromEnvironment ? { id: fromEnvironment, source: ENV_KEYS.organizationId } : undefined;
}

const ORGANIZATION_REQUIRED = `--organization is required (or set ${ENV_KEYS.organizationId})`;

function organizationOf(values: { organization?: string }): Organization {
  const given = givenOrganization(values);
  if (!given) throw new UsageError(ORGANIZATION_REQUIRED);
  return given;
}

/**
 * The organization of a stack whose command line names none: its \`docs:organizationId\` (the provider's own
 * default), else the one organization its resources belong to, since a program made by \`import\` names it in the
 * code. A state read from a file (\`stack\` undefined) has no stack config to go with it.
 */
async function stackOrganization(exported: unknown, stack: { name?: string } | undefined): Promise<Organization> {
  const configured = stack ? await configuredOrganization(stack.name) : undefined;
  if (configured && "id" in configured) {
    return { id: configured.id, source: `the stack's config ${CONFIG_KEYS.organizationId}` };
  }
  const found = organizationsInState(exported);
  if (found.length === 1) return { id: found[0]!, source: "the stack's state" };
  if (found.length > 1) {
    throw new UsageError(
      `the stack's resources belong to ${found.length} organizations (${found.join(", ")}): ` +
        `choose one with --organization <id> (or ${ENV_KEYS.organizationId})`,
    );
  }
  const why = configured ? `${configured.missing}, and its state` : "the state";
  throw new UsageError(`${ORGANIZATION_REQUIRED}: ${why} holds no resource of this package`);
}

/** The stack's \`docs:organizationId\`, or why there is none. */
async function configuredOrganization(stack: string | undefined): Promise<{ id: string } | { missing: string }> {
  const args = ["config", "get", CONFIG_KEYS.organizationId, "--non-interactive", ...stackArgs(stack)];
  try {
    // Any further lines are the CLI's diagnostics about ESC environments.
    const id = (await pulumi(args)).split("\n")[0]!.trim();
    return id ? { id } : { missing: `the stack's ${CONFIG_KEYS.organizationId} is empty` };
  } catch (error) {
    const message = (error as Error).message;
    return {
      missing: /not found for stack/.test(message)
        ? `the stack's config has no ${CONFIG_KEYS.organizationId}`
        : `the stack's config could not be read (${message})`,
    };
  }
}

function stackArgs(stack: string | undefined): string[] {
  return stack ? ["--stack", stack] : [];
}

/**
 * Runs the API calls of a command, adding the fix to the failures a user can only fix outside: a token the API
 * rejects, an organization the token cannot see (told from an object the token cannot see by one read of the
 * organization, made only after such a failure).
 */
async function explainingApiFailures<T>(
  organization: Organization,
  listedKinds: readonly string[],
  calls: () => Promise<T>,
): Promise<T> {
  try {
    return await calls();
  } catch (error) {
    const failure = apiFailureIn(error);
    const answer = failure?.message.replace(/\.$/, "");
    const api = apiUrlSetting().url;
    // The token may be good for everything else (an integration's): the fix is another token, or fewer kinds.
    if (failure instanceof UserTokenRequiredError) {
      const refused = causeOfType(error, KindFailure)?.kinds ?? [];
      const rest = listedKinds.filter((kind) => !refused.includes(kind));
      const leaveOut =
        refused.length === 0
          ? "leave the kind this request lists out with --kinds"
          : `leave ${listed(refused)} out (${refused.length === 1 ? "its operations take" : "their operations take"} ` +
            `users' tokens only)${rest.length > 0 ? `: --kinds ${rest.join(",")}` : ""}`;
      throw new Error(
        `${answer}. Set ${ENV_KEYS.apiToken} to a personal API token of an admin of organization ` +
          `"${organization.id}", or ${leaveOut}.`,
        { cause: error },
      );
    }
    if (failure?.status === 401) {
      const where = nonEmpty(process.env[ENV_KEYS.apiUrl])
        ? `from ${ENV_KEYS.apiUrl}`
        : `${ENV_KEYS.apiUrl} is not set`;
      throw new Error(
        `${answer}. The API at ${api} (${where}) rejected the token in ${ENV_KEYS.apiToken}: check that it is a ` +
          `current API token of a member of organization "${organization.id}", and that ${ENV_KEYS.apiUrl} names ` +
          "the API that issued it.",
        { cause: error },
      );
    }
    if ((failure?.status === 403 || failure?.status === 404) && !(await organizationVisible(organization.id))) {
      throw new Error(
        `${answer}. The token cannot see organization "${organization.id}" (from ${organization.source}): check ` +
          "the id, and that the token belongs to a member of that organization. List the organizations the token " +
          `sees with \`curl -H "Authorization: Bearer $${ENV_KEYS.apiToken}" ${api.replace(/\/+$/, "")}/orgs\`.`,
        { cause: error },
      );
    }
    throw error;
  }
}

function apiFailureIn(error: unknown): DocsApiError | undefined {
  return causeOfType(error, DocsApiError);
}

async function organizationVisible(organizationId: string): Promise<boolean> {
  try {
    await getOrganization(apiClient(), organizationId);
    return true;
  } catch (error) {
    const status = apiFailureIn(error)?.status;
    return status !== 403 && status !== 404;
  }
}

/**
 * The provider's own message for a missing token also offers the stack config \`docs:apiToken\`, which this tool
 * does not read: here only the environment counts.
 */
/** `A`, `A and B`, `A, B and C`. */
function listed(items: readonly string[]): string {
  return new Intl.ListFormat("en", { type: "conjunction" }).format(items).replace(/,( and)/, "$1");
}

function withFix(error: unknown): Error {
  if (!causeOfType(error, MissingCredentialsError)) return error as Error;
  return new Error(
    `No API token: set the ${ENV_KEYS.apiToken} environment variable (docs-platform reads neither the stack's ` +
      `${CONFIG_KEYS.apiToken} nor any file).`,
  );
}

/** `--kinds`: the kinds named, each one of `known`. */
function kindsOption(given: string | undefined, known: readonly string[]): string[] | undefined {
  const kinds = given?.split(",").map((kind) => kind.trim());
  const unknown = kinds?.filter((kind) => !known.includes(kind));
  if (unknown?.length)
    throw new UsageError(`--kinds: unknown kind(s) ${unknown.join(", ")}; known: ${known.join(", ")}`);
  return kinds;
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
      "plugin-json": { type: "string" },
      split: { type: "boolean", default: false },
      stack: { type: "string" },
      quiet: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    io.out.write(HELP.import);
    return EXIT.ok;
  }
  const organization = organizationOf(values);
  const organizationId = organization.id;
  const out = required(values, "out");
  const kinds = kindsOption(values.kinds, WALKED_KINDS);
  if (!/^[\w.-]+$/.test(values.name)) throw new UsageError("--name: letters, digits, '.', '_' and '-' only");
  if (values.split && values["plugin-json"]) throw new UsageError("--split and --plugin-json exclude each other");
  if (values.stack !== undefined && !values["plugin-json"]) {
    throw new UsageError("--stack goes with --plugin-json: it names the stack that will `pulumi import` that file");
  }

  const started = Date.now();
  const progress = values.quiet ? undefined : (line: string) => io.err.write(`docs-platform: ${line}\n`);
  const walk = await explainingApiFailures(organization, kinds ?? WALKED_KINDS, () =>
    walkOrganization({ organizationId, kinds, siteId: values.site, progress }),
  );
  const command = ["docs-platform import", `--organization ${organizationId}`]
    .concat(values.kinds ? [`--kinds ${kinds!.join(",")}`] : [], values.site ? [`--site ${values.site}`] : [])
    .concat(values.split ? ["--split"] : [])
    .join(" ");
  if (values.split) return writeSplit(walk, { ...values, out, organizationId, command, io, progress });
  const program = emitProgram(walk, command);
  const files = projectFiles({
    name: values.name,
    program: program.source,
    organizationId,
    command,
    objects: walk.objects.length,
    notImported: NOT_WALKED,
    out,
    warn: (line) => io.err.write(`docs-platform: ${line}\n`),
  });
  writeProject(out, files);
  if (program.resources.length > SPLIT_ADVISED_ABOVE) {
    io.err.write(`docs-platform: ${splitAdvice(program.resources.length)}\n`);
  }
  const pluginJson = values["plugin-json"];
  if (pluginJson) {
    const file = pluginImportFile(walk, program, await importingStack(values.stack));
    writeFileSync(pluginJson, `${JSON.stringify(file, null, 2)}\n`);
    progress?.(`wrote ${pluginJson} (${file.resources.length} resources): pulumi import --file ${pluginJson}`);
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  progress?.(
    `${walk.objects.length} objects in ${seconds} s; wrote ${path.join(out, "index.ts")} ` +
      `(${program.source.split("\n").length - 1} lines). Next: cd ${out} && npm install && pulumi up`,
  );
  for (const [kind, why] of Object.entries(NOT_WALKED)) progress?.(`not imported: ${kind}: ${why}.`);
  for (const problem of walk.problems) {
    io.err.write(`docs-platform: left out ${problem.kind} ${problem.id} "${problem.title}": ${problem.reason}\n`);
  }
  return walk.problems.length > 0 ? EXIT.found : EXIT.ok;
}

/**
 * What `import` says of a program above SPLIT_ADVISED_ABOVE resources: the flag, and the cost measured on an
 * organization of 2,519 objects (issue 42; README, "Large organizations").
 */
export function splitAdvice(resources: number): string {
  return (
    `${resources} resources in one stack: the file backend writes the whole state after every step, so a stack's ` +
    "cost grows with the square of its resources (adopting 2,345 in one stack took 578 s and wrote 32.5 GB; split, " +
    "the organization's 745 took 42.8 s and a site's 3.6 s). --split writes one project for the organization and " +
    "one per site."
  );
}

/** `import --split`: the projects of `splitWalk`, each in its folder under `out`, and a line per project. */
function writeSplit(
  walk: Walk,
  options: {
    name: string;
    out: string;
    organizationId: string;
    command: string;
    io: Io;
    progress: ((line: string) => void) | undefined;
  },
): number {
  const { io, progress } = options;
  for (const part of splitWalk(walk, options.name)) {
    const dir = path.join(options.out, part.name);
    const program = emitProgram(part.walk, options.command);
    const files = projectFiles({
      name: part.name,
      program: program.source,
      organizationId: options.organizationId,
      command: options.command,
      objects: part.walk.objects.length,
      notImported: NOT_WALKED,
      out: dir,
      warn: (line) => io.err.write(`docs-platform: ${line}\n`),
    });
    writeProject(dir, files);
    const what = part.site ? `site ${JSON.stringify(part.site.title)} (${part.site.id})` : "the organization";
    const renamed = part.renamed ? `; its title makes no project name of its own, so it is ${part.renamed}` : "";
    progress?.(`${what}: project ${part.name}, ${program.resources.length} resources, in ${dir}${renamed}`);
  }
  progress?.(`Next, in each project: npm install && pulumi stack init <stack> && pulumi up`);
  for (const [kind, why] of Object.entries(NOT_WALKED)) progress?.(`not imported: ${kind}: ${why}.`);
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
      stacks: { type: "string" },
      state: { type: "string" },
      kinds: { type: "string" },
      site: { type: "string" },
      json: { type: "boolean", default: false },
      "include-spaces": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    io.out.write(HELP.unmanaged);
    return EXIT.ok;
  }
  if (values.stack && values.state) throw new UsageError("--stack and --state exclude each other");
  if (values.stacks && (values.stack || values.state)) throw new UsageError("--stacks excludes --stack and --state");
  const kinds = kindsOption(values.kinds, UNMANAGED_KINDS);
  const several = values.stacks ? await severalStacks(values.stacks, givenOrganization(values)) : undefined;
  const exported: unknown = several?.exported ?? JSON.parse(await readState(values.state, values.stack));
  const managed = managedByState(exported);
  const organization =
    several?.organization ??
    givenOrganization(values) ??
    (await stackOrganization(exported, values.state ? undefined : { name: values.stack }));
  const organizationId = organization.id;
  const inventoried = { includeSpaces: values["include-spaces"], kinds, siteId: values.site };
  const objects = await explainingApiFailures(organization, inventoriedKinds(inventoried), () =>
    inventory(organizationId, inventoried),
  );
  const unmanaged = unmanagedObjects(objects, managed);
  io.out.write(
    values.json
      ? `${JSON.stringify({ organizationId, managed: managed.count, unmanaged }, null, 2)}\n`
      : describeUnmanaged(organizationId, unmanaged, managed),
  );
  return unmanaged.length > 0 ? EXIT.found : EXIT.ok;
}

/**
 * `--stacks a,b,…`: the states of several stacks (a split import's) read as one, so that the organization's
 * unmanaged objects are those no stack manages. Every stack must belong to one organization: `--organization`'s, else
 * the one their resources name; a stack of another is refused, named.
 */
async function severalStacks(
  list: string,
  given: Organization | undefined,
): Promise<{ exported: unknown; organization: Organization; states: { name: string; exported: unknown }[] }> {
  const names = stackNames(list);
  if (names.length === 0) throw new UsageError("--stacks: name at least one stack, comma-separated");
  const states = await Promise.all(
    names.map(async (name) => ({ name, exported: JSON.parse(await readState(undefined, name)) as unknown })),
  );
  const organizationsOf = new Map(states.map(({ name, exported }) => [name, organizationsInState(exported)]));
  const all = [...new Set([...organizationsOf.values()].flat())].sort();
  const organizationId = given?.id ?? (all.length === 1 ? all[0] : undefined);
  if (organizationId === undefined) {
    const which = [...organizationsOf].map(([name, ids]) => `${name}: ${ids.join(", ") || "none"}`).join("; ");
    throw new UsageError(
      all.length === 0
        ? `${ORGANIZATION_REQUIRED}: the stacks' states hold no resource of this package`
        : `the stacks belong to ${all.length} organizations (${which}): give --organization <id>, or list only ` +
            "the stacks of one",
    );
  }
  const foreign = [...organizationsOf].filter(([, ids]) => ids.some((id) => id !== organizationId));
  if (foreign.length > 0) {
    const which = foreign.map(([name, ids]) => `${name} (${ids.join(", ")})`).join(", ");
    throw new UsageError(
      `--stacks: ${which} manage${foreign.length === 1 ? "s" : ""} objects of another organization than ` +
        `${organizationId}: leave ${foreign.length === 1 ? "it" : "them"} out`,
    );
  }
  const resources = states.flatMap(({ exported }) => stateResources(exported));
  return {
    exported: { deployment: { resources } },
    organization: { id: organizationId, source: given?.source ?? "the stacks' states" },
    states,
  };
}

/** A stack to act on and the project its program is in (`--cwd` for the pulumi commands run elsewhere). */
interface StackTarget {
  name?: string;
  dir: string;
  args: string[];
}

/** `--stacks`' stacks, each with its project's directory; `--stack`'s (or the selected one) in the current project. */
async function stackTargets(
  values: { stack?: string; stacks?: string },
  given: Organization | undefined,
): Promise<{ targets: StackTarget[]; several?: Awaited<ReturnType<typeof severalStacks>> }> {
  const cwd = process.cwd();
  const here = projectDirectory(cwd);
  if (!values.stacks)
    return { targets: [{ ...(values.stack ? { name: values.stack } : {}), dir: here, args: stackArgs(values.stack) }] };
  const several = await severalStacks(values.stacks, given);
  const targets = several.states.map(({ name }) => {
    const dir = projectDirOfStack(name, cwd);
    return { name, dir, args: [...stackArgs(name), ...(dir === here ? [] : ["--cwd", dir])] };
  });
  return { targets, several };
}

async function recoverCommand(args: string[], io: Io) {
  const { values } = parseArgs({
    args,
    options: {
      stack: { type: "string" },
      stacks: { type: "string" },
      organization: { type: "string" },
      "dry-run": { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    io.out.write(HELP.recover);
    return EXIT.ok;
  }
  if (values.stacks && values.stack) throw new UsageError("--stacks excludes --stack");
  const { targets } = await stackTargets(values, givenOrganization(values));
  // Every project is checked before any state is touched: a provider still running in one stops them all.
  for (const { dir } of [...new Map(targets.map((t) => [t.dir, t])).values()]) {
    const live = providerProcessesIn(dir);
    if (live === undefined) {
      io.err.write(
        `docs-platform recover: this platform (${process.platform}) does not tell which processes run in ${dir}: ` +
          "make sure no `pulumi` command of this program and none of its provider processes still runs\n",
      );
    } else if (live.length > 0) {
      io.err.write(`docs-platform ${describeLiveProviders(dir, live)}\n`);
      return EXIT.failure;
    }
  }
  const several = values.stacks !== undefined;
  const reports: { stack?: string; resolutions: Resolution[]; commands: string[][] }[] = [];
  for (const target of targets) {
    const exported = JSON.parse(await pulumi(["stack", "export", "--show-secrets", ...target.args]));
    const resolutions = await resolvePendingCreates(pendingCreates(exported), (kind, inputs, since) =>
      lifecycle(kind).findCreated(inputs, since),
    );
    const recovered = await recoveredState(exported, resolutions, async (kind, id, inputs) => {
      const read = await lifecycle(kind).lookup(id, inputs, inputs);
      return read.id === "" ? undefined : read.props;
    });
    const commands = recovered
      ? [
          ["stack", "import", ...target.args],
          [...REFRESH_ARGS, ...target.args, "--non-interactive"],
        ]
      : [];
    reports.push({ ...(target.name ? { stack: target.name } : {}), resolutions, commands });
    if (!values.json) {
      if (several) io.out.write(`Stack ${target.name}:\n`);
      io.out.write(describeResolutions(resolutions));
      for (const command of commands) {
        io.out.write(`${values["dry-run"] ? "Would run" : "Running"}: pulumi ${command.join(" ")}\n`);
      }
    }
    if (recovered && !values["dry-run"]) {
      await pulumi(commands[0]!, JSON.stringify(recovered.exported));
      await pulumi(commands[1]!);
    }
  }
  if (values.json) {
    const { resolutions, commands } = reports[0]!;
    io.out.write(`${JSON.stringify(several ? { stacks: reports } : { resolutions, commands }, null, 2)}\n`);
  }
  const undecided = reports.some((report) =>
    report.resolutions.some((r) => r.action === "ambiguous" || r.action === "foreign"),
  );
  return undecided ? EXIT.found : EXIT.ok;
}

/** The stack's runs, newest first: none for a stack never updated. */
async function stackHistory(stackArgs: string[]): Promise<HistoryEntry[]> {
  const text = await pulumi(["stack", "history", "--json", "--non-interactive", ...stackArgs]);
  const parsed: unknown = JSON.parse(text.trim() || "[]");
  return Array.isArray(parsed) ? (parsed as HistoryEntry[]) : [];
}

/** What the CLI answers for a stack that does not exist or is not selected. */
const NO_STACK = /no stack (named|selected)|no current stack|stack .* (not found|does not exist)/i;

/** What drift reads of one stack: its state, its runs, and the engine's findings on a refreshed preview. */
interface DriftedStack {
  name: string;
  exported?: unknown;
  runs: StackRun[];
  update?: StackRun;
  engine: ReturnType<typeof engineFindings>;
}

async function driftOfStack(target: StackTarget, several: boolean, notes: string[]): Promise<DriftedStack> {
  let exported: unknown;
  let name = target.name ?? "";
  try {
    exported = JSON.parse(await pulumi(["stack", "export", "--non-interactive", ...target.args]));
    name ||= (await pulumi(["stack", "--show-name", "--non-interactive"])).trim();
  } catch (error) {
    // Only a stack that is not there makes a report of unmanaged objects alone; any other failure (no backend, not
    // logged in) must not pass as "no drift". Of several stacks, each must be there: one missing would pass its
    // objects off as unmanaged.
    if (several || !NO_STACK.test((error as Error).message)) throw error;
    notes.push(
      `No stack to compare with (${(error as Error).message.split("\n")[0]}): only unmanaged objects are reported.`,
    );
    return { name, runs: [], engine: [] };
  }
  const runs = stackRuns(await stackHistory(target.args));
  const { update, failedAfter } = lastSuccessfulUpdate(runs);
  if (!update) {
    notes.push(
      `Stack ${name} was never updated successfully: nothing to compare with; only unmanaged objects are reported.`,
    );
  }
  if (update && failedAfter.length > 0) {
    const last = failedAfter[0]!;
    notes.push(
      `${several ? `Stack ${name}: the` : "The"} last update, ${updateName(last)}, ${last.result}: the window starts at the last successful one, ${updateName(update)}.`,
    );
  }
  let engine: ReturnType<typeof engineFindings> = [];
  if (update) {
    const stateIds = new Map<string, string>();
    for (const r of stateResources(exported)) {
      if (r.urn && r.id) stateIds.set(r.urn, r.id);
    }
    const preview = JSON.parse(
      await pulumi(["preview", "--refresh", "--json", "--non-interactive", ...target.args]),
    ) as { steps?: Parameters<typeof engineFindings>[0] };
    const where = target.args.includes("--cwd") ? ` --cwd ${target.dir}` : "";
    engine = withStateIds(
      engineFindings(preview.steps ?? [], new Set(stateIds.keys()), target.name ?? ""),
      stateIds,
    ).map((f) => ({ ...f, revert: `${f.revert}${where}` }));
  }
  return { name, exported, runs, ...(update ? { update } : {}), engine };
}

async function driftCommand(args: string[], io: Io) {
  const { values } = parseArgs({
    args,
    options: {
      stack: { type: "string" },
      stacks: { type: "string" },
      organization: { type: "string" },
      kinds: { type: "string" },
      "include-spaces": { type: "boolean", default: false },
      markdown: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      html: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    io.out.write(DRIFT_HELP);
    return EXIT.ok;
  }
  if (values.markdown && values.json) throw new UsageError("--markdown and --json exclude each other");
  if (values.html === "") throw new UsageError("--html needs a file name");
  if (values.stacks && values.stack) throw new UsageError("--stacks excludes --stack");
  const kinds = kindsOption(values.kinds, UNMANAGED_KINDS);
  const notes: string[] = [];
  const { targets, several } = await stackTargets(values, givenOrganization(values));
  const stacks: DriftedStack[] = [];
  for (const target of targets) stacks.push(await driftOfStack(target, several !== undefined, notes));
  const exported = several?.exported ?? stacks[0]!.exported;

  const organization =
    several?.organization ??
    givenOrganization(values) ??
    (exported === undefined ? undefined : await stackOrganization(exported, { name: values.stack }));
  if (!organization) {
    throw new UsageError(`${ORGANIZATION_REQUIRED}: there is no stack to take it from`);
  }
  const organizationId = organization.id;

  const state = exported === undefined ? { resources: [] } : exported;
  const engine = stacks.flatMap((stack) => stack.engine.map((f) => ({ organizationId, ...f })));
  const inventoried = { includeSpaces: values["include-spaces"], kinds };
  const objects = await explainingApiFailures(organization, inventoriedKinds(inventoried), () =>
    inventory(organizationId, inventoried),
  );
  const unmanaged = unmanagedObjects(objects, managedByState(state)).map((o) => unmanagedFinding(organizationId, o));
  const found = [...engine, ...unmanaged];
  // Of several stacks, the window starts at the oldest of their last successful updates: it holds every stack's.
  const updated = stacks
    .filter((stack) => stack.update)
    .sort((a, b) => (a.update!.startTime < b.update!.startTime ? -1 : 1));
  const update = updated[0]?.update;
  const runs = stacks.flatMap((stack) => stack.runs);
  const stackName = stacks.map((stack) => stack.name).join(", ");

  const to = new Date().toISOString();
  const window = update ? { from: update.startTime, to } : undefined;
  const trails = new Map<string, ApiAuditEvent[] | undefined>();
  const audit: DriftReport["audit"] = [];
  if (window && found.length > 0) {
    const ownRuns = runs.filter((run) => run.endTime >= window.from);
    for (const org of [...new Set(found.map((f) => f.organizationId ?? organizationId))]) {
      try {
        const listing = await listAuditEvents(apiClient(), org, window, MAX_AUDIT_PAGES);
        const theirs = listing.events.filter((event) => !madeByRun(event, ownRuns));
        trails.set(org, theirs);
        audit.push({
          organizationId: org,
          requests: listing.pages,
          events: listing.events.length,
          ownRunEvents: listing.events.length - theirs.length,
          truncated: listing.truncated,
        });
        if (listing.truncated) {
          notes.push(
            `Organization ${org} has more than ${MAX_AUDIT_PAGES * 100} audit events since ${window.from}: the oldest were not read, so a finding "${AUDIT_WINDOW_NOTE}" may have been changed in that part.`,
          );
        }
      } catch (error) {
        const failure = apiFailureIn(error);
        const why =
          failure instanceof ForbiddenError || failure instanceof UserTokenRequiredError
            ? `the token may not read the audit trail of organization ${org} (the API answered ${failure.status}): it takes an organization admin's personal API token, on the Enterprise plan`
            : `the audit trail of organization ${org} could not be read (${(error as Error).message})`;
        notes.push(`Not attributed: ${why}. The drift below is complete.`);
        audit.push({ organizationId: org, requests: 0, events: 0, ownRunEvents: 0, truncated: false, error: why });
      }
    }
  }
  const findings = attribute(found, trails);
  const report: DriftReport = {
    version: DRIFT_REPORT_VERSION,
    stack: stackName || "(none)",
    generatedAt: to,
    ...(update ? { lastUpdate: update } : {}),
    ...(window ? { window } : {}),
    notes,
    audit,
    summary: summaryOf(findings),
    findings,
  };
  if (values.html) writeFileSync(values.html, renderHtml(report));
  io.out.write(
    values.json
      ? `${JSON.stringify(report, null, 2)}\n`
      : values.markdown
        ? renderMarkdown(report)
        : renderText(report),
  );
  return findings.length > 0 ? EXIT.found : EXIT.ok;
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

/** What `import --stack` takes from the stack: its default organization and the objects its state manages. */
async function importingStack(stack: string | undefined): Promise<ImportingStack> {
  if (stack === undefined) return {};
  const managed = managedByState(JSON.parse(await readState(undefined, stack)));
  const configured = await configuredOrganization(stack);
  return {
    ...("id" in configured ? { defaultOrganization: configured.id } : {}),
    manages: (kind, id) => managed.ids.get(kind)?.has(id) === true,
  };
}

async function readState(source: string | undefined, stack: string | undefined): Promise<string> {
  if (source === "-") return readFileSync(0, "utf8");
  if (source) return readFileSync(source, "utf8");
  return pulumi(["stack", "export", "--non-interactive", ...stackArgs(stack)]);
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
