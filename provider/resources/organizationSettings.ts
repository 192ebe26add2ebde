import { z } from "zod";
import {
  type ApiOrganization,
  getOrganization,
  type OrganizationPatch,
  organizationPath,
  updateOrganization,
} from "../client";
import { apiId, defineKind, idRef } from "../framework/kind";
import { logLine } from "../framework/log";
import { changedFields } from "../framework/patch";
import { ROLES } from "./common";
import { mergeRulesOf, mergeRulesState, organizationMergeRules } from "./mergeRules";

const emailDomain = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[^\s@]+$/, "must be a domain such as `example.com`, not an email address");

const inputs = z.strictObject({
  organizationId: apiId.describe(
    "The organization whose settings these are. A change lets go of the old organization's settings (left as they " +
      "are) and takes over the new one's.",
  ),
  // The official `OrganizationTitle`: 2 to 255 characters, `\S.*\S` (unanchored: two non-space characters).
  title: z
    .string()
    .min(2)
    .max(255)
    .regex(/\S.*\S/, "must contain at least two non-space characters")
    .optional()
    .describe("The organization's name."),
  emailDomains: z
    .array(emailDomain)
    .refine((domains) => new Set(domains).size === domains.length, "must not list a domain twice")
    .optional()
    .describe(
      "The email domains whose users may join the organization on their own; compared as a set. `[]` allows none.",
    ),
  hostname: z
    .string()
    .min(3)
    .max(32)
    .optional()
    .describe("The organization's default hostname for published content (`<hostname>.gitbook.io`)."),
  defaultRole: z
    .enum(ROLES)
    .nullable()
    .optional()
    .describe("The role new members get when they join; `null` makes them guests."),
  defaultSiteId: idRef("Site")
    .nullable()
    .optional()
    .describe(
      "The site visitors of the organization's hostname land on (the API's `defaultContent`); `null` clears it.",
    ),
  logo: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .nullable()
    .optional()
    .describe("The URL of the organization's logo; `null` removes it."),
  sso: z
    .boolean()
    .optional()
    .describe("Whether SSO is enforced organization-wide (members log in through the organization's SAML provider)."),
  ai: z.boolean().optional().describe("Whether the organization uses the AI features."),
  inviteLinks: z.boolean().optional().describe("Whether invite links are enabled."),
  mergeRules: organizationMergeRules,
});

