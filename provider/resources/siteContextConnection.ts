import { z } from "zod";
import {
  type ApiContextConnection,
  BUILTIN_CONTEXT_CONNECTORS,
  type BuiltinContextConnector,
  CHANGE_REQUEST_STATUSES,
  CONTEXT_CONNECTORS,
  CONTEXT_CREDENTIALS,
  CONTEXT_SEARCH_BOOSTS,
  CONTEXT_SETTINGS,
  type ContextConnectionPatch,
  createSiteContextConnection,
  deleteSiteContextConnection,
  INTEGRATION_CONNECTOR,
  listSiteContextConnections,
  updateSiteContextConnection,
} from "../client";
import { undoOnFailure } from "../framework/cleanup";
import { defineKind, SENSITIVE, UNECHOED } from "../framework/kind";
import { createdSince } from "../framework/recovery";
import {
  contextConnectionListing,
  findListed,
  itemsUnderSite,
  organizationId,
  siteId,
  UNDER_SITE,
  writeUnder,
} from "./siteCommon";

const CONNECTOR_LIST = `${BUILTIN_CONTEXT_CONNECTORS.join(", ")} or integration:<name>`;

const connector = z
  .string()
  .refine(
    (value) => (BUILTIN_CONTEXT_CONNECTORS as string[]).includes(value) || INTEGRATION_CONNECTOR.test(value),
    `must be one of ${CONNECTOR_LIST}`,
  )
  .describe(
    "The source the agent reads: `builtin:website`, `builtin:youtube`, `builtin:github-issues`, " +
      "`builtin:github-discussions`, a helpdesk (`builtin:intercom`, `builtin:front`, `builtin:zendesk`, " +
      "`builtin:zoho-desk`, `builtin:freshdesk`, `builtin:pylon`, `builtin:hubspot`), `builtin:linear`, `builtin:jira`, " +
      "an inbound mailbox (`builtin:email`), records pushed through the API (`builtin:api`), or an integration's " +
      "connector (`integration:<name>`).",
  );

/** What a key put in the wrong one of `setupSettings` and `credentials` should become. */
function misplaced(keys: readonly PropertyKey[], where: "setupSettings" | "credentials"): string {
  return keys
    .map(String)
    .map((key) => {
      if (where === "setupSettings" && CONTEXT_CREDENTIALS.includes(key as never))
        return (
          `\`${key}\` is a credential: declare it in \`credentials\` (a secret, never shown), not in ` +
          "`setupSettings`, whose values the state and previews show in plain text"
        );
      if (where === "credentials" && CONTEXT_SETTINGS.includes(key as never))
        return `\`${key}\` is not a credential: declare it in \`setupSettings\`, which is read back and compared`;
      const known = where === "setupSettings" ? CONTEXT_SETTINGS : CONTEXT_CREDENTIALS;
      return `\`${key}\` is no connector's ${where === "setupSettings" ? "setting" : "credential"} (${known.join(", ")})`;
    })
    .join("; ");
}

