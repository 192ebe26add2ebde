/**
 * A small stand-in for the Pulumi engine, at the level of the provider's runtime: it drives each kind's provider
 * (check, diff, create, read, update, delete) on either route (./routes.ts: the dynamic providers, or the plugin's gRPC
 * service in process) as the engine drives them, so that a model-based test can run thousands of `up`s in seconds. It mirrors the engine's semantics where they decide what the API ends up holding:
 *
 * - One Operation per run (`up`, `refresh`, `preview`, `destroy`), as the engine starts one provider process per run.
 * - `check` gets the old inputs, `diff`, `update` and `delete` the old outputs, as the engine passes them.
 * - Resources are registered in dependency order; the references of a resource resolve to its dependencies' outputs.
 * - A replacement deletes first when the diff says deleteBeforeReplace, else creates the new object, marks the old one
 *   for deletion at once, and deletes it at the end of the run (a "delete-replaced" step); an old object whose delete
 *   failed, or whose run failed before its delete, stays in the state, marked for deletion, and the next `up` deletes
 *   it first (the engine's pending deletes).
 * - Resources no longer declared are deleted after every registration, dependents first.
 * - A failed create records nothing; a failed update keeps the old state; a failed delete keeps the resource.
 *
 * Simplifications, and why they do not change what the API holds: steps run one at a time (the engine runs
 * independent steps in parallel; the provider's operations do not share requests across resources, except listings,
 * which are invalidated by every write), and the run stops at its first failure (the engine lets steps already
 * started finish and starts no new ones). The engine's own pending operations (a create in flight when the engine
 * process dies) are not modelled: the provider's process never dies here; a lost answer from the API is the
 * provider's to resolve (provider/framework/recovery.ts), which this exercises through the emulator's faults.
 */
import { HttpClient } from "../../provider/client";
import type { Props, ResourceContext } from "../../provider/framework/kind";
import { Listings } from "../../provider/framework/listings";
import { UNKNOWN } from "../../provider/framework/unknown";
import { type RouteName, type RouteProvider, routeProviders } from "./routes";

/** A reference to another resource of the program: its id, or one of its outputs. */
export interface Ref {
  $ref: string;
  output?: string;
}

export function ref(name: string, output?: string): Ref {
  return output === undefined ? { $ref: name } : { $ref: name, output };
}

function isRef(value: unknown): value is Ref {
  return typeof value === "object" && value !== null && typeof (value as Ref).$ref === "string";
}

/** One resource the program declares: its kind and its inputs, which may hold Refs at any depth. */
export interface Declared {
  kind: string;
  inputs: Props;
}

/** The program: resource name → declaration, in declaration order. */
export type Program = Record<string, Declared>;

/** What the state records of a resource. */
export interface Resource {
  kind: string;
  id: string;
  inputs: Props;
  outs: Props;
  /** Names of the resources its inputs referenced when it was last written. */
  dependencies: string[];
}

/** What one step did, for the log a failing case prints. */
export interface StepRecord {
  op: "create" | "update" | "same" | "replace" | "delete" | "delete-replaced" | "read" | "gone";
  name: string;
  id?: string;
}

export interface RunResult {
  ok: boolean;
  error?: Error;
  steps: StepRecord[];
}

export interface EngineOptions {
  url: string;
  token: string;
  /** Attempts per request, as DOCS_API_MAX_ATTEMPTS sets them. */
  maxAttempts?: number;
  /** Which route serves the kinds (./routes.ts): the dynamic providers (the default) or the plugin's service. */
  route?: RouteName;
}

const references = (value: unknown, into: Set<string>): Set<string> => {
  if (isRef(value)) into.add(value.$ref);
  else if (Array.isArray(value)) for (const item of value) references(item, into);
  else if (typeof value === "object" && value !== null) for (const item of Object.values(value)) references(item, into);
  return into;
};

/** The names a declaration refers to. */
export function dependenciesOf(declared: Declared): string[] {
  return [...references(declared.inputs, new Set())];
}

/** Names in dependency order (dependencies first), declaration order among independent ones. */
function dependencyOrder(names: readonly string[], dependencies: (name: string) => readonly string[]): string[] {
  const ordered: string[] = [];
  const visiting = new Set<string>();
  const visit = (name: string) => {
    if (ordered.includes(name) || !names.includes(name)) return;
    if (visiting.has(name)) throw new Error(`the program's references form a cycle through "${name}"`);
    visiting.add(name);
    for (const dependency of dependencies(name)) visit(dependency);
    visiting.delete(name);
    ordered.push(name);
  };
  for (const name of names) visit(name);
  return ordered;
}

