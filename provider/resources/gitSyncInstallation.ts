import { z } from "zod";
import {
  type ApiGitSyncInstallation,
  BadRequestError,
  GIT_SYNC_AGENT_FILES,
  GIT_SYNC_PRIORITIES,
  GIT_SYNC_PROVIDERS,
  type GitSyncSetup,
  type GitSyncTarget,
  getGitSyncInstallation,
  getSpace,
  type HttpClient,
  installGitSync,
  listGitSyncRepositories,
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
    repositoryId: z
      .int()
      .positive()
      .optional()
      .describe("GitHub: the repository's numeric id; `repository` names it instead."),
    repository: z
      .string()
      .regex(/^[^/\s]+\/[^/\s]+$/, "must be `owner/repository`, e.g. `acme/docs` (not a URL)")
      .optional()
      .describe(
        "GitHub: the repository by name, `owner/repository` (compared without case), resolved to its id among the " +
          "repositories the installation can reach (`listGitHubRepositoriesForGitSyncInstallation`).",
      ),
    projectId: z.int().positive().optional().describe("GitLab: the project's numeric id; `project` names it instead."),
    project: z
      .string()
      .regex(/^[^/\s]+(\/[^/\s]+)+$/, "must be `group/project` (subgroups allowed), e.g. `acme/docs` (not a URL)")
      .optional()
      .describe(
        "GitLab: the project by path, `group/project`, resolved to its id among the projects the installation can " +
          "reach (`listGitLabProjectsForGitSyncInstallation`).",
      ),
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
    agentInstructions: z
      .array(z.enum(GIT_SYNC_AGENT_FILES))
      .refine((files) => new Set(files).size === files.length, "must not list a file twice")
      .optional()
      .describe(
        "The agent instruction files GitBook always exports at the repository root: `agents` (AGENTS.md), `claude` " +
          "(CLAUDE.md). Compared as a set; `[]` exports none. Left out: not managed.",
      ),
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
    const other =
      news.provider === "github"
        ? ["projectId", "project", "accessToken", "customInstanceURL"]
        : ["repositoryId", "repository"];
    for (const key of other) {
      if (news[key as keyof typeof news] === undefined) continue;
      ctx.addIssue({ code: "custom", path: [key], message: `is not a setting of ${news.provider}'s Git Sync` });
    }
    for (const [name, id] of [
      ["repository", "repositoryId"],
      ["project", "projectId"],
    ] as const) {
      if (news[name] === undefined || news[id] === undefined) continue;
      ctx.addIssue({
        code: "custom",
        path: [name],
        message: `names what ${id} names: declare one of ${name} and ${id}`,
      });
    }
  });

