/**
 * A site's channels: where its agent answers besides the site (Slack, Linear, GitHub, Discord), each with its role
 * and allow-list. The official `site-channels` operations: list, create, get, update, delete. The record and its
 * writes are siteChannelStore.ts's.
 *
 * Where the official document is silent: a create without `role` gets `support`; a channel is `active` once made
 * (the real API reports `pending` until the workspace is connected, which an emulator cannot do); an update whose
 * setup names another type is refused (a channel is one integration's: delete it and create another).
 */
import { BadRequestError, NotFoundError } from "../../errors";
import { paginate } from "../../pagination";
import type { Env, Route, RouteContext } from "../../types";
import { arr, isPlainObject, obj, oneOfValues, opt, parseBody, record, str } from "../../validate";
import { created, deleted, ok, param, requireSite } from "../common";
import type { SiteRec } from "../sites/records";
import { siteLocation } from "../sites/render";
import { SITE_CHANNEL_ROLES, SITE_CHANNEL_TYPES, type SiteChannelRec, type SiteChannelType } from "./records";
import { addChannel, channelsOf, deleteChannel, updateChannel } from "./siteChannelStore";

type ChannelType = SiteChannelType;

/** Official `GenericChannelPattern` and `GitHubRepositoryPattern`. */
const generic = str({
  pattern: /^[a-zA-Z0-9_*-]+$/,
  patternLabel: "must be a name or pattern such as general or support-*",
});
const repository = str({
  pattern: /^[a-zA-Z0-9._*-]+\/[a-zA-Z0-9._*-]+$/,
  patternLabel: "must be owner/repository or a pattern such as my-org/*",
});
/** Each type's `setupSettings` (closed objects in the official `SiteChannelSetup`). */
const SETTINGS = {
  "builtin:slack": obj({ allowedChannels: opt(arr(generic)) }),
  "builtin:discord": obj({ allowedChannels: opt(arr(generic)) }),
  "builtin:linear": obj({ allowedTeams: opt(arr(generic)) }),
  "builtin:github": obj({ allowedRepositories: opt(arr(repository)) }),
};

/** A `SiteChannelSetup`: the type and its settings, both required when either is given. */
function parseSetup(body: Record<string, unknown>): { type: ChannelType; setupSettings: Record<string, string[]> } {
  const type = oneOfValues(SITE_CHANNEL_TYPES)(body.type, "type");
  if (!isPlainObject(body.setupSettings)) throw new BadRequestError("setupSettings: is required with type");
  const setupSettings = SETTINGS[type](body.setupSettings, "setupSettings") as Record<string, string[]>;
  return { type, setupSettings };
}

function requireChannel(ctx: RouteContext, site: SiteRec): SiteChannelRec {
  const id = param(ctx, "siteChannelId");
  const channel = ctx.store.siteChannels.get(id);
  if (!channel || channel.siteId !== site.id)
    throw new NotFoundError(`Site channel "${id}" not found in site "${site.id}"`);
  return channel;
}

function render(env: Env, site: SiteRec, channel: SiteChannelRec) {
  return {
    object: "site-channel",
    id: channel.id,
    type: channel.type,
    setupSettings: structuredClone(channel.setupSettings),
    status: "active",
    role: channel.role,
    answers: 0,
    createdAt: channel.createdAt,
    urls: { location: `${siteLocation(env, site)}/channels/${encodeURIComponent(channel.id)}` },
  };
}

const collectionPath = "/v1/orgs/{organizationId}/sites/{siteId}/channels";
const itemPath = `${collectionPath}/{siteChannelId}`;
const role = oneOfValues(SITE_CHANNEL_ROLES);
/** Read whole here; `parseSetup` checks it against the type's settings. */
const anyObject = record((value: unknown) => value);

export const siteChannelRoutes: Route[] = [
  {
    method: "GET",
    path: collectionPath,
    handler: (ctx) => {
      const site = requireSite(ctx);
      return ok(paginate(ctx, channelsOf(ctx.store.tables, site.id), (channel) => render(ctx.env, site, channel)));
    },
  },
  {
    method: "POST",
    path: collectionPath,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const body = parseBody(
        ctx.body,
        { type: opt(str()), setupSettings: opt(anyObject), role: opt(role) },
        { required: true },
      );
      const setup = parseSetup(body);
      const channel = addChannel(ctx.store.tables, site, { ...setup, role: body.role });
      return created(render(ctx.env, site, channel));
    },
  },
  {
    method: "GET",
    path: itemPath,
    handler: (ctx) => {
      const site = requireSite(ctx);
      return ok(render(ctx.env, site, requireChannel(ctx, site)));
    },
  },
  {
    method: "PATCH",
    path: itemPath,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const channel = requireChannel(ctx, site);
      const body = parseBody(
        ctx.body,
        { type: opt(str()), setupSettings: opt(anyObject), role: opt(role) },
        { required: true, minProperties: 1 },
      );
      if (body.type !== undefined || body.setupSettings !== undefined) {
        const setup = parseSetup(body);
        if (setup.type !== channel.type)
          throw new BadRequestError(
            `type: the channel is ${channel.type}; delete it and create a ${setup.type} channel`,
          );
        updateChannel(channel, { setupSettings: setup.setupSettings });
      }
      updateChannel(channel, { role: body.role });
      return ok(render(ctx.env, site, channel));
    },
  },
  {
    method: "DELETE",
    path: itemPath,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const channel = ctx.store.siteChannels.get(param(ctx, "siteChannelId"));
      return deleted(
        channel !== undefined && channel.siteId === site.id && deleteChannel(ctx.store.tables, channel.id),
      );
    },
  },
];
