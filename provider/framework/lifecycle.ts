import { NotFoundError } from "../client";
import type { AdoptedBy } from "./adoptions";
import type { ChangeNotes } from "./changeNotes";
import { undoOnFailure } from "./cleanup";
import type { Companions } from "./companions";
import {
  CONNECTION,
  connectionFailures,
  connectionOf,
  type ResourceConnection,
  withConnectionOrganization,
} from "./connection";
import { applyProviderDefaults } from "./defaults";
import type { DriftAttribution } from "./driftAttribution";
import { explain, withoutSecrets, withoutStackTrace } from "./explain";
import { InputRules, sensitiveInputsOf } from "./inputRules";
import { describeIssue } from "./issues";
import { KeyedProperties } from "./keyed";
import type { CreatedCandidate, Found, KindDefinition, Known, ProgramRules, Props, ResourceContext } from "./kind";
import type {
  CheckFailure,
  CheckResult,
  CreateResult,
  DiffResult,
  PropertyChange,
  ReadResult,
  UpdateResult,
} from "./lifecycleResults";
import { checkAgainstApi, type PreflightScope, preflightEnabled } from "./preflight";
import type { CrossResourceRules } from "./programRules";
import { createWithoutDuplicates } from "./recovery";
import { defaultOrganizationId } from "./settings";
import { containsUnknown } from "./unknown";
import { sameValue, wireSafe } from "./values";

/** The input every kind has that is not the API object's: the id of an existing object to adopt. */
const IMPORT_ID = "importId";

/** What a lifecycle uses of the operation it belongs to (./operation.ts): its registries and its contexts. */
export interface LifecycleScope extends PreflightScope {
  crossResource: CrossResourceRules;
  driftAttribution: DriftAttribution;
  companions: Companions;
  changeNotes: ChangeNotes;
  context(connection?: ResourceConnection): ResourceContext;
}
/**
 * Output listing the input properties the program declared. `read` returns only those as the refreshed inputs: an
 * input the program never set must not show up as `+description` in every refresh of an unchanged resource.
 */
const DECLARED = "__declared";

/**
 * The input properties the program declared, as recorded in a state, or undefined for states written before it was
 * recorded. Lets a read skip requests for properties the program does not manage.
 */
function declaredProperties(props: Props): ReadonlySet<string> | undefined {
  const declared = props[DECLARED];
  return Array.isArray(declared)
    ? new Set(declared.filter((key): key is string => typeof key === "string"))
    : undefined;
}

/**
 * The one generic implementation of a resource's lifecycle, driven by a KindDefinition, for both routes: it answers
 * in its own terms (./lifecycleResults.ts), which the dynamic route's provider (./dynamic.ts) and the plugin's service
 * (../plugin/server.ts) translate, and it knows neither route's own properties (the dynamic route's `__provider` is
 * removed before a call reaches it). It runs inside the provider process (see ../runtime.ts); check and diff stay
 * offline because the engine calls them one at a time.
 * What it learns about the program's other resources goes to the operation it belongs to (./operation.ts); `context`
 * gives each CRUD call its client and listings (the operation's, unless a test gives its own).
 */
export class Lifecycle<Inputs extends Props, State extends Props> {
  private readonly inputKeys: readonly string[];
  private readonly setProperties: ReadonlySet<string>;
  private readonly keyed: KeyedProperties;
  private readonly replaceOnChanges: ReadonlySet<string>;
  private readonly providerOptions: ReadonlySet<string>;
  /** Properties whose values an error must not show: the sensitive inputs and the secret outputs. */
  private readonly secretProperties: readonly string[];
  private readonly rules: InputRules<Inputs>;
  /** The kind's rules about the program's other resources, as the operation's registries take them. */
  private readonly program: { kind: string; programRules?: ProgramRules };

  constructor(
    readonly definition: KindDefinition<Inputs, State>,
    private readonly operation: LifecycleScope,
    private readonly context: (connection?: ResourceConnection) => ResourceContext = (connection) =>
      operation.context(connection),
  ) {
    this.inputKeys = inputKeysOf(definition);
    this.keyed = new KeyedProperties(definition.keyedProperties);
    this.setProperties = new Set([...(definition.setProperties ?? []), ...this.keyed.properties]);
    this.replaceOnChanges = new Set(definition.replaceOnChanges ?? []);
    this.providerOptions = new Set(definition.providerOptions ?? []);
    this.secretProperties = [...sensitiveInputsOf(definition), ...(definition.secretOutputs ?? [])];
    this.rules = new InputRules(definition);
    // The rules name Inputs' properties, which are strings to the operation's registries of every kind.
    this.program = { kind: definition.kind, programRules: definition.programRules as ProgramRules | undefined };
  }

