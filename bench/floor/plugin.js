// The plugin route's floor: a `docs` resource provider plugin that answers every call at once and talks to nothing.
// The bench's plugin-floor project runs the plugin route's program and classes (`docs:index:<Kind>` from
// `pulumi-docs-platform/plugin`) with this server in place of pulumi-resource-docs: the same launcher shape (a shell
// script exec'ing node), the same gRPC classes (@pulumi/pulumi's, as provider/plugin/server.ts uses) and the same
// answers to configure (no secrets, no resources), so the difference to the plugin route is the package's own work.
// With BENCH_CALL_LOG set, each resource call appends its arrival time (epoch ms) to that file, as bench/floor/noop.js.
const { appendFileSync } = require("node:fs");
const { randomUUID } = require("node:crypto");
const { createRequire } = require("node:module");

// The gRPC and protobuf copies @pulumi/pulumi itself uses (the project's), as provider/plugin/proto.ts loads them.
const fromPulumi = createRequire(require.resolve("@pulumi/pulumi/package.json"));
const grpc = fromPulumi("@grpc/grpc-js");
const { Struct } = fromPulumi("google-protobuf/google/protobuf/struct_pb");
const { Empty } = fromPulumi("google-protobuf/google/protobuf/empty_pb");
const { PluginInfo } = fromPulumi("@pulumi/pulumi/proto/plugin_pb");
const provider = fromPulumi("@pulumi/pulumi/proto/provider_pb");
const { ResourceProviderService } = fromPulumi("@pulumi/pulumi/proto/provider_grpc_pb");

const callLog = process.env.BENCH_CALL_LOG;
const arrived = callLog ? () => appendFileSync(callLog, `${Date.now()}\n`) : () => {};

const objectOf = (struct) => (struct ? struct.toJavaScript() : {});
const structOf = (value) => Struct.fromJavaScript(JSON.parse(JSON.stringify(value)));
const answer = (handle) => (call, callback) => {
  try {
    callback(null, handle(call.request));
  } catch (error) {
    callback({ code: grpc.status.UNKNOWN, details: error instanceof Error ? error.message : String(error) });
  }
};

const implementation = {
  getPluginInfo: answer(() => new PluginInfo().setVersion("0.0.0")),
  attach: answer(() => new Empty()),
  cancel: answer(() => new Empty()),
  checkConfig: answer((request) => new provider.CheckResponse().setInputs(request.getNews())),
  configure: answer(() => new provider.ConfigureResponse().setAcceptsecrets(false).setAcceptresources(false)),
  check: answer((request) => {
    arrived();
    return new provider.CheckResponse().setInputs(request.getNews());
  }),
  // Declared values against the state, as the dynamic floor's diff.
  diff: answer((request) => {
    arrived();
    const olds = objectOf(request.getOlds());
    const news = objectOf(request.getNews());
    const changed = Object.keys(news).filter((key) => JSON.stringify(olds[key]) !== JSON.stringify(news[key]));
    const { DIFF_SOME, DIFF_NONE } = provider.DiffResponse.DiffChanges;
    return new provider.DiffResponse().setChanges(changed.length > 0 ? DIFF_SOME : DIFF_NONE).setDiffsList(changed);
  }),
  create: answer((request) => {
    arrived();
    return new provider.CreateResponse().setId(randomUUID()).setProperties(request.getProperties());
  }),
  read: answer((request) => {
    arrived();
    const state = objectOf(request.getProperties());
    return new provider.ReadResponse()
      .setId(request.getId())
      .setProperties(structOf(state))
      .setInputs(request.getInputs() ?? structOf(state));
  }),
  update: answer((request) => {
    arrived();
    return new provider.UpdateResponse().setProperties(request.getNews());
  }),
  delete: answer(() => {
    arrived();
    return new Empty();
  }),
};

const server = new grpc.Server();
server.addService(ResourceProviderService, implementation);
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, port) => {
  if (error) {
    process.stderr.write(`docs plugin floor: ${error.message}\n`);
    process.exit(1);
  }
  // The engine reads the port from the first line of stdout.
  process.stdout.write(`${port}\n`);
});
