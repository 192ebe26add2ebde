/**
 * Renders internal records into API objects carrying every field the official response schemas require.
 */

import type { CatalogueIntegration } from "./integrationCatalogue";
import type {
  CollectionRec,
  GitSyncInstallationRec,
  GlossaryEntryRec,
  IntegrationInstallationRec,
  IntegrationSiteInstallationRec,
  IntegrationSpaceInstallationRec,
  MemberRec,
  OrgRec,
  SamlRec,
  SpaceRec,
  TeamRec,
  TranslationRec,
  UserRec,
} from "./records";
import type { Store } from "./store";
import { PAGES_PER_RUN, WORDS_PER_RUN } from "./translationStore";
import type { Env } from "./types";

type Json = Record<string, unknown>;

const enc = encodeURIComponent;

export function renderUser(env: Env, u: UserRec): Json {
  const out: Json = { object: "user", id: u.id, displayName: u.displayName, email: u.email };
  if (u.photoURL) out.photoURL = u.photoURL;
  out.urls = { location: `${env.apiBase}/users/${enc(u.id)}` };
  return out;
}

export function renderOrg(env: Env, store: Store, o: OrgRec): Json {
  const defaultSiteId = store.defaultSiteOf(o);
  const urls: Json = { location: `${env.apiBase}/orgs/${enc(o.id)}`, app: `${env.appBase}/o/${enc(o.id)}/` };
  if (o.logo) urls.logo = o.logo;
  return {
    object: "organization",
    id: o.id,
    title: o.title,
    createdAt: o.createdAt,
    emailDomains: [...o.emailDomains],
    hostname: o.hostname,
    type: "business",
    useCase: "productDocs",
    defaultRole: o.defaultRole,
    ...(defaultSiteId ? { defaultContent: { type: "site", site: defaultSiteId } } : {}),
    sso: o.sso ?? false,
    ai: o.ai ?? true,
    inviteLinks: o.inviteLinks,
    plan: "free_2024",
    mergeRules: o.mergeRules ?? { type: "none" },
    urls,
    trial: { status: "notapplicable", count: 0 },
    permissions: {
      view: true,
      access: true,
      admin: true,
      ownTeam: true,
      createContent: true,
      createOpenAPISpec: true,
      viewBilling: true,
      listMembers: true,
      listTeams: true,
      listIntegrations: true,
      listInstallations: true,
      installIntegration: true,
    },
  };
}

export function renderMember(env: Env, store: Store, m: MemberRec): Json {
  const user = store.users.get(m.userId)!;
  const out: Json = {
    object: "member",
    id: m.userId,
    role: m.role,
    user: renderUser(env, user),
    disabled: m.disabled,
    joinedAt: m.joinedAt,
  };
  if (m.lastSeenAt) out.lastSeenAt = m.lastSeenAt;
  out.sso = m.sso;
  out.spaces = 0;
  out.teams = store.teamCountForMember(m.orgId, m.userId);
  out.sites = 0;
  return out;
}

export function spaceLocation(env: Env, id: string): string {
  return `${env.apiBase}/spaces/${enc(id)}`;
}

