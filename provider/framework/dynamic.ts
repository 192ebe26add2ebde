import type * as pulumi from "@pulumi/pulumi";

const providers = new Map<string, pulumi.dynamic.ResourceProvider>();

/**
 * The provider object of a kind, as the engine stores it in `__provider`. It captures nothing but the kind's name:
 * every method loads the installed runtime when it is called, so the text stays small, holds no secret and does not
 * change when the package is upgraded. Renaming `pulumi-docs-platform/runtime` would break every existing state.
 */
export function providerFor(kind: string): pulumi.dynamic.ResourceProvider {
  let provider = providers.get(kind);
  if (!provider) {
    provider = {
      async configure(req) {
        require("pulumi-docs-platform/runtime").configure(req);
      },
      check(olds, news) {
        return require("pulumi-docs-platform/runtime").lifecycle(kind).check(olds, news);
      },
      diff(id, olds, news) {
        return require("pulumi-docs-platform/runtime").lifecycle(kind).diff(id, olds, news);
      },
      create(inputs) {
        return require("pulumi-docs-platform/runtime").lifecycle(kind).create(inputs);
      },
      read(id, props) {
        return require("pulumi-docs-platform/runtime").lifecycle(kind).read(id, props);
      },
      update(id, olds, news) {
        return require("pulumi-docs-platform/runtime").lifecycle(kind).update(id, olds, news);
      },
      delete(id, props) {
        return require("pulumi-docs-platform/runtime").lifecycle(kind).delete(id, props);
      },
    };
    providers.set(kind, provider);
  }
  return provider;
}
