import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  type ApiSiteSpace,
  createSiteSpace,
  deleteSiteSpace,
  type HttpClient,
  listSiteSpaces,
  type SiteSpacePatch,
  siteSpacesPath,
  updateSite,
  updateSiteSection,
  updateSiteSpace,
} from "../client";
import { undoOnFailure } from "../framework/cleanup";
import { changedFields } from "../framework/patch";
import { type AdoptionArgs, type ArgsOf, DocsResource } from "../framework/resource";
import { defineResource, type ResourceContext } from "../framework/spec";
import { defaultFlag, findListed, organizationId, siteId, writeUnder } from "./siteCommon";

const inputs = z.strictObject({
  organizationId,
  siteId,
  /** The space shown; changing it retargets the site space in place. */
  spaceId: z.string().min(1),
  /** The section to add the space to; when omitted the API picks the default section, or the root level. */
  sectionId: z.string().min(1).optional(),
  /** The URL segment, unique in its section; derived from the space's title when omitted. */
  path: z.string().min(1).max(100).optional(),
  /** An expression deciding whether a visitor sees this space; null removes it. */
  condition: z.string().min(1).max(1024).nullable().optional(),
  /** true: the default of its section (or of the site at root level). false is not managed (see defaultFlag). */
  default: defaultFlag,
});

const state = z.object({
  organizationId: z.string(),
  siteId: z.string(),
  spaceId: z.string(),
  /** null at the site's root level. */
  sectionId: z.string().nullable().default(null),
  path: z.string(),
  condition: z.string().nullable().default(null),
  default: z.boolean().default(false),
  title: z.string().nullable().default(null),
  urls: z.object({ published: z.string() }).partial().default({}),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

function toState(siteSpace: ApiSiteSpace, parents: { organizationId: string; siteId: string }): State {
  return {
    organizationId: parents.organizationId,
    siteId: parents.siteId,
    spaceId: siteSpace.space.id,
    sectionId: siteSpace.section ?? null,
    path: siteSpace.path,
    condition: siteSpace.condition ?? null,
    default: siteSpace.default ?? false,
    title: siteSpace.title ?? null,
    urls: { ...siteSpace.urls },
  };
}

/** Makes it the default first (of its section, or of the site at root level), so the PATCH answer reports it. */
async function apply(
  client: HttpClient,
  id: string,
  section: string | null,
  news: Inputs,
  changed: ReadonlySet<string>,
) {
  const { organizationId: org, siteId: site } = news;
  if (changed.has("default") && news.default) {
    if (section) await updateSiteSection(client, org, site, section, { defaultSiteSpace: id });
    else await updateSite(client, org, site, { defaultSiteSpace: id });
  }
  const patch = changedFields<SiteSpacePatch>(news, changed, {
    spaceId: "spaceId",
    path: "path",
    condition: "condition",
  });
  return patch ? updateSiteSpace(client, org, site, id, patch) : undefined;
}

const listed = (ctx: ResourceContext, org: string, site: string, id: string) =>
  findListed(ctx, siteSpacesPath(org, site), () => listSiteSpaces(ctx.client, org, site), id);

export const siteSpaceSpec = defineResource<Inputs, State>({
  kind: "SiteSpace",
  inputs,
  state,
  outputs: ["title", "urls"],
  idFormat:
    "the site space id (listed by GET /orgs/<organizationId>/sites/<siteId>/site-spaces; a SiteSection's siteSpaceId)",
  // Site spaces cannot move between sections or sites.
  replaceOnChanges: ["organizationId", "siteId", "sectionId"],

  async create(ctx, news) {
    const { client } = ctx;
    const { organizationId: org, siteId: site } = news;
    const rest = new Set(["path", "condition", "default"].filter((key) => news[key as keyof Inputs] != null));
    return writeUnder(ctx, org, site, async () => {
      const created = await createSiteSpace(client, org, site, {
        spaceId: news.spaceId,
        ...(news.sectionId ? { sectionId: news.sectionId } : {}),
      });
      const patched = await undoOnFailure(
        () => deleteSiteSpace(client, org, site, created.id),
        () => apply(client, created.id, created.section ?? null, news, rest),
      );
      const found = toState(patched ?? created, news);
      return { id: created.id, state: { ...found, default: found.default || news.default === true } };
    });
  },

  async read(ctx, id, known) {
    const parents = known as State;
    const siteSpace = await listed(ctx, parents.organizationId, parents.siteId, id);
    return siteSpace && { id, state: toState(siteSpace, parents) };
  },

  async update(ctx, id, olds, news, changed) {
    const { organizationId: org, siteId: site } = news;
    const patched = await writeUnder(ctx, org, site, () => apply(ctx.client, id, olds.sectionId, news, changed));
    const siteSpace = patched ?? (await listed(ctx, org, site, id));
    if (!siteSpace) throw new Error(`SiteSpace "${id}" update: the site space disappeared while it was being updated`);
    return toState(siteSpace, news);
  },

  delete: (ctx, id, olds) =>
    writeUnder(ctx, olds.organizationId, olds.siteId, () =>
      deleteSiteSpace(ctx.client, olds.organizationId, olds.siteId, id),
    ),
});

export type SiteSpaceArgs = ArgsOf<z.input<typeof inputs>> & AdoptionArgs;

/** A space published in a site, in a section or at the site's root level. Id: the site space id. */
export class SiteSpace extends DocsResource {
  declare readonly organizationId: pulumi.Output<string>;
  declare readonly siteId: pulumi.Output<string>;
  declare readonly spaceId: pulumi.Output<string>;
  declare readonly sectionId: pulumi.Output<string | null>;
  declare readonly path: pulumi.Output<string>;
  declare readonly condition: pulumi.Output<string | null>;
  declare readonly default: pulumi.Output<boolean>;
  /** The title shown in the site (the space's title unless set in the app). */
  declare readonly title: pulumi.Output<string | null>;
  /** `published`: the site space's URL, once the site is published. */
  declare readonly urls: pulumi.Output<{ published?: string }>;

  constructor(name: string, args: SiteSpaceArgs, opts?: pulumi.CustomResourceOptions) {
    super(siteSpaceSpec, name, args, opts);
  }
}
