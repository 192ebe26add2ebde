/**
 * The two routes a kind is served on, as the stand-in engine (./engine.ts) calls them: the dynamic route's provider
 * methods (the Lifecycle the serialized providers call, provider/framework/dynamic.ts) and the plugin's gRPC service
 * (provider/plugin/server.ts), driven in process through the handlers it gives grpc-js, with requests and answers in
 * protobuf, as the engine sends them. Both answer in the engine's terms below, so one engine drives either.
 */
import type * as grpc from "@grpc/grpc-js";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import type { ResourceConnection } from "../../provider/framework/connection";
import type { Props, ResourceContext } from "../../provider/framework/kind";
import { Operation } from "../../provider/framework/operation";
import { pluginType } from "../../provider/framework/typeTokens";
import { FUNCTIONS } from "../../provider/functions";
import { EngineLog } from "../../provider/plugin/engineLog";
import { revealed } from "../../provider/plugin/secrets";
import { ProviderService } from "../../provider/plugin/server";
import { definitions } from "../../provider/registry";

export type RouteName = "dynamic" | "plugin";
export const ROUTES: readonly RouteName[] = ["dynamic", "plugin"];

/** What the engine learns from each call, whichever route answered it. */
export interface RouteProvider {
  check(olds: Props, news: Props): Promise<{ inputs?: Props; failures: { property: string; reason: string }[] }>;
  diff(
    id: string,
    olds: Props,
    news: Props,
  ): Promise<{ changes: boolean; replaces: string[]; deleteBeforeReplace: boolean }>;
  create(inputs: Props): Promise<{ id: string; outs: Props }>;
  /** An empty id: the object is gone. */
  read(id: string, outs: Props): Promise<{ id: string; inputs?: Props; props: Props }>;
  update(id: string, olds: Props, news: Props): Promise<{ outs: Props }>;
  delete(id: string, outs: Props): Promise<void>;
}

/**
 * One engine run's provider process: an Operation whose stack-wide context is the one given (a client that never
 * sleeps between attempts), as the engine starts one provider process per run.
 */
class RunOperation extends Operation {
  constructor(private readonly shared: ResourceContext) {
    super(definitions);
  }
  override context(connection?: ResourceConnection): ResourceContext {
    return connection === undefined ? this.shared : super.context(connection);
  }
}

/** The providers of one run on a route: `providerOf(kind)`. */
export function routeProviders(
  route: RouteName,
  shared: ResourceContext,
): {
  providerOf: (kind: string) => RouteProvider;
  close: () => void;
} {
  const operation = new RunOperation(shared);
  const definitionOf = (kind: string) => {
    const definition = operation.definition(kind);
    if (!definition) throw new Error(`unknown kind "${kind}"`);
    return definition;
  };
  const close = () => operation.close();
  if (route === "dynamic") return { providerOf: (kind) => dynamicProvider(operation, definitionOf(kind)), close };
  const service = new ProviderService({
    definitions,
    functions: FUNCTIONS,
    operation: () => operation,
    version: "0.0.0-model",
    schema: () => "{}",
    log: new EngineLog(),
  });
  const handlers = service.implementation() as unknown as Record<string, grpc.handleUnaryCall<unknown, unknown>>;
  return { providerOf: (kind) => pluginProvider(handlers, kind), close };
}

function dynamicProvider(
  operation: Operation,
  definition: ReturnType<Operation["definition"]> & object,
): RouteProvider {
  const lifecycle = operation.lifecycle(definition);
  return {
    check: async (olds, news) => {
      const result = await lifecycle.check(olds, news);
      return { inputs: result.inputs as Props | undefined, failures: result.failures ?? [] };
    },
    diff: async (id, olds, news) => {
      const result = await lifecycle.diff(id, olds, news);
      return {
        changes: result.changes === true,
        replaces: result.replaces ?? [],
        deleteBeforeReplace: result.deleteBeforeReplace === true,
      };
    },
    create: async (inputs) => {
      const result = await lifecycle.create(inputs);
      return { id: result.id, outs: (result.outs ?? {}) as Props };
    },
    read: async (id, outs) => {
      const result = await lifecycle.read(id, outs);
      return { id: result.id ?? "", inputs: result.inputs as Props | undefined, props: (result.props ?? {}) as Props };
    },
    update: async (id, olds, news) => ({ outs: ((await lifecycle.update(id, olds, news)).outs ?? {}) as Props }),
    delete: async (id, outs) => {
      await lifecycle.delete(id, outs);
    },
  };
}

