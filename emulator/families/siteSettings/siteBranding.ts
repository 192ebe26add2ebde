/**
 * A site's customization (`GET|PUT …/customization`, the official full replacement) and its publishing
 * authentication (`GET|PATCH …/publishing/auth`, `POST …/publishing/auth/regenerate`). A site has one of each from the
 * start: the store holds the new-site values (`newSiteCustomization`), and the first read makes the signing key.
 */

import { BadRequestError } from "../../errors";
import type { Route, RouteContext } from "../../types";
import {
  arr,
  bool,
  type Check,
  isPlainObject,
  nullable,
  obj,
  oneOfValues,
  opt,
  parseBody,
  record,
  req,
  str,
} from "../../validate";
import { ok, requireSite } from "../common";
import type { PublishingAuthRec } from "./records";

const color = str({ pattern: /^#(?:[0-9a-fA-F]{3}){1,2}$/, patternLabel: "must be a hex color (#rgb or #rrggbb)" });
const themedColor = obj({ light: req(color), dark: req(color) });
const url = str({ uri: true, max: 2048 });
const themedUrl = obj({ light: req(url), dark: req(url) });
const localized = (max?: number) => record(str({ max }));
/** A value the emulator passes on as sent (fonts defined in full, content references): the official shapes are open. */
const anyObject: Check<Record<string, unknown>> = (value, path) => {
  if (!isPlainObject(value)) throw new BadRequestError(`${path}: must be a JSON object`);
  return value;
};
const font: Check<unknown> = (value, path) =>
  typeof value === "string" ? str({ min: 1 })(value, path) : anyObject(value, path);
const contentRef: Check<Record<string, unknown>> = (value, path) => {
  const ref = anyObject(value, path);
  if (typeof ref.kind !== "string") throw new BadRequestError(`${path}.kind: is required`);
  return ref;
};
const contentLink = obj({ title: req(str({ max: 64 })), localizedTitle: opt(localized(64)), to: req(contentRef) });
const codeTheme = obj({ light: req(str({ min: 1 })), dark: req(str({ min: 1 })) });
const enabled = obj({ enabled: req(bool()) });

/** The official `SiteCustomizationSettingsInput`: what the PUT takes, and what a site space's overrides must keep valid. */
export const settings = {
  title: opt(str({ min: 2, max: 128 })),
  localizedTitle: opt(localized(128)),
  styling: req(
    obj({
      theme: req(oneOfValues(["clean", "muted", "bold", "gradient"])),
      primaryColor: req(themedColor),
      tint: opt(obj({ color: req(themedColor) })),
      infoColor: req(themedColor),
      successColor: req(themedColor),
      warningColor: req(themedColor),
      dangerColor: req(themedColor),
      corners: req(oneOfValues(["straight", "rounded", "circular"])),
      depth: req(oneOfValues(["subtle", "flat"])),
      links: req(oneOfValues(["default", "accent"])),
      font: req(font),
      headingFont: opt(nullable(font)),
      monospaceFont: req(font),
      background: req(oneOfValues(["plain", "match"])),
      icons: req(oneOfValues(["regular", "solid", "duotone", "light", "thin"])),
      codeTheme: req(obj({ default: req(codeTheme), openapi: req(codeTheme) })),
      sidebar: req(
        obj({
          background: req(oneOfValues(["default", "filled"])),
          list: req(oneOfValues(["default", "pill", "line"])),
        }),
      ),
      search: req(oneOfValues(["prominent", "subtle"])),
    }),
  ),
  internationalization: req(obj({ locale: req(str({ min: 1 })) })),
  favicon: req(obj({ icon: opt(themedUrl), emoji: opt(str({ min: 1, max: 50 })) })),
  header: req(
    obj({
      preset: req(oneOfValues(["default", "bold", "contrast", "custom", "none"])),
      logo: opt(themedUrl),
      primaryLink: opt(contentRef),
      backgroundColor: opt(themedColor),
      linkColor: opt(themedColor),
      links: req(
        arr(
          obj({
            title: req(str()),
            localizedTitle: opt(localized()),
            style: opt(oneOfValues(["link", "button-primary", "button-secondary"])),
            to: req(nullable(contentRef)),
            links: req(arr(contentLink)),
            condition: opt(str({ max: 1024 })),
          }),
        ),
      ),
    }),
  ),
  footer: req(
    obj({
      logo: opt(themedUrl),
      groups: req(arr(obj({ title: req(str()), localizedTitle: opt(localized()), links: req(arr(contentLink)) }))),
      copyright: opt(str({ max: 512 })),
    }),
  ),
  announcement: opt(
    obj({
      enabled: req(bool()),
      message: req(str({ min: 2, max: 128 })),
      localizedMessage: opt(localized(128)),
      link: opt(contentLink),
      style: req(oneOfValues(["info", "warning", "danger", "success"])),
    }),
  ),
  themes: req(obj({ default: req(oneOfValues(["light", "dark", "system"])), toggeable: req(bool()) })),
  feedback: req(enabled),
  ai: req(
    obj({
      mode: req(oneOfValues(["none", "search", "assistant"])),
      greeting: opt(str({ max: 256 })),
      localizedGreeting: opt(localized(128)),
      suggestions: opt(arr(str({ min: 3, max: 64 }), { max: 5 })),
      instructions: opt(str({ max: 10_000 })),
    }),
  ),
  advancedCustomization: req(enabled),
  pageActions: req(
    obj({ items: req(arr(oneOfValues(["assistant", "external-ai", "markdown", "mcp", "git", "pdf"]))) }),
  ),
  externalLinks: req(obj({ target: req(oneOfValues(["self", "blank"])) })),
  pagination: req(enabled),
  trademark: req(enabled),
  privacyPolicy: req(obj({ url: opt(url) })),
  socialPreview: req(obj({ url: opt(url) })),
  socialAccounts: req(
    arr(
      obj({
        platform: req(str({ min: 1 })),
        handle: req(str({ min: 1, max: 128 })),
        display: req(obj({ footer: req(bool()), header: req(bool()) })),
      }),
      { max: 10 },
    ),
  ),
  insights: req(obj({ trackingCookie: req(bool()) })),
};

/** What a new site has: every field the official document requires, nothing optional. */
export function newSiteCustomization(): Record<string, unknown> {
  const same = (value: string) => ({ light: value, dark: value });
  const code = { light: "default-light", dark: "default-dark" };
  return {
    styling: {
      theme: "clean",
      primaryColor: same("#346DDB"),
      infoColor: same("#787878"),
      successColor: same("#00C950"),
      warningColor: same("#FE9A00"),
      dangerColor: same("#FB2C36"),
      corners: "rounded",
      depth: "subtle",
      links: "default",
      font: "Inter",
      monospaceFont: "IBMPlexMono",
      codeTheme: { default: code, openapi: code },
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
    socialAccounts: [],
    insights: { trackingCookie: true },
  };
}

const customizationPath = "/v1/orgs/{organizationId}/sites/{siteId}/customization";
const authPath = "/v1/orgs/{organizationId}/sites/{siteId}/publishing/auth";

/** A site's customization as the API answers it. */
export function customization(ctx: RouteContext, siteId: string) {
  const rec = ctx.store.siteCustomizations.get(siteId);
  return rec ? { ...structuredClone(rec.settings), updatedAt: rec.updatedAt } : newSiteCustomization();
}

function renderAuth(rec: PublishingAuthRec) {
  return {
    object: "publishing-auth",
    backend: rec.backend,
    privateKey: rec.privateKey,
    ...(rec.fallbackURL ? { fallbackURL: rec.fallbackURL } : {}),
    ...(rec.logoutURL ? { logoutURL: rec.logoutURL } : {}),
  };
}

export const siteBrandingRoutes: Route[] = [
  {
    method: "GET",
    path: customizationPath,
    handler: (ctx) => ok(customization(ctx, requireSite(ctx).id)),
  },
  {
    method: "PUT",
    path: customizationPath,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const body = parseBody(ctx.body, settings, { required: true });
      if (Object.keys(body.favicon).length > 1) throw new BadRequestError("favicon: must have either icon or emoji");
      ctx.store.siteSettingsStore.setCustomization(site, body);
      return ok(customization(ctx, site.id));
    },
  },
  {
    method: "GET",
    path: authPath,
    handler: (ctx) => ok(renderAuth(ctx.store.siteSettingsStore.publishingAuth(requireSite(ctx)))),
  },
  {
    method: "PATCH",
    path: authPath,
    handler: (ctx) => {
      const site = requireSite(ctx);
      const body = parseBody(
        ctx.body,
        {
          backend: req(oneOfValues(["custom", "integration"])),
          fallbackURL: opt(nullable(str({ uri: true }))),
          logoutURL: opt(nullable(str({ uri: true }))),
        },
        { required: true },
      );
      const rec = ctx.store.siteSettingsStore.publishingAuth(site);
      ctx.store.update("publishingAuths", rec, {
        backend: body.backend,
        ...(body.fallbackURL !== undefined && { fallbackURL: body.fallbackURL ?? undefined }),
        ...(body.logoutURL !== undefined && { logoutURL: body.logoutURL ?? undefined }),
      });
      return ok(renderAuth(rec));
    },
  },
  {
    method: "POST",
    path: `${authPath}/regenerate`,
    handler: (ctx) => {
      const rec = ctx.store.siteSettingsStore.regeneratePublishingKey(requireSite(ctx));
      return ok(renderAuth(rec));
    },
  },
];
