/**
 * A site's context connections: the sources its docs agent reads (a website, GitHub issues, a helpdesk, an inbound
 * mailbox, an integration). The official `site-context` operations: list, create, get, update, delete (sync and test
 * are actions on a connection, not configuration).
 *
 * Where the official document is silent: a create without `usageSettings` gets `changeRequests` and `search` on and
 * `searchBoost` `x1.0`; a connection stays `pending` (the real API syncs it, which an emulator cannot); each
 * credential (a token or key of the setup) reads back as `********`, since the document says only that they are
 * redacted; an update whose setup names another connector is refused (delete the connection and create another);
 * a setup given to an update replaces the settings whole.
 */
import { BadRequestError, NotFoundError } from "../../errors";
import { paginate } from "../../pagination";
import type { Env, Route, RouteContext } from "../../types";
import { bool, type Check, isPlainObject, obj, oneOfValues, opt, parseBody, record, req, str } from "../../validate";
import { created, deleted, ok, param, requireSite } from "../common";
import type { SiteRec } from "../sites/records";
import { siteLocation } from "../sites/render";
import type { ContextUsageSettingsRec, SiteContextConnectionRec } from "./records";

const token = str({ min: 1 });
const repository = str({
  pattern: /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/,
  patternLabel: "must be owner/repository",
});
const youtubeChannel = str({
  pattern: /^(UC[A-Za-z0-9_-]{22}|@[A-Za-z0-9._-]{3,100})$/,
  patternLabel: "must be a YouTube channel id (UC…) or handle (@…)",
});
const CHANGE_REQUEST_STATUSES = ["draft", "open", "archived", "merged"] as const;
const statusMapping: Check<Record<string, string>> = (value, path) => {
  const mapping = record(str({ min: 1, max: 255 }))(value, path);
  for (const key of Object.keys(mapping)) oneOfValues(CHANGE_REQUEST_STATUSES)(key, `${path}.${key}`);
  return mapping;
};

/** Each builtin connector's `setupSettings` (the official `ContextConnectorSetup` variants); `null`: none. */
const SETUPS: Record<string, Check<Record<string, unknown>> | null> = {
  "builtin:email": null,
  "builtin:api": null,
  "builtin:website": obj({ url: req(str({ uri: true })) }, { allowUnknown: true }),
  "builtin:youtube": obj({ channelId: req(youtubeChannel) }, { allowUnknown: true }),
  "builtin:github-discussions": obj({ repository: req(repository), token: req(token) }, { allowUnknown: true }),
  "builtin:github-issues": obj({ repository: req(repository), token: req(token) }, { allowUnknown: true }),
  "builtin:intercom": obj({ token: req(token) }, { allowUnknown: true }),
  "builtin:front": obj({ token: req(token) }, { allowUnknown: true }),
  "builtin:zendesk": obj({ subdomain: req(token), email: req(token), apiToken: req(token) }, { allowUnknown: true }),
  "builtin:zoho-desk": obj(
    {
      dataCenter: req(token),
      orgId: req(token),
      clientId: req(token),
      clientSecret: req(token),
      refreshToken: req(token),
    },
    { allowUnknown: true },
  ),
  "builtin:freshdesk": obj({ domain: req(token), apiKey: req(token) }, { allowUnknown: true }),
  "builtin:pylon": obj({ token: req(token) }, { allowUnknown: true }),
  "builtin:hubspot": obj({ token: req(token) }, { allowUnknown: true }),
  "builtin:linear": obj({ token: req(token) }, { allowUnknown: true }),
  "builtin:jira": obj(
    {
      baseUrl: req(str({ uri: true, min: 1, max: 2048 })),
      apiEmail: req(str({ min: 1, max: 254, pattern: /^[^\s@]+@[^\s@]+$/, patternLabel: "must be an email address" })),
      apiToken: req(str({ min: 1, max: 1024 })),
      statusMapping: opt(statusMapping),
    },
    { allowUnknown: true },
  ),
};
/** The setup keys that are credentials: redacted in every answer. */
const CREDENTIALS = new Set(["token", "apiToken", "apiKey", "clientSecret", "refreshToken"]);
const REDACTED = "********";
const INTEGRATION = /^integration:[^:]+$/;

/** A `ContextConnectorSetup`: the connector and, for the variants that have them, its settings. */
function parseSetup(body: { connector?: string; setupSettings?: Record<string, unknown> }) {
  const connector = body.connector;
  if (connector === undefined) throw new BadRequestError("connector: is required with setupSettings");
  if (INTEGRATION.test(connector)) {
    if (body.setupSettings !== undefined)
      throw new BadRequestError(`setupSettings: an integration's connector (${connector}) takes none`);
    return { connector, setupSettings: undefined };
  }
  const check = SETUPS[connector];
  if (check === undefined)
    throw new BadRequestError(`connector: must be integration:<name> or one of ${Object.keys(SETUPS).join(", ")}`);
  if (check === null) {
    if (body.setupSettings !== undefined) throw new BadRequestError(`setupSettings: ${connector} takes none`);
    return { connector, setupSettings: undefined };
  }
  if (!isPlainObject(body.setupSettings)) throw new BadRequestError(`setupSettings: is required for ${connector}`);
  return { connector, setupSettings: check(body.setupSettings, "setupSettings") };
}

