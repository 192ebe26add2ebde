import type * as grpcTypes from "@grpc/grpc-js";
import type * as pluginTypes from "@pulumi/pulumi/proto/plugin_pb";
import type * as providerRpcTypes from "@pulumi/pulumi/proto/provider_grpc_pb";
import type * as providerTypes from "@pulumi/pulumi/proto/provider_pb";
import type * as emptyTypes from "google-protobuf/google/protobuf/empty_pb";
import type * as structTypes from "google-protobuf/google/protobuf/struct_pb";
import { PROVIDER_KEY } from "../framework/dynamic";
import { importObject } from "../framework/importIds";
import { sensitiveInputsOf } from "../framework/inputRules";
import type { KindDefinition, Props } from "../framework/kind";
import type { PropertyChange } from "../framework/lifecycleResults";
import type { Operation } from "../framework/operation";
import { defaultOrganizationId, providerStackConfig, setStackConfig } from "../framework/settings";
import { PACKAGE, pluginType } from "../framework/typeTokens";
import { checkedArgs, type FunctionDefinition } from "../functions";
import type { ProviderLookupOptions } from "../lookups";
import { isDefaultProvider, PROVIDER_SETTINGS, type ProviderSettings, providerConfigFailures } from "./config";
import type { EngineLog } from "./engineLog";
import { fromPulumi } from "./proto";
import { asSecret, revealed, withSecrets } from "./secrets";

const grpc = fromPulumi<typeof grpcTypes>("@grpc/grpc-js");
const struct = fromPulumi<typeof structTypes>("google-protobuf/google/protobuf/struct_pb");
const empty = fromPulumi<typeof emptyTypes>("google-protobuf/google/protobuf/empty_pb");
const plugin = fromPulumi<typeof pluginTypes>("@pulumi/pulumi/proto/plugin_pb");
const provider = fromPulumi<typeof providerTypes>("@pulumi/pulumi/proto/provider_pb");
const providerRpc = fromPulumi<typeof providerRpcTypes>("@pulumi/pulumi/proto/provider_grpc_pb");

/** What the plugin serves: the kinds, and where their lifecycles and the operation's notices come from. */
export interface PluginParts {
  definitions: readonly KindDefinition[];
  /** The operation of this process (one per plugin process, as on the dynamic route). */
  operation: () => Operation;
  version: string;
  /** The provider functions `Invoke` serves: the lookups (../functions.ts). */
  functions: readonly FunctionDefinition[];
  /** The checked-in schema's text (provider/plugin/schema.json). */
  schema: () => string;
  log: EngineLog;
}

type Unary<Request, Response> = grpcTypes.handleUnaryCall<Request, Response>;

/**
 * The ResourceProvider service of the `docs` plugin: each RPC hands the request to the same Lifecycle the dynamic
 * route's providers call (../framework/lifecycle.ts), so a kind behaves alike on both routes. It is written over the
 * generated gRPC classes, as `@pulumi/pulumi/cmd/dynamic-provider` is, rather than on `@pulumi/pulumi/provider`'s
 * `main()`, which in 3.259 drops the config in `configure`, answers `acceptSecrets: true` (so the engine stops marking
 * secret outputs), crashes in `read` on import (no properties), lacks `checkConfig` (a token set without `--secret`
 * would be stored in plain text) and sends no detailed diff: five of its six gaps would need a fork of its server.
 */
export class ProviderService {
  private readonly byType: ReadonlyMap<string, KindDefinition>;
  private readonly secretKeys = new Map<string, ReadonlySet<string>>();
  private closingNoticesSent = false;

  constructor(private readonly parts: PluginParts) {
    this.byType = new Map(parts.definitions.map((definition) => [pluginType(definition.kind), definition]));
  }

