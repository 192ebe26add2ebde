import { z } from "zod";
import {
  type ApiGitSyncInstallation,
  BadRequestError,
  GIT_SYNC_PRIORITIES,
  GIT_SYNC_PROVIDERS,
  type GitSyncSetup,
  type GitSyncTarget,
  getGitSyncInstallation,
  getSpace,
  type HttpClient,
  installGitSync,
  listSiteGitSyncInstallations,
  listSites,
  listSpaces,
  sitesPath,
  spacesPath,
  uninstallGitSync,
  updateGitSyncInstallation,
} from "../client";
import { undoOnFailure } from "../framework/cleanup";
import { ResourceError } from "../framework/explain";
import { apiId, defineKind, idRef, SENSITIVE } from "../framework/kind";

const HEADS = "refs/heads/";

const inputs = z
  .strictObject({
    organizationId: apiId.describe("The organization of the space or site."),
    provider: z.enum(GIT_SYNC_PROVIDERS).describe("The Git provider: `github` or `gitlab`. A change installs anew."),
    spaceId: idRef("Space").optional().describe("The space synced with the repository (or `siteId`)."),
    siteId: idRef("Site").optional().describe("The site synced with the repository (or `spaceId`)."),
    repositoryId: z.int().positive().optional().describe("GitHub: the repository's numeric id."),
    projectId: z.int().positive().optional().describe("GitLab: the project's numeric id."),
    branch: z
      .string()
      .min(1)
      .refine((branch) => !branch.startsWith("refs/") || branch.startsWith(HEADS), "must be a branch (refs/heads/…)")
      .transform((branch) => (branch.startsWith(HEADS) ? branch : `${HEADS}${branch}`))
      .optional()
      .describe("The branch synced, e.g. `main` (sent as `refs/heads/main`)."),
    projectDirectory: z.string().optional().describe("The repository's directory holding the content (a monorepo's)."),
    commitMessageTemplate: z.string().optional().describe("The template of the commits GitBook makes."),
    previewExternalBranches: z.boolean().optional().describe("Whether branches other than `branch` get previews."),
    priority: z
      .enum(GIT_SYNC_PRIORITIES)
      .optional()
      .describe("Which side wins a sync: the repository (`git`: its content overwrites GitBook's) or `gitbook`."),
    accessToken: z
      .string()
      .min(1)
      .optional()
      .meta(SENSITIVE)
      .describe("GitLab: an access token that can read and write the project. Secret; never read back."),
    customInstanceURL: z
      .url({ protocol: /^https?$/ })
      .nullable()
      .optional()
      .describe("GitLab: a self-hosted instance's URL; `null` for gitlab.com."),
  })
  .superRefine((news, ctx) => {
    if ((news.spaceId === undefined) === (news.siteId === undefined)) {
      ctx.addIssue({ code: "custom", path: ["spaceId"], message: "declare exactly one of spaceId and siteId" });
    }
    const other = news.provider === "github" ? ["projectId", "accessToken", "customInstanceURL"] : ["repositoryId"];
    for (const key of other) {
      if (news[key as keyof typeof news] === undefined) continue;
      ctx.addIssue({ code: "custom", path: [key], message: `is not a setting of ${news.provider}'s Git Sync` });
    }
  });