const state = z.object({
  organizationId: z.string(),
  title: z.string(),
  emailDomains: z.array(z.string()).default([]),
  hostname: z.string().nullable().default(null),
  defaultRole: z.string().nullable().default(null),
  defaultSiteId: z.string().nullable().default(null),
  logo: z.string().nullable().default(null),
  sso: z.boolean().default(false),
  ai: z.boolean().default(false),
  inviteLinks: z.boolean().default(false),
  mergeRules: mergeRulesState,
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

function toState(org: ApiOrganization): State {
  return {
    organizationId: org.id,
    title: org.title,
    emailDomains: org.emailDomains,
    hostname: org.hostname ?? null,
    defaultRole: org.defaultRole ?? null,
    defaultSiteId: org.defaultContent?.site ?? null,
    logo: org.urls.logo ?? null,
    sso: org.sso,
    ai: org.ai,
    inviteLinks: org.inviteLinks,
    mergeRules: mergeRulesOf(org.mergeRules),
  };
}

function patchOf(news: Inputs, changed: ReadonlySet<string>): OrganizationPatch | undefined {
  const patch: OrganizationPatch =
    changedFields<OrganizationPatch>(news, changed, {
      title: "title",
      emailDomains: "emailDomains",
      hostname: "hostname",
      defaultRole: "defaultRole",
      logo: "logo",
      sso: "sso",
      ai: "ai",
      inviteLinks: "inviteLinks",
      mergeRules: "mergeRules",
    }) ?? {};
  if (changed.has("defaultSiteId") && news.defaultSiteId !== undefined) {
    patch.defaultContent = news.defaultSiteId === null ? null : { type: "site", site: news.defaultSiteId };
  }
  return Object.keys(patch).length > 0 ? patch : undefined;
}

export const organizationSettingsKind = defineKind<Inputs, State>({
  kind: "OrganizationSettings",
  docs: {
    description:
      "The settings of an existing organization: its title, email domains, hostname, default role and site, logo, SSO " +
      "enforcement, AI features, invite links and merge rules. Only the declared settings are managed.",
    adoption:
      "Not needed: create takes over the organization (there is nothing to create), reads it, and writes only the " +
      "declared settings that differ — nothing when all match. An `importId` must be the `organizationId` itself.",
    notes: [
      "- **Nothing is created and nothing is deleted.** `pulumi up` takes over the organization `organizationId` names " +
        "and `PATCH`es the declared settings that differ from it. Deleting the resource (`pulumi destroy`, or removing " +
        "it from the program) leaves the organization and every setting as they are, and its log line says so; to " +
        "undo a setting, declare its old value and run `up` first.",
      "- Only the declared settings are managed: a setting the program leaves out is neither written nor reported as " +
        "drift. A setting changed by hand is drift, seen by `pulumi preview --refresh`.",
      "- One `OrganizationSettings` per organization: a second one for the same organization in the program fails at " +
        "preview, since each would undo the other's changes on every run.",
      "- Every setting is changed in place (`PATCH /orgs/{organizationId}`); only a change of `organizationId` replaces " +
        "the resource, which lets go of the old organization (left as it is) and takes over the new one.",
      "- `sso: true` enforces SSO for every member: declare the organization's `SamlProvider` first (`dependsOn`), or " +
        "members may have no way to log in. `emailDomains` is compared as a set.",
      "- `mergeRules` (the review a change request needs) is compared order-insensitively: the API keeps the rules as " +
        "sent, and all must pass.",
      "- Not managed: what the official `PATCH` cannot set (`type`, `useCase`, billing, the custom hostname).",
    ],
    example: `const saml = new docs.SamlProvider("okta", { organizationId, label: "Okta", entityId, ssoUrl, certificate });
new docs.OrganizationSettings(
  "acme",
  { organizationId, title: "Acme Docs", emailDomains: ["acme.example"], defaultRole: "read", sso: true },
  { dependsOn: [saml] },
);`,
  },
  scope: "organization",
  inputs,
  state,
  id: "parent",
  // One per organization: its listing is the organization itself (the read that follows costs a request of its own).
  listing: {
    path: ({ organizationId }) => organizationPath(String(organizationId)),
    async list({ client }, { ids }) {
      const organization = await getOrganization(client, String(ids.organizationId));
      return [{ id: organization.id, title: organization.title, known: ids }];
    },
    unmanaged: false,
  },
  imported: { word: "settings", heading: "The organization's settings, each at its current value." },
  outputs: [],
  idFormat: "the organization id, as in `https://app.gitbook.com/o/<organizationId>`",
  programRules: {
    uniqueBy: ["organizationId"],
  },
  setProperties: ["emailDomains"],
  adoptsOnCreate: {
    id: (news) => news.organizationId,
    missing: "no such organization, or the token's user is not a member of it: check organizationId.",
  },
  // Another organization is another object: let go of the old one (its delete writes nothing) and take over the new.
  replaceOnChanges: ["organizationId"],

  async read({ client }, id) {
    return { id, state: toState(await getOrganization(client, id)) };
  },

  async update({ client }, id, olds, news, changed) {
    // Only reachable by an importId naming another organization than organizationId (a declared change replaces).
    if (changed.has("organizationId")) {
      throw new Error(
        `OrganizationSettings: importId names organization "${olds.organizationId}", organizationId "${news.organizationId}"; ` +
          "remove importId (create takes over organizationId's settings).",
      );
    }
    const patch = patchOf(news, changed);
    return toState(patch ? await updateOrganization(client, id, patch) : await getOrganization(client, id));
  },

  async delete(_ctx, id) {
    logLine(
      "info",
      `OrganizationSettings "${id}": the organization and its settings are left as they are (deleting this resource ` +
        "only stops managing them).",
    );
  },
});