export class Engine {
  /** The stack's state: resource name → what the last run recorded. */
  state = new Map<string, Resource>();
  /** Replaced objects whose delete has not succeeded yet (the engine's `delete: true` entries). */
  condemned: Resource[] = [];

  constructor(private readonly options: EngineOptions) {}

  /**
   * One engine run's provider process: an Operation and a client with the retry policy of the environment, but which
   * never sleeps between attempts, so that faults cost no wall time.
   */
  private async withOperation<T>(run: (lifecycleOf: (kind: string) => RouteProvider) => Promise<T>) {
    const client = new HttpClient({
      baseUrl: this.options.url,
      token: this.options.token,
      retry: { maxAttempts: this.options.maxAttempts ?? 3 },
      placeholder: UNKNOWN,
      sleep: () => Promise.resolve(),
    });
    const shared: ResourceContext = { client, listings: new Listings() };
    const { providerOf, close } = routeProviders(this.options.route ?? "dynamic", shared);
    const providers = new Map<string, RouteProvider>();
    const lifecycleOf = (kind: string) => {
      let found = providers.get(kind);
      if (!found) {
        found = providerOf(kind);
        providers.set(kind, found);
      }
      return found;
    };
    try {
      return await run(lifecycleOf);
    } finally {
      close();
      await client.close();
    }
  }

