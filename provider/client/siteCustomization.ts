import { z } from "zod";
import { call } from "./parse";
import { sitePath } from "./sites";
import type { HttpClient } from "./transport";

/**
 * A site's customization as the API reports it (the official `SiteCustomizationSettings`): every top-level section,
 * read as plain JSON. The provider only ever changes the sections a program declares, so it needs no stricter view of
 * the ones it passes through; the declared ones are typed by the kind's input schema.
 */
export const SiteCustomizationSchema = z.looseObject({ updatedAt: z.string().optional() });
export type ApiSiteCustomization = Record<string, unknown> & { updatedAt?: string };

/**
 * What a new site has for every field the official `SiteCustomizationSettingsInput` requires (fields it leaves
 * optional, such as `title`, `announcement`, `styling.tint` or `header.logo`, are absent: the PUT is a full
 * replacement in which "unset fields revert to defaults"). The official document states no value for most of these,
 * so they are the values of a new site on the emulator, which models it; deleting a SiteCustomization writes these
 * back for the fields it managed.
 */
export const SITE_CUSTOMIZATION_DEFAULTS: Readonly<Record<string, Record<string, unknown>>> = {
  styling: {
    theme: "clean",
    primaryColor: { light: "#346DDB", dark: "#346DDB" },
    infoColor: { light: "#787878", dark: "#787878" },
    successColor: { light: "#00C950", dark: "#00C950" },
    warningColor: { light: "#FE9A00", dark: "#FE9A00" },
    dangerColor: { light: "#FB2C36", dark: "#FB2C36" },
    corners: "rounded",
    depth: "subtle",
    links: "default",
    font: "Inter",
    monospaceFont: "IBMPlexMono",
    codeTheme: {
      default: { light: "default-light", dark: "default-dark" },
      openapi: { light: "default-light", dark: "default-dark" },
    },
    background: "plain",
    icons: "regular",
    sidebar: { background: "default", list: "default" },
    search: "subtle",
  },
  internationalization: { locale: "en" },
  favicon: {},
  header: { preset: "default", links: [] },
  footer: { groups: [] },
  themes: { default: "system", toggeable: true },
  feedback: { enabled: false },
  ai: { mode: "search" },
  advancedCustomization: { enabled: true },
  trademark: { enabled: true },
  externalLinks: { target: "self" },
  pagination: { enabled: true },
  pageActions: { items: ["assistant", "markdown", "external-ai"] },
  privacyPolicy: {},
  socialPreview: {},
  insights: { trackingCookie: true },
};

/** The default of a top-level section that is not an object of fields (`socialAccounts`); `title` has none. */
export const SITE_CUSTOMIZATION_LIST_DEFAULTS: Readonly<Record<string, unknown[]>> = { socialAccounts: [] };

function customizationPath(organizationId: string, siteId: string): string {
  return `${sitePath(organizationId, siteId)}/customization`;
}

export async function getSiteCustomization(
  client: HttpClient,
  organizationId: string,
  siteId: string,
): Promise<ApiSiteCustomization> {
  // Stryker disable next-line StringLiteral: undici's request() sends an empty method as GET, or as PUT with a body.
  return call(client, SiteCustomizationSchema, "GET", customizationPath(organizationId, siteId));
}

/** The official full replacement: every section the body leaves out goes back to its default. */
export async function putSiteCustomization(
  client: HttpClient,
  organizationId: string,
  siteId: string,
  settings: Record<string, unknown>,
): Promise<ApiSiteCustomization> {
  const { updatedAt: _readOnly, ...body } = settings;
  // Stryker disable next-line StringLiteral: undici's request() sends an empty method as GET, or as PUT with a body.
  return call(client, SiteCustomizationSchema, "PUT", customizationPath(organizationId, siteId), { body });
}