/**
 * Calls one handler as grpc-js would: the request on `call.request`, the answer or the error through the callback.
 * An error comes back with the message the engine would print (`details`).
 */
function callHandler<Response>(handler: grpc.handleUnaryCall<unknown, unknown>, request: unknown): Promise<Response> {
  return new Promise((resolve, reject) => {
    handler({ request } as grpc.ServerUnaryCall<unknown, unknown>, (error, response) => {
      if (error) reject(new Error((error as grpc.ServiceError).details ?? String(error)));
      else resolve(response as Response);
    });
  });
}

/** A Struct of plain values (JSON drops `undefined`, as the engine's marshalling does). */
const struct = (value: Props) => Struct.fromJavaScript(JSON.parse(JSON.stringify(value)));
/**
 * What the engine keeps of an answer's properties: the plugin answers `acceptSecrets: false`, so the engine sends
 * plain values back on every call; the secret marks only decide how the state stores them.
 */
const plain = (value: Struct | undefined): Props => revealed(value?.toJavaScript() ?? {}) as Props;

function pluginProvider(handlers: Record<string, grpc.handleUnaryCall<unknown, unknown>>, kind: string): RouteProvider {
  const type = pluginType(kind);
  const urn = `urn:pulumi:model::docs-model::${type}::${kind}`;
  const handler = (name: string) => {
    const found = handlers[name];
    if (!found) throw new Error(`the plugin service has no ${name} handler`);
    return found;
  };
  return {
    check: async (olds, news) => {
      const request = new proto.CheckRequest().setUrn(urn).setType(type).setOlds(struct(olds)).setNews(struct(news));
      const response = await callHandler<proto.CheckResponse>(handler("check"), request);
      return {
        inputs: response.hasInputs() ? plain(response.getInputs()) : undefined,
        failures: response.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
      };
    },
    diff: async (id, olds, news) => {
      const request = new proto.DiffRequest()
        .setId(id)
        .setUrn(urn)
        .setType(type)
        .setOlds(struct(olds))
        .setNews(struct(news));
      const response = await callHandler<proto.DiffResponse>(handler("diff"), request);
      return {
        changes: response.getChanges() === proto.DiffResponse.DiffChanges.DIFF_SOME,
        replaces: response.getReplacesList(),
        deleteBeforeReplace: response.getDeletebeforereplace(),
      };
    },
    create: async (inputs) => {
      const request = new proto.CreateRequest().setUrn(urn).setType(type).setProperties(struct(inputs));
      const response = await callHandler<proto.CreateResponse>(handler("create"), request);
      return { id: response.getId(), outs: plain(response.getProperties()) };
    },
    read: async (id, outs) => {
      const request = new proto.ReadRequest().setId(id).setUrn(urn).setType(type).setProperties(struct(outs));
      const response = await callHandler<proto.ReadResponse>(handler("read"), request);
      return {
        id: response.getId(),
        inputs: response.hasInputs() ? plain(response.getInputs()) : undefined,
        props: plain(response.getProperties()),
      };
    },
    update: async (id, olds, news) => {
      const request = new proto.UpdateRequest()
        .setId(id)
        .setUrn(urn)
        .setType(type)
        .setOlds(struct(olds))
        .setNews(struct(news));
      const response = await callHandler<proto.UpdateResponse>(handler("update"), request);
      return { outs: plain(response.getProperties()) };
    },
    delete: async (id, outs) => {
      const request = new proto.DeleteRequest().setId(id).setUrn(urn).setType(type).setProperties(struct(outs));
      await callHandler(handler("delete"), request);
    },
  };
}