const notEmpty = z.string().min(1);
const setupSettings = z
  .strictObject(
    {
      url: z
        .url({ protocol: /^https?$/ })
        .optional()
        .describe("`builtin:website`: the site to read."),
      channelId: z
        .string()
        .regex(
          /^(UC[A-Za-z0-9_-]{22}|@[A-Za-z0-9._-]{3,100})$/,
          "must be a YouTube channel id (`UC…`) or handle (`@…`)",
        )
        .optional()
        .describe("`builtin:youtube`: the channel id (`UC…`) or handle (`@docs`)."),
      repository: z
        .string()
        .regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, "must be `owner/repository` (not a URL)")
        .optional()
        .describe("`builtin:github-issues`, `builtin:github-discussions`: `owner/repository`."),
      subdomain: notEmpty.optional().describe("`builtin:zendesk`: the account's subdomain."),
      email: notEmpty.optional().describe("`builtin:zendesk`: the email of the account whose API token is used."),
      dataCenter: notEmpty.optional().describe("`builtin:zoho-desk`: the data center's domain suffix (`com`, `eu`)."),
      orgId: notEmpty.optional().describe("`builtin:zoho-desk`: the Zoho Desk organization id."),
      clientId: notEmpty.optional().describe("`builtin:zoho-desk`: the OAuth client id."),
      domain: notEmpty.optional().describe("`builtin:freshdesk`: `mycompany.freshdesk.com` or `mycompany`."),
      baseUrl: z
        .url({ protocol: /^https?$/ })
        .max(2048)
        .optional()
        .describe("`builtin:jira`: the Jira Cloud site, e.g. `https://acme.atlassian.net`."),
      apiEmail: z.email().max(254).optional().describe("`builtin:jira`: the email of the API token's account."),
      statusMapping: z
        .partialRecord(z.enum(CHANGE_REQUEST_STATUSES), z.string().min(1).max(255), {
          // zod reports a key outside the enum as `unrecognized_keys`, which its types for a record do not list.
          error: (issue) =>
            (issue.code as string) === "unrecognized_keys"
              ? `keys must be change-request statuses: ${CHANGE_REQUEST_STATUSES.join(", ")}`
              : undefined,
        })
        .optional()
        .describe(
          '`builtin:jira`: the Jira status to move an issue to per change-request status (`{ merged: "Done" }`).',
        ),
    },
    {
      error: (issue) => (issue.code === "unrecognized_keys" ? misplaced(issue.keys, "setupSettings") : undefined),
    },
  )
  .meta({ id: "ContextConnectionSetupSettings" })
  .describe(
    "The connector's plain settings (its credentials go in `credentials`): read back and compared, so a change by " +
      "hand is drift. Left out: none (the connectors that need none).",
  );

const credential = (what: string) => z.string().min(1).optional().describe(what);
const credentialFields = z
  .strictObject(
    {
      token: credential("GitHub issues and discussions, Intercom, Front, Pylon, HubSpot, Linear: the access token."),
      apiToken: z.string().min(1).max(1024).optional().describe("`builtin:zendesk`, `builtin:jira`: the API token."),
      apiKey: credential("`builtin:freshdesk`: the API key."),
      clientSecret: credential("`builtin:zoho-desk`: the OAuth client secret."),
      refreshToken: credential("`builtin:zoho-desk`: the OAuth refresh token."),
    },
    {
      error: (issue) => (issue.code === "unrecognized_keys" ? misplaced(issue.keys, "credentials") : undefined),
    },
  )
  .meta({ id: "ContextConnectionCredentials" });
const credentials = credentialFields
  .optional()
  .meta(SENSITIVE)
  .describe(
    "The connector's secret setup settings: secrets in the state, never shown in previews or errors, and never " +
      "read back (the API redacts them). Left out: not managed (the connection keeps the ones it has).",
  );

const usageSettings = z
  .strictObject({
    search: z.boolean().describe("Whether the source's records show in search results."),
    changeRequests: z.boolean().describe("Whether the agent uses the source to propose change requests."),
    searchBoost: z
      .enum(CONTEXT_SEARCH_BOOSTS)
      .default("x1.0")
      .describe("How the source's records rank in search: `x0.8`, `x1.0` (the default) or `x1.2`."),
    sync: z
      .boolean()
      .default(false)
      .describe(
        "Whether change requests' state is written back to the source (an outbound write; it needs a token that " +
          "may write). Default `false`.",
      ),
  })
  .meta({ id: "ContextUsageSettings" })
  .describe("How the agent uses the source. Left out: not managed (the API picks it on create).");