  async check(olds: Props, news: Props): Promise<CheckResult> {
    // Inputs check returned before (keyed) check the same again.
    const connected = withConnectionOrganization(this.inputKeys, this.keyed.plain(news));
    const defaulted = applyProviderDefaults(this.definition.kind, this.inputKeys, connected);
    const { [IMPORT_ID]: importId, [CONNECTION]: connection, ...declared } = defaulted.news;
    // A missing default is reported in its own words (naming both settings), next to every other failure.
    const failures: CheckFailure[] = [...defaulted.failures];
    failures.push(...connectionFailures(this.definition.kind, connection));
    const reported = new Set(defaulted.failures.map((failure) => failure.property));
    const judged = this.rules.judge(olds, declared, importId, reported);
    failures.push(...judged.failures);
    if (failures.length > 0) return { failures };
    const { inputs } = judged;
    const { crossResource, companions } = this.operation;
    const duplicates = crossResource.duplicateFailures(this.program, inputs);
    if (duplicates.length > 0) return { failures: duplicates };
    crossResource.warnOnConflicts(this.program, inputs);
    companions.noteChecked(this.program, inputs);
    crossResource.warnOnExpectations(this.program, inputs);
    const withConnection = connection === undefined ? inputs : { ...inputs, [CONNECTION]: connection };
    const rejected = await checkAgainstApi(this, olds, withConnection, importId, this.operation);
    if (rejected.length > 0) return { failures: rejected };
    const checked = importId === undefined ? withConnection : { ...withConnection, [IMPORT_ID]: importId };
    return { inputs: this.keyed.keyed(checked) };
  }

  /**
   * The diff of the checked inputs against the state, property by property: the one both routes show (the plugin
   * sends `detailedDiff`; the dynamic route, which cannot, sends the rest and the engine shows its own).
   */
  async diff(id: string, olds: Props, checkedNews: Props): Promise<DiffResult> {
    const news = this.keyed.plain(checkedNews);
    const declared = Object.entries(news).filter(([, value]) => value !== undefined);
    this.operation.crossResource.observeResource(this.definition.kind, id, {
      ...olds,
      ...Object.fromEntries(declared),
    });
    const changed = this.changedProperties(olds, news);
    this.operation.changeNotes.noteChange(this.definition, id, olds, this.inputsOf(news), changed);
    const replaces = changed.filter((key) => this.replaceOnChanges.has(key));
    this.operation.companions.noteId(this.program, news, replaces.length > 0 ? undefined : id);
    // A new connection (another token source) changes nothing at the API, but is saved by an update for refresh and
    // destroy, which only see the state.
    const reconnected = !sameValue(olds[CONNECTION], news[CONNECTION]);
    // Compared with the state (the engine's olds are outputs): a property the state lacks is added.
    const previous = this.keyed.plain(olds);
    const detailedDiff: Record<string, PropertyChange> = {};
    for (const key of changed) {
      detailedDiff[key] = { kind: previous[key] === undefined ? "add" : "update", replace: replaces.includes(key) };
    }
    return {
      changes: changed.length > 0 || reconnected,
      replaces,
      deleteBeforeReplace: replaces.length > 0 && this.definition.deleteBeforeReplace === true,
      detailedDiff,
    };
  }

  async create(news: Props): Promise<CreateResult> {
    const inputs = this.inputsOf(news);
    const importId = typeof news[IMPORT_ID] === "string" ? news[IMPORT_ID] : undefined;
    const adoptsOnCreate = importId === undefined ? this.definition.adoptsOnCreate : undefined;
    const found = await this.guard(
      "create",
      importId,
      async (ctx) =>
        adoptsOnCreate
          ? this.adopt(ctx, adoptsOnCreate.id(inputs), inputs, "adoptsOnCreate", adoptsOnCreate.missing)
          : importId === undefined
            ? createWithoutDuplicates(this.definition, ctx, inputs, (id) => this.adopt(ctx, id, inputs, "recovery"))
            : this.adopt(ctx, importId, inputs, "importId"),
      news,
    );
    const outs = this.outputs(found.state, news);
    this.operation.crossResource.observeResource(this.definition.kind, found.id, outs);
    this.operation.companions.noteId(this.program, inputs, found.id);
    return { id: found.id, outs };
  }

  async read(id: string, props: Props = {}): Promise<ReadResult> {
    const known = this.stateOf(id, props);
    const declared = declaredProperties(props);
    const found = await this.guard(
      "read",
      id,
      async (ctx) => {
        const read = await this.readOrGone(ctx, id, known, declared);
        // A refresh of a resource the state holds (it recorded what the program declared) that finds drift.
        if (declared !== undefined && preflightEnabled()) await this.attributeDrift(ctx, id, props, declared, read);
        return read;
      },
      props,
    );
    const result = this.readResult(found, props);
    // The refreshed inputs replace the stored ones, which the next preview's diff starts from.
    return result.inputs ? { ...result, inputs: this.keyed.keyed(result.inputs) } : result;
  }

