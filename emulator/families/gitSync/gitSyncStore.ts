/**
 * Git Sync installations: a space or a site synced with a GitHub repository or a GitLab project. The store owns:
 * one installation per target (a second is the install's documented 409), a target of the caller's organizations
 * (else 404), a configuration naming a repository the provider knows (else a 400 naming
 * `providerConfiguration.repositoryId` or `.projectId`), the provider fixed at install (a PATCH of another is a 400),
 * and the status. Every PATCH queues a sync, as the document says; `syncs` counts them. An installation whose target
 * was deleted is gone with it.
 */
import { BadRequestError, ConflictError } from "../../errors";
import type { Tables } from "../../tables";
import type { GitSyncInstallationRec } from "./records";

/** The repositories the emulator's Git providers know, by the id a configuration names. */
export const GIT_REPOSITORIES: Readonly<Record<GitSyncInstallationRec["provider"], Record<number, string>>> = {
  github: { 1001: "acme/docs", 1002: "acme/handbook" },
  gitlab: { 2001: "acme/platform-docs" },
};

export interface GitSyncSetup {
  repositoryId?: number;
  branch?: string;
  accessToken?: string;
  customInstanceURL?: string | null;
  projectDirectory?: string;
  commitMessageTemplate?: string;
  previewExternalBranches?: boolean;
  priority?: "git" | "gitbook";
  agentInstructions?: ("agents" | "claude")[];
}

export class GitSyncStore {
  private readonly tables: Tables;
  /** Who installs: the user the emulator's token stands for. */
  private readonly installer: () => string;

  constructor(tables: Tables, installer: () => string) {
    this.tables = tables;
    this.installer = installer;
  }

  install(
    orgId: string,
    provider: GitSyncInstallationRec["provider"],
    target: GitSyncInstallationRec["target"],
  ): GitSyncInstallationRec {
    const existing = this.of(target);
    if (existing)
      throw new ConflictError(`The ${target.type} is already synced by Git Sync installation "${existing.id}"`);
    const now = this.tables.now();
    const installation: GitSyncInstallationRec = {
      id: this.tables.newId(),
      orgId,
      provider,
      target,
      createdBy: this.installer(),
      createdAt: now,
      updatedAt: now,
      syncs: 0,
    };
    this.tables.gitSyncInstallations.set(installation.id, installation);
    return installation;
  }

  /** The installation, unless it or its target is gone. */
  installation(id: string): GitSyncInstallationRec | undefined {
    const installation = this.tables.gitSyncInstallations.get(id);
    return installation && this.live(installation) ? installation : undefined;
  }

  /** The installation syncing a space or a site, if any. */
  of(target: GitSyncInstallationRec["target"]): GitSyncInstallationRec | undefined {
    return [...this.tables.gitSyncInstallations.values()].find(
      (installation) => this.live(installation) && sameTarget(installation.target, target),
    );
  }

  /** The installations of a site: its own. */
  ofSite(siteId: string): GitSyncInstallationRec[] {
    const own = this.of({ type: "site", siteId });
    return own ? [own] : [];
  }

  update(
    installation: GitSyncInstallationRec,
    provider: GitSyncInstallationRec["provider"],
    setup: GitSyncSetup,
  ): GitSyncInstallationRec {
    if (provider !== installation.provider) {
      throw new BadRequestError(
        `provider: the installation syncs with ${installation.provider}; install Git Sync again to use ${provider}`,
      );
    }
    if (setup.repositoryId !== undefined && !GIT_REPOSITORIES[provider][setup.repositoryId]) {
      const field = provider === "github" ? "repositoryId" : "projectId";
      throw new BadRequestError(
        `providerConfiguration.${field}: ${provider} has no repository ${setup.repositoryId} this installation can reach`,
      );
    }
    for (const [key, value] of Object.entries(setup)) {
      if (value !== undefined) (installation as unknown as Record<string, unknown>)[key] = value;
    }
    installation.syncs++;
    installation.updatedAt = this.tables.now();
    return installation;
  }

  uninstall(id: string): boolean {
    if (!this.installation(id)) return false;
    this.tables.remove("gitSyncInstallations", id);
    return true;
  }

  /**
   * `active` once a repository is selected (and, for GitLab, an access token given); `unauthenticated` for GitLab
   * without a token; `pending` before. The document does not say how a GitHub installation is authorized (the app's
   * GitHub App flow): the emulator takes a selected repository as authorized.
   */
  status(installation: GitSyncInstallationRec): "active" | "pending" | "unauthenticated" {
    if (installation.provider === "gitlab" && !installation.accessToken) return "unauthenticated";
    return installation.repositoryId === undefined ? "pending" : "active";
  }

  private live(installation: GitSyncInstallationRec): boolean {
    const { target } = installation;
    if (target.type === "site") return this.tables.sites.has(target.siteId);
    const space = this.tables.spaces.get(target.spaceId);
    return space !== undefined && space.deletedAt === undefined;
  }
}

function sameTarget(a: GitSyncInstallationRec["target"], b: GitSyncInstallationRec["target"]): boolean {
  return a.type === "space" && b.type === "space"
    ? a.spaceId === b.spaceId
    : a.type === "site" && b.type === "site" && a.siteId === b.siteId;
}
