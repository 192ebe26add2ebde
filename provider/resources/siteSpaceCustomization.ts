import { z } from "zod";
import {
  type ApiSiteCustomization,
  deleteSiteSpaceCustomization,
  getSiteSpaceCustomization,
  overrideSiteSpaceCustomization,
} from "../client";
import { defineKind, idRef, type Props } from "../framework/kind";
import { logLine } from "../framework/log";
import { organizationId, siteId } from "./siteCommon";
import { project, sections } from "./siteCustomization";

/*
 * The sections of the official override PATCH (`overrideSiteSpaceCustomizationById`), typed by SiteCustomization's
 * schemas. The PATCH reads `null` as "clear this override" (the effective value is then the site's), which a read of
 * the effective customization cannot tell from an override equal to the site's value: `null` is not offered, and a
 * part stops being overridden when the resource is deleted. Not offered either: fonts (`styling.font`, `headingFont`,
 * `monospaceFont`) and `ai`, `advancedCustomization`, `pageActions`, `socialAccounts`, `insights`, which the PATCH has
 * no field for; and the deprecated `styling.background`, `header.preset`, `header.backgroundColor`,
 * `header.linkColor`, `internationalization`.
 */

type NotNull<F> = F extends z.ZodNullable<infer Inner> ? Inner : F;
/** A field of a section without `null`, optional where it was. */
type WithoutNull<F> = F extends z.ZodOptional<infer Inner> ? z.ZodOptional<NotNull<Inner>> : NotNull<F>;

/** A section without `null` for any field (the PATCH reads it as "no override"); `left` names fields not offered. */
function withoutNull<S extends z.ZodRawShape, Left extends keyof S & string = never>(
  section: z.ZodObject<S>,
  left: readonly Left[] = [],
) {
  const fields = Object.entries(section.shape)
    .filter(([name]) => !(left as readonly string[]).includes(name))
    .map(([name, field]) => {
      const optional = field instanceof z.ZodOptional;
      let inner = optional ? field.unwrap() : field;
      if (inner instanceof z.ZodNullable) inner = inner.unwrap();
      return [name, optional ? (inner as z.ZodType).optional() : inner];
    });
  return z.strictObject(Object.fromEntries(fields) as { [K in Exclude<keyof S, Left>]: WithoutNull<S[K]> });
}

/** `{ url }` without `null`: the privacy policy's and the social preview's override. */
const urlOverride = withoutNull(sections.privacyPolicy).meta({ id: "UrlOverride" });

const overrides = {
  title: sections.title.unwrap().describe("The site space's title on the published site."),
  localizedTitle: sections.localizedTitle.describe("The title per language (`fr`, `de`, …)."),
  styling: withoutNull(sections.styling, ["font", "headingFont", "monospaceFont"]).describe(
    "Theme, colors, tint, corners, depth, links, icons, code themes, sidebar and search styles (no fonts: the " +
      "API overrides them only per site).",
  ),
  favicon: sections.favicon.describe(
    "The site space's icon: `{ icon: { light, dark } }` (URLs), `{ emoji }` or `{}` (none).",
  ),
  header: withoutNull(sections.header).describe(
    "The header: `logo` (light and dark URLs), `primaryLink` (where the logo goes) and `links`, in order.",
  ),
  footer: withoutNull(sections.footer).describe("The footer: `logo`, link `groups` in order, and `copyright`."),
  announcement: withoutNull(sections.announcement.unwrap()).describe("The banner above every page of the site space."),
  themes: sections.themes,
  feedback: sections.feedback,
  externalLinks: sections.externalLinks,
  pagination: sections.pagination,
  trademark: sections.trademark,
  privacyPolicy: urlOverride.describe("The privacy policy's URL."),
  socialPreview: urlOverride.describe("The image shown when a page is shared."),
};

type SectionName = keyof typeof overrides;
const SECTION_NAMES = Object.keys(overrides) as SectionName[];

const inputs = z.strictObject({
  organizationId,
  siteId,
  siteSpaceId: idRef("SiteSpace").describe("The site space whose customization is overridden, e.g. `siteSpace.id`."),
  ...z.strictObject(overrides).partial().shape,
});

/** The declared sections as the site space shows them (its overrides over the site's), cut to the declared fields. */
const state = z.looseObject({ organizationId: z.string(), siteId: z.string(), siteSpaceId: z.string() });

type Parents = { organizationId: string; siteId: string; siteSpaceId: string };
type Inputs = z.output<typeof inputs>;
type State = Parents & Props;

function declaredSections(shape: Props, declared?: ReadonlySet<string>): SectionName[] {
  return SECTION_NAMES.filter((name) => (declared ? declared.has(name) : shape[name] !== undefined));
}

function toState(api: ApiSiteCustomization, known: Props, names: readonly SectionName[]): State {
  const { organizationId, siteId, siteSpaceId } = known as Parents;
  const state: State = { organizationId, siteId, siteSpaceId };
  for (const name of names) state[name] = project(name, api[name], known[name]);
  return state;
}