const state = z.object({
  organizationId: z.string(),
  provider: z.string(),
  spaceId: z.string().nullable().default(null),
  siteId: z.string().nullable().default(null),
  repositoryId: z.number().nullable().default(null),
  projectId: z.number().nullable().default(null),
  branch: z.string().nullable().default(null),
  projectDirectory: z.string().nullable().default(null),
  commitMessageTemplate: z.string().nullable().default(null),
  previewExternalBranches: z.boolean().nullable().default(null),
  priority: z.string().nullable().default(null),
  accessToken: z.string().nullable().default(null),
  customInstanceURL: z.string().nullable().default(null),
  status: z
    .string()
    .default("")
    .describe("`active`, `pending` (no repository yet) or `unauthenticated` (the provider refused the credentials)."),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

/** The state from a read; the access token is the declared one, since the API's answer is not documented to hold it. */
function toState(api: ApiGitSyncInstallation, organizationId: string, accessToken: string | null | undefined): State {
  const configuration = api.providerConfiguration;
  return {
    organizationId,
    provider: api.provider,
    // Stryker disable next-line ConditionalExpression: a site's target carries no spaceId; the check says what is read.
    spaceId: api.target.type === "space" ? (api.target.spaceId ?? null) : null,
    siteId: api.target.type === "site" ? (api.target.siteId ?? null) : null,
    repositoryId: configuration.repositoryId ?? null,
    projectId: configuration.projectId ?? null,
    branch: configuration.branch ?? null,
    projectDirectory: api.projectDirectory ?? null,
    commitMessageTemplate: api.commitMessageTemplate ?? null,
    previewExternalBranches: api.previewExternalBranches ?? null,
    priority: api.priority ?? null,
    accessToken: accessToken ?? null,
    customInstanceURL: configuration.customInstanceURL ?? null,
    status: api.status,
  };
}

const CONFIGURATION = ["repositoryId", "projectId", "branch", "accessToken", "customInstanceURL"] as const;
const SETUP = ["projectDirectory", "commitMessageTemplate", "previewExternalBranches", "priority"] as const;

/**
 * The PATCH for the `keys` of the inputs, or undefined when none is set. The document requires `provider` and
 * `providerConfiguration` in every PATCH, so both always go, the latter with only the changed settings.
 */
function setupOf(news: Inputs, keys: ReadonlySet<string>): GitSyncSetup | undefined {
  const body: GitSyncSetup = { provider: news.provider, providerConfiguration: {} };
  let any = false;
  for (const key of CONFIGURATION) {
    if (!keys.has(key) || news[key] === undefined) continue;
    (body.providerConfiguration as Record<string, unknown>)[key] = news[key];
    any = true;
  }
  for (const key of SETUP) {
    if (!keys.has(key) || news[key] === undefined) continue;
    (body as unknown as Record<string, unknown>)[key] = news[key];
    any = true;
  }
  return any ? body : undefined;
}

/**
 * Sends a configuration. A 400 (the document lists none for this PATCH) is the provider refusing it: an unknown
 * repository or project, a branch it lacks; the error names the resource's fields and keeps the API's words.
 */
async function configure(client: HttpClient, id: string, news: Inputs, setup: GitSyncSetup) {
  try {
    return await updateGitSyncInstallation(client, id, setup);
  } catch (error) {
    if (!(error instanceof BadRequestError)) throw error;
    const field = news.provider === "github" ? "repositoryId" : "projectId";
    throw new ResourceError({
      what:
        `${field} ${news[field] ?? "(not declared)"}: ${news.provider} refused the configuration (${error.message}); ` +
        `check the ${field}, that the branch exists and that GitBook's ${news.provider} app can reach the repository`,
      cause: error,
    });
  }
}

const targetOf = (news: Inputs): GitSyncTarget =>
  news.spaceId !== undefined ? { type: "space", spaceId: news.spaceId } : { type: "site", siteId: news.siteId ?? "" };

export const gitSyncInstallationKind = defineKind<Inputs, State>({
  kind: "GitSyncInstallation",
  docs: {
    description:
      "A space or a site synced with a GitHub repository or a GitLab project (Git Sync, `/git/installations`): " +
      "which repository and branch, the directory, the commit template and which side wins.",
    adoption:
      "`importId: \"<installationId>\"` (a synced space's or site's `gitSync.installationId`): the installation is " +
      "read, and a PATCH is sent only when a declared setting differs (it queues a sync).",
    notes: [
      "- **Every change is a sync.** The API queues a sync after each update: with `priority: git` an import from the " +
        "repository into GitBook (GitBook's content is overwritten), with `gitbook` an export. A preview or an `up` " +
        "with nothing to change sends nothing; reverting a hand edit does sync.",
      "- Create is `POST /git/installations` (provider and target), then one `PATCH` with the declared settings. " +
        "How a GitHub installation is authorized (GitBook's GitHub app) is not in the API: until then its `status` " +
        "may stay `unauthenticated` or `pending`.",
      "- A repository or project the provider cannot reach fails at `up`, naming `repositoryId` or `projectId` with " +
        "the API's answer.",
      "- `accessToken` (GitLab) is secret in the state and never read back: a token changed in the app is not seen.",
      "- Not managed: a space synced through its site's installation (the target's `siteId`), `agentInstructions` and " +
        "the child installations' project directories.",
      "- Reads: one request per installation (`GET /git/installations/{id}`). `docs-platform import` and `unmanaged` " +
        "find installations in the spaces and sites listings (their `gitSync`) at no extra request.",
      "- The official document admits only a user's personal API token to every Git Sync operation.",
    ],
    example: `new docs.GitSyncInstallation("handbook-git", {
  organizationId,
  provider: "github",
  spaceId: handbook.id,
  repositoryId: 123456789,
  branch: "main",
  projectDirectory: "docs",
  priority: "git",
});`,
  },
  scope: "organization",
  inputs,
  state,
  listing: {
    path: ({ organizationId }) => spacesPath(String(organizationId)),
    async list(ctx, { ids }) {
      const org = String(ids.organizationId);
      const [spaces, sites] = await Promise.all([
        ctx.listings.get(spacesPath(org), () => listSpaces(ctx.client, org)),
        ctx.listings.get(sitesPath(org), () => listSites(ctx.client, org)),
      ]);
      const synced = [
        ...spaces.map((space) => ({ gitSync: space.gitSync, title: space.title, target: { spaceId: space.id } })),
        ...sites.map((site) => ({ gitSync: site.gitSync, title: site.title, target: { siteId: site.id } })),
      ];
      // GitHub's legacy integration reports `github-legacy`: an integration, not a `/git/installations` object.
      return synced
        .filter(({ gitSync }) => gitSync && gitSync.installationProvider !== "github-legacy")
        .map(({ gitSync, title, target }) => ({
          id: gitSync!.installationId,
          title,
          known: { organizationId: org, provider: gitSync!.installationProvider, ...target },
        }));
    },
    noun: "Git Sync installation",
    unmanaged: true,
  },
  imported: { word: "git-sync", leaveOut: ["accessToken"] },
  outputs: ["status"],
  secretOutputs: ["accessToken"],
  idFormat: "the Git Sync installation id (a synced space's or site's `gitSync.installationId`)",
  replaceOnChanges: ["organizationId", "provider", "spaceId", "siteId"],
  // One installation per space or site: the new one cannot be installed beside the old.
  deleteBeforeReplace: true,

  // The target is the key the API keeps unique (a second install is a 409).
  async findCreated({ client }, news) {
    if (news.spaceId !== undefined) {
      const installation = (await getSpace(client, news.spaceId)).gitSync?.installationId;
      return installation ? [{ id: installation, title: news.spaceId }] : [];
    }
    const installations = await listSiteGitSyncInstallations(client, news.organizationId, news.siteId ?? "");
    // A space synced through the site's installation names the site too: only the site's own is the one made.
    return installations
      .filter((installation) => installation.target.type === "site" && installation.target.siteId === news.siteId)
      .map((installation) => ({ id: installation.id, title: news.siteId ?? "" }));
  },

  async create({ client }, news) {
    const installed = await installGitSync(client, news.provider, targetOf(news));
    const setup = setupOf(news, new Set([...CONFIGURATION, ...SETUP]));
    const configured = setup
      ? await undoOnFailure(
          { kind: "GitSyncInstallation", id: installed.id, title: news.provider },
          () => uninstallGitSync(client, installed.id),
          () => configure(client, installed.id, news, setup),
        )
      : installed;
    return { id: installed.id, state: toState(configured, news.organizationId, news.accessToken) };
  },

  async read({ client }, id, known) {
    const installation = await getGitSyncInstallation(client, id);
    return { id, state: toState(installation, known.organizationId, known.accessToken) };
  },

  async update({ client }, id, olds, news, changed) {
    // Only reachable by adopting with an importId naming another installation (a declared change replaces).
    const other = (["provider", "spaceId", "siteId"] as const).filter((key) => changed.has(key));
    if (other.length > 0) {
      throw new Error(
        `GitSyncInstallation "${id}": importId names an installation of another provider or target (${other.join(", ")} ` +
          `${other.map((key) => `"${olds[key]}"`).join(", ")}); declare its provider and target, or remove importId ` +
          "to install Git Sync anew.",
      );
    }
    const setup = setupOf(news, changed);
    const installation = setup ? await configure(client, id, news, setup) : await getGitSyncInstallation(client, id);
    return toState(installation, olds.organizationId, news.accessToken);
  },

  delete: ({ client }, id) => uninstallGitSync(client, id),
});
