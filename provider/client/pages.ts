import { z } from "zod";
import { call } from "./parse";
import { spacePath } from "./spaces";
import type { HttpClient } from "./transport";

/** A page of any type (document, group, link, computed); `path` is absent for links. */
export interface ApiPage {
  id: string;
  title: string;
  type?: string;
  path?: string;
  pages?: ApiPage[];
}

export const PageSchema: z.ZodType<ApiPage> = z.lazy(() =>
  z.object({
    id: z.string(),
    title: z.string(),
    type: z.string().optional(),
    path: z.string().optional(),
    pages: z.array(PageSchema).optional(),
  }),
);

export function spacePagesPath(spaceId: string): string {
  return `${spacePath(spaceId)}/content/pages`;
}

/** listPages: the whole tree in one request. */
export async function listPages(client: HttpClient, spaceId: string): Promise<ApiPage[]> {
  const answer = await call(client, z.object({ pages: z.array(PageSchema) }), "GET", spacePagesPath(spaceId));
  return answer.pages;
}

/** Every page of a tree, depth first, parents before their children. */
export function flattenPages(pages: readonly ApiPage[]): ApiPage[] {
  return pages.flatMap((page) => [page, ...flattenPages(page.pages ?? [])]);
}

/** getPageByPath: a 404 when no page has that path. The path is one path parameter, its slashes escaped. */
export function getPageByPath(client: HttpClient, spaceId: string, pagePath: string): Promise<ApiPage> {
  const path = `${spacePath(spaceId)}/content/path/${encodeURIComponent(pagePath)}`;
  return call(client, PageSchema, "GET", path);
}
