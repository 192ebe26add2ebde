/**
 * The repositories a Git Sync installation can reach (official `listGitHubRepositoriesForGitSyncInstallation` and
 * `listGitLabProjectsForGitSyncInstallation`; user tokens only): the emulator's providers' repositories
 * (`GIT_REPOSITORIES`). Where the document is silent: listing the other provider's kind of repository than the
 * installation's is a 404 (there is no such listing for it), and every repository's default branch is `main`.
 */
import { NotFoundError } from "../../errors";
import type { Route, RouteContext } from "../../types";
import { param } from "../common";
import { GIT_REPOSITORIES } from "./gitSyncStore";

function listed(ctx: RouteContext, provider: "github" | "gitlab") {
  const id = param(ctx, "installationId");
  const installation = ctx.store.gitSyncStore.installation(id);
  if (!installation || installation.provider !== provider)
    throw new NotFoundError(`Git Sync installation "${id}" of ${provider} not found`);
  const items = Object.entries(GIT_REPOSITORIES[provider]).map(([repositoryId, fullName]) => {
    const [accountName = "", repositoryName = ""] = fullName.split("/");
    return { id: Number(repositoryId), accountName, repositoryName, fullName, defaultBranch: "main" };
  });
  return { status: 200, body: { items } };
}

export const gitSyncRepositoryRoutes: Route[] = [
  {
    method: "GET",
    path: "/v1/git/installations/{installationId}/github/repos",
    security: "user",
    handler: (ctx) => listed(ctx, "github"),
  },
  {
    method: "GET",
    path: "/v1/git/installations/{installationId}/gitlab/projects",
    security: "user",
    handler: (ctx) => listed(ctx, "gitlab"),
  },
];
