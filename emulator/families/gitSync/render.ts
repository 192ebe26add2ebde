/** Renders the gitSync family's records into API objects carrying every field the official response schemas require. */

import type { Store } from "../../store";
import type { Env } from "../../types";
import type { GitSyncInstallationRec } from "./records";

type Json = Record<string, unknown>;

const enc = encodeURIComponent;

/** The official `GitSyncState` of a synced space or site (its `gitSync`). */
export function renderGitSyncState(store: Store, installation: GitSyncInstallationRec): Json {
  return {
    installationId: installation.id,
    installationProvider: installation.provider,
    installationStatus: store.gitSyncStore.status(installation),
  };
}

/** The official `GitSyncInstallation`. A GitLab access token is never echoed back: the document does not say. */
export function renderGitSyncInstallation(env: Env, store: Store, installation: GitSyncInstallationRec): Json {
  const providerConfiguration: Json = {};
  if (installation.repositoryId !== undefined) {
    providerConfiguration[installation.provider === "github" ? "repositoryId" : "projectId"] =
      installation.repositoryId;
  }
  if (installation.branch !== undefined) providerConfiguration.branch = installation.branch;
  if (installation.customInstanceURL !== undefined) {
    providerConfiguration.customInstanceURL = installation.customInstanceURL;
  }
  const out: Json = {
    object: "git-sync-installation",
    id: installation.id,
    provider: installation.provider,
    providerConfiguration,
    target: { ...installation.target },
    status: store.gitSyncStore.status(installation),
  };
  const setupKeys = [
    "projectDirectory",
    "commitMessageTemplate",
    "previewExternalBranches",
    "priority",
    "agentInstructions",
  ] as const;
  for (const key of setupKeys) {
    if (installation[key] !== undefined) out[key] = installation[key];
  }
  out.createdAt = installation.createdAt;
  out.createdBy = installation.createdBy;
  out.updatedAt = installation.updatedAt;
  out.urls = { location: `${env.apiBase}/git/installations/${enc(installation.id)}` };
  return out;
}
