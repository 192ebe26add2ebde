import type { z } from "zod";
import { UnexpectedResponseError } from "./errors";
import type { HttpClient, HttpMethod, RequestOptions } from "./transport";

/**
 * Reads an API answer tolerantly: unknown fields are dropped, missing optional ones are fine, but a body without the
 * fields the provider relies on is an error that names the call, rather than an `undefined` deep in a mapper.
 */
export function parseResponse<S extends z.ZodType>(
  schema: S,
  value: unknown,
  method: string,
  path: string,
): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? `field "${issue.path.join(".")}"` : "the body"}: ${issue.message}`)
    .join("; ");
  throw new UnexpectedResponseError({ method, path, attempts: 1 }, problems);
}

/** Sends one request and reads its answer as one object of `schema`: the typed calls of every API object use it. */
export async function call<S extends z.ZodType>(
  client: HttpClient,
  schema: S,
  method: HttpMethod,
  path: string,
  options?: RequestOptions,
): Promise<z.infer<S>> {
  return parseResponse(schema, await client.request(method, path, options), method, client.displayPath(path));
}
