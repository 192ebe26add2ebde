/**
 * Several stacks named on one command line (`--stacks`, a split import's): their names, and the project directory
 * each one's program lives in. Reading a state needs no program (`pulumi stack export --stack <org>/<project>/<stack>`
 * works from anywhere on the stack's backend), but a refresh or a preview runs in the project: its Pulumi.yaml and
 * node_modules, which the dynamic resources' providers are loaded from.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { projectDirectory } from "./providerProcesses";

/** `a, b,,c` → `["a", "b", "c"]`. */
export function stackNames(list: string): string[] {
  return list
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
}

/** The project a stack name names: `<org>/<project>/<stack>` or `<project>/<stack>`; none for a bare `<stack>`. */
export function projectOfStack(name: string): string | undefined {
  const parts = name.split("/");
  return parts.length >= 2 ? parts[parts.length - 2] : undefined;
}

/** The `name:` of a directory's Pulumi.yaml (or .yml), if it has one. */
export function projectNameIn(dir: string): string | undefined {
  for (const file of ["Pulumi.yaml", "Pulumi.yml"]) {
    const at = path.join(dir, file);
    if (!existsSync(at)) continue;
    const name = /^name:\s*["']?([^"'#\s]+)/m.exec(readFileSync(at, "utf8"))?.[1];
    if (name) return name;
  }
  return undefined;
}

/**
 * Where a stack's program is: for a bare name, the project of `cwd`; else the project named, looked for as `import
 * --split` writes them, side by side in one folder: `cwd` itself (or the project it is in), `cwd/<project>`, or a
 * sibling `../<project>` of the project `cwd` is in. Throws naming where it looked when none holds that project.
 */
export function projectDirOfStack(name: string, cwd: string): string {
  const here = projectDirectory(cwd);
  const project = projectOfStack(name);
  if (project === undefined) return here;
  const candidates = [...new Set([here, path.join(cwd, project), path.join(path.dirname(here), project)])];
  const found = candidates.find((dir) => projectNameIn(dir) === project);
  if (found) return found;
  throw new Error(
    `stack ${name}: no directory holds project ${project} (looked for its Pulumi.yaml in ${candidates.join(", ")}): ` +
      "run from the folder `docs-platform import --split` wrote, or from one of its projects",
  );
}
