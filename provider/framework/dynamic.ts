import type * as pulumi from "@pulumi/pulumi";
import { leaveWhenEngineGone } from "./engineWatch";

/**
 * Whether this process is the SDK's dynamic provider (`node …/@pulumi/pulumi/cmd/dynamic-provider <engine>`, which
 * `pulumi-resource-pulumi-nodejs` starts), rather than the program or a test that loads the same modules.
 */
export function isDynamicProviderProcess(argv: readonly string[] = process.argv): boolean {
  return /[\\/]@pulumi[\\/]pulumi[\\/]cmd[\\/]dynamic-provider([\\/]index\.js)?$/.test(argv[1] ?? "");
}

// The dynamic provider loads this module with the first resource of ours it serves: from then on it leaves when its
// engine is gone, as the plugin does.
if (isDynamicProviderProcess()) leaveWhenEngineGone(process.argv.slice(2), "pulumi-docs-platform dynamic provider");

/**
 * The provider object of one kind: plain methods that load the runtime when called, so the object holds no client,
 * schema, token or config. Each kind's object is the `module.exports` of `provider/kinds/<Kind>`, and Pulumi's closure
 * serializer writes a package module's exports as a `require` of its public path, so a resource's `__provider` is a
 * ~280-byte text, `require("pulumi-docs-platform/kinds/<Kind>")`, instead of ~2.7 KB of serialized method code.
 * That path and the runtime must therefore never be renamed: every existing state loads them.
 */
export function providerFor(kind: string): pulumi.dynamic.ResourceProvider {
  const lifecycle = () => require("../runtime").lifecycle(kind);
  return {
    configure: async (req) => require("../runtime").configure(req),
    check: (olds, news) => lifecycle().check(olds, news),
    diff: (id, olds, news) => lifecycle().diff(id, olds, news),
    create: (inputs) => lifecycle().create(inputs),
    read: (id, props) => lifecycle().read(id, props),
    update: (id, olds, news) => lifecycle().update(id, olds, news),
    delete: (id, props) => lifecycle().delete(id, props),
  };
}
