import { z } from "zod";
import {
  ALLOW_LIST_OF,
  type AllowListField,
  type ApiSiteChannel,
  createSiteChannel,
  deleteSiteChannel,
  listSiteChannels,
  SITE_CHANNEL_ROLES,
  SITE_CHANNEL_TYPES,
  type SiteChannelPatch,
  type SiteChannelType,
  updateSiteChannel,
} from "../client";
import { defineKind } from "../framework/kind";
import { createdSince } from "../framework/recovery";
import {
  channelListing,
  findListed,
  itemsUnderSite,
  organizationId,
  siteId,
  UNDER_SITE,
  writeUnder,
} from "./siteCommon";

/*
 * The official `GenericChannelPattern` (Slack and Discord channels, Linear team keys) and `GitHubRepositoryPattern`.
 * A `#general` or a repository URL is refused by the API; here it fails at preview, naming the entry and the shape.
 */
const GENERIC_PATTERN = /^[a-zA-Z0-9_*-]+$/;
const REPOSITORY_PATTERN = /^[a-zA-Z0-9._*-]+\/[a-zA-Z0-9._*-]+$/;

const allowList = (pattern: RegExp, shape: string) =>
  z
    .array(z.string().regex(pattern, `must be ${shape}`))
    .refine((entries) => new Set(entries).size === entries.length, "must not list an entry twice");

const allowedChannels = allowList(
  GENERIC_PATTERN,
  "a channel name or pattern such as `general` or `support-*` (letters, digits, `_`, `-`, `*`; no `#`)",
).describe(
  "Slack or Discord: the channels the agent answers in, by name or pattern (`general`, `support-*`); `[]` allows " +
    "all. Compared as a set. Left out: not managed (a create sends `[]`).",
);
const allowedTeams = allowList(
  GENERIC_PATTERN,
  "a Linear team key or pattern such as `DOC` or `ENG-*` (letters, digits, `_`, `-`, `*`)",
).describe("Linear: the team keys or patterns the agent answers in; `[]` allows all. Left out: not managed.");
const allowedRepositories = allowList(
  REPOSITORY_PATTERN,
  "`owner/repository` or a pattern such as `my-org/*` (not a URL)",
).describe(
  "GitHub: the repositories the agent answers in, `owner/repository` or `owner/*`; `[]` allows all. Left out: not " +
    "managed.",
);

const inputs = z
  .strictObject({
    organizationId,
    siteId,
    type: z
      .enum(SITE_CHANNEL_TYPES)
      .describe("Where the agent answers: `builtin:slack`, `builtin:linear`, `builtin:github` or `builtin:discord`."),
    role: z
      .enum(SITE_CHANNEL_ROLES)
      .optional()
      .describe(
        "What the agent does there: `support` (answers questions) or `collaborator` (also proposes changes to the " +
          "docs). Left out: not managed (the API picks it on create).",
      ),
    allowedChannels: allowedChannels.optional(),
    allowedTeams: allowedTeams.optional(),
    allowedRepositories: allowedRepositories.optional(),
  })
  .superRefine((news, ctx) => {
    const own = ALLOW_LIST_OF[news.type];
    for (const field of ["allowedChannels", "allowedTeams", "allowedRepositories"] as const) {
      if (field === own || news[field] === undefined) continue;
      ctx.addIssue({
        code: "custom",
        path: [field],
        message: `is not an allow-list of a ${news.type} channel, whose allow-list is \`${own}\``,
      });
    }
  });

