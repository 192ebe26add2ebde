import { z } from "zod";
import {
  type ApiSiteCustomization,
  getSiteCustomization,
  putSiteCustomization,
  SITE_CUSTOMIZATION_DEFAULTS,
  SITE_CUSTOMIZATION_LIST_DEFAULTS,
} from "../client";
import { defineKind, type Props } from "../framework/kind";
import { logLine } from "../framework/log";
import { organizationId, siteId, UNDER_SITE } from "./siteCommon";

/*
 * Typed from the official `SiteCustomizationSettingsInput`. Each section is optional (left out: not managed), and so is
 * each field of a section (left out: kept as the site has it); `null` unsets an optional field of the API.
 * Deprecated fields (`styling.background`, `header.preset`, `header.backgroundColor`, `header.linkColor`, the whole
 * `internationalization` section) are not offered: the API keeps them as they are.
 */
// The sub-schemas used at several places are registered with an id: the generated classes name each once.
const color = z.string().regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/, "must be a hex color such as #346DDB");
const themedColor = z
  .strictObject({ light: color, dark: color })
  .meta({ id: "ThemedColor", description: "A hex color per color mode." });
const url = z.url({ protocol: /^https?$/ }).max(2048);
const themedUrl = z
  .strictObject({ light: url, dark: url })
  .meta({ id: "ThemedUrl", description: "An image URL per color mode." });
// biome-ignore format: one list, kept compact
const LANGUAGES = [
  "en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "zh-tw", "yue", "ko", "ar", "hi", "nl", "pl", "tr",
  "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms", "he", "uk", "sk", "bg", "hr", "lt", "lv",
  "et", "sl",
] as const;
const language = z.enum(LANGUAGES).meta({ id: "Language", description: "A language of the content." });
const localized = (max: number) => z.partialRecord(language, z.string().max(max));
// biome-ignore format: one list, kept compact
const DEFAULT_FONTS = [
  "ABCFavorit", "Inter", "Roboto", "RobotoSlab", "OpenSans", "SourceSansPro", "Lato", "Ubuntu", "Raleway",
  "Merriweather", "Overpass", "NotoSans", "IBMPlexSerif", "Poppins", "FiraSans",
] as const;
// biome-ignore format: one list, kept compact
const MONOSPACE_FONTS = [
  "FiraCode", "IBMPlexMono", "JetBrainsMono", "SourceCodePro", "RobotoMono", "SpaceMono", "DMMono", "Inconsolata",
] as const;
const fontDefinition = z
  .strictObject({
    id: z.string(),
    custom: z.boolean(),
    fontFamily: z.string().min(1).max(50),
    fontFaces: z
      .array(
        z.strictObject({
          weight: z.int().min(1).max(1000),
          sources: z.array(z.strictObject({ url, format: z.enum(["woff2", "woff"]).optional() })).min(1),
        }),
      )
      .min(1),
  })
  .meta({ id: "FontDefinition" });
const font = z
  .union([z.enum(DEFAULT_FONTS), fontDefinition])
  .meta({ id: "Font", description: "A built-in font, or a font of your own." });
// biome-ignore format: one list, kept compact
const CODE_THEMES = [
  "default-light", "default-dark", "monochrome-light", "monochrome-dark", "andromeeda", "aurora-x", "ayu-dark",
  "catppuccin-frappe", "catppuccin-latte", "catppuccin-macchiato", "catppuccin-mocha", "dark-plus", "dracula",
  "dracula-soft", "everforest-dark", "everforest-light", "github-dark", "github-dark-default", "github-dark-dimmed",
  "github-dark-high-contrast", "github-light", "github-light-default", "github-light-high-contrast",
  "gruvbox-dark-hard", "gruvbox-dark-medium", "gruvbox-dark-soft", "gruvbox-light-hard", "gruvbox-light-medium",
  "gruvbox-light-soft", "houston", "kanagawa-dragon", "kanagawa-lotus", "kanagawa-wave", "laserwave", "light-plus",
  "material-theme", "material-theme-darker", "material-theme-lighter", "material-theme-ocean",
  "material-theme-palenight", "min-dark", "min-light", "monokai", "night-owl", "nord", "one-dark-pro", "one-light",
  "plastic", "poimandres", "red", "rose-pine", "rose-pine-dawn", "rose-pine-moon", "slack-dark", "slack-ochin",
  "snazzy-light", "solarized-dark", "solarized-light", "synthwave-84", "tokyo-night", "vesper", "vitesse-black",
  "vitesse-dark", "vitesse-light",
] as const;
const codeTheme = z.enum(CODE_THEMES).meta({ id: "CodeTheme" });
const themedCodeTheme = z.strictObject({ light: codeTheme, dark: codeTheme }).meta({ id: "ThemedCodeTheme" });

