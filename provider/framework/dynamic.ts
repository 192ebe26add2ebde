import type * as pulumi from "@pulumi/pulumi";

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