  /** The implementation handed to grpc-js; methods left out (construct, call…) answer UNIMPLEMENTED. */
  implementation(): Partial<providerRpcTypes.IResourceProviderServer> {
    return {
      getPluginInfo: this.unary(async () => new plugin.PluginInfo().setVersion(this.parts.version)),
      getSchema: this.unary(async () => new provider.GetSchemaResponse().setSchema(this.parts.schema())),
      attach: this.unary(async (request: pluginTypes.PluginAttach) => {
        this.parts.log.attach(request.getAddress());
        return new empty.Empty();
      }),
      cancel: this.unary(() => this.cancel()),
      checkConfig: this.unary((request: providerTypes.CheckRequest) => this.checkConfig(request)),
      configure: this.unary((request: providerTypes.ConfigureRequest) => this.configure(request)),
      check: this.unary((request: providerTypes.CheckRequest) => this.check(request)),
      diff: this.unary((request: providerTypes.DiffRequest) => this.diff(request)),
      create: this.unary((request: providerTypes.CreateRequest) => this.create(request)),
      read: this.unary((request: providerTypes.ReadRequest) => this.read(request)),
      update: this.unary((request: providerTypes.UpdateRequest) => this.update(request)),
      delete: this.unary((request: providerTypes.DeleteRequest) => this.delete(request)),
      invoke: this.unary((request: providerTypes.InvokeRequest) => this.invoke(request)),
    } as Partial<providerRpcTypes.IResourceProviderServer>;
  }

  /**
   * Runs one RPC as the call of its resource (what it logs is shown under the resource) and answers an error as the
   * engine prints it: the message alone, which the Lifecycle has already put in the user's terms.
   */
  private unary<Request, Response>(handle: (request: Request) => Promise<Response>): Unary<Request, Response> {
    return (call, callback) => {
      const request = call.request as Request & { getUrn?: () => string | undefined };
      // Stryker disable next-line StringLiteral: the calls without a URN (plugin info, schema, cancel) log nothing of their own.
      const urn = request.getUrn?.() ?? "";
      this.parts.log.within(urn, () =>
        handle(request)
          .finally(() => this.parts.log.flushed())
          .then(
            (response) => callback(null, response),
            (error: unknown) =>
              callback({
                code: grpc.status.UNKNOWN,
                details: error instanceof Error ? error.message : String(error),
              }),
          ),
      );
    };
  }

  /**
   * The engine's last call before it closes the plugin (host.Close, ReleaseContext), and Ctrl-C's: the notices only
   * known once the operation is over go out on the first one. The dynamic route prints them at process exit, but a
   * plugin's stderr is hidden and the engine has stopped listening by then.
   */
  private async cancel(): Promise<emptyTypes.Empty> {
    if (!this.closingNoticesSent) {
      this.closingNoticesSent = true;
      const notices = this.parts.operation().closingNotices();
      await Promise.all(notices.map(({ severity, message }) => this.parts.log.send(severity, message, "")));
    }
    return new empty.Empty();
  }

  private async checkConfig(request: providerTypes.CheckRequest): Promise<providerTypes.CheckResponse> {
    const news = toObject(request.getNews());
    const failures = providerConfigFailures(news, providerNameOf(request.getUrn()));
    // The token is stored as a secret in the provider's state however it was set (`--secret` or not).
    const inputs = { ...news };
    if (inputs.apiToken !== undefined) inputs.apiToken = asSecret(revealed(inputs.apiToken));
    return new provider.CheckResponse().setInputs(toStruct(inputs)).setFailuresList(failures.map(checkFailure));
  }

  private async configure(request: providerTypes.ConfigureRequest): Promise<providerTypes.ConfigureResponse> {
    const args = revealed(toObject(request.getArgs())) as Record<string, unknown>;
    const settings: ProviderSettings = {};
    for (const name of PROVIDER_SETTINGS) {
      const value = args[name];
      if (value !== undefined && value !== null) settings[name] = String(value);
    }
    const name = request.getName() || providerNameOf(request.getUrn() ?? "");
    setStackConfig({ ...settings, ...(isDefaultProvider(name) ? {} : { provider: name }) });
    // As on the dynamic route: the engine strips secrets going in and marks outputs at a secret input's path.
    return new provider.ConfigureResponse().setAcceptsecrets(false).setAcceptresources(false);
  }