/** The official `ContentRef`: where a link goes (a URL, a page, a space…). */
const contentRef = z
  .discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("url"), url: z.string() }),
    z.strictObject({ kind: z.literal("page"), page: z.string(), space: z.string().optional() }),
    z.strictObject({ kind: z.literal("space"), space: z.string() }),
    z.strictObject({ kind: z.literal("collection"), collection: z.string() }),
    z.strictObject({ kind: z.literal("file"), file: z.string(), space: z.string().optional() }),
    z.strictObject({
      kind: z.literal("anchor"),
      anchor: z.string(),
      space: z.string().optional(),
      page: z.string().optional(),
    }),
    z.strictObject({ kind: z.literal("user"), user: z.string() }),
    z.strictObject({ kind: z.literal("reusable-content"), reusableContent: z.string(), space: z.string().optional() }),
    z.strictObject({ kind: z.literal("tag"), tag: z.string(), space: z.string().optional() }),
    z.strictObject({ kind: z.literal("openapi"), spec: z.string() }),
  ])
  .meta({
    id: "ContentRef",
    description:
      "Where a link goes (the official `ContentRef`): a URL, a page, a space, a file…, told apart by `kind`.",
  });
const contentLink = z
  .strictObject({
    title: z.string().max(64),
    localizedTitle: localized(64).optional(),
    to: contentRef,
  })
  .meta({ id: "ContentLink", description: "A link: its title (per language if needed) and where it goes." });
const headerItem = z
  .strictObject({
    title: z.string(),
    localizedTitle: localized(Number.MAX_SAFE_INTEGER).optional(),
    style: z.enum(["link", "button-primary", "button-secondary"]).optional(),
    to: contentRef.nullable(),
    links: z.array(contentLink).default([]),
    condition: z.string().max(1024).optional(),
  })
  .meta({ id: "HeaderItem", description: "A header link or button, with links of its own in a menu." });
const footerGroup = z
  .strictObject({
    title: z.string(),
    localizedTitle: localized(Number.MAX_SAFE_INTEGER).optional(),
    links: z.array(contentLink),
  })
  .meta({ id: "FooterGroup", description: "A titled group of footer links." });
/** `{ enabled }` sections (feedback, pagination, …): one type, each section with its own description. */
const toggle = z.strictObject({ enabled: z.boolean() }).meta({ id: "Toggle" });
/** `{ url }` sections (privacy policy, social preview); `null` unsets the URL. */
const urlSetting = z.strictObject({ url: url.nullable() }).partial().meta({ id: "UrlSetting" });

