/**
 * Cursor pagination shared by every list: query `page` (opaque cursor from `next.page`) and `limit`
 * (number 0..1000; 0 or absent means the default page size). Envelope `{ items, next?: { page }, count }`,
 * `count` being the total number of items of the whole list; `next` is absent on the last page.
 */
import { BadRequestError } from "./errors";
import type { RouteContext } from "./types";
import { type Query, queryString } from "./validate";

export const MAX_LIMIT = 1000;

interface Cursor {
  /** offset of the first item of the page */
  o: number;
  /** key of the last item of the previous page, when known: the next page starts after it if it still exists */
  k?: string;
}

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c), "utf8").toString("base64url");
}

function decodeCursor(page: string): Cursor {
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(page)) throw new Error("bad cursor");
    const parsed: unknown = JSON.parse(Buffer.from(page, "base64url").toString("utf8"));
    if (
      typeof parsed === "object" &&
      parsed !== null &&
      Number.isInteger((parsed as Cursor).o) &&
      (parsed as Cursor).o >= 0 &&
      ((parsed as Cursor).k === undefined || typeof (parsed as Cursor).k === "string")
    ) {
      return parsed as Cursor;
    }
  } catch {
    // fall through
  }
  throw new BadRequestError("page: invalid page cursor (pass the value of next.page from the previous response)");
}

export function parseLimit(query: Query, defaultSize: number): number {
  const raw = queryString(query, "limit");
  if (raw === undefined) return defaultSize;
  const n = Number(raw);
  if (!/^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(raw) || !Number.isFinite(n)) {
    throw new BadRequestError("limit: must be a number");
  }
  if (n < 0) throw new BadRequestError("limit: must be at least 0");
  if (n > MAX_LIMIT) throw new BadRequestError(`limit: must be at most ${MAX_LIMIT}`);
  const floored = Math.floor(n);
  return floored === 0 ? defaultSize : floored;
}

export interface Page<T> {
  items: T[];
  next?: { page: string };
  count: number;
}

/**
 * Paginates `all` (already filtered and ordered). `key` identifies an item (its `id` unless given) so that a cursor
 * stays stable when items before it are deleted between two page requests.
 */
export function paginate<T extends { id: string }, R>(ctx: RouteContext, all: T[], render: (item: T) => R): Page<R>;
export function paginate<T, R>(ctx: RouteContext, all: T[], render: (item: T) => R, key: (item: T) => string): Page<R>;
export function paginate<T, R>(
  ctx: RouteContext,
  all: T[],
  render: (item: T) => R,
  key: (item: T) => string = (item) => (item as { id: string }).id,
): Page<R> {
  const limit = parseLimit(ctx.query, ctx.env.pageSize);
  const pageParam = queryString(ctx.query, "page");
  let start = 0;
  if (pageParam !== undefined) {
    const cursor = decodeCursor(pageParam);
    start = cursor.o;
    if (cursor.k !== undefined) {
      const idx = all.findIndex((item) => key(item) === cursor.k);
      if (idx >= 0) start = idx + 1;
    }
  }
  const slice = all.slice(start, start + limit);
  const page: Page<R> = { items: slice.map(render), count: all.length };
  const end = start + slice.length;
  if (end < all.length) {
    const last = slice[slice.length - 1];
    page.next = { page: encodeCursor({ o: end, k: last !== undefined ? key(last) : undefined }) };
  }
  // `next` must come before `items` only cosmetically; keep a stable key order: items, next, count.
  return page.next ? { items: page.items, next: page.next, count: page.count } : page;
}