  private async check(request: providerTypes.CheckRequest): Promise<providerTypes.CheckResponse> {
    const { lifecycle } = this.kindOf(request.getType(), request.getUrn());
    const result = await lifecycle.check(toObject(request.getOlds()), toObject(request.getNews()));
    const response = new provider.CheckResponse();
    if (result.inputs !== undefined) response.setInputs(toStruct(result.inputs));
    return response.setFailuresList((result.failures ?? []).map(checkFailure));
  }

  private async diff(request: providerTypes.DiffRequest): Promise<providerTypes.DiffResponse> {
    const { lifecycle } = this.kindOf(request.getType(), request.getUrn());
    const olds = toObject(request.getOlds());
    const result = await lifecycle.diff(request.getId(), withoutDynamicProvider(olds), toObject(request.getNews()));
    // A resource moved here from the dynamic route by a type alias still holds its serialized provider, which is no
    // property of the kind: an update (no request: nothing at the API changed) writes its outputs without it.
    const migrated = olds[PROVIDER_KEY] !== undefined;
    const detailedDiff: Record<string, PropertyChange> = migrated
      ? { ...result.detailedDiff, [PROVIDER_KEY]: { kind: "delete", replace: false } }
      : result.detailedDiff;
    const changed = Object.entries(detailedDiff);
    const response = new provider.DiffResponse()
      .setChanges(
        result.changes || migrated
          ? provider.DiffResponse.DiffChanges.DIFF_SOME
          : provider.DiffResponse.DiffChanges.DIFF_NONE,
      )
      .setReplacesList(result.replaces)
      .setDeletebeforereplace(result.deleteBeforeReplace)
      .setDiffsList(changed.map(([key]) => key))
      .setHasdetaileddiff(true);
    for (const [key, change] of changed) response.getDetaileddiffMap().set(key, propertyDiff(change));
    return response;
  }

  private async create(request: providerTypes.CreateRequest): Promise<providerTypes.CreateResponse> {
    const { definition, lifecycle } = this.kindOf(request.getType(), request.getUrn());
    const result = await lifecycle.create(toObject(request.getProperties()));
    return new provider.CreateResponse()
      .setId(result.id)
      .setProperties(toStruct(this.secrets(definition, result.outs)));
  }

  private async read(request: providerTypes.ReadRequest): Promise<providerTypes.ReadResponse> {
    const { definition, lifecycle } = this.kindOf(request.getType(), request.getUrn());
    const state = request.getProperties();
    // `pulumi import` and the `import` option read with the id alone: no state, no inputs.
    const importing = state === undefined;
    const result = importing
      ? await importObject(this.parts.operation(), definition, request.getId(), defaultOrganizationId())
      : await lifecycle.read(request.getId(), state.toJavaScript() as Props);
    const response = new provider.ReadResponse().setId(result.id);
    if (!result.id) return response;
    response.setProperties(toStruct(this.secrets(definition, result.props)));
    // A read always reports inputs: the engine takes an import without them for a provider that cannot import. On a
    // refresh the engine marks secret again what the last inputs held as secret (annotateSecrets); marking a
    // sensitive input the program gave in plain text would make the next `up` rewrite the state for it, every time.
    const inputs = result.inputs ?? {};
    response.setInputs(toStruct(importing ? this.secrets(definition, inputs) : inputs));
    return response;
  }

  private async update(request: providerTypes.UpdateRequest): Promise<providerTypes.UpdateResponse> {
    const { definition, lifecycle } = this.kindOf(request.getType(), request.getUrn());
    // A migrated resource's outputs lose the dynamic route's serialized provider (see diff).
    const olds = withoutDynamicProvider(toObject(request.getOlds()));
    const result = await lifecycle.update(request.getId(), olds, toObject(request.getNews()));
    return new provider.UpdateResponse().setProperties(toStruct(this.secrets(definition, result.outs)));
  }

  private async delete(request: providerTypes.DeleteRequest): Promise<emptyTypes.Empty> {
    const { lifecycle } = this.kindOf(request.getType(), request.getUrn());
    await lifecycle.delete(request.getId(), toObject(request.getProperties()));
    return new empty.Empty();
  }