export const sections = {
  title: z.string().min(2).max(128).nullable().describe("The published site's title; `null`: the content's title."),
  localizedTitle: localized(128).describe("The site's title per language (`fr`, `de`, …)."),
  styling: z
    .strictObject({
      theme: z.enum(["clean", "muted", "bold", "gradient"]).meta({ id: "StylingTheme" }),
      primaryColor: themedColor,
      tint: z.strictObject({ color: themedColor }).meta({ id: "Tint" }).nullable(),
      infoColor: themedColor,
      successColor: themedColor,
      warningColor: themedColor,
      dangerColor: themedColor,
      corners: z.enum(["straight", "rounded", "circular"]).meta({ id: "StylingCorners" }),
      depth: z.enum(["subtle", "flat"]).meta({ id: "StylingDepth" }),
      links: z.enum(["default", "accent"]).meta({ id: "StylingLinks" }),
      font,
      headingFont: font.nullable(),
      monospaceFont: z.union([z.enum(MONOSPACE_FONTS), fontDefinition]),
      icons: z.enum(["regular", "solid", "duotone", "light", "thin"]).meta({ id: "StylingIcons" }),
      codeTheme: z.strictObject({ default: themedCodeTheme, openapi: themedCodeTheme }).meta({ id: "CodeThemes" }),
      sidebar: z
        .strictObject({ background: z.enum(["default", "filled"]), list: z.enum(["default", "pill", "line"]) })
        .meta({ id: "StylingSidebar" }),
      search: z.enum(["prominent", "subtle"]).meta({ id: "StylingSearch" }),
    })
    .partial()
    .describe("Theme, colors, corners, fonts, icons, code themes, sidebar and search styles."),
  favicon: z
    .union([
      z.strictObject({ icon: themedUrl }),
      z.strictObject({ emoji: z.string().min(1).max(50) }),
      z.strictObject({}),
    ])
    .meta({ id: "Favicon" })
    .describe("The site's icon: `{ icon: { light, dark } }` (URLs), `{ emoji }` or `{}` (none)."),
  header: z
    .strictObject({
      logo: themedUrl.nullable(),
      primaryLink: contentRef.nullable(),
      links: z.array(headerItem),
    })
    .partial()
    .describe("The header: `logo` (light and dark URLs), `primaryLink` (where the logo goes) and `links`, in order."),
  footer: z
    .strictObject({
      logo: themedUrl.nullable(),
      groups: z.array(footerGroup),
      copyright: z.string().max(512).nullable(),
    })
    .partial()
    .describe("The footer: `logo`, link `groups` in order, and `copyright`."),
  announcement: z
    .strictObject({
      enabled: z.boolean(),
      message: z.string().min(2).max(128),
      localizedMessage: localized(128).nullable().optional(),
      link: contentLink.nullable().optional(),
      style: z.enum(["info", "warning", "danger", "success"]).meta({ id: "AnnouncementStyle" }),
    })
    .nullable()
    .describe("The banner above every page; `null` removes it."),
  themes: z
    .strictObject({ default: z.enum(["light", "dark", "system"]), toggeable: z.boolean() })
    .partial()
    .meta({ id: "Themes" })
    .describe("The default color mode and whether readers may switch it (`toggeable`, as the API spells it)."),
  feedback: toggle.describe("Whether pages ask readers for feedback."),
  ai: z
    .strictObject({
      mode: z.enum(["none", "search", "assistant"]),
      greeting: z.string().max(256).nullable(),
      localizedGreeting: localized(128).nullable(),
      suggestions: z.array(z.string().min(3).max(64)).max(5).nullable(),
      instructions: z.string().max(10_000).nullable(),
    })
    .partial()
    .describe("AI search or assistant: `mode`, `greeting`, up to 5 `suggestions`, `instructions`."),
  advancedCustomization: toggle.describe("Whether advanced customization is on."),
  pageActions: z
    .strictObject({ items: z.array(z.enum(["assistant", "external-ai", "markdown", "mcp", "git", "pdf"])) })
    .describe("The page menu's actions, in order (the first is the main button); `[]` turns the menu off."),
  externalLinks: z
    .strictObject({ target: z.enum(["self", "blank"]) })
    .meta({ id: "ExternalLinks" })
    .describe("Whether external links open in the same tab (`self`) or a new one (`blank`)."),
  pagination: toggle.describe("Whether pages end with previous/next links."),
  trademark: toggle.describe('Whether "Powered by GitBook" shows.'),
  privacyPolicy: urlSetting.describe("The privacy policy's URL."),
  socialPreview: urlSetting.describe("The image shown when a page is shared."),
  socialAccounts: z
    .array(
      z.strictObject({
        // biome-ignore format: one platform list
        platform: z.enum([
          "twitter", "instagram", "facebook", "linkedin", "github", "discord", "slack", "youtube", "tiktok", "reddit",
          "bluesky", "mastodon", "threads", "medium",
        ]),
        handle: z.string().min(1).max(128),
        display: z.strictObject({ footer: z.boolean(), header: z.boolean() }),
      }),
    )
    .max(10)
    .describe("Up to 10 social accounts, in order, each shown in the footer and/or header."),
  insights: z.strictObject({ trackingCookie: z.boolean() }).describe("Whether a cookie identifies visitors."),
};

