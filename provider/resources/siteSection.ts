import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  type ApiSiteSection,
  createSiteSection,
  DocsApiError,
  deleteSiteSection,
  type HttpClient,
  listSiteSections,
  type SiteSectionPatch,
  siteSectionsPath,
  updateSite,
  updateSiteSection,
} from "../client";
import { changedFields } from "../framework/patch";
import { type AdoptionArgs, type ArgsOf, DocsResource } from "../framework/resource";
import { defineResource, type Props, type ResourceContext } from "../framework/spec";
import { defaultFlag, findListed, organizationId, siteId, writeUnder } from "./siteCommon";

const inputs = z.strictObject({
  organizationId,
  siteId,
  /** The space the section is created with (as its first site space); another space means another section. */
  spaceId: z.string().min(1),
  /** Taken from the space's title when omitted. */
  title: z.string().min(2).max(128).optional(),
  /** The section's URL segment, unique in the site; derived from the title when omitted. */
  path: z.string().min(1).max(100).optional(),
  icon: z.string().max(50).nullable().optional(),
  /** An expression deciding whether a visitor sees the section; null removes it. */
  condition: z.string().min(1).max(1024).nullable().optional(),
  description: z.string().max(256).nullable().optional(),
  /** true: the site's default section. false is not managed (see defaultFlag). */
  default: defaultFlag,
});

const state = z.object({
  organizationId: z.string(),
  siteId: z.string(),
  spaceId: z.string().nullable().default(null),
  title: z.string(),
  path: z.string(),
  icon: z.string().nullable().default(null),
  condition: z.string().nullable().default(null),
  description: z.string().nullable().default(null),
  default: z.boolean().default(false),
  /** The site space created with the section for spaceId (adopt it with SiteSpace importId to manage it). */
  siteSpaceId: z.string().nullable().default(null),
  urls: z.object({ published: z.string() }).partial().default({}),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

/** The section's own site space: the one known from before, else the one showing `spaceId`. */
function toState(section: ApiSiteSection, parents: Inputs | State, known: Props): State {
  const own =
    section.siteSpaces.find((ss) => ss.id === known.siteSpaceId) ??
    section.siteSpaces.find((ss) => ss.space.id === known.spaceId);
  return {
    organizationId: parents.organizationId,
    siteId: parents.siteId,
    spaceId: own?.space.id ?? null,
    title: section.title,
    path: section.path,
    icon: section.icon ?? null,
    condition: section.condition ?? null,
    description: section.description ?? null,
    default: section.default ?? false,
    siteSpaceId: own?.id ?? null,
    urls: { ...section.urls },
  };
}

/** Makes the section the default first, so that the PATCH answer (if any) already reports it. */
async function apply(client: HttpClient, id: string, news: Inputs, changed: ReadonlySet<string>) {
  const { organizationId: org, siteId: site } = news;
  if (changed.has("default") && news.default) await updateSite(client, org, site, { defaultSiteSection: id });
  const patch = changedFields<SiteSectionPatch>(news, changed, {
    title: "title",
    path: "path",
    icon: "icon",
    condition: "condition",
    description: "description",
  });
  return patch ? updateSiteSection(client, org, site, id, patch) : undefined;
}

const listed = (ctx: ResourceContext, org: string, site: string, id: string) =>
  findListed(ctx, siteSectionsPath(org, site), () => listSiteSections(ctx.client, org, site), id);

export const siteSectionSpec = defineResource<Inputs, State>({
  kind: "SiteSection",
  inputs,
  state,
  outputs: ["siteSpaceId", "urls"],
  idFormat: "the section id (listed by GET /orgs/<organizationId>/sites/<siteId>/sections)",
  replaceOnChanges: ["organizationId", "siteId", "spaceId"],
  // A replacement usually keeps its path, which must be unique in the site: the old section must go first.
  deleteBeforeReplace: true,

  async create(ctx, news) {
    const { client } = ctx;
    const { organizationId: org, siteId: site } = news;
    const rest = new Set(
      ["path", "condition", "description", "default"].filter((k) => news[k as keyof Inputs] != null),
    );
    return writeUnder(ctx, org, site, async () => {
      const created = await createSiteSection(client, org, site, {
        spaceId: news.spaceId,
        ...(news.title ? { title: news.title } : {}),
        ...(news.icon != null ? { icon: news.icon } : {}),
      });
      let section: ApiSiteSection | undefined;
      try {
        section = await apply(client, created.id, news, rest);
      } catch (error) {
        // The first section of a site takes in the site's root-level site spaces; deleting it would delete them.
        if (created.siteSpaces.length > 1) throw keptAfterFailure(created.id, error);
        await deleteSiteSection(client, org, site, created.id).catch(() => undefined);
        throw error;
      }
      const found = toState(section ?? created, news, { spaceId: news.spaceId });
      return { id: created.id, state: { ...found, default: found.default || news.default === true } };
    });
  },

  async read(ctx, id, known) {
    const parents = known as State;
    const section = await listed(ctx, parents.organizationId, parents.siteId, id);
    return section && { id, state: toState(section, parents, known) };
  },

  async update(ctx, id, olds, news, changed) {
    const { organizationId: org, siteId: site } = news;
    const patched = await writeUnder(ctx, org, site, () => apply(ctx.client, id, news, changed));
    const section = patched ?? (await listed(ctx, org, site, id));
    if (!section) throw new Error(`SiteSection "${id}" update: the section disappeared while it was being updated`);
    return toState(section, news, olds);
  },

  // The API deletes the section's site spaces with it.
  delete: (ctx, id, olds) =>
    writeUnder(ctx, olds.organizationId, olds.siteId, () =>
      deleteSiteSection(ctx.client, olds.organizationId, olds.siteId, id),
    ),
});

function keptAfterFailure(id: string, error: unknown): Error {
  const reason = error instanceof Error ? error.message : String(error);
  const kept = new Error(
    `SiteSection create: ${reason}. The new section "${id}" holds the site's former root-level site spaces, so it ` +
      `was kept: adopt it with importId "${id}" rather than creating another one.`,
    { cause: error },
  );
  if (error instanceof DocsApiError) kept.name = error.name;
  return kept;
}

export type SiteSectionArgs = ArgsOf<z.input<typeof inputs>> & AdoptionArgs;

/** A section of a site, created with a first space. Id: the section id. */
export class SiteSection extends DocsResource {
  declare readonly organizationId: pulumi.Output<string>;
  declare readonly siteId: pulumi.Output<string>;
  declare readonly spaceId: pulumi.Output<string | null>;
  declare readonly title: pulumi.Output<string>;
  declare readonly path: pulumi.Output<string>;
  declare readonly icon: pulumi.Output<string | null>;
  declare readonly condition: pulumi.Output<string | null>;
  declare readonly description: pulumi.Output<string | null>;
  declare readonly default: pulumi.Output<boolean>;
  /** The site space made for spaceId when the section was created. */
  declare readonly siteSpaceId: pulumi.Output<string | null>;
  /** `published`: the section's URL, once the site is published. */
  declare readonly urls: pulumi.Output<{ published?: string }>;

  constructor(name: string, args: SiteSectionArgs, opts?: pulumi.CustomResourceOptions) {
    super(siteSectionSpec, name, args, opts);
  }
}
