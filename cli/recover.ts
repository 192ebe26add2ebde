/**
 * `docs-platform recover`: resolves the creates a killed `pulumi up` left pending. The engine records a create as
 * pending before it calls the provider and forgets it only when the provider answers, so after a kill it cannot know
 * whether the object was made. For each pending create of this package, the kind's `findCreated` looks for the
 * object the create may have made (the same lookup a create with a lost response uses): one candidate is written
 * into the state as the resource, with the outputs a create would have returned; none means nothing was made and
 * the pending create is dropped; several are listed for the user to decide.
 *
 * Why not `pulumi refresh --import-pending-creates <urn> <id>`: Pulumi 3.259 turns such a create into an `importing`
 * pending operation that no step of the refresh reads, and the refresh's checkpoint keeps only `creating` ones, so
 * the resource ends in no state and the next `up` makes the object a second time (test/e2e/interrupted.test.ts). The
 * state is edited the documented way instead (`pulumi stack export`, then `pulumi stack import`), and a refresh then
 * reads every imported object through the provider.
 */
import type { CreatedCandidate } from "../provider/framework/kind";
import { CLOCK_SKEW_MS } from "../provider/framework/recovery";
import { kindOfType } from "../provider/framework/typeTokens";

export interface PendingCreate {
  urn: string;
  kind: string;
  inputs: Record<string, unknown>;
  /** When the engine recorded the create, if the state says. */
  created?: string;
}

export type Resolution =
  | { urn: string; kind: string; action: "import"; id: string; title: string }
  /**
   * `noLookup`: the kind has no `findCreated`. Most such kinds write at a fixed address (permissions, the adaptive
   * schema, the structure), which the next `up` writes again; a Space create is not looked for, so a killed one can
   * leave an orphan space (`docs-platform unmanaged --include-spaces` lists it).
   */
  | { urn: string; kind: string; action: "clear"; noLookup?: true }
  | { urn: string; kind: string; action: "ambiguous"; candidates: CreatedCandidate[] }
  | { urn: string; kind: string; action: "foreign" };

/**
 * Looks for the objects a create of `kind` with these inputs may have made since `since`; undefined for a kind whose
 * create cannot duplicate.
 */
export type FindCreated = (
  kind: string,
  inputs: Record<string, unknown>,
  since: Date,
) => Promise<CreatedCandidate[] | undefined>;

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
      // Secret inputs are matched by their values (revealed by `--show-secrets`), never printed.
      const { __provider: _provider, ...inputs } = revealed(resource.inputs ?? {}) as Record<string, unknown>;
      return {
        urn: resource.urn,
        kind: kindOfType(resource.type) ?? "",
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
    if (candidates === undefined) {
      resolutions.push({ urn, kind, action: "clear", noLookup: true });
      continue;
    }
    const only = candidates[0];
    if (candidates.length === 1 && only)
      resolutions.push({ urn, kind, action: "import", id: only.id, title: only.title });
    else if (candidates.length === 0) resolutions.push({ urn, kind, action: "clear" });
    else resolutions.push({ urn, kind, action: "ambiguous", candidates });
  }
  return resolutions;
}

/** Pulumi's marker of a secret value in a `pulumi stack export` (resource/sig.go). */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const SECRET_VALUE = "1b47061264138c4ac30d75fd1eb44270";

function isSecret(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && (value as Record<string, unknown>)[SECRET_SIG] === SECRET_VALUE;
}

function containsSecret(value: unknown): boolean {
  if (isSecret(value)) return true;
  if (Array.isArray(value)) return value.some(containsSecret);
  return typeof value === "object" && value !== null && Object.values(value).some(containsSecret);
}

/** A value of `stack export --show-secrets` with its secrets revealed, for lookups (a ciphertext stays as it is). */
export function revealed(value: unknown): unknown {
  if (isSecret(value)) return typeof value.plaintext === "string" ? revealed(JSON.parse(value.plaintext)) : value;
  if (Array.isArray(value)) return value.map(revealed);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, revealed(item)]));
  }
  return value;
}

function secret(value: unknown): Record<string, unknown> {
  return { [SECRET_SIG]: SECRET_VALUE, plaintext: JSON.stringify(value) };
}