const state = z.object({
  organizationId: z.string(),
  siteId: z.string(),
  type: z.string(),
  role: z.string().nullable().default(null),
  allowedChannels: z.array(z.string()).optional(),
  allowedTeams: z.array(z.string()).optional(),
  allowedRepositories: z.array(z.string()).optional(),
  status: z.string().nullable().default(null).describe("`active`, or `pending` until the workspace is connected."),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

function toState(channel: ApiSiteChannel, parents: { organizationId: string; siteId: string }): State {
  const field = ALLOW_LIST_OF[channel.type as SiteChannelType] as AllowListField | undefined;
  return {
    organizationId: parents.organizationId,
    siteId: parents.siteId,
    type: channel.type,
    role: channel.role ?? null,
    ...(field ? { [field]: channel.setupSettings?.[field] ?? [] } : {}),
    status: channel.status ?? null,
  };
}

const allowListOf = (news: Inputs) => news[ALLOW_LIST_OF[news.type]];

export const siteChannelKind = defineKind<Inputs, State>({
  kind: "SiteChannel",
  docs: {
    description:
      "Where the site's docs agent answers besides the site: a Slack or Discord workspace, Linear or GitHub, with " +
      "its role and the channels, teams or repositories it may answer in (`…/sites/{siteId}/channels`).",
    adoption: '`importId: "<siteChannelId>"`.',
    notes: [
      "- Each type has its own allow-list input, named as the API names it: `allowedChannels` (Slack, Discord), " +
        "`allowedTeams` (Linear), `allowedRepositories` (GitHub). Another type's list, or an entry of the wrong shape " +
        "(`#general`, a repository URL), fails at preview naming the entry.",
      "- An allow-list is compared as a set: the API's order is not a difference. `[]` allows everything.",
      "- `type` replaces the channel: a channel belongs to one integration.",
      "- Reads come from the site's channel listing (`GET …/channels`), one request per site in a refresh.",
      "- Connecting the workspace (the OAuth consent in Slack, Discord, Linear or GitHub) happens in the app; until " +
        "then `status` is `pending`.",
    ],
    example: `new docs.SiteChannel("support-slack", {
  organizationId,
  siteId: site.id,
  type: "builtin:slack",
  role: "support",
  allowedChannels: ["help", "support-*"],
});`,
  },
  scope: "site",
  inputs,
  state,
  parent: UNDER_SITE,
  listing: itemsUnderSite(channelListing, (channel) => channel.type, "channel of the site"),
  imported: { word: "channel" },
  outputs: ["status"],
  idFormat: "the channel id (listed by `GET /orgs/<organizationId>/sites/<siteId>/channels`)",
  replaceOnChanges: ["organizationId", "siteId", "type"],
  setProperties: ["allowedChannels", "allowedTeams", "allowedRepositories"],

  // A channel has no name: one of the declared type made since the request began is the create's own.
  async findCreated({ client }, news, since) {
    const channels = await listSiteChannels(client, news.organizationId, news.siteId);
    return channels
      .filter((channel) => channel.type === news.type && createdSince(channel.createdAt, since))
      .map((channel) => ({ id: channel.id, title: channel.type }));
  },

  async create(ctx, news) {
    const { organizationId: org, siteId: site } = news;
    const channel = await writeUnder(ctx, org, site, () =>
      createSiteChannel(ctx.client, org, site, {
        type: news.type,
        setupSettings: { [ALLOW_LIST_OF[news.type]]: allowListOf(news) ?? [] },
        ...(news.role !== undefined ? { role: news.role } : {}),
      }),
    );
    return { id: channel.id, state: toState(channel, news) };
  },

  async read(ctx, id, known) {
    const channel = await findListed(ctx, channelListing, known.organizationId, known.siteId, id);
    return channel && { id, state: toState(channel, known) };
  },

  async update(ctx, id, olds, news, changed) {
    const { organizationId: org, siteId: site } = news;
    const field = ALLOW_LIST_OF[news.type];
    // The setup goes whole (type with its settings): the list the program declares, else the one the state holds.
    const patch: SiteChannelPatch = {
      ...(changed.has(field)
        ? { type: news.type, setupSettings: { [field]: allowListOf(news) ?? olds[field] ?? [] } }
        : {}),
      ...(changed.has("role") && news.role !== undefined ? { role: news.role } : {}),
    };
    const channel =
      Object.keys(patch).length > 0
        ? await writeUnder(ctx, org, site, () => updateSiteChannel(ctx.client, org, site, id, patch))
        : (await listSiteChannels(ctx.client, org, site)).find((listed) => listed.id === id);
    if (!channel) throw new Error(`SiteChannel "${id}" update: the channel disappeared while it was being updated`);
    return toState(channel, news);
  },

  delete: (ctx, id, olds) =>
    writeUnder(ctx, olds.organizationId, olds.siteId, () =>
      deleteSiteChannel(ctx.client, olds.organizationId, olds.siteId, id),
    ),
});