  /**
   * A provider function: the lookup a TypeScript program calls, with the settings `configure` received. A lookup that
   * finds no object or several fails the call, and so the preview, with the lookup's own words.
   */
  private async invoke(request: providerTypes.InvokeRequest): Promise<providerTypes.InvokeResponse> {
    const name = request.getTok().startsWith(pluginType("")) ? request.getTok().slice(pluginType("").length) : "";
    const fn = this.parts.functions.find((candidate) => candidate.name === name);
    if (fn === undefined) {
      const known = this.parts.functions.map((candidate) => pluginType(candidate.name)).join(", ");
      throw new Error(`unknown function ${request.getTok()}: the ${PACKAGE} plugin serves ${known}`);
    }
    const args = checkedArgs(fn, revealed(toObject(request.getArgs())) as Props);
    const options: ProviderLookupOptions = { stackConfig: providerStackConfig };
    const result = await fn.run(args, options);
    return new provider.InvokeResponse().setReturn(toStruct(result as Props));
  }

  /** Secret outputs and sensitive inputs, wrapped: imports and reads have no program to ask for it. */
  private secrets(definition: KindDefinition, props: Props): Props {
    let keys = this.secretKeys.get(definition.kind);
    // Stryker disable next-line ConditionalExpression: a cache (sensitiveInputsOf renders the schema); computing again gives the same set.
    if (keys === undefined) {
      // Stryker disable next-line ArrayDeclaration: no object has a property named like the mutant's.
      keys = new Set([...(definition.secretOutputs ?? []), ...sensitiveInputsOf(definition)]);
      this.secretKeys.set(definition.kind, keys);
    }
    return withSecrets(props, keys);
  }

  private kindOf(type: string | undefined, urn: string) {
    // Older engines send no type; the URN ends with it (`…::<parent types>$docs:index:<Kind>::<name>`).
    const token = type || (urn.split("::")[2] ?? "").split("$").at(-1) || "";
    const definition = this.byType.get(token);
    if (definition === undefined) {
      throw new Error(`unknown resource type ${token}: the ${PACKAGE} plugin serves ${pluginType("<Kind>")} types`);
    }
    return { definition, lifecycle: this.parts.operation().lifecycle(definition) };
  }
}

/** The name of the provider resource a config check is for: `default…` for the stack's default provider. */
function providerNameOf(urn: string): string {
  return urn.split("::").at(-1) ?? "";
}

function toObject(value: structTypes.Struct | undefined): Props {
  return (value?.toJavaScript() ?? {}) as Props;
}

/** A Struct of `value`, without its `undefined` members (JSON drops them too; the Struct builder throws on them). */
function toStruct(value: Props): structTypes.Struct {
  return struct.Struct.fromJavaScript(JSON.parse(JSON.stringify(value)));
}

/** The state without the serialized provider a resource moved here from the dynamic route still holds. */
function withoutDynamicProvider(props: Props): Props {
  const { [PROVIDER_KEY]: _serialized, ...rest } = props;
  return rest;
}

/** One property's change in the engine's terms (Add, Update, Delete, and their replacing kinds). */
function propertyDiff(change: PropertyChange): providerTypes.PropertyDiff {
  const Kind = provider.PropertyDiff.Kind;
  const kinds = {
    add: [Kind.ADD, Kind.ADD_REPLACE],
    update: [Kind.UPDATE, Kind.UPDATE_REPLACE],
    delete: [Kind.DELETE, Kind.DELETE_REPLACE],
  } as const;
  return new provider.PropertyDiff().setKind(kinds[change.kind][change.replace ? 1 : 0]);
}

function checkFailure(failure: { property: string; reason: string }): providerTypes.CheckFailure {
  return new provider.CheckFailure().setProperty(failure.property).setReason(failure.reason);
}

/** Serves the plugin on a free local port and returns the port, which the engine reads from stdout. */
export async function serve(parts: PluginParts): Promise<{ port: number; server: grpcTypes.Server }> {
  const server = new grpc.Server();
  server.addService(
    providerRpc.ResourceProviderService,
    new ProviderService(parts).implementation() as grpcTypes.UntypedServiceImplementation,
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return { port, server };
}
