/**
 * The provider processes of a Pulumi program still running: what `docs-platform recover` must not race. A killed
 * `pulumi up` leaves its state saying which creates were in flight; a provider process of that run still alive could
 * still make what recover would conclude was never made (its providers leave within seconds of their engine,
 * provider/framework/engineWatch.ts, but a provider of an older version, or another provider, may not).
 *
 * The engine starts every plugin in the program's directory, so on Linux they are the processes whose working
 * directory (/proc/<pid>/cwd) is the project's directory or one below it, and whose command line is a resource
 * plugin's: a `pulumi-resource-<name>` launcher, the SDK's `cmd/dynamic-provider`, or this package's plugin server.
 * Processes of other users cannot be read and are not listed. Elsewhere (macOS, Windows) the platform gives no
 * portable way to read another process's working directory, so no check is made and the caller says so.
 */
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import path from "node:path";

export interface ProviderProcess {
  pid: number;
  /** Its command line, arguments joined by spaces. */
  command: string;
}

const PROVIDER_COMMAND =
  /pulumi-resource-[\w.-]+|[\\/]@pulumi[\\/]pulumi[\\/]cmd[\\/]dynamic-provider|[\\/]provider[\\/]plugin[\\/]main\.js/;

/** The directory of the Pulumi project `dir` is in (the nearest with a Pulumi.yaml), else `dir` itself. */
export function projectDirectory(dir: string): string {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    if (existsSync(path.join(current, "Pulumi.yaml")) || existsSync(path.join(current, "Pulumi.yml"))) return current;
    if (path.dirname(current) === current) return path.resolve(dir);
  }
}

/**
 * The resource provider processes (or those whose command line matches `command`) working in `projectDir` or below
 * it, but this one; undefined where the platform cannot tell (no /proc).
 */
export function providerProcessesIn(
  projectDir: string,
  proc = "/proc",
  command: RegExp = PROVIDER_COMMAND,
): ProviderProcess[] | undefined {
  if (!existsSync(path.join(proc, "self/cwd"))) return undefined;
  const root = path.resolve(projectDir);
  const found: ProviderProcess[] = [];
  for (const entry of readdirSync(proc)) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let cwd: string;
    let line: string;
    try {
      cwd = readlinkSync(path.join(proc, entry, "cwd"));
      line = readFileSync(path.join(proc, entry, "cmdline"), "utf8")
        .split("\0")
        .filter(Boolean)
        .join(" ");
    } catch {
      // Ended meanwhile, or another user's.
      continue;
    }
    if ((cwd === root || cwd.startsWith(`${root}${path.sep}`)) && command.test(line)) {
      found.push({ pid: Number(entry), command: line });
    }
  }
  return found.sort((a, b) => a.pid - b.pid);
}

/** Why recover will not run while these are alive, and what to do, in the package's error style. */
export function describeLiveProviders(projectDir: string, live: ProviderProcess[]): string {
  const listed = live.map(
    (p) => `  pid ${p.pid}: ${p.command.length > 160 ? `${p.command.slice(0, 157)}...` : p.command}`,
  );
  return (
    `recover refused: ${live.length} provider process(es) of the program in ${projectDir} are still running:\n` +
    `${listed.join("\n")}\n` +
    "A provider of the killed run may still be sending its creates, and recover would then clear a create whose " +
    "object appears afterwards (the next `pulumi up` would make it twice). Wait until they have exited (this " +
    "package's providers leave within seconds of their engine), or, when no `pulumi` command of this program is " +
    `running, end them: kill ${live.map((p) => p.pid).join(" ")}. Then run \`docs-platform recover\` again.`
  );
}