type SectionName = keyof typeof sections;
const SECTION_NAMES = Object.keys(sections) as SectionName[];
/** Sections managed whole: a value, a list, or an object whose fields only make sense together. */
const WHOLE: readonly string[] = ["title", "localizedTitle", "favicon", "announcement", "socialAccounts"];
/** Sections whose fields are managed one by one: an object of fields, where a field left out is kept. */
const FIELDWISE: ReadonlySet<string> = new Set(SECTION_NAMES.filter((name) => !WHOLE.includes(name)));

const inputs = z.strictObject({ organizationId, siteId, ...z.strictObject(sections).partial().shape });

/**
 * The declared sections as the API reports them, cut to the declared fields. No `updatedAt`: it moves with every
 * change by hand, also of parts the program does not manage, which are no business of this resource.
 */
const state = z.looseObject({ organizationId: z.string(), siteId: z.string() });

type Inputs = z.output<typeof inputs>;
type State = { organizationId: string; siteId: string } & Props;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The API's value of a section, cut to what `shape` (the declared value) manages: the declared fields of a section
 * managed field by field (a field the site lacks reads `null`), anything else whole.
 */
export function project(name: string, api: unknown, shape: unknown): unknown {
  if (!FIELDWISE.has(name) || !isObject(shape)) return api ?? null;
  const from = isObject(api) ? api : {};
  return Object.fromEntries(Object.keys(shape).map((field) => [field, from[field] ?? null]));
}

/** Drops `null` fields: the full replacement then leaves them unset, which is what `null` asks for. */
function withoutNulls(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== null));
}

/** The site's settings with the declared sections (or fields) written over them: the body of the full PUT. */
function merged(api: ApiSiteCustomization, declared: Partial<Record<SectionName, unknown>>): Record<string, unknown> {
  const { updatedAt: _readOnly, ...settings } = api;
  for (const name of SECTION_NAMES) {
    const value = declared[name];
    if (value === undefined) continue;
    if (FIELDWISE.has(name) && isObject(value)) {
      settings[name] = withoutNulls({ ...(isObject(settings[name]) ? settings[name] : {}), ...value });
    } else if (value === null) {
      delete settings[name];
    } else {
      settings[name] = value;
    }
  }
  return settings;
}

/** The settings with what `managed` declares put back to the defaults of a new site. */
function restored(api: ApiSiteCustomization, managed: Partial<Record<SectionName, unknown>>): Record<string, unknown> {
  const { updatedAt: _readOnly, ...settings } = api;
  for (const name of SECTION_NAMES) {
    const value = managed[name];
    if (value === undefined) continue;
    const defaults = SITE_CUSTOMIZATION_DEFAULTS[name];
    if (FIELDWISE.has(name) && isObject(value) && defaults) {
      const section = { ...(isObject(settings[name]) ? settings[name] : {}) };
      for (const field of Object.keys(value)) {
        if (defaults[field] === undefined) delete section[field];
        else section[field] = defaults[field];
      }
      settings[name] = section;
    } else if (defaults) {
      settings[name] = defaults;
    } else if (SITE_CUSTOMIZATION_LIST_DEFAULTS[name]) {
      settings[name] = SITE_CUSTOMIZATION_LIST_DEFAULTS[name];
    } else {
      delete settings[name];
    }
  }
  return settings;
}

/** The sections `shape` declares (inputs, or the state of what the program declared). */
function declaredSections(shape: Props, declared?: ReadonlySet<string>): SectionName[] {
  return SECTION_NAMES.filter((name) => (declared ? declared.has(name) : shape[name] !== undefined));
}

function toState(api: ApiSiteCustomization, known: Props, names: readonly SectionName[]): State {
  const state: State = { organizationId: known.organizationId as string, siteId: known.siteId as string };
  for (const name of names) state[name] = project(name, api[name], known[name]);
  return state;
}

/** Writes the declared sections over what the site has now (the PUT replaces everything, so read it first). */
async function apply(client: Parameters<typeof getSiteCustomization>[0], site: string, news: Inputs): Promise<State> {
  const current = await getSiteCustomization(client, news.organizationId, site);
  const written = await putSiteCustomization(client, news.organizationId, site, merged(current, news));
  return toState(written, { ...news, siteId: site }, declaredSections(news));
}

