/**
 * The lookups (./lookups.ts) as the provider plugin's functions, `docs:index:<name>`: one entry per lookup with the
 * zod schemas of its arguments and result, from which the schema's `functions` are written (codegen/schema.ts),
 * and which the plugin's `Invoke` checks the arguments against before it runs the very lookup a TypeScript program
 * calls. The schemas are typed by the lookups' own interfaces, so a field added to one and not the other fails
 * `npm run typecheck`.
 */
import { z } from "zod";
import {
  type GetCollectionArgs,
  type GetCollectionResult,
  type GetIntegrationArgs,
  type GetIntegrationResult,
  type GetOpenApiSpecArgs,
  type GetOpenApiSpecResult,
  type GetOrganizationMemberArgs,
  type GetOrganizationMemberResult,
  type GetOrganizationsArgs,
  type GetOrganizationsResult,
  type GetPageArgs,
  type GetPageResult,
  type GetSamlProviderArgs,
  type GetSamlProviderResult,
  type GetSiteArgs,
  type GetSiteResult,
  type GetSiteSectionArgs,
  type GetSiteSectionResult,
  type GetSiteSpaceArgs,
  type GetSiteSpaceResult,
  type GetSpaceArgs,
  type GetSpaceResult,
  type GetTeamArgs,
  type GetTeamResult,
  getCollection,
  getIntegration,
  getOpenApiSpec,
  getOrganizationMember,
  getOrganizations,
  getPage,
  getSamlProvider,
  getSite,
  getSiteSection,
  getSiteSpace,
  getSpace,
  getTeam,
  LookupError,
  type LookupOptions,
} from "./lookups";

/** One lookup as a provider function. */
export interface FunctionDefinition<Args = Record<string, unknown>, Result = unknown> {
  /** The lookup's name, and the function's: `docs:index:<name>`. */
  name: string;
  description: string;
  /** A strict object: an argument the function does not take fails naming it. */
  args: z.ZodType<Args>;
  /** Every argument narrows an answer that needs none (getOrganizations): the generated classes let a program omit them. */
  argumentsOptional?: boolean;
  result: z.ZodType<Result>;
  run: (args: Args, opts: LookupOptions) => Promise<Result>;
}

function defineFunction<Args, Result>(definition: FunctionDefinition<Args, Result>): FunctionDefinition {
  return definition as unknown as FunctionDefinition;
}

const organizationIdArg = z
  .string()
  .optional()
  .describe("The organization to look in; default: the provider's organizationId (`docs:organizationId`).");
const id = (what: string) => z.string().describe(`The ${what}'s id.`);
const organizationIdResult = z.string().describe("The organization it was found in.");
const nullableString = (description: string) => z.string().nullable().describe(description);

const configurationKey = z
  .object({
    type: z.string().describe("`string`, `number`, `boolean`, or `button` (an action in the app, not a value)."),
    title: nullableString("The key's title in the app."),
    description: nullableString("What the key is for."),
    allowedValues: z.array(z.string()).nullable().describe("The only values a string key takes, if listed."),
    required: z.boolean().describe("Whether a configuration must set it."),
  })
  .meta({ id: "IntegrationConfigurationKey" });

const configurationLevel = z
  .object({
    keys: z.record(z.string(), configurationKey).describe("The keys of the configuration, by name."),
    componentId: nullableString(
      "Set when the integration configures itself with a form of its own (a ContentKit component): its keys are " +
        "then not listed, and preflight does not check them.",
    ),
  })
  .meta({ id: "IntegrationConfigurationLevel" });