const inputs = z
  .strictObject({
    organizationId,
    siteId,
    connector,
    // A credential given here by mistake must not be printed by the engine with the failed check.
    setupSettings: setupSettings.optional().meta(UNECHOED),
    credentials,
    usageSettings: usageSettings.optional(),
    filter: z
      .string()
      .max(1024)
      .optional()
      .describe(
        'Which of the source\'s items are read: a tag, label or expression, as the connector reads it; `""` reads ' +
          "all. Left out: not managed.",
      ),
    label: z.string().max(128).optional().describe("The connection's name in the app. Left out: not managed."),
  })
  .superRefine((news, ctx) => {
    if (!(news.connector in CONTEXT_CONNECTORS)) {
      // An integration's connector takes no setup (the official `integration:<name>` variant has none).
      for (const field of ["setupSettings", "credentials"] as const)
        if (news[field] !== undefined && Object.keys(news[field]).length > 0)
          ctx.addIssue({
            code: "custom",
            path: [field],
            message: `an integration's connector (${news.connector}) takes no ${field}: the integration holds them`,
          });
      return;
    }
    const spec = CONTEXT_CONNECTORS[news.connector as BuiltinContextConnector];
    const optional: readonly string[] = "optional" in spec ? spec.optional : [];
    const ownSettings: readonly string[] = spec.settings;
    const ownCredentials: readonly string[] = spec.credentials;
    for (const key of Object.keys(news.setupSettings ?? {}))
      if (!ownSettings.includes(key))
        ctx.addIssue({
          code: "custom",
          path: ["setupSettings", key],
          message: `is not a setting of ${news.connector}, whose settings are ${ownSettings.join(", ") || "none"}`,
        });
    for (const key of ownSettings)
      if (!optional.includes(key) && news.setupSettings?.[key as keyof typeof news.setupSettings] === undefined)
        ctx.addIssue({
          code: "custom",
          path: ["setupSettings", key],
          message: `is required for ${news.connector}`,
        });
    for (const key of Object.keys(news.credentials ?? {}))
      if (!ownCredentials.includes(key))
        ctx.addIssue({
          code: "custom",
          path: ["credentials", key],
          message: `is not a credential of ${news.connector}, whose credentials are ${ownCredentials.join(", ") || "none"}`,
        });
  });

