import type { HttpClient, Query } from "./transport";

/** The official list envelope: `next` is absent on the last page. */
export interface ListPage<T> {
  items: T[];
  next?: { page: string };
  count?: number;
}

/** The API's maximum page size: one request lists a typical site's sections, spaces or links in full. */
export const MAX_PAGE_SIZE = 1000;

/**
 * Yields every item of a list, following `next.page`. A cursor that does not advance would loop forever against a
 * misbehaving server, so iteration stops there.
 */
export async function* paginate<T>(
  client: HttpClient,
  path: string,
  query: Query = {},
  parse: (item: unknown) => T = (item) => item as T,
): AsyncGenerator<T> {
  const seen = new Set<string>();
  let page: string | undefined;
  for (;;) {
    const result = await client.get<ListPage<unknown>>(path, { limit: MAX_PAGE_SIZE, ...query, page });
    for (const item of result?.items ?? []) yield parse(item);
    const next = result?.next?.page;
    if (!next || next === page || seen.has(next)) return;
    seen.add(next);
    page = next;
  }
}

export async function listAll<T>(
  client: HttpClient,
  path: string,
  query: Query = {},
  parse?: (item: unknown) => T,
): Promise<T[]> {
  const items: T[] = [];
  for await (const item of paginate(client, path, query, parse)) items.push(item);
  return items;
}