export const FUNCTIONS: readonly FunctionDefinition[] = [
  defineFunction<GetSpaceArgs, GetSpaceResult>({
    name: "getSpace",
    description:
      "The space with this title (in this collection), in the organization. No match or several fail the preview, " +
      "naming the title and listing the spaces.",
    args: z.strictObject({
      title: z.string().describe("The space's title, exactly."),
      collectionId: z
        .string()
        .optional()
        .describe("Only spaces directly in this collection. Default: anywhere in the organization."),
      organizationId: organizationIdArg,
    }),
    result: z.object({
      id: id("space"),
      title: z.string().describe("The space's title."),
      organizationId: organizationIdResult,
      collectionId: nullableString("The collection the space is in; absent at the top level."),
      visibility: nullableString("The space's visibility."),
    }),
    run: getSpace,
  }),
  defineFunction<GetOrganizationMemberArgs, GetOrganizationMemberResult>({
    name: "getOrganizationMember",
    description:
      "The organization member with this email address; its `id` is what `userId` and team members' `user` take.",
    args: z.strictObject({
      email: z.string().describe("The member's email address (case-insensitive)."),
      organizationId: organizationIdArg,
    }),
    result: z.object({
      id: z.string().describe("The member's user id: what `userId` inputs take."),
      email: z.string().describe("The member's email address."),
      displayName: nullableString("The member's display name."),
      role: nullableString("The member's role in the organization."),
      organizationId: organizationIdResult,
    }),
    run: getOrganizationMember,
  }),
  defineFunction<GetTeamArgs, GetTeamResult>({
    name: "getTeam",
    description: "The team with this title.",
    args: z.strictObject({
      title: z.string().describe("The team's title, exactly."),
      organizationId: organizationIdArg,
    }),
    result: z.object({
      id: id("team"),
      title: z.string().describe("The team's title."),
      organizationId: organizationIdResult,
    }),
    run: getTeam,
  }),
  defineFunction<GetSiteArgs, GetSiteResult>({
    name: "getSite",
    description: "The site with this title.",
    args: z.strictObject({
      title: z.string().describe("The site's title, exactly."),
      organizationId: organizationIdArg,
    }),
    result: z.object({
      id: id("site"),
      title: z.string().describe("The site's title."),
      organizationId: organizationIdResult,
      visibility: z.string().describe("Who can read the site."),
      published: z.boolean().describe("Whether the site is published."),
      hostname: nullableString("The site's custom hostname, if it has one."),
    }),
    run: getSite,
  }),
  defineFunction<GetCollectionArgs, GetCollectionResult>({
    name: "getCollection",
    description:
      'The collection with this title (at any depth) or at this path of titles (`"Products/API"`): give one of them.',
    args: z.strictObject({
      title: z.string().optional().describe("The collection's title, at any depth. Give title or path."),
      path: z.string().optional().describe('Titles from the top level down, joined by `/`: `"Products/API"`.'),
      organizationId: organizationIdArg,
    }),
    result: z.object({
      id: id("collection"),
      title: z.string().describe("The collection's title."),
      organizationId: organizationIdResult,
      parentId: nullableString("The collection it is nested in; absent at the top level."),
      path: z.string().describe("Its titles from the top level down, joined by `/`."),
    }),
    run: getCollection,
  }),
  defineFunction<GetSiteSectionArgs, GetSiteSectionResult>({
    name: "getSiteSection",
    description: "The section of a site with this title or path, from the site's structure (one request).",
    args: z.strictObject({
      siteId: z.string().describe("The site the section is in."),
      title: z.string().optional().describe("The section's title, exactly. Give title or path."),
      path: z.string().optional().describe("The section's path (its URL segment), unique in the site."),
      organizationId: organizationIdArg,
    }),
    result: z.object({
      id: id("section"),
      title: z.string().describe("The section's title."),
      path: z.string().describe("The section's path."),
      organizationId: organizationIdResult,
      siteId: z.string().describe("The site the section is in."),
      groupId: nullableString("The group the section is in; absent at the top level."),
      siteSpaceIds: z.array(z.string()).describe("Its site spaces, in navigation order."),
    }),
    run: getSiteSection,
  }),
  defineFunction<GetSiteSpaceArgs, GetSiteSpaceResult>({
    name: "getSiteSpace",
    description: "The site space of a site with this title or path (in this section), from the site's structure.",
    args: z.strictObject({
      siteId: z.string().describe("The site the site space is in."),
      title: z.string().optional().describe("The title the site space shows, exactly. Give title or path."),
      path: z.string().optional().describe("Its path (URL segment), unique within its section or the site."),
      sectionId: z.string().optional().describe("Only site spaces of this section. Default: anywhere in the site."),
      organizationId: organizationIdArg,
    }),
    result: z.object({
      id: id("site space"),
      title: nullableString("The title the site space shows, when it has its own."),
      path: z.string().describe("The site space's path."),
      spaceId: z.string().describe("The space it publishes."),
      organizationId: organizationIdResult,
      siteId: z.string().describe("The site it is in."),
      sectionId: nullableString("The section it is in; absent at the site's top level."),
    }),
    run: getSiteSpace,
  }),
  defineFunction<GetPageArgs, GetPageResult>({
    name: "getPage",
    description:
      "A page of a space by its path, in a space or in the space a site space shows: what a SiteSection's or " +
      "SiteSpace's `pageId` takes. A path naming no page fails, listing the space's pages.",
    args: z.strictObject({
      path: z
        .string()
        .describe('The page\'s path in the space: its slugs joined by `/` (`"getting-started/quickstart"`).'),
      spaceId: z.string().optional().describe("The space to look in. Give spaceId, or siteId and siteSpaceId."),
      siteId: z.string().optional().describe("With siteSpaceId: the site whose site space shows the space."),
      siteSpaceId: z
        .string()
        .optional()
        .describe("The site space whose space to look in (a SiteSpace's id, or a SiteSection's `siteSpaceId`)."),
      organizationId: organizationIdArg,
    }),
    result: z.object({
      id: id("page"),
      title: z.string().describe("The page's title."),
      path: z.string().describe("The page's path in the space."),
      type: nullableString("`document`, `group`, `link` or `computed`."),
      spaceId: z.string().describe("The space the page is in."),
      organizationId: organizationIdResult,
    }),
    run: getPage,
  }),
  defineFunction<GetSamlProviderArgs, GetSamlProviderResult>({
    name: "getSamlProvider",
    description: "The SAML provider with this label (labels need not be unique: several fail, naming each).",
    args: z.strictObject({
      label: z.string().describe("The SAML provider's label, exactly."),
      organizationId: organizationIdArg,
    }),
    result: z.object({
      id: id("SAML provider"),
      label: z.string().describe("The SAML provider's label."),
      organizationId: organizationIdResult,
    }),
    run: getSamlProvider,
  }),
  defineFunction<GetOpenApiSpecArgs, GetOpenApiSpecResult>({
    name: "getOpenApiSpec",
    description: "The OpenAPI spec with this slug.",
    args: z.strictObject({ slug: z.string().describe("The spec's slug."), organizationId: organizationIdArg }),
    result: z.object({
      id: id("spec"),
      slug: z.string().describe("The spec's slug."),
      organizationId: organizationIdResult,
      processingState: z.string().describe("`pending`, `progress` or `complete`."),
      sourceUrl: nullableString("The URL the spec is read from, if it has one."),
    }),
    run: getOpenApiSpec,
  }),
  defineFunction<GetIntegrationArgs, GetIntegrationResult>({
    name: "getIntegration",
    description:
      "An integration of the catalogue, by name: what an integration installation's `integrationName` takes, " +
      "checked to exist, with where it installs, the permissions it requests and its configuration keys per level.",
    args: z.strictObject({
      name: z.string().describe('The integration\'s name in the catalogue: `"googleanalytics"`.'),
    }),
    result: z.object({
      name: z.string().describe("The integration's name."),
      title: z.string().describe("The integration's title."),
      description: nullableString("What the integration does."),
      target: z.string().describe("Where it can be installed: `all`, `site`, `space` or `organization`."),
      categories: z.array(z.string()).describe("The catalogue's categories of the integration."),
      scopes: z.array(z.string()).describe("The permissions it requests (`site:script:inject`, …)."),
      configurations: z
        .object({
          account: configurationLevel
            .nullable()
            .describe(
              "The organization-level configuration (an IntegrationInstallation's `configuration` and `secrets`).",
            ),
          site: configurationLevel
            .nullable()
            .describe(
              "The per-site configuration (an IntegrationSiteInstallation's); null: it is not installed on sites.",
            ),
          space: configurationLevel
            .nullable()
            .describe(
              "The per-space configuration (an IntegrationSpaceInstallation's); null: it is not installed on spaces.",
            ),
        })
        .meta({ id: "IntegrationConfigurations" })
        .describe(
          "Its configuration schema per level (the document's `account`, `site`, `space`): the keys preflight " +
            "checks an installation's `configuration` and `secrets` against.",
        ),
    }),
    run: getIntegration,
  }),
  defineFunction<GetOrganizationsArgs, GetOrganizationsResult>({
    name: "getOrganizations",
    description:
      "The organizations the token reaches, e.g. to check that a program runs against the intended one. " +
      "No organization setting is needed.",
    args: z.strictObject({ title: z.string().optional().describe("Only organizations with this title, exactly.") }),
    argumentsOptional: true,
    result: z.object({
      organizations: z
        .array(
          z
            .object({
              id: id("organization"),
              title: z.string().describe("The organization's title."),
            })
            .meta({ id: "OrganizationSummary" }),
        )
        .describe("Every organization the token reaches, in the API's order."),
    }),
    run: getOrganizations,
  }),
];

/**
 * A function's arguments, checked: an argument missing, unknown or of the wrong type fails naming the function, the
 * argument and what it takes (its description), before any request.
 */
export function checkedArgs(fn: FunctionDefinition, args: Record<string, unknown>): Record<string, unknown> {
  // The engine passes an argument the program left out as null when its SDK sends every declared argument.
  const given = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null));
  const parsed = fn.args.safeParse(given);
  if (parsed.success) return parsed.data as Record<string, unknown>;
  const shape = (fn.args as unknown as { shape: Record<string, z.ZodType> }).shape;
  const problems = parsed.error.issues.map((issue) => {
    const key = issue.code === "unrecognized_keys" ? issue.keys.join(", ") : String(issue.path[0] ?? "");
    if (issue.code === "unrecognized_keys") {
      return `${key}: not an argument of ${fn.name}; it takes ${Object.keys(shape).join(", ")}`;
    }
    const what = shape[key]?.description;
    const missing = issue.code === "invalid_type" && given[key] === undefined;
    return `${key}: ${missing ? "required" : issue.message}${what ? ` (${what})` : ""}`;
  });
  throw new LookupError(`${fn.name}: ${problems.join("; ")}.`);
}