  /** The inputs with every Ref replaced by the output it names, or UNKNOWN where that output is not known yet. */
  private resolve(value: unknown, outputsOf: (name: string) => Resource | undefined): unknown {
    if (isRef(value)) {
      const target = outputsOf(value.$ref);
      if (!target) return UNKNOWN;
      return value.output === undefined ? target.id : target.outs[value.output];
    }
    if (Array.isArray(value)) return value.map((item) => this.resolve(item, outputsOf));
    if (typeof value === "object" && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.resolve(item, outputsOf)]));
    }
    return value;
  }

  private checkFailure(name: string, result: Awaited<ReturnType<RouteProvider["check"]>>): Error | undefined {
    const failures = result.failures;
    if (failures.length === 0) return undefined;
    return new Error(`${name}: check failed: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
  }

  /** `pulumi up` without --refresh. */
  up(program: Program): Promise<RunResult> {
    const steps: StepRecord[] = [];
    // Old resources of another type under the same name (another URN): deleted after the registrations.
    const retyped: Resource[] = [];
    return this.withOperation(async (lifecycleOf) => {
      try {
        await this.deleteCondemned(lifecycleOf, steps);
        const names = Object.keys(program);
        const order = dependencyOrder(names, (name) => dependenciesOf(program[name] as Declared));
        for (const name of order) {
          const declared = program[name] as Declared;
          const lifecycle = lifecycleOf(declared.kind);
          const news = this.resolve(declared.inputs, (n) => this.state.get(n)) as Props;
          const dependencies = dependenciesOf(declared);
          let old = this.state.get(name);
          if (old && old.kind !== declared.kind) {
            // Another type makes another URN: the engine creates the new resource and deletes the old one.
            retyped.push(old);
            this.state.delete(name);
            old = undefined;
          }
          const checked = await lifecycle.check(old?.inputs ?? {}, news);
          const failure = this.checkFailure(name, checked);
          if (failure) throw failure;
          const inputs = checked.inputs as Props;
          if (!old) {
            const created = await lifecycle.create(inputs);
            this.state.set(name, { kind: declared.kind, id: created.id, inputs, outs: created.outs, dependencies });
            steps.push({ op: "create", name, id: created.id });
            continue;
          }
          const diff = await lifecycle.diff(old.id, old.outs, inputs);
          if (!diff.changes) {
            this.state.set(name, { ...old, inputs, dependencies });
            steps.push({ op: "same", name, id: old.id });
            continue;
          }
          if (diff.replaces.length > 0) {
            if (diff.deleteBeforeReplace) {
              await lifecycle.delete(old.id, old.outs);
              this.state.delete(name);
            }
            const created = await lifecycle.create(inputs);
            // The engine marks the old object for deletion as soon as its replacement exists (CreateStep.Apply sets
            // `delete: true`), not at the end of the run: a later step's failure leaves it to the next `up` to delete.
            if (!diff.deleteBeforeReplace) this.condemned.push(old);
            this.state.set(name, { kind: declared.kind, id: created.id, inputs, outs: created.outs, dependencies });
            steps.push({ op: "replace", name, id: created.id });
            continue;
          }
          const updated = await lifecycle.update(old.id, old.outs, inputs);
          this.state.set(name, { ...old, inputs, outs: updated.outs, dependencies });
          steps.push({ op: "update", name, id: old.id });
        }
        // Deletes come after every registration: the resources no longer declared, dependents first, then the objects
        // replaced (create-before-delete), each once the resources that used it point elsewhere.
        const removed = [...this.state.keys()].filter((name) => !(name in program));
        const removedOrder = dependencyOrder(removed, (name) => this.state.get(name)?.dependencies ?? []).reverse();
        this.condemned.push(...retyped.splice(0));
        for (const name of removedOrder) {
          const resource = this.state.get(name) as Resource;
          await lifecycleOf(resource.kind).delete(resource.id, resource.outs);
          this.state.delete(name);
          steps.push({ op: "delete", name, id: resource.id });
        }
        await this.deleteCondemned(lifecycleOf, steps);
        return { ok: true, steps };
      } catch (error) {
        // The engine keeps such an old resource in the state, for the next `up` to delete (simplified: first).
        this.condemned.push(...retyped);
        return { ok: false, error: error as Error, steps };
      }
    });
  }

  private async deleteCondemned(lifecycleOf: (kind: string) => RouteProvider, steps: StepRecord[]) {
    while (this.condemned.length > 0) {
      const resource = this.condemned[0] as Resource;
      await lifecycleOf(resource.kind).delete(resource.id, resource.outs);
      this.condemned.shift();
      steps.push({ op: "delete-replaced", name: resource.kind, id: resource.id });
    }
  }

  /** `pulumi refresh`: reads every resource; an empty id drops it, the read inputs and outputs replace the stored. */
  refresh(): Promise<RunResult> {
    const steps: StepRecord[] = [];
    return this.withOperation(async (lifecycleOf) => {
      try {
        for (const [name, resource] of [...this.state]) {
          const read = await lifecycleOf(resource.kind).read(resource.id, resource.outs);
          if (!read.id) {
            this.state.delete(name);
            steps.push({ op: "gone", name, id: resource.id });
            continue;
          }
          const inputs = read.inputs ?? resource.inputs;
          this.state.set(name, { ...resource, id: read.id, inputs, outs: read.props });
          steps.push({ op: "read", name, id: read.id });
        }
        return { ok: true, steps };
      } catch (error) {
        return { ok: false, error: error as Error, steps };
      }
    });
  }

  /**
   * `pulumi preview`: check and diff of every declared resource against the state, nothing written. Returns the names
   * of the resources that would change (created, updated, replaced or deleted).
   */
  preview(program: Program): Promise<{ changes: string[]; error?: Error }> {
    return this.withOperation(async (lifecycleOf) => {
      const changes: string[] = [];
      /** Resources that would get a new id: their dependents see it as unknown. */
      const fresh = new Set<string>();
      try {
        const names = Object.keys(program);
        for (const name of dependencyOrder(names, (n) => dependenciesOf(program[n] as Declared))) {
          const declared = program[name] as Declared;
          const lifecycle = lifecycleOf(declared.kind);
          const old = this.state.get(name);
          // A resource that would be created or replaced has unknown outputs, which its dependents see as UNKNOWN.
          const news = this.resolve(declared.inputs, (n) => (fresh.has(n) ? undefined : this.state.get(n)));
          const checked = await lifecycle.check(old?.inputs ?? {}, news as Props);
          const failure = this.checkFailure(name, checked);
          if (failure) throw failure;
          if (!old || old.kind !== declared.kind) {
            changes.push(name);
            fresh.add(name);
            continue;
          }
          const diff = await lifecycle.diff(old.id, old.outs, checked.inputs as Props);
          if (diff.changes) changes.push(name);
          if (diff.replaces.length > 0) fresh.add(name);
        }
        for (const name of this.state.keys()) if (!(name in program)) changes.push(name);
        if (this.condemned.length > 0) changes.push(...this.condemned.map((r) => `${r.kind} ${r.id} (replaced)`));
        return { changes };
      } catch (error) {
        return { changes, error: error as Error };
      }
    });
  }

  /** `pulumi destroy`: deletes every resource, dependents first. */
  destroy(): Promise<RunResult> {
    const steps: StepRecord[] = [];
    return this.withOperation(async (lifecycleOf) => {
      try {
        await this.deleteCondemned(lifecycleOf, steps);
        const names = [...this.state.keys()];
        for (const name of dependencyOrder(names, (n) => this.state.get(n)?.dependencies ?? []).reverse()) {
          const resource = this.state.get(name) as Resource;
          await lifecycleOf(resource.kind).delete(resource.id, resource.outs);
          this.state.delete(name);
          steps.push({ op: "delete", name, id: resource.id });
        }
        return { ok: true, steps };
      } catch (error) {
        return { ok: false, error: error as Error, steps };
      }
    });
  }
}
