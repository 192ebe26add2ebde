/** The records of the gitSync family's tables (declared in index.ts); routes render them (render.ts). */

/** A Git Sync installation (official `GitSyncInstallation`): one space or site synced with a repository. */
export interface GitSyncInstallationRec {
  id: string;
  orgId: string;
  provider: "github" | "gitlab";
  target: { type: "space"; spaceId: string } | { type: "site"; siteId: string };
  /** GitHub's `repositoryId` or GitLab's `projectId`, once set. */
  repositoryId?: number;
  branch?: string;
  /** GitLab only: kept to decide the status, never rendered. */
  accessToken?: string;
  customInstanceURL?: string | null;
  projectDirectory?: string;
  commitMessageTemplate?: string;
  previewExternalBranches?: boolean;
  priority?: "git" | "gitbook";
  /** Agent instruction files exported at the repository root (official `agentInstructions`). */
  agentInstructions?: ("agents" | "claude")[];
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  /** Syncs the PATCHes queued (every PATCH queues one): what tests count. */
  syncs: number;
}
