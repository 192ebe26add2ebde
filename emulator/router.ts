/**
 * The route table: every route of every family, and matching of a method and path against it (the most specific
 * template wins; a path that matches only with other methods reports them).
 */
import { FAMILIES } from "./families";
import type { Route } from "./types";

/** Every route of every family (families/index.ts). */
export const allRoutes: Route[] = FAMILIES.flatMap((family) => family.routes);

export type RouteMatch =
  | { route: Route; params: Record<string, string> }
  /** No route: the methods the path would take (empty when no template matches it). */
  | { route: undefined; allowed: string[] };

interface CompiledRoute {
  route: Route;
  segments: string[];
  staticCount: number;
}

export class Router {
  private readonly compiled: CompiledRoute[];

  constructor(routes: Route[] = allRoutes) {
    this.compiled = routes.map((route) => {
      const segments = route.path.split("/").slice(1);
      return { route, segments, staticCount: segments.filter((s) => !s.startsWith("{")).length };
    });
  }

  match(method: string, path: string): RouteMatch {
    const parts = path.split("/").slice(1);
    let best: { compiled: CompiledRoute; params: Record<string, string> } | undefined;
    const allowed = new Set<string>();
    for (const c of this.compiled) {
      const params = matchSegments(c.segments, parts);
      if (!params) continue;
      if (c.route.method !== method) {
        allowed.add(c.route.method);
        continue;
      }
      if (!best || c.staticCount > best.compiled.staticCount) best = { compiled: c, params };
    }
    return best ? { route: best.compiled.route, params: best.params } : { route: undefined, allowed: [...allowed] };
  }
}

function matchSegments(segments: string[], parts: string[]): Record<string, string> | null {
  if (segments.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (const [i, seg] of segments.entries()) {
    const part = parts[i];
    if (part === undefined) return null;
    if (seg.startsWith("{")) {
      if (part === "") return null;
      params[seg.slice(1, -1)] = part;
    } else if (seg !== part) {
      return null;
    }
  }
  return params;
}
