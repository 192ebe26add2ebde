import type { Props } from "./kind";

/**
 * The request body for the inputs that changed and are declared: `fields` maps each input property that goes into
 * the body to the API's field name (`ssoUrl` → `ssoURL`). Undefined when there is nothing to send.
 */
export function changedFields<Body extends object>(
  news: Props,
  changed: ReadonlySet<string>,
  fields: Record<string, keyof Body & string>,
): Partial<Body> | undefined {
  const body: Record<string, unknown> = {};
  for (const [property, field] of Object.entries(fields)) {
    if (changed.has(property) && news[property] !== undefined) body[field] = news[property];
  }
  return Object.keys(body).length > 0 ? (body as Partial<Body>) : undefined;
}

/** Every declared input counts as changed: what create sends. */
export function allDeclared(news: Props): ReadonlySet<string> {
  return new Set(Object.keys(news).filter((key) => news[key] !== undefined));
}