const state = z.object({
  organizationId: z.string(),
  siteId: z.string(),
  connector: z.string(),
  setupSettings: setupSettings.optional(),
  credentials: credentialFields.nullable().default(null),
  usageSettings: usageSettings.nullable().default(null),
  filter: z.string().default(""),
  label: z.string().default(""),
  status: z
    .string()
    .nullable()
    .default(null)
    .describe("`pending`, `syncing`, `succeeded` or `failed`: how the last read of the source went."),
  ingestionAddress: z
    .string()
    .nullable()
    .default(null)
    .describe("`builtin:email`: the address whose mail the agent reads; `null` for other connectors."),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

const SETTING_KEYS: ReadonlySet<string> = new Set(CONTEXT_SETTINGS);

/**
 * The state of a connection as listed. The API redacts credentials in what it reads back, so the state keeps the ones
 * last sent (`credentials`), and the redacted values are left out of `setupSettings`.
 */
function toState(
  connection: ApiContextConnection,
  parents: { organizationId: string; siteId: string },
  credentials: State["credentials"] | undefined,
): State {
  // Only the settings the kind knows: a redacted credential, or a setting the document adds later, is not compared.
  const plain = Object.entries(connection.setupSettings ?? {}).filter(([key]) => SETTING_KEYS.has(key));
  const usage = connection.usageSettings;
  return {
    organizationId: parents.organizationId,
    siteId: parents.siteId,
    connector: connection.connector,
    ...(plain.length > 0 ? { setupSettings: Object.fromEntries(plain) as State["setupSettings"] } : {}),
    credentials: credentials ?? null,
    // Kept as reported (a boost the document may add later included); `sync` is `false` when not reported.
    usageSettings: usage ? ({ ...usage, sync: usage.sync ?? false } as State["usageSettings"]) : null,
    filter: connection.filter ?? "",
    label: connection.label ?? "",
    status: connection.status ?? null,
    ingestionAddress: connection.email?.ingestionAddress ?? null,
  };
}

/** The whole `setupSettings` a setup write sends: the plain settings with the credentials. */
function setupOf(news: Inputs, credentials: State["credentials"] | undefined) {
  if (!(news.connector in CONTEXT_CONNECTORS)) return undefined;
  const spec = CONTEXT_CONNECTORS[news.connector as BuiltinContextConnector];
  if (spec.settings.length === 0 && spec.credentials.length === 0) return undefined;
  return { ...news.setupSettings, ...credentials };
}

/** The credentials the connector needs that are neither declared nor kept in the state. */
function missingCredentials(news: Inputs, credentials: State["credentials"] | undefined): string[] {
  const spec = CONTEXT_CONNECTORS[news.connector as BuiltinContextConnector];
  return (spec?.credentials ?? []).filter((key) => credentials?.[key] === undefined);
}

function requireCredentials(
  news: Inputs,
  credentials: State["credentials"] | undefined,
  doing: string,
  id?: string,
): void {
  const missing = missingCredentials(news, credentials);
  if (missing.length === 0) return;
  const which = missing.map((key) => `credentials.${key}`).join(", ");
  throw new Error(
    `SiteContextConnection${id ? ` "${id}"` : ""} ${doing}: ${news.connector} needs ${which}, which the API never ` +
      "reads back, so the provider cannot send the setup without it. Declare it from secret config (e.g. " +
      `\`credentials: { ${missing[0]}: config.requireSecret("…") }\`).`,
  );
}

export const siteContextConnectionKind = defineKind<Inputs, State>({
  kind: "SiteContextConnection",
  docs: {
    description:
      "A source the site's docs agent reads: a website, a YouTube channel, GitHub issues or discussions, a helpdesk, " +
      "Linear, Jira, an inbound mailbox, records pushed through the API or an integration's connector, with how the " +
      "agent uses it (`…/sites/{siteId}/context-connections`).",
    adoption: '`importId: "<contextConnectionId>"`.',
    notes: [
      "- `setupSettings` holds the connector's plain settings and `credentials` its tokens and keys, as the official " +
        "`ContextConnectorSetup` names them. A credential given in `setupSettings` (where it would be stored and " +
        "shown in plain text), a plain setting given in `credentials`, or a key the connector does not have fails at " +
        "preview naming the field and where it belongs.",
      "- `credentials` are secrets in the state, shown as `[secret]` in previews and left out of errors. The API " +
        "redacts them when it reads a connection back, so the state keeps the ones last sent: a credential changed " +
        "in the app is not seen by a refresh, and one changed in the program is sent (with the connector's whole " +
        "setup, as the API takes it). Unlike `SiteMcpServer`'s `headers`, which the API reads back, no drift can be " +
        "reported on them. Adopting with `importId` and `credentials` declared takes them as the connection's " +
        "without sending them; change them in the program once to be sure they are the ones in use.",
      "- `docs-platform import` leaves `credentials` out of the program it writes, so no credential lands in a file: " +
        "they stay unmanaged until declared (from secret config: `config.requireSecret`). A change of `setupSettings` " +
        "needs them, since the API takes the setup whole: without them it fails at `up`, naming the credential.",
      "- `usageSettings`, `filter` and `label` are read back and compared: a change by hand is drift. `connector` " +
        "replaces the connection: a connection reads one source.",
      "- Reads come from the site's connection listing (`GET …/context-connections`), one request per site in a " +
        "refresh. The create sends no label (the API takes one only by update), so a label is set by a second request.",
    ],
    example: `const config = new pulumi.Config();
new docs.SiteContextConnection("support-issues", {
  organizationId,
  siteId: site.id,
  connector: "builtin:github-issues",
  setupSettings: { repository: "acme/support" },
  credentials: { token: config.requireSecret("githubIssuesToken") },
  usageSettings: { search: true, changeRequests: true, searchBoost: "x1.2" },
  filter: "label:docs",
  label: "Support issues",
});`,
  },
  scope: "site",
  inputs,
  state,
  parent: UNDER_SITE,
  listing: itemsUnderSite(
    contextConnectionListing,
    (connection) => connection.label || connection.connector,
    "context connection of the site",
  ),
  imported: { word: "context", leaveOut: ["credentials"] },
  outputs: ["status", "ingestionAddress"],
  secretOutputs: ["credentials"],
  idFormat: "the context connection id (listed by `GET /orgs/<organizationId>/sites/<siteId>/context-connections`)",
  replaceOnChanges: ["organizationId", "siteId", "connector"],

  // A connection has no unique key: one of the declared connector and plain settings made since the request began
  // is the create's own (its label is set after the create).
  async findCreated({ client }, news, since) {
    const connections = await listSiteContextConnections(client, news.organizationId, news.siteId);
    const settings = Object.entries(news.setupSettings ?? {});
    return connections
      .filter(
        (connection) =>
          connection.connector === news.connector &&
          createdSince(connection.createdAt, since) &&
          settings.every(([key, value]) => JSON.stringify(connection.setupSettings?.[key]) === JSON.stringify(value)),
      )
      .map((connection) => ({ id: connection.id, title: connection.label || connection.connector }));
  },

  async create(ctx, news) {
    const { organizationId: org, siteId: site } = news;
    requireCredentials(news, news.credentials, "create");
    const setup = setupOf(news, news.credentials);
    const connection = await writeUnder(ctx, org, site, async () => {
      const made = await createSiteContextConnection(ctx.client, org, site, {
        connector: news.connector,
        ...(setup ? { setupSettings: setup } : {}),
        ...(news.usageSettings ? { usageSettings: news.usageSettings } : {}),
        ...(news.filter !== undefined ? { filter: news.filter } : {}),
      });
      if (!news.label) return made;
      return undoOnFailure(
        { kind: "SiteContextConnection", id: made.id, title: news.label },
        () => deleteSiteContextConnection(ctx.client, org, site, made.id),
        () => updateSiteContextConnection(ctx.client, org, site, made.id, { label: news.label }),
      );
    });
    return { id: connection.id, state: toState(connection, news, news.credentials) };
  },

  async read(ctx, id, known) {
    const connection = await findListed(ctx, contextConnectionListing, known.organizationId, known.siteId, id);
    return connection && { id, state: toState(connection, known, known.credentials) };
  },

  async update(ctx, id, olds, news, changed) {
    const { organizationId: org, siteId: site } = news;
    const credentials = news.credentials ?? olds.credentials;
    const setupChanged = changed.has("setupSettings") || (changed.has("credentials") && news.credentials !== undefined);
    if (setupChanged) requireCredentials(news, credentials, "update", id);
    const setup = setupChanged ? setupOf(news, credentials) : undefined;
    const patch: ContextConnectionPatch = {
      ...(setup ? { connector: news.connector, setupSettings: setup } : {}),
      ...(changed.has("usageSettings") && news.usageSettings ? { usageSettings: news.usageSettings } : {}),
      ...(changed.has("filter") && news.filter !== undefined ? { filter: news.filter } : {}),
      ...(changed.has("label") && news.label !== undefined ? { label: news.label } : {}),
    };
    const connection =
      Object.keys(patch).length > 0
        ? await writeUnder(ctx, org, site, () => updateSiteContextConnection(ctx.client, org, site, id, patch))
        : (await listSiteContextConnections(ctx.client, org, site)).find((listed) => listed.id === id);
    if (!connection)
      throw new Error(`SiteContextConnection "${id}" update: the connection disappeared while it was being updated`);
    return toState(connection, news, credentials);
  },

  delete: (ctx, id, olds) =>
    writeUnder(ctx, olds.organizationId, olds.siteId, () =>
      deleteSiteContextConnection(ctx.client, olds.organizationId, olds.siteId, id),
    ),
});