  /**
   * The objects a create with these (checked) inputs may have made since `since`, by the kind's `findCreated`;
   * `undefined` for a kind whose create cannot duplicate. What `docs-platform recover` resolves pending creates with.
   */
  async findCreated(inputs: Props, since: Date): Promise<CreatedCandidate[] | undefined> {
    const find = this.definition.findCreated;
    if (!find) return undefined;
    return this.guard(
      "find",
      undefined,
      (ctx) => find.call(this.definition, ctx, this.inputsOf(inputs), since),
      inputs,
    );
  }

  /**
   * Reads an object no state holds yet, by its id and the parents' ids its API paths need, as adoption does: what
   * `docs-platform import` declares for an object comes from here. The answer is shaped like a refresh's; given the
   * inputs a program declared (`docs-platform recover`: those of a killed create), its outputs are the ones a create
   * with those inputs returns.
   */
  async lookup(id: string, parents: Partial<Inputs>, declared: Props = {}): Promise<ReadResult> {
    const found = await this.guard(
      "read",
      id,
      (ctx) => this.readOrGone(ctx, id, this.inputsOf(parents) as Inputs, undefined),
      parents,
    );
    return this.readResult(found, declared);
  }

  private readResult(found: Found<State> | undefined, props: Props): ReadResult {
    // An empty id tells the engine the object is gone, so refresh drops it and the next `up` recreates it.
    if (found === undefined) return { id: "", props: {} };
    const { state } = found;
    const importId = props[IMPORT_ID];
    const declared = declaredProperties(props) ?? this.inputKeys;
    const inputs: Props = {};
    for (const key of declared) {
      const value = this.providerOptions.has(key) ? props[key] : state[key];
      if (value !== undefined) inputs[key] = value;
    }
    if (importId !== undefined) inputs[IMPORT_ID] = importId;
    if (props[CONNECTION] !== undefined) inputs[CONNECTION] = props[CONNECTION];
    return { id: found.id, props: this.outputs(state, props), inputs: wireSafe(inputs) };
  }

  async update(id: string, olds: Props, news: Props): Promise<UpdateResult> {
    const previous = this.stateOf(id, olds);
    const inputs = this.inputsOf(news);
    const changed = new Set(this.changedProperties(olds, news));
    const state =
      changed.size === 0
        ? previous
        : await this.guard("update", id, (ctx) => this.definition.update(ctx, id, previous, inputs, changed), news);
    const outs = this.outputs(state, news);
    this.operation.crossResource.observeResource(this.definition.kind, id, outs);
    return { outs };
  }

  async delete(id: string, props: Props): Promise<void> {
    const state = this.stateOf(id, props);
    await this.guard(
      "delete",
      id,
      async (ctx) => {
        try {
          await this.definition.delete(ctx, id, state);
        } catch (error) {
          if (!(error instanceof NotFoundError)) throw error;
        }
      },
      props,
    );
  }

  /** Declared (non-undefined) inputs whose value differs from the state; unknown values count as changed. */
  changedProperties(olds: Props, news: Props): string[] {
    const changed: string[] = [];
    const previous = this.keyed.plain(olds);
    for (const [key, value] of Object.entries(this.keyed.plain(news))) {
      if (!this.inputKeys.includes(key) || this.providerOptions.has(key) || value === undefined) continue;
      if (containsUnknown(value) || !sameValue(value, previous[key], this.setProperties.has(key))) changed.push(key);
    }
    return changed;
  }

  /**
   * Takes over an existing object: read it, then bring it to the declared inputs. An object a lost create answer
   * left (`recovery`) is this create's own: if reading it back or bringing it to the inputs fails, it is removed
   * again, as the create itself would have removed it, so that the next `up` does not make a second one.
   */
  private async adopt(
    ctx: ResourceContext,
    id: string,
    inputs: Inputs,
    by: AdoptedBy,
    missing?: string,
  ): Promise<Found<State>> {
    const title = typeof inputs.title === "string" ? inputs.title : undefined;
    const read = () => this.readOrGone(ctx, id, inputs, this.declaredIn(inputs));
    // Before it is read, the inputs give a delete the object's address (organization, site) as its state would.
    const found =
      by === "recovery"
        ? await undoOnFailure(
            { kind: this.definition.kind, id, title },
            () => this.definition.delete(ctx, id, inputs as unknown as State),
            read,
          )
        : await read();
    if (found === undefined && missing !== undefined) throw new Error(`${this.definition.kind} "${id}": ${missing}`);
    if (found === undefined && by === "recovery") {
      throw new Error(
        `${this.definition.kind} create: the answer was lost, and the ${this.definition.kind} "${id}" it made was ` +
          "gone before it could be read back (deleted meanwhile?): nothing is left behind; run `pulumi up` again.",
      );
    }
    if (found === undefined) {
      throw new Error(
        `${this.definition.kind}: importId "${id}" names no existing ${this.definition.kind} that these inputs can reach. ` +
          `Fix importId (format: ${this.definition.idFormat}) or remove it to create a new ${this.definition.kind}.`,
      );
    }
    const changed = new Set(this.changedProperties(found.state, inputs));
    this.operation.adoptions.report(this.definition.kind, found.id, [...changed], by);
    if (changed.size === 0) return found;
    const update = async () => ({
      id: found.id,
      state: await this.definition.update(ctx, found.id, found.state, inputs, changed),
    });
    if (by !== "recovery") return update();
    return undoOnFailure(
      { kind: this.definition.kind, id: found.id, title },
      () => this.definition.delete(ctx, found.id, found.state),
      update,
    );
  }

