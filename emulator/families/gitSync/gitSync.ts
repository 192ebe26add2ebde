/**
 * Git Sync installations (install, get, update, uninstall) and a site's installations; a space's or site's own
 * installation also shows as its `gitSync` (render.ts). The store (gitSyncStore.ts) owns the rules. The official
 * document admits user tokens only to every one of these operations (`security: "user"`).
 */
import { BadRequestError, NotFoundError } from "../../errors";
import type { Route, RouteContext } from "../../types";
import {
  arr,
  bool,
  type Check,
  expectNoBody,
  isPlainObject,
  literal,
  nullable,
  obj,
  oneOfValues,
  opt,
  parseBody,
  record,
  req,
  str,
} from "../../validate";
import { created, deleted, ok, param, requireSite, requireSpace } from "../common";
import type { GitSyncSetup } from "./gitSyncStore";
import type { GitSyncInstallationRec } from "./records";
import { renderGitSyncInstallation } from "./render";

const installationsPath = "/v1/git/installations";
const PROVIDERS = ["github", "gitlab"] as const;

const number: Check<number> = (value, at) => {
  if (typeof value !== "number" || !Number.isFinite(value)) throw new BadRequestError(`${at}: must be a number`);
  return value;
};
const branch = str({ pattern: /^refs\/heads\/.+$/ });

/** The official `GitSyncInstallationTarget`. A space managed by a site's installation (`siteId`) is not emulated. */
const target: Check<{ type: "space"; spaceId: string; siteId?: string } | { type: "site"; siteId: string }> = (
  value,
  at,
) => {
  if (isPlainObject(value) && value.type === "site") {
    return obj({ type: req(literal("site")), siteId: req(str({ min: 1 })) })(value, at);
  }
  return obj({ type: req(literal("space")), spaceId: req(str({ min: 1 })), siteId: opt(str({ min: 1 })) })(value, at);
};

/** The PATCH body: `GitSyncInstallationSetup`, its provider configuration chosen by `provider`. */
function setupOf(body: unknown): { provider: GitSyncInstallationRec["provider"]; setup: GitSyncSetup } {
  const provider = isPlainObject(body) && body.provider === "gitlab" ? "gitlab" : "github";
  const providerConfiguration =
    provider === "github"
      ? obj({ repositoryId: opt(number), branch: opt(branch) })
      : obj({
          projectId: opt(number),
          accessToken: opt(str()),
          customInstanceURL: opt(nullable(str())),
          branch: opt(branch),
        });
  const parsed = parseBody(
    body,
    {
      provider: req(oneOfValues(PROVIDERS)),
      providerConfiguration: req(providerConfiguration),
      projectDirectory: opt(str()),
      commitMessageTemplate: opt(str()),
      previewExternalBranches: opt(bool()),
      agentInstructions: opt(arr(oneOfValues(["agents", "claude"]))),
      priority: opt(oneOfValues(["git", "gitbook"])),
      childInstallationProjectDirectories: opt(record(str())),
    },
    { required: true },
  );
  const { repositoryId, projectId, ...configuration } = parsed.providerConfiguration as {
    repositoryId?: number;
    projectId?: number;
    branch?: string;
    accessToken?: string;
    customInstanceURL?: string | null;
  };
  return {
    provider: parsed.provider,
    setup: {
      ...configuration,
      repositoryId: repositoryId ?? projectId,
      projectDirectory: parsed.projectDirectory,
      commitMessageTemplate: parsed.commitMessageTemplate,
      previewExternalBranches: parsed.previewExternalBranches,
      priority: parsed.priority,
      agentInstructions: parsed.agentInstructions,
    },
  };
}

function requireInstallation(ctx: RouteContext): GitSyncInstallationRec {
  const id = param(ctx, "installationId");
  const installation = ctx.store.gitSyncStore.installation(id);
  if (!installation) throw new NotFoundError(`Git Sync installation "${id}" not found`);
  return installation;
}

export const gitSyncRoutes: Route[] = [
  {
    method: "POST",
    path: installationsPath,
    security: "user",
    handler: (ctx) => {
      const body = parseBody(
        ctx.body,
        { provider: req(oneOfValues(PROVIDERS)), target: req(target) },
        { required: true },
      );
      const to = body.target;
      if (to.type === "space" && to.siteId !== undefined) {
        throw new BadRequestError("target.siteId: the emulator installs Git Sync on a space directly only");
      }
      const orgId =
        to.type === "space"
          ? requireSpace(ctx, to.spaceId).orgId
          : (ctx.store.sites.get(to.siteId)?.orgId ?? notFound(`Site "${to.siteId}" not found`));
      const installation = ctx.store.gitSyncStore.install(
        orgId,
        body.provider,
        to.type === "space" ? { type: "space", spaceId: to.spaceId } : { type: "site", siteId: to.siteId },
      );
      return created(renderGitSyncInstallation(ctx.env, ctx.store, installation));
    },
  },
  {
    method: "GET",
    path: `${installationsPath}/{installationId}`,
    security: "user",
    handler: (ctx) => ok(renderGitSyncInstallation(ctx.env, ctx.store, requireInstallation(ctx))),
  },
  {
    method: "PATCH",
    path: `${installationsPath}/{installationId}`,
    security: "user",
    handler: (ctx) => {
      const installation = requireInstallation(ctx);
      const { provider, setup } = setupOf(ctx.body);
      ctx.store.gitSyncStore.update(installation, provider, setup);
      return ok(renderGitSyncInstallation(ctx.env, ctx.store, installation));
    },
  },
  {
    method: "DELETE",
    path: `${installationsPath}/{installationId}`,
    security: "user",
    handler: (ctx) => {
      expectNoBody(ctx.body);
      // The document answers 205 or 404 here, never a 204.
      if (!ctx.store.gitSyncStore.uninstall(param(ctx, "installationId"))) {
        throw new NotFoundError(`Git Sync installation "${param(ctx, "installationId")}" not found`);
      }
      return deleted(true);
    },
  },
  {
    method: "GET",
    path: "/v1/orgs/{organizationId}/sites/{siteId}/spaces/git/installations",
    security: "user",
    handler: (ctx) => {
      const site = requireSite(ctx);
      const items = ctx.store.gitSyncStore.ofSite(site.id);
      // `{items}` without the list envelope, as the document has it.
      return ok({ items: items.map((installation) => renderGitSyncInstallation(ctx.env, ctx.store, installation)) });
    },
  },
];

function notFound(message: string): never {
  throw new NotFoundError(message);
}
