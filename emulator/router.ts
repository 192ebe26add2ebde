/**
 * The route table: every route of every kind, and matching of a method and path against it (the most specific
 * template wins; a path that matches only with other methods reports them).
 */
import { adaptiveSchemaRoutes } from "./routes/adaptiveSchema";
import { agentInstructionsRoutes } from "./routes/agentInstructions";
import { auditEventRoutes } from "./routes/auditEvents";
import { collectionRoutes } from "./routes/collections";
import { externalLinkRoutes } from "./routes/externalLinks";
import { gitSyncRoutes } from "./routes/gitSync";
import { gitSyncRepositoryRoutes } from "./routes/gitSyncRepositories";
import { integrationRoutes } from "./routes/integrations";
import { memberRoutes } from "./routes/members";
import { openApiRoutes } from "./routes/openapi";
import { orgRoutes } from "./routes/orgs";
import { permissionRoutes } from "./routes/permissions";
import { redirectRoutes } from "./routes/redirects";
import { samlRoutes } from "./routes/saml";
import { sectionGroupRoutes } from "./routes/sectionGroups";
import { shareLinkRoutes } from "./routes/shareLinks";
import { siteAgentSettingsRoutes } from "./routes/siteAgentSettings";
import { siteBrandingRoutes } from "./routes/siteBranding";
import { siteChannelRoutes } from "./routes/siteChannels";
import { siteMcpServerRoutes } from "./routes/siteMcpServers";
import { siteSectionRoutes } from "./routes/siteSections";
import { siteSpaceCustomizationRoutes } from "./routes/siteSpaceCustomization";
import { siteSpaceRoutes } from "./routes/siteSpaces";
import { siteRoutes } from "./routes/sites";
import { spaceRoutes } from "./routes/spaces";
import { teamRoutes } from "./routes/teams";
import { translationRoutes } from "./routes/translations";
import type { Route } from "./types";

export const allRoutes: Route[] = [
  ...orgRoutes,
  ...memberRoutes,
  ...spaceRoutes,
  ...collectionRoutes,
  ...siteRoutes,
  ...adaptiveSchemaRoutes,
  ...siteBrandingRoutes,
  ...siteSpaceCustomizationRoutes,
  ...siteSectionRoutes,
  ...sectionGroupRoutes,
  ...externalLinkRoutes,
  ...siteSpaceRoutes,
  ...shareLinkRoutes,
  ...siteMcpServerRoutes,
  ...siteChannelRoutes,
  ...integrationRoutes,
  ...siteAgentSettingsRoutes,
  ...redirectRoutes,
  ...samlRoutes,
  ...teamRoutes,
  ...openApiRoutes,
  ...permissionRoutes,
  ...translationRoutes,
  ...gitSyncRoutes,
  ...gitSyncRepositoryRoutes,
  ...auditEventRoutes,
  ...agentInstructionsRoutes,
];

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