/** Overrides exactly the declared sections (and fields of sections): the PATCH keeps every other override. */
async function override(client: Parameters<typeof getSiteSpaceCustomization>[0], id: string, news: Inputs) {
  const names = declaredSections(news);
  const body = Object.fromEntries(names.map((name) => [name, news[name]]));
  const effective = await overrideSiteSpaceCustomization(client, news.organizationId, news.siteId, id, body);
  return toState(effective, { ...news, siteSpaceId: id }, names);
}

export const siteSpaceCustomizationKind = defineKind<Inputs, State>({
  kind: "SiteSpaceCustomization",
  docs: {
    description:
      "The customization overrides of one site space (a language variant or a version of the content): styling, " +
      "favicon, header, footer, announcement, color modes, feedback, pagination and more, which take precedence over " +
      "the site's customization (SiteCustomization) on that site space's pages. Only the sections (and fields of " +
      "sections) the program declares are managed.",
    adoption:
      'Not needed: create overrides only the declared parts. `importId: "<siteSpaceId>"` adopts the site space\'s ' +
      "customization without writing anything when the declared parts already show the declared values.",
    notes: [
      "- Each section is optional; one left out is not managed, and a change made to it by hand (on the site or the " +
        "site space) is not drift. Within an object section (`styling`, `header`, `footer`, `themes`, …) fields are " +
        'managed one by one: `styling: { theme: "bold" }` overrides the theme only. `title`, `localizedTitle`, ' +
        "`favicon` and `announcement` are managed whole.",
      "- Read reports what the site space shows (the API answers its overrides over the site's customization): a " +
        "declared part that no longer shows its value, because its override was removed by hand or changed, is drift.",
      "- Create and update are one partial PATCH of the declared parts at the site space's own address; repeating it " +
        "after a lost answer duplicates nothing, so create needs no recovery of a lost answer.",
      "- Deleting the resource removes every override of the site space (the official DELETE): the site space then " +
        "follows the site's customization again. A part removed from the program keeps its override until then.",
      '- `null` is not offered (the API reads it as "no override"); neither are fonts, `ai`, `pageActions`, ' +
        "`socialAccounts`, `insights` and `advancedCustomization`, which the API overrides only per site, nor the " +
        "deprecated `styling.background`, `header.preset`, `header.backgroundColor`, `header.linkColor` and " +
        "`internationalization`.",
      "- Declare one `SiteSpaceCustomization` per site space; deleting one removes the other's overrides too.",
    ],
    example: `new docs.SiteSpaceCustomization("french-branding", {
  organizationId,
  siteId: site.id,
  siteSpaceId: frenchSiteSpace.id,
  title: "Documentation",
  announcement: { enabled: true, message: "Nouvelle version disponible", style: "info" },
  styling: { primaryColor: { light: "#0055A4", dark: "#6EA8FF" } },
});`,
  },
  scope: "site",
  inputs,
  state,
  parent: { kind: "SiteSpace", input: "siteSpaceId" },
  id: "parent",
  imported: {
    never:
      "the API reports a site space's customization with the site's values filled in, so its overrides cannot be " +
      'told from them; declare the overrides to manage, with `importId: "<siteSpaceId>"`',
  },
  outputs: [],
  idFormat: "the site space id (a site space has one set of overrides)",
  replaceOnChanges: ["organizationId", "siteId", "siteSpaceId"],
  // The old resource's delete removes every override of its site space: after the new one wrote them, it would undo them.
  deleteBeforeReplace: true,

  // An idempotent PATCH at the site space's own address: a create whose answer was lost is repeated safely.
  async create({ client }, news) {
    return { id: news.siteSpaceId, state: await override(client, news.siteSpaceId, news) };
  },

  async read({ client }, id, known, declared) {
    const api = await getSiteSpaceCustomization(client, known.organizationId, known.siteId, id);
    return { id, state: toState(api, { ...known, siteSpaceId: id }, declaredSections(known, declared)) };
  },

  async update({ client }, id, _olds, news, changed) {
    // Only reachable by adopting with an importId naming another site space than siteSpaceId (it otherwise replaces).
    if (changed.has("siteSpaceId")) {
      throw new Error(
        `SiteSpaceCustomization: importId names site space "${id}", the inputs site space "${news.siteSpaceId}"`,
      );
    }
    const names = declaredSections(news).filter((name) => changed.has(name));
    const body = Object.fromEntries(names.map((name) => [name, news[name]]));
    const effective = await overrideSiteSpaceCustomization(client, news.organizationId, news.siteId, id, body);
    return toState(effective, { ...news, siteSpaceId: id }, declaredSections(news));
  },

  async delete({ client }, id, olds) {
    await deleteSiteSpaceCustomization(client, olds.organizationId, olds.siteId, id);
    logLine(
      "info",
      `SiteSpaceCustomization "${id}": every override removed; the site space follows the site's customization again.`,
    );
  },
});
