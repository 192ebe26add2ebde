import { expect } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { callApi, type Json } from "./emulator";

/** Ids per kind. */
export type Census = Record<string, string[]>;

/**
 * The kinds whose resources each make an object of their own that `census` lists. The others (memberships, and
 * settings or lists written at a fixed address of their parent: adaptive schemas, navigation order, customization,
 * visitor authentication, redirect lists, organization settings) are not counted as objects.
 */
export const CENSUS_KINDS: ReadonlySet<string> = new Set([
  "Space",
  "Collection",
  "Site",
  "SamlProvider",
  "Team",
  "OpenApiSpec",
  "SiteSection",
  "SiteSpace",
  "SiteSectionGroup",
  "SiteShareLink",
  "SiteExternalLink",
  "SiteMcpServer",
  "SiteChannel",
  "SiteContextConnection",
  "Translation",
  "GitSyncInstallation",
  "IntegrationInstallation",
  "IntegrationSiteInstallation",
  "IntegrationSpaceInstallation",
]);

/**
 * The kinds the census leaves out, and why: with CENSUS_KINDS, every kind of the registry (a kind in neither fails
 * test/runtime/newKindChecklist.test.ts, so a new kind cannot be forgotten here).
 */
export const NOT_IN_CENSUS: Readonly<Record<string, string>> = {
  TeamMember: "a membership, not an object",
  SpacePermission: "a grant, not an object",
  CollectionPermission: "a grant, not an object",
  SitePermission: "a grant, not an object",
  OrganizationMember: "a membership, made by invitation, never by a create",
  OrganizationSettings: "settings every organization has",
  OrganizationAgentInstructions: "instructions every organization has, written at its fixed address",
  SiteAdaptiveSchema: "written at its site's fixed address",
  SiteStructure: "its site's navigation order, written at a fixed address",
  SiteCustomization: "settings every site has",
  SiteSpaceCustomization: "overrides written at a site space's fixed address",
  SiteVisitorAuth: "settings every site has",
  SiteRedirects: "a list written at its site's fixed address",
  SiteRedirect: "its rules live in the site's one list, which SiteRedirects owns too",
  SiteAgentSettings: "settings every site has",
  TranslationGlossary: "a list written at its organization's fixed address",
};

/** Ids of every object the program can create, per kind, read straight from the emulator (not through a proxy). */
export async function census(emulator: RunningEmulator): Promise<Census> {
  const org = `/orgs/${emulator.organizationId}`;
  const list = async (apiPath: string, query = ""): Promise<Json[]> => {
    const answer = await callApi(emulator, "GET", `${apiPath}?limit=1000${query}`);
    expect(answer.status, `GET ${apiPath}`).toBe(200);
    return answer.body.items;
  };
  const ids = (items: Json[]) => items.map((item) => item.id as string);
  const sites = await list(`${org}/sites`);
  const result: Census = {
    // A deleted space is restorable for 7 days, and no longer listed: gone, for a destroy.
    Space: ids(await list(`${org}/spaces`)),
    Collection: ids(await list(`${org}/collections`, "&nested=true")),
    Site: ids(sites),
    SamlProvider: ids(await list(`${org}/saml`)),
    Team: ids(await list(`${org}/teams`)),
    OpenApiSpec: ids(await list(`${org}/openapi`)),
    SiteSection: [],
    SiteSpace: [],
    SiteSectionGroup: [],
    SiteShareLink: [],
    SiteExternalLink: [],
    SiteMcpServer: [],
    SiteChannel: [],
    SiteContextConnection: [],
    Translation: ids(await list(`${org}/translations`)),
    // A synced space or site names its installation (`gitSync`); there is no listing of them.
    GitSyncInstallation: [...(await list(`${org}/spaces`)), ...sites].flatMap((synced) =>
      synced.gitSync ? [synced.gitSync.installationId] : [],
    ),
    IntegrationInstallation: [],
    IntegrationSiteInstallation: [],
    IntegrationSpaceInstallation: [],
  };
  for (const { installation, integration } of await list(`${org}/installations`)) {
    const path = `/integrations/${integration.name}/installations/${installation.id}`;
    result.IntegrationInstallation?.push(installation.id);
    // Site installations have the resource id `<siteId>/<installationId>`.
    result.IntegrationSiteInstallation?.push(
      ...(await list(`${path}/sites`)).map((item) => `${item.site}/${installation.id}`),
    );
    result.IntegrationSpaceInstallation?.push(
      ...(await list(`${path}/spaces`)).map((item) => `${item.space}/${installation.id}`),
    );
  }
  for (const site of sites) {
    const under = `${org}/sites/${site.id}`;
    result.SiteSection?.push(...ids(await list(`${under}/sections`)));
    result.SiteSpace?.push(...ids(await list(`${under}/site-spaces`)));
    result.SiteSectionGroup?.push(...ids(await list(`${under}/section-groups`)));
    result.SiteShareLink?.push(...ids(await list(`${under}/share-links`)));
    result.SiteMcpServer?.push(...ids(await list(`${under}/mcp-servers`)));
    result.SiteChannel?.push(...ids(await list(`${under}/channels`)));
    result.SiteContextConnection?.push(...ids(await list(`${under}/context-connections`)));
    // Links have no listing of their own: the structure holds them, at the top level or in a group's children.
    result.SiteExternalLink?.push(...linksIn((await callApi(emulator, "GET", `${under}/structure`)).body.structure));
  }
  return result;
}

/** Ids of the external links among structure items, at any depth. */
function linksIn(items: Json[]): string[] {
  return items.flatMap((item) => [
    ...(item.object === "site-external-link" ? [item.id as string] : []),
    ...linksIn(item.children ?? []),
  ]);
}

/** Objects per kind in `after` that were not in `before` (kinds with none left out). */
export function added(before: Census, after: Census): Census {
  const result: Census = {};
  for (const [kind, ids] of Object.entries(after)) {
    const old = new Set(before[kind] ?? []);
    const fresh = ids.filter((id) => !old.has(id)).sort();
    if (fresh.length > 0) result[kind] = fresh;
  }
  return result;
}