const state = z.object({
  organizationId: z.string(),
  provider: z.string(),
  spaceId: z.string().nullable().default(null),
  siteId: z.string().nullable().default(null),
  repositoryId: z.number().nullable().default(null),
  repository: z.string().nullable().default(null),
  projectId: z.number().nullable().default(null),
  project: z.string().nullable().default(null),
  agentInstructions: z.array(z.string()).default([]),
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
function toState(
  api: ApiGitSyncInstallation,
  organizationId: string,
  accessToken: string | null | undefined,
  named: Named = {},
): State {
  const configuration = api.providerConfiguration;
  return {
    organizationId,
    provider: api.provider,
    // Stryker disable next-line ConditionalExpression: a site's target carries no spaceId; the check says what is read.
    spaceId: api.target.type === "space" ? (api.target.spaceId ?? null) : null,
    siteId: api.target.type === "site" ? (api.target.siteId ?? null) : null,
    repositoryId: configuration.repositoryId ?? null,
    // A name is kept while the installation syncs the repository it was resolved to: one changed by hand reads as
    // no name (drift), without a listing on every read.
    repository: named.repository && named.repository.id === configuration.repositoryId ? named.repository.name : null,
    projectId: configuration.projectId ?? null,
    project: named.project && named.project.id === configuration.projectId ? named.project.name : null,
    agentInstructions: api.agentInstructions ?? [],
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
const SETUP = [
  "projectDirectory",
  "commitMessageTemplate",
  "previewExternalBranches",
  "priority",
  "agentInstructions",
] as const;

/** The repository or project a name was resolved to: the state keeps the name while the installation syncs that id. */
interface Named {
  repository?: { name: string; id: number | null | undefined };
  project?: { name: string; id: number | null | undefined };
}

const namedIn = (state: {
  repository?: string | null;
  repositoryId?: number | null;
  project?: string | null;
  projectId?: number | null;
}): Named => ({
  ...(state.repository ? { repository: { name: state.repository, id: state.repositoryId } } : {}),
  ...(state.project ? { project: { name: state.project, id: state.projectId } } : {}),
});

/**
 * The inputs with the declared `repository` or `project` resolved to its id among what the installation can reach
 * (one listing). A name it cannot see fails naming what it can see, and where access is granted.
 */
async function resolveName(client: HttpClient, installationId: string, news: Inputs): Promise<Inputs> {
  const [field, idField] =
    news.provider === "github" ? (["repository", "repositoryId"] as const) : (["project", "projectId"] as const);
  const name = news[field];
  if (name === undefined) return news;
  const reachable = await listGitSyncRepositories(client, installationId, news.provider);
  const found = reachable.find((repository) => repository.fullName.toLowerCase() === name.toLowerCase());
  if (found) return { ...news, [idField]: found.id };
  const operation =
    news.provider === "github"
      ? "listGitHubRepositoriesForGitSyncInstallation"
      : "listGitLabProjectsForGitSyncInstallation";
  const seen =
    reachable.length > 0 ? `it can reach ${reachable.map((r) => r.fullName).join(", ")}` : "it can reach none yet";
  const grant =
    news.provider === "github"
      ? "grant GitBook's GitHub app access to the repository (GitHub: Settings > Applications > GitBook > Repository access)"
      : "give the access token's user access to the project";
  const what = `${field} "${name}": the ${news.provider} installation "${installationId}" cannot reach it; ${seen} (${operation})`;
  const fix = `correct ${field}, or ${grant}`;
  throw new ResourceError({ what, fix, cause: new Error(what) });
}

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
      "- `repository` (GitHub, `owner/repository`) or `project` (GitLab, `group/project`) names the repository instead " +
        "of its numeric id: create and update resolve it among what the installation can reach " +
        "(`listGitHubRepositoriesForGitSyncInstallation`, `listGitLabProjectsForGitSyncInstallation`: one request). " +
        "The installation must exist to be asked, so a name it cannot see fails at `up`, listing what it can see. " +
        "The state keeps the name while the installation syncs that repository; one switched by hand is drift.",
      "- `agentInstructions` lists the agent instruction files GitBook exports at the repository root (`agents`, " +
        "`claude`), compared as a set.",
      "- Not managed: a space synced through its site's installation (the target's `siteId`) and the child " +
        "installations' project directories (`childInstallationProjectDirectories`: the official document has it in " +
        "the PATCH body only, and no answer reports it back, so drift could not be seen).",
      "- Reads: one request per installation (`GET /git/installations/{id}`). `docs-platform import` and `unmanaged` " +
        "find installations in the spaces and sites listings (their `gitSync`) at no extra request.",
      "- The official document admits only a user's personal API token to every Git Sync operation.",
    ],
    example: `new docs.GitSyncInstallation("handbook-git", {
  organizationId,
  provider: "github",
  spaceId: handbook.id,
  repository: "acme/handbook",
  branch: "main",
  projectDirectory: "docs",
  priority: "git",
  agentInstructions: ["agents"],
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
  setProperties: ["agentInstructions"],
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
    const configured = await undoOnFailure(
      { kind: "GitSyncInstallation", id: installed.id, title: news.provider },
      () => uninstallGitSync(client, installed.id),
      async () => {
        const resolved = await resolveName(client, installed.id, news);
        const setup = setupOf(resolved, new Set([...CONFIGURATION, ...SETUP]));
        return { resolved, answer: setup ? await configure(client, installed.id, resolved, setup) : installed };
      },
    );
    const state = toState(configured.answer, news.organizationId, news.accessToken, namedIn(configured.resolved));
    return { id: installed.id, state };
  },

  async read({ client }, id, known) {
    const installation = await getGitSyncInstallation(client, id);
    // Adopting with a name (no id known yet): resolve it once, so a match writes nothing.
    const adopting = (known.repository && known.repositoryId == null) || (known.project && known.projectId == null);
    const named = adopting
      ? namedIn(
          await resolveName(client, id, {
            ...(known as Inputs),
            provider: installation.provider as Inputs["provider"],
          }),
        )
      : namedIn(known);
    return { id, state: toState(installation, known.organizationId, known.accessToken, named) };
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
    const resolved = await resolveName(client, id, news);
    const keys = new Set(changed);
    if (changed.has("repository")) keys.add("repositoryId");
    if (changed.has("project")) keys.add("projectId");
    const setup = setupOf(resolved, keys);
    const installation = setup
      ? await configure(client, id, resolved, setup)
      : await getGitSyncInstallation(client, id);
    return toState(installation, olds.organizationId, news.accessToken, namedIn(resolved));
  },

  delete: ({ client }, id) => uninstallGitSync(client, id),
});