const usageSettings: Check<ContextUsageSettingsRec> = obj({
  changeRequests: req(bool()),
  search: req(bool()),
  sync: opt(bool()),
  searchBoost: req(oneOfValues(["x0.8", "x1.0", "x1.2"])),
});
/** Official `ContextConnectionLabel` and `ContextConnectionFilter`. */
const label = str({ max: 128 });
const filter = str({ max: 1024 });
const anyObject = record((value: unknown) => value);

function requireConnection(ctx: RouteContext, site: SiteRec): SiteContextConnectionRec {
  const id = param(ctx, "siteContextConnectionId");
  const connection = ctx.store.contextConnections.get(id);
  if (!connection || connection.siteId !== site.id)
    throw new NotFoundError(`Context connection "${id}" not found in site "${site.id}"`);
  return connection;
}

function render(env: Env, site: SiteRec, connection: SiteContextConnectionRec) {
  const setupSettings =
    connection.setupSettings &&
    Object.fromEntries(
      Object.entries(connection.setupSettings).map(([key, value]) => [key, CREDENTIALS.has(key) ? REDACTED : value]),
    );
  return {
    object: "context-connection",
    id: connection.id,
    connector: connection.connector,
    ...(setupSettings ? { setupSettings: structuredClone(setupSettings) } : {}),
    createdAt: connection.createdAt,
    ...(connection.label !== undefined ? { label: connection.label } : {}),
    ...(connection.filter !== undefined ? { filter: connection.filter } : {}),
    status: "pending",
    records: 0,
    ...(connection.connector === "builtin:email"
      ? { email: { ingestionAddress: `context-${connection.id}@in.emulator.example` } }
      : {}),
    usageSettings: structuredClone(connection.usageSettings),
    urls: { location: `${siteLocation(env, site)}/context-connections/${encodeURIComponent(connection.id)}` },
  };
}

const collectionPath = "/v1/orgs/{organizationId}/sites/{siteId}/context-connections";
const itemPath = `${collectionPath}/{siteContextConnectionId}`;

export const siteContextConnectionRoutes: Route[] = [
  {
    method: "GET",
    path: collectionPath,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const connections = [...ctx.store.contextConnections.values()].filter((c) => c.siteId === site.id);
      return ok(paginate(ctx, connections, (connection) => render(ctx.env, site, connection)));
    },
  },
  {
    method: "POST",
    path: collectionPath,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const body = parseBody(
        ctx.body,
        {
          connector: req(str()),
          setupSettings: opt(anyObject),
          usageSettings: opt(usageSettings),
          filter: opt(filter),
        },
        { required: true },
      );
      const setup = parseSetup(body);
      const id = ctx.store.newId();
      const connection = ctx.store.insert("contextConnections", id, {
        id,
        siteId: site.id,
        connector: setup.connector,
        ...(setup.setupSettings ? { setupSettings: structuredClone(setup.setupSettings) } : {}),
        usageSettings: body.usageSettings ?? { changeRequests: true, search: true, searchBoost: "x1.0" },
        ...(body.filter !== undefined ? { filter: body.filter } : {}),
        createdAt: ctx.store.now(),
      });
      return created(render(ctx.env, site, connection));
    },
  },
  {
    method: "GET",
    path: itemPath,
    handler: (ctx) => {
      const site = requireSite(ctx);
      return ok(render(ctx.env, site, requireConnection(ctx, site)));
    },
  },
  {
    method: "PATCH",
    path: itemPath,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const connection = requireConnection(ctx, site);
      const body = parseBody(
        ctx.body,
        {
          connector: opt(str()),
          setupSettings: opt(anyObject),
          usageSettings: opt(usageSettings),
          label: opt(label),
          filter: opt(filter),
        },
        { required: true, minProperties: 1 },
      );
      const setup = body.connector !== undefined || body.setupSettings !== undefined ? parseSetup(body) : undefined;
      if (setup && setup.connector !== connection.connector)
        throw new BadRequestError(
          `connector: the connection is ${connection.connector}; delete it and create a ${setup.connector} connection`,
        );
      const changes: Partial<SiteContextConnectionRec> = {
        ...(setup ? { setupSettings: setup.setupSettings && structuredClone(setup.setupSettings) } : {}),
        ...(body.usageSettings !== undefined ? { usageSettings: body.usageSettings } : {}),
        ...(body.label !== undefined ? { label: body.label } : {}),
        ...(body.filter !== undefined ? { filter: body.filter } : {}),
      };
      ctx.store.update("contextConnections", connection, changes);
      return ok(render(ctx.env, site, connection));
    },
  },
  {
    method: "DELETE",
    path: itemPath,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const connection = ctx.store.contextConnections.get(param(ctx, "siteContextConnectionId"));
      return deleted(
        connection !== undefined &&
          connection.siteId === site.id &&
          ctx.store.remove("contextConnections", connection.id),
      );
    },
  },
];
