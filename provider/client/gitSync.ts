import { z } from "zod";
import { call } from "./parse";
import type { HttpClient } from "./transport";

/*
 * Git Sync installations. The official document admits a user's personal API token only to every one of these
 * operations (`security` is `user`): each call says `userTokenOnly`, so that an integration or OAuth token's 401 here
 * leaves it usable elsewhere.
 */
const USER_ONLY = { userTokenOnly: true } as const;

export const GIT_SYNC_PROVIDERS = ["github", "gitlab"] as const;
export type GitSyncProvider = (typeof GIT_SYNC_PROVIDERS)[number];
/** The official `GitSyncInstallationPriority`: which side wins, the repository (`git`) or GitBook (`gitbook`). */
export const GIT_SYNC_PRIORITIES = ["git", "gitbook"] as const;
/** The official `agentInstructions` items: the agent instruction files exported at the repository root. */
export const GIT_SYNC_AGENT_FILES = ["agents", "claude"] as const;

/** The official `GitSyncState`: what a space or a site reports of the installation syncing it. */
export const GitSyncStateSchema = z.object({
  installationId: z.string(),
  installationProvider: z.string().optional(),
  installationStatus: z.string().optional(),
});

export const GitSyncInstallationSchema = z.object({
  id: z.string(),
  provider: z.string(),
  status: z.string(),
  target: z.object({ type: z.string(), spaceId: z.string().optional(), siteId: z.string().optional() }),
  // `accessToken` is not read: whether the API echoes it is not documented, and a state never takes it from a read.
  providerConfiguration: z
    .object({
      repositoryId: z.number(),
      projectId: z.number(),
      branch: z.string(),
      customInstanceURL: z.string().nullable(),
    })
    .partial()
    .default({}),
  projectDirectory: z.string().optional(),
  commitMessageTemplate: z.string().optional(),
  previewExternalBranches: z.boolean().optional(),
  priority: z.string().optional(),
  agentInstructions: z.array(z.string()).optional(),
  createdAt: z.string().optional(),
});
export type ApiGitSyncInstallation = z.infer<typeof GitSyncInstallationSchema>;

export type GitSyncTarget = { type: "space"; spaceId: string } | { type: "site"; siteId: string };

/** The official PATCH body: `provider` and `providerConfiguration` are required by it, even to change one field. */
export interface GitSyncSetup {
  provider: GitSyncProvider;
  providerConfiguration: {
    repositoryId?: number;
    projectId?: number;
    branch?: string;
    accessToken?: string;
    customInstanceURL?: string | null;
  };
  projectDirectory?: string;
  commitMessageTemplate?: string;
  previewExternalBranches?: boolean;
  priority?: string;
  agentInstructions?: string[];
}

export const gitSyncInstallationsPath = "/git/installations";

export function gitSyncInstallationPath(installationId: string): string {
  return `${gitSyncInstallationsPath}/${encodeURIComponent(installationId)}`;
}

export function siteGitSyncInstallationsPath(organizationId: string, siteId: string): string {
  return `/orgs/${encodeURIComponent(organizationId)}/sites/${encodeURIComponent(siteId)}/spaces/git/installations`;
}

/** The install takes no configuration: a PATCH follows with it. */
export function installGitSync(
  client: HttpClient,
  provider: GitSyncProvider,
  target: GitSyncTarget,
): Promise<ApiGitSyncInstallation> {
  const body = { provider, target };
  return call(client, GitSyncInstallationSchema, "POST", gitSyncInstallationsPath, { ...USER_ONLY, body });
}

export function getGitSyncInstallation(client: HttpClient, installationId: string): Promise<ApiGitSyncInstallation> {
  // Stryker disable next-line StringLiteral: undici's request() sends an empty method as GET.
  return call(client, GitSyncInstallationSchema, "GET", gitSyncInstallationPath(installationId), USER_ONLY);
}

/** Each PATCH queues a sync (an import from the repository with `priority: git`, else an export): never sent idle. */
export function updateGitSyncInstallation(
  client: HttpClient,
  installationId: string,
  body: GitSyncSetup,
): Promise<ApiGitSyncInstallation> {
  const path = gitSyncInstallationPath(installationId);
  return call(client, GitSyncInstallationSchema, "PATCH", path, { ...USER_ONLY, body });
}

/** Answers 205, or 404 when there is none (the framework reads that as already gone). */
export function uninstallGitSync(client: HttpClient, installationId: string): Promise<void> {
  return client.delete(gitSyncInstallationPath(installationId), USER_ONLY);
}

/** A site's installations: `{items}`, without the list envelope or pagination parameters. */
export async function listSiteGitSyncInstallations(
  client: HttpClient,
  organizationId: string,
  siteId: string,
): Promise<ApiGitSyncInstallation[]> {
  const schema = z.object({ items: z.array(GitSyncInstallationSchema) });
  const path = siteGitSyncInstallationsPath(organizationId, siteId);
  // Stryker disable next-line StringLiteral: undici's request() sends an empty method as GET.
  return (await call(client, schema, "GET", path, USER_ONLY)).items;
}

/** The official `GitSyncGitHubRepository` and `GitSyncGitLabProject`: one repository an installation can reach. */
export const GitSyncRepositorySchema = z.object({ id: z.number(), fullName: z.string() });
export type ApiGitSyncRepository = z.infer<typeof GitSyncRepositorySchema>;

/**
 * The repositories (GitHub, `listGitHubRepositoriesForGitSyncInstallation`) or projects (GitLab,
 * `listGitLabProjectsForGitSyncInstallation`) the installation can reach: `{items}`, without pagination.
 */
export async function listGitSyncRepositories(
  client: HttpClient,
  installationId: string,
  provider: GitSyncProvider,
): Promise<ApiGitSyncRepository[]> {
  const schema = z.object({ items: z.array(GitSyncRepositorySchema) });
  const path = `${gitSyncInstallationPath(installationId)}/${provider === "github" ? "github/repos" : "gitlab/projects"}`;
  // Stryker disable next-line StringLiteral: undici's request() sends an empty method as GET.
  return (await call(client, schema, "GET", path, USER_ONLY)).items;
}
