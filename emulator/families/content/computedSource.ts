/**
 * The official `ComputedContentSourceRevision` of a space's create (`computedSource`): a space whose content is
 * generated from an OpenAPI spec of the organization (`builtin:openapi`) or from a translation (`builtin:translation`).
 * The emulator checks the body and that the spec or translation exists; it generates no content. The Space object has
 * no field that reports the source back (the document's `Space` has none), so neither does the emulator.
 */
import { BadRequestError } from "../../errors";
import type { Store } from "../../store";
import { bool, type Check, isPlainObject, literal, obj, oneOfValues, opt, req, str } from "../../validate";
import type { ComputedSource } from "./records";

const openapi = obj({
  type: req(literal("builtin:openapi")),
  props: req(
    obj({
      models: req(bool()),
      downloadLink: opt(bool()),
      grouping: opt(oneOfValues(["by-tag", "by-operation"] as const)),
    }),
  ),
  dependencies: req(
    obj({
      spec: req(obj({ ref: req(obj({ kind: req(literal("openapi")), spec: req(str({ min: 1 })) })) })),
    }),
  ),
});

const translation = obj({
  type: req(literal("builtin:translation")),
  props: req(obj({})),
  dependencies: req(
    obj({
      translation: req(
        obj({ ref: req(obj({ kind: req(literal("translation")), translation: req(str({ min: 1 })) })) }),
      ),
    }),
  ),
});

/** Checks a create's `computedSource` against the organization's specs and translations (400 naming the field). */
export function computedSourceOf(store: Store, orgId: string): Check<ComputedSource> {
  return (value, path) => {
    const type = isPlainObject(value) ? value.type : undefined;
    if (type === "builtin:openapi") {
      const parsed = openapi(value, path);
      const slug = parsed.dependencies.spec.ref.spec;
      const known = [...store.openApiSpecs.values()].some((s) => s.orgId === orgId && s.slug === slug);
      if (!known) {
        throw new BadRequestError(`${path}.dependencies.spec.ref.spec: no OpenAPI spec "${slug}" in organization`);
      }
      return { type, spec: slug, ...parsed.props };
    }
    if (type === "builtin:translation") {
      const parsed = translation(value, path);
      const id = parsed.dependencies.translation.ref.translation;
      const found = store.translations.get(id);
      if (!found || found.orgId !== orgId) {
        throw new BadRequestError(`${path}.dependencies.translation.ref.translation: no translation "${id}"`);
      }
      return { type, translation: id };
    }
    throw new BadRequestError(
      `${path}.type: must be builtin:openapi or builtin:translation (integration sources are not emulated)`,
    );
  };
}