  /** The input properties adoption manages: a read may skip the others (a team's unmanaged members). */
  private declaredIn(inputs: Inputs): ReadonlySet<string> {
    return new Set(this.inputKeys.filter((key) => inputs[key] !== undefined));
  }

  /** With preflight on, says who last changed an object its refresh finds changed or gone (./driftAttribution.ts). */
  private async attributeDrift(
    ctx: ResourceContext,
    id: string,
    props: Props,
    declared: ReadonlySet<string>,
    read: Found<State> | undefined,
  ): Promise<void> {
    const organizationId = props.organizationId ?? read?.state.organizationId ?? defaultOrganizationId();
    if (typeof organizationId !== "string") return;
    const subject = { kind: this.definition.kind, id };
    if (read === undefined) {
      await this.operation.driftAttribution.tell(ctx.client, organizationId, subject, "gone");
      return;
    }
    const before = this.keyed.plain(props);
    const changed = [...declared].filter(
      (key) => !this.providerOptions.has(key) && !sameValue(before[key], read.state[key], this.setProperties.has(key)),
    );
    if (changed.length > 0)
      await this.operation.driftAttribution.tell(ctx.client, organizationId, subject, { changed });
  }

  /** A 404 while reading (of the object or of a parent) means it is gone, whatever the kind. */
  private async readOrGone(
    ctx: ResourceContext,
    id: string,
    known: Known<Inputs, State>,
    declared: ReadonlySet<string> | undefined,
  ): Promise<Found<State> | undefined> {
    try {
      return await this.definition.read(ctx, id, known, declared);
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  }

  /** Runs one operation with the client of the resource's connection (`props`: its inputs or state). */
  private async guard<T>(
    operation: string,
    id: string | undefined,
    run: (ctx: ResourceContext) => Promise<T>,
    props: Props = {},
  ) {
    try {
      // Inside the try: a missing token (thrown when the client is made) is explained like any other failure.
      const ctx = this.context(connectionOf(props));
      // No read after a write may be served a listing the write can have changed: the client's writes drop them, and
      // only those (./listings.ts), so an adoption or an update that sends nothing keeps every listing.
      ctx.listings.follow(ctx.client);
      return await run(ctx);
    } catch (error) {
      const explained = explain(this.definition, operation, id, error, connectionOf(props));
      throw withoutStackTrace(
        withoutSecrets(
          explained,
          this.secretProperties.flatMap((key) => textsIn(props[key])),
        ),
      );
    }
  }

  private inputsOf(news: Props): Inputs {
    const { [IMPORT_ID]: _importId, [CONNECTION]: _connection, ...inputs } = news;
    return this.keyed.plain(inputs) as Inputs;
  }

  private stateOf(id: string, props: Props): State {
    const parsed = this.definition.state.safeParse(props);
    if (parsed.success) return parsed.data;
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${describeIssue(issue)}`);
    throw new Error(`${this.definition.kind} "${id}": the stored state cannot be read (${problems.join("; ")}).`);
  }

  /** The state plus what only the program knows: the adoption id, the provider options and what it declared. */
  private outputs(state: State, source: Props): Props {
    const outputs: Props = { ...state };
    for (const key of [IMPORT_ID, CONNECTION, ...this.providerOptions]) {
      if (source[key] !== undefined) outputs[key] = source[key];
    }
    outputs[DECLARED] = Array.isArray(source[DECLARED])
      ? source[DECLARED]
      : this.inputKeys.filter((key) => source[key] !== undefined);
    return wireSafe(outputs);
  }
}

/** The texts in a property's value: itself, or those in its values or elements (a map of header values). */
function textsIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(textsIn);
  return [];
}

function inputKeysOf(definition: Pick<KindDefinition, "kind" | "inputs">): string[] {
  const shape = (definition.inputs as unknown as { shape?: Record<string, unknown> }).shape;
  if (!shape) throw new Error(`${definition.kind}: the input schema must be a zod object`);
  return Object.keys(shape);
}
