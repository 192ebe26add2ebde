import { z } from "zod";
import type { OperationTraits } from "./errors";
import { parseResponse } from "./parse";
import type { HttpClient, Query } from "./transport";

/** The official list envelope: `next` is absent on the last page. */
export interface ListPage<T> {
  items: T[];
  next?: { page: string };
  count?: number;
}

/** Only the envelope: each item is read by its own schema, so that an error names the item's field. */
const ListPageSchema = z.object({
  items: z.array(z.unknown()),
  next: z.object({ page: z.string() }).nullish(),
});

/** The API's maximum page size: one request lists a typical site's sections, spaces or links in full. */
export const MAX_PAGE_SIZE = 1000;

/**
 * Yields every item of a list, following `next.page`, read as `schema` when one is given. A cursor that does not
 * advance would loop forever against a misbehaving server, so iteration stops there.
 */
export async function* paginate(
  client: HttpClient,
  path: string,
  query: Query = {},
  schema?: z.ZodType,
  operation: OperationTraits = {},
) {
  const seen = new Set<string>();
  let page: string | undefined;
  for (;;) {
    const answer = await client.request("GET", path, { ...operation, query: { limit: MAX_PAGE_SIZE, ...query, page } });
    const result = parseResponse(ListPageSchema, answer, "GET", client.displayPath(path));
    for (const item of result.items) {
      yield schema ? parseResponse(schema, item, "GET", client.displayPath(path)) : item;
    }
    const next = result.next?.page;
    if (!next || next === page || seen.has(next)) return;
    seen.add(next);
    page = next;
  }
}

export function listAll<S extends z.ZodType>(
  client: HttpClient,
  path: string,
  query: Query,
  schema: S,
  operation?: OperationTraits,
): Promise<z.infer<S>[]>;
export function listAll<T = unknown>(client: HttpClient, path: string, query?: Query): Promise<T[]>;
export async function listAll(
  client: HttpClient,
  path: string,
  query: Query = {},
  schema?: z.ZodType,
  operation: OperationTraits = {},
) {
  const items: unknown[] = [];
  for await (const item of paginate(client, path, query, schema, operation)) items.push(item);
  return items;
}
