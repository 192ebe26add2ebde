import type * as pulumi from "@pulumi/pulumi";
import { leaveWhenEngineGone } from "./engineWatch";
import type { Props } from "./kind";
import type { Lifecycle } from "./lifecycle";

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
 * The property the dynamic route adds to every resource's inputs and outputs: its serialized provider. The SDK's
 * dynamic provider sets it again on what check, create, read and update return, so the Lifecycle never sees it.
 */
export const PROVIDER_KEY = "__provider";

/** The props of a call without the serialized provider, which is the dynamic route's and not the kind's. */
function withoutProvider(props: Props): Props {
  const { [PROVIDER_KEY]: _provider, ...rest } = props;
  return rest;
}

/**
 * The provider object of one kind: plain methods that load the runtime when called, so the object holds no client,
 * schema, token or config. Each kind's object is the `module.exports` of `provider/kinds/<Kind>`, and Pulumi's closure
 * serializer writes a package module's exports as a `require` of its public path, so a resource's `__provider` is a
 * ~280-byte text, `require("pulumi-docs-platform/kinds/<Kind>")`, instead of ~2.7 KB of serialized method code.
 * That path and the runtime must therefore never be renamed: every existing state loads them.
 *
 * Each method translates between the dynamic provider contract and the Lifecycle's results (./lifecycleResults.ts):
 * the serialized provider is removed on the way in, and a diff goes out without its per-property changes, which a
 * dynamic provider cannot send (the engine shows its own diff of the stored inputs).
 */
export function providerFor(kind: string): pulumi.dynamic.ResourceProvider {
  const lifecycle = (): Lifecycle<Props, Props> => require("../runtime").lifecycle(kind);
  return {
    configure: async (req) => require("../runtime").configure(req),
    check: async (olds, news): Promise<pulumi.dynamic.CheckResult> =>
      lifecycle().check(withoutProvider(olds), withoutProvider(news)),
    diff: async (id, olds, news): Promise<pulumi.dynamic.DiffResult> => {
      const { changes, replaces, deleteBeforeReplace } = await lifecycle().diff(
        id,
        withoutProvider(olds),
        withoutProvider(news),
      );
      return { changes, replaces, deleteBeforeReplace };
    },
    create: async (inputs): Promise<pulumi.dynamic.CreateResult> => lifecycle().create(withoutProvider(inputs)),
    read: async (id, props): Promise<pulumi.dynamic.ReadResult> => lifecycle().read(id, withoutProvider(props ?? {})),
    update: async (id, olds, news): Promise<pulumi.dynamic.UpdateResult> =>
      lifecycle().update(id, withoutProvider(olds), withoutProvider(news)),
    delete: (id, props) => lifecycle().delete(id, withoutProvider(props)),
  };
}
