import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { HttpClient } from "../client";
import {
  AGENTS_CONTEXTS,
  type ApiSite,
  createSite,
  deleteSite,
  getSite,
  publishSite,
  SITE_TYPES,
  SITE_VISIBILITIES,
  type SitePatch,
  unpublishSite,
  updateSite,
} from "../client";
import { undoOnFailure } from "../framework/cleanup";
import { changedFields } from "../framework/patch";
import { type AdoptionArgs, type ArgsOf, DocsResource } from "../framework/resource";
import { defineResource } from "../framework/spec";
import { organizationId, writeUnder } from "./siteCommon";

/** SiteProxyOrigin: a host name followed by at least one path segment, such as example.com/docs. */
const PROXY_ORIGIN = /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/;

const inputs = z.strictObject({
  organizationId,
  title: z.string().min(2).max(128),
  /** Chosen by the API from the organization's plan when omitted; a site cannot change type, so a change replaces. */
  type: z.enum(SITE_TYPES).optional(),
  visibility: z.enum(SITE_VISIBILITIES).optional(),
  basename: z.string().min(1).max(100).optional(),
  /** Where the site is served through a reverse proxy; null removes the proxy. */
  proxy: z.string().max(512).regex(PROXY_ORIGIN).nullable().optional(),
  adaptiveContent: z.boolean().optional(),
  /** Spec-only (the official document lacks it): sent only when set. */
  agentsContext: z.enum(AGENTS_CONTEXTS).optional(),
  /** Changed with the official publish/unpublish operations. */
  published: z.boolean().optional(),
});

const state = z.object({
  organizationId: z.string(),
  title: z.string(),
  type: z.string(),
  visibility: z.string(),
  basename: z.string().nullable().default(null),
  proxy: z.string().nullable().default(null),
  adaptiveContent: z.boolean().default(false),
  agentsContext: z.string().nullable().default(null),
  published: z.boolean().default(false),
  hostname: z.string().nullable().default(null),
  urls: z
    .object({ location: z.string(), app: z.string(), preview: z.string(), published: z.string() })
    .partial()
    .default({}),
  createdAt: z.string().nullable().default(null),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

/** `agentsContext` falls back to what was last sent: an API that does not report it must not cause a diff forever. */
function toState(site: ApiSite, organization: string, agentsContext: unknown): State {
  return {
    organizationId: organization,
    title: site.title,
    type: site.type,
    visibility: site.visibility,
    basename: site.basename ?? null,
    proxy: site.proxy?.origin ?? null,
    adaptiveContent: site.adaptiveContent?.enabled ?? false,
    agentsContext: site.agentsContext ?? (typeof agentsContext === "string" ? agentsContext : null),
    published: site.published,
    hostname: site.hostname ?? null,
    urls: { ...site.urls },
    createdAt: site.createdAt ?? null,
  };
}

async function setPublished(client: HttpClient, organization: string, id: string, published: boolean) {
  if (!published) return unpublishSite(client, organization, id);
  const result = await publishSite(client, organization, id);
  if ("site" in result) return result.site;
  throw new Error(
    `Site "${id}" publish: the organization's plan does not allow publishing this site (the API answered with a ` +
      "checkout session for a plan upgrade instead of publishing it). Upgrade the plan in the GitBook app, or set published: false.",
  );
}

/** Applies the changed settings (one PATCH), then publishes or unpublishes; the last answer is the site. */
async function apply(client: HttpClient, id: string, news: Inputs, changed: ReadonlySet<string>) {
  const patch: SitePatch = {
    ...changedFields<SitePatch>(news, changed, {
      title: "title",
      visibility: "visibility",
      basename: "basename",
      proxy: "proxy",
      agentsContext: "agentsContext",
    }),
  };
  const wants = (key: keyof Inputs) => changed.has(key) && news[key] !== undefined;
  if (wants("adaptiveContent")) patch.adaptiveContent = { enabled: news.adaptiveContent === true };
  let site: ApiSite | undefined;
  if (Object.keys(patch).length > 0) site = await updateSite(client, news.organizationId, id, patch);
  if (wants("published")) site = await setPublished(client, news.organizationId, id, news.published === true);
  return site;
}

export const siteSpec = defineResource<Inputs, State>({
  kind: "Site",
  inputs,
  state,
  outputs: ["hostname", "urls", "createdAt"],
  idFormat: "the site id, as in https://app.gitbook.com/o/<organizationId>/sites/<siteId>",
  // Sites cannot change type or move to another organization.
  replaceOnChanges: ["organizationId", "type"],

  async create({ client }, news) {
    const created = await createSite(client, news.organizationId, {
      title: news.title,
      ...(news.type ? { type: news.type } : {}),
      ...(news.visibility ? { visibility: news.visibility } : {}),
    });
    // POST takes only type, title and visibility; a new site is unpublished, and there is no proxy to remove.
    const rest = new Set<string>(
      (["basename", "proxy", "adaptiveContent", "agentsContext"] as const).filter((key) => news[key] != null),
    );
    if (news.published) rest.add("published");
    const site = await undoOnFailure(
      () => deleteSite(client, news.organizationId, created.id),
      () => apply(client, created.id, news, rest),
    );
    return { id: created.id, state: toState(site ?? created, news.organizationId, news.agentsContext) };
  },

  async read({ client }, id, known) {
    const organization = known.organizationId as string;
    return { id, state: toState(await getSite(client, organization, id), organization, known.agentsContext) };
  },

  async update({ client }, id, olds, news, changed) {
    const site = (await apply(client, id, news, changed)) ?? (await getSite(client, news.organizationId, id));
    return toState(site, news.organizationId, news.agentsContext ?? olds.agentsContext);
  },

  // Everything under the site goes with it (sections, groups, site spaces, share links, adaptive schema).
  delete: (ctx, id, olds) =>
    writeUnder(ctx, olds.organizationId, id, () => deleteSite(ctx.client, olds.organizationId, id)),
});

export type SiteArgs = ArgsOf<z.input<typeof inputs>> & AdoptionArgs;

/** A site publishing spaces to an audience. Id: the site id. */
export class Site extends DocsResource {
  declare readonly organizationId: pulumi.Output<string>;
  declare readonly title: pulumi.Output<string>;
  declare readonly type: pulumi.Output<string>;
  declare readonly visibility: pulumi.Output<string>;
  declare readonly basename: pulumi.Output<string | null>;
  declare readonly proxy: pulumi.Output<string | null>;
  declare readonly adaptiveContent: pulumi.Output<boolean>;
  declare readonly agentsContext: pulumi.Output<string | null>;
  declare readonly published: pulumi.Output<boolean>;
  /** The custom hostname, when one is set up. */
  declare readonly hostname: pulumi.Output<string | null>;
  /** `location` (API), `app`, `preview`, and `published` once the site is published. */
  declare readonly urls: pulumi.Output<{ location?: string; app?: string; preview?: string; published?: string }>;
  declare readonly createdAt: pulumi.Output<string | null>;

  constructor(name: string, args: SiteArgs, opts?: pulumi.CustomResourceOptions) {
    super(siteSpec, name, args, opts);
  }
}