export const siteCustomizationKind = defineKind<Inputs, State>({
  kind: "SiteCustomization",
  docs: {
    description:
      "A site's branding and reader-facing settings (the official `SiteCustomizationSettings`): styling and theme, " +
      "favicon, header and footer links, announcement, color modes, feedback, AI, page actions, pagination, social " +
      "preview and accounts. A site has one; only the sections (and fields of sections) the program declares are managed.",
    adoption:
      'Not needed: every site has a customization, and create writes only the declared parts. `importId: "<siteId>"` ' +
      "adopts it without writing anything when the declared parts already match.",
    notes: [
      "- Each top-level section is optional; one left out is not managed: a change made to it by hand is not drift and " +
        "is never overwritten. Within an object section (`styling`, `header`, `footer`, `themes`, `ai`, `feedback`, " +
        '`pagination`, …), fields are managed one by one too: `styling: { theme: "bold" }` manages the theme only, ' +
        "and `null` unsets an optional field. `title`, `localizedTitle`, `favicon`, `announcement` and " +
        "`socialAccounts` are managed whole.",
      "- The API has only a full-replacement PUT (fields it is not sent go back to their defaults), so every write " +
        "reads the current customization first and sends it back with the declared parts written over it (one GET and " +
        "one PUT per create or update).",
      "- Deleting the resource puts what it declared back to the platform's defaults (a new site's values; optional " +
        "fields are unset) and leaves every other part as it is.",
      "- Deprecated fields (`styling.background`, `header.preset`, `header.backgroundColor`, `header.linkColor`, " +
        "`internationalization`) are not offered; the API keeps them as they are. A site space's overrides of " +
        "these settings are a SiteSpaceCustomization.",
      "- Declare one `SiteCustomization` per site; two would overwrite each other's parts.",
    ],
    example: `new docs.SiteCustomization("branding", {
  organizationId,
  siteId: site.id,
  styling: { theme: "bold", primaryColor: { light: "#0B5FFF", dark: "#6EA8FF" } },
  header: { links: [{ title: "Status", to: { kind: "url", url: "https://status.example.com" }, links: [] }] },
  pagination: { enabled: true },
});`,
  },
  scope: "site",
  inputs,
  state,
  parent: UNDER_SITE,
  id: "parent",
  imported: {
    never:
      "the official API document states no default for a site's customization (the emulator's new-site values are " +
      "its own choice), so which sections differ from the defaults cannot be told; declare the sections to manage, " +
      'with `importId: "<siteId>"`',
  },
  outputs: [],
  idFormat: "the site id (a site has one customization)",
  replaceOnChanges: ["organizationId", "siteId"],
  // The old resource's delete resets the parts it declared: after the new one wrote them, it would undo them.
  deleteBeforeReplace: true,

  // A PUT at the site's own address, of the same merged body: repeating it after a lost answer duplicates nothing.
  async create({ client }, news) {
    return { id: news.siteId, state: await apply(client, news.siteId, news) };
  },

  async read({ client }, id, known, declared) {
    const api = await getSiteCustomization(client, known.organizationId, id);
    return { id, state: toState(api, { ...known, siteId: id }, declaredSections(known, declared)) };
  },

  async update({ client }, id, _olds, news, changed) {
    // Only reachable by adopting with an importId naming another site than siteId (siteId otherwise replaces).
    if (changed.has("siteId")) {
      throw new Error(`SiteCustomization: importId names site "${id}", the inputs site "${news.siteId}"`);
    }
    return apply(client, id, news);
  },

  async delete({ client }, id, olds) {
    const managed = declaredSections(olds);
    const current = await getSiteCustomization(client, olds.organizationId, id);
    await putSiteCustomization(
      client,
      olds.organizationId,
      id,
      restored(current, olds as Partial<Record<SectionName, unknown>>),
    );
    const parts = managed.map((name) =>
      FIELDWISE.has(name) && isObject(olds[name]) ? Object.keys(olds[name]).map((f) => `${name}.${f}`) : [name],
    );
    logLine(
      "info",
      `SiteCustomization "${id}": ${parts.flat().join(", ") || "nothing"} put back to the platform's defaults; the ` +
        "site's other customization is left as it is.",
    );
  },
});
