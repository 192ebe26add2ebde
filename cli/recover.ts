/**
 * `docs-platform recover`: resolves the creates a killed `pulumi up` left pending. The engine records a create as
 * pending before it calls the provider and forgets it only when the provider answers, so after a kill it cannot know
 * whether the object was made. For each pending create of this package, the kind's `findCreated` looks for the
 * object the create may have made (the same lookup a create with a lost response uses): one candidate is imported
 * into the state (`pulumi refresh --import-pending-creates <urn> <id>`), none means nothing was made and the pending
 * create is cleared (`--clear-pending-creates`), several are listed for the user to decide.
 */
import type { CreatedCandidate } from "../provider/framework/kind";
import { CLOCK_SKEW_MS } from "../provider/framework/recovery";

const DOCS_TYPE = "pulumi-nodejs:dynamic/docs:";

export interface PendingCreate {
  urn: string;
  kind: string;
  inputs: Record<string, unknown>;
  /** When the engine recorded the create, if the state says. */
  created?: string;
}

export type Resolution =
  | { urn: string; kind: string; action: "import"; id: string; title: string }
  | { urn: string; kind: string; action: "clear" }
  | { urn: string; kind: string; action: "ambiguous"; candidates: CreatedCandidate[] }
  | { urn: string; kind: string; action: "foreign" };

/** Looks for the objects a create of `kind` with these inputs may have made since `since`. */
export type FindCreated = (kind: string, inputs: Record<string, unknown>, since: Date) => Promise<CreatedCandidate[]>;

interface ExportedOperation {
  type?: string;
  resource?: { urn?: string; type?: string; inputs?: Record<string, unknown>; created?: string };
}

/** The pending creates of a `pulumi stack export` (with `--show-secrets`, so that secret inputs can be matched). */
export function pendingCreates(exported: unknown): PendingCreate[] {
  const deployment = (exported as { deployment?: { pending_operations?: ExportedOperation[] } })?.deployment;
  if (!deployment) throw new Error("the input is no `pulumi stack export` output: it has no deployment");
  return (deployment.pending_operations ?? [])
    .filter((op) => op.type === "creating" && op.resource?.urn && op.resource.type)
    .map((op) => {
      const resource = op.resource as Required<Pick<NonNullable<ExportedOperation["resource"]>, "urn" | "type">> &
        ExportedOperation["resource"];
      const { __provider: _provider, ...inputs } = resource.inputs ?? {};
      return {
        urn: resource.urn,
        kind: resource.type.startsWith(DOCS_TYPE) ? resource.type.slice(DOCS_TYPE.length) : "",
        inputs,
        ...(resource.created ? { created: resource.created } : {}),
      };
    });
}

/**
 * What to do with each pending create. A create that adopted (`importId`) made nothing: its object is imported by
 * that id. Creates of other providers are left to the user (`foreign`).
 */
export async function resolvePendingCreates(pending: PendingCreate[], find: FindCreated): Promise<Resolution[]> {
  const resolutions: Resolution[] = [];
  for (const op of pending) {
    const { urn, kind } = op;
    if (!kind) {
      resolutions.push({ urn, kind: "", action: "foreign" });
      continue;
    }
    if (typeof op.inputs.importId === "string") {
      resolutions.push({ urn, kind, action: "import", id: op.inputs.importId, title: "(importId)" });
      continue;
    }
    // Without the engine's timestamp, every object with the declared key or title counts: ambiguity is then
    // reported, never guessed.
    const since = op.created ? new Date(Date.parse(op.created) - CLOCK_SKEW_MS) : new Date(0);
    const { importId: _importId, ...inputs } = op.inputs;
    const candidates = await find(kind, inputs, since);
    const only = candidates[0];
    if (candidates.length === 1 && only)
      resolutions.push({ urn, kind, action: "import", id: only.id, title: only.title });
    else if (candidates.length === 0) resolutions.push({ urn, kind, action: "clear" });
    else resolutions.push({ urn, kind, action: "ambiguous", candidates });
  }
  return resolutions;
}

/**
 * The `pulumi refresh` arguments that apply the resolutions, or undefined when nothing can be applied yet. Pulumi
 * 3.259 applies `--import-pending-creates` first and then `--clear-pending-creates` to the creates still pending, so
 * the two combine in one run; with an ambiguous or foreign create left, clearing would drop it too, so the command
 * then only imports.
 */
export function refreshArgs(resolutions: Resolution[]): string[] | undefined {
  const imports = resolutions.flatMap((r) => (r.action === "import" ? [r.urn, r.id] : []));
  const undecided = resolutions.some((r) => r.action === "ambiguous" || r.action === "foreign");
  const clears = resolutions.some((r) => r.action === "clear");
  if (imports.length === 0 && (!clears || undecided)) return undefined;
  const args = ["refresh", "--yes", "--skip-preview"];
  for (let i = 0; i < imports.length; i += 2) args.push("--import-pending-creates", imports[i]!, imports[i + 1]!);
  if (clears && !undecided) args.push("--clear-pending-creates");
  return args;
}

/** One line per pending create, for the terminal. */
export function describeResolutions(resolutions: Resolution[]): string {
  if (resolutions.length === 0) return "No pending creates: nothing to recover.\n";
  const lines = resolutions.map((r) => {
    switch (r.action) {
      case "import":
        return `  import  ${r.urn}  ->  ${r.kind} ${r.id} "${r.title}" (the killed create made it)`;
      case "clear":
        return `  clear   ${r.urn}  (no ${r.kind} was made: the next \`pulumi up\` creates it)`;
      case "ambiguous":
        return (
          `  decide  ${r.urn}: ${r.candidates.length} ${r.kind} objects match ` +
          `(${r.candidates.map((c) => `${c.id} "${c.title}"`).join(", ")}); ` +
          "adopt the right one with importId and delete the others, then clear the pending create"
        );
      default:
        return `  decide  ${r.urn}: not a resource of this package`;
    }
  });
  return `${resolutions.length} pending create(s):\n${lines.join("\n")}\n`;
}