export function renderSpace(env: Env, store: Store, s: SpaceRec): Json {
  const out: Json = {
    object: "space",
    id: s.id,
    title: s.title,
    // Required by the official Space: `""` when the space has an icon or nothing.
    emoji: s.emoji,
    visibility: s.visibility,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
  if (s.deletedAt) out.deletedAt = s.deletedAt;
  out.editMode = s.editMode;
  out.mergeRules = s.mergeRules ?? { type: "inherit" };
  out.urls = {
    location: spaceLocation(env, s.id),
    app: `${env.appBase}/s/${enc(s.id)}/`,
    ...(s.icon ? { icon: s.icon } : {}),
  };
  out.organization = s.orgId;
  if (s.parentId) out.parent = s.parentId;
  if (s.language) out.language = s.language;
  out.revision = s.revision;
  out.defaultLevel = s.defaultLevel;
  out.comments = 0;
  out.changeRequests = 0;
  out.changeRequestsOpen = 0;
  out.changeRequestsDraft = 0;
  out.permissions = {
    view: true,
    access: true,
    admin: true,
    viewInviteLinks: true,
    edit: true,
    triggerGitSync: true,
    comment: true,
    merge: true,
    review: true,
    installIntegration: true,
  };
  const gitSync = store.gitSyncStore.of({ type: "space", spaceId: s.id });
  if (gitSync) out.gitSync = renderGitSyncState(store, gitSync);
  return out;
}

export function collectionLocation(env: Env, id: string): string {
  return `${env.apiBase}/collections/${enc(id)}`;
}

export function renderCollection(env: Env, c: CollectionRec): Json {
  const out: Json = { object: "collection", id: c.id, title: c.title };
  if (c.description !== undefined) out.description = c.description;
  out.organization = c.orgId;
  if (c.parentId) out.parent = c.parentId;
  out.defaultLevel = c.defaultLevel;
  out.urls = { location: collectionLocation(env, c.id), app: `${env.appBase}/o/${enc(c.orgId)}/c/${enc(c.id)}/` };
  out.permissions = { view: true, admin: true, viewInviteLinks: true, create: true };
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Teams, SAML

export function renderTeam(_store: Store, t: TeamRec): Json {
  return {
    object: "team",
    id: t.id,
    title: t.title,
    members: t.members.size,
    spaces: 0,
    createdAt: t.createdAt,
    permissions: { admin: true, view: true },
  };
}

export function samlService(env: Env, p: SamlRec): { acsURL: string; startURL: string; entityID: string } {
  const base = `${env.appBase}/__/auth/saml/${enc(p.orgId)}/${enc(p.id)}`;
  return { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: `${base}/metadata` };
}

/** `active` once the identity provider is fully configured (ssoURL, entityID and certificate), else `pending`. */
export function samlStatus(p: SamlRec): "active" | "pending" {
  return p.ssoURL && p.entityID && p.certificate ? "active" : "pending";
}

/** Placeholder reported for `ssoURL` until one is set (the official schema requires a URI). */
export const UNSET_SSO_URL = "about:blank";

export function renderSaml(env: Env, store: Store, p: SamlRec): Json {
  const out: Json = {
    object: "saml-provider",
    id: p.id,
    label: p.label,
    ssoURL: p.ssoURL ?? UNSET_SSO_URL,
    entityID: p.entityID,
    certificate: p.certificate,
  };
  const team = p.defaultTeamId ? store.teams.get(p.defaultTeamId) : undefined;
  if (team) out.defaultTeam = renderTeam(store, team);
  out.defaultRole = p.defaultRole;
  out.createdAt = p.createdAt;
  out.status = samlStatus(p);
  out.service = samlService(env, p);
  out.urls = { location: `${env.apiBase}/orgs/${enc(p.orgId)}/saml/${enc(p.id)}` };
  return out;
}

export function renderTranslation(env: Env, store: Store, t: TranslationRec): Json {
  const out: Json = {
    object: "translation",
    id: t.id,
    status: store.translationStore.status(t),
    source: { space: t.sourceSpaceId, language: t.sourceLanguage },
    language: t.language,
    instructions: t.instructions,
  };
  if (t.resultSpaceId && t.resultRevision) {
    out.result = { space: t.resultSpaceId, revision: t.resultRevision, language: t.language };
  }
  out.createdAt = t.createdAt;
  out.updatedAt = t.updatedAt;
  // The emulator's runs take no time and translate a fixed amount.
  out.stats = {
    runs: t.runs,
    totalWords: t.runs * WORDS_PER_RUN,
    totalPages: PAGES_PER_RUN,
    totalDuration: 0,
    latestRunDuration: 0,
    latestPages: t.runs > 0 ? PAGES_PER_RUN : 0,
    latestWords: t.runs > 0 ? WORDS_PER_RUN : 0,
  };
  out.permissions = { view: true, edit: true };
  out.urls = { location: `${env.apiBase}/orgs/${enc(t.orgId)}/translations/${enc(t.id)}` };
  return out;
}

export function renderGlossaryEntry(env: Env, e: GlossaryEntryRec): Json {
  return {
    object: "glossary-entry",
    id: e.id,
    translations: e.translations,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
    urls: { location: `${env.apiBase}/orgs/${enc(e.orgId)}/translations-glossary/${enc(e.id)}` },
  };
}

/** The catalogue's integration as the official `Integration` (`owner` is required: the listing organization). */
export function renderIntegration(env: Env, store: Store, integration: CatalogueIntegration, owner: OrgRec): Json {
  const location = `${env.apiBase}/integrations/${enc(integration.name)}`;
  return {
    object: "integration",
    name: integration.name,
    version: 1,
    title: integration.title,
    description: integration.description,
    previewImages: [],
    target: integration.target,
    verified: true,
    visibility: "public",
    scopes: [],
    categories: [...integration.categories],
    externalLinks: [],
    owner: renderOrg(env, store, owner),
    permissions: { admin: false },
    urls: {
      location,
      app: `${env.appBase}/integrations/${enc(integration.name)}`,
      assets: `${location}/assets`,
      publicEndpoint: `${env.origin}/integrations/${enc(integration.name)}`,
      publicContentEndpoint: `${env.origin}/integrations/${enc(integration.name)}`,
    },
  };
}

export function renderIntegrationInstallation(env: Env, installation: IntegrationInstallationRec): Json {
  const location = `${env.apiBase}/integrations/${enc(installation.integrationName)}/installations/${enc(installation.id)}`;
  const endpoint = `${env.origin}/integrations/${enc(installation.integrationName)}/installations/${enc(installation.id)}`;
  return {
    id: installation.id,
    status: installation.status,
    space_selection: installation.spaceSelection,
    site_selection: installation.siteSelection,
    spaces: 0,
    configuration: { ...installation.configuration },
    createdAt: installation.createdAt,
    updatedAt: installation.updatedAt,
    urls: {
      location,
      app: `${env.appBase}/o/${enc(installation.orgId)}/integrations/${enc(installation.integrationName)}`,
      publicEndpoint: endpoint,
      publicContentEndpoint: endpoint,
    },
    externalIds: [...installation.externalIds],
    target: { organization: installation.orgId },
  };
}

/** Without `extended`, `site` is the site's id (the document's deprecated form, still its default). */
export function renderIntegrationSiteInstallation(
  env: Env,
  installation: IntegrationInstallationRec,
  site: IntegrationSiteInstallationRec,
): Json {
  const location = `${env.apiBase}/integrations/${enc(installation.integrationName)}/installations/${enc(installation.id)}/sites/${enc(site.siteId)}`;
  const endpoint = `${env.origin}/integrations/${enc(installation.integrationName)}/installations/${enc(installation.id)}/sites/${enc(site.siteId)}`;
  return {
    integration: installation.integrationName,
    installation: installation.id,
    status: installation.status,
    configuration: { ...site.configuration },
    externalIds: [...site.externalIds],
    urls: { location, publicEndpoint: endpoint, publicContentEndpoint: endpoint },
    site: site.siteId,
  };
}

/** Without `extended`, `space` is the space's id (the document's deprecated form, still its default). */
export function renderIntegrationSpaceInstallation(
  env: Env,
  installation: IntegrationInstallationRec,
  space: IntegrationSpaceInstallationRec,
): Json {
  const path = `integrations/${enc(installation.integrationName)}/installations/${enc(installation.id)}/spaces/${enc(space.spaceId)}`;
  return {
    integration: installation.integrationName,
    installation: installation.id,
    status: installation.status,
    configuration: { ...space.configuration },
    externalIds: [...space.externalIds],
    urls: {
      location: `${env.apiBase}/${path}`,
      publicEndpoint: `${env.origin}/${path}`,
      publicContentEndpoint: `${env.origin}/${path}`,
    },
    space: space.spaceId,
  };
}

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