/**
 * Reads an object a killed create made: the outputs a create of `kind` with these (revealed) inputs returns for it,
 * or undefined when it is gone.
 */
export type ReadCreated = (
  kind: string,
  id: string,
  inputs: Record<string, unknown>,
) => Promise<Record<string, unknown> | undefined>;

interface ExportedResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  additionalSecretOutputs?: string[];
  [field: string]: unknown;
}

export interface RecoveredState {
  /** The `pulumi stack export` to give to `pulumi stack import`. */
  exported: unknown;
  /** URNs written into the state as resources. */
  imported: string[];
  /** URNs whose pending create was dropped. */
  cleared: string[];
}

/**
 * Applies the resolutions to a `pulumi stack export --show-secrets`: an imported create becomes a resource (its
 * recorded inputs, parent, provider and dependencies, the id found, and the outputs `read` gives plus the serialized
 * provider the engine needs to call it again), a cleared one is dropped, undecided ones stay pending. Outputs the
 * resource declares secret, or whose input was secret, are written as secrets (`stack import` encrypts them).
 * Undefined when there is nothing to change.
 */
export async function recoveredState(
  exported: unknown,
  resolutions: Resolution[],
  read: ReadCreated,
): Promise<RecoveredState | undefined> {
  const copy = structuredClone(exported) as {
    deployment: { resources?: ExportedResource[]; pending_operations?: ExportedOperation[] };
  };
  const deployment = copy.deployment;
  const operations = deployment.pending_operations ?? [];
  const resources = deployment.resources ?? [];
  const imported: string[] = [];
  const cleared: string[] = [];
  const resolved = new Set<string>();
  for (const resolution of resolutions) {
    if (resolution.action !== "import" && resolution.action !== "clear") continue;
    const operation = operations.find((op) => op.type === "creating" && op.resource?.urn === resolution.urn);
    if (!operation?.resource) continue;
    resolved.add(resolution.urn);
    if (resolution.action === "clear") {
      cleared.push(resolution.urn);
      continue;
    }
    const resource = operation.resource as ExportedResource;
    const { __provider: provider, ...inputs } = resource.inputs ?? {};
    const outputs = await read(resolution.kind, resolution.id, revealed(inputs) as Record<string, unknown>);
    if (outputs === undefined) {
      // Gone since the lookup found it: nothing to import, the next `up` creates it.
      cleared.push(resolution.urn);
      continue;
    }
    const secrets = new Set(resource.additionalSecretOutputs ?? []);
    for (const [key, value] of Object.entries(inputs)) if (containsSecret(value)) secrets.add(key);
    const stored: Record<string, unknown> = { __provider: provider };
    for (const [key, value] of Object.entries(outputs)) stored[key] = secrets.has(key) ? secret(value) : value;
    resources.push({ ...resource, id: resolution.id, outputs: stored });
    imported.push(resolution.urn);
  }
  if (resolved.size === 0) return undefined;
  deployment.resources = resources;
  deployment.pending_operations = operations.filter(
    (op) => !(op.type === "creating" && op.resource?.urn && resolved.has(op.resource.urn)),
  );
  return { exported: copy, imported, cleared };
}

/** The refresh that follows the import: the engine reads every imported object through the provider. */
export const REFRESH_ARGS = ["refresh", "--yes", "--skip-preview"] as const;

/** One line per pending create, for the terminal. */
export function describeResolutions(resolutions: Resolution[]): string {
  if (resolutions.length === 0) return "No pending creates: nothing to recover.\n";
  const lines = resolutions.map((r) => {
    switch (r.action) {
      case "import":
        return `  import  ${r.urn}  ->  ${r.kind} ${r.id} "${r.title}" (the killed create made it)`;
      case "clear":
        return r.noLookup
          ? `  clear   ${r.urn}  (${r.kind} has no lookup of what a create made: the next \`pulumi up\` writes it; ` +
              "`docs-platform unmanaged` lists a copy the killed create may have left)"
          : `  clear   ${r.urn}  (no ${r.kind} was made: the next \`pulumi up\` creates it)`;
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
