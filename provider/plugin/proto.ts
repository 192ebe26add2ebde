import { createRequire } from "node:module";

/**
 * Loads a module as `@pulumi/pulumi` itself loads it: its gRPC classes must be the ones of the grpc-js and
 * google-protobuf copies it uses, wherever npm placed them in the program's node_modules. `@pulumi/pulumi` is a peer
 * dependency, so it is the program's own copy.
 */
export function fromPulumi<T>(id: string): T {
  const fromSdk = createRequire(require.resolve("@pulumi/pulumi/package.json"));
  return fromSdk(id) as T;
}
