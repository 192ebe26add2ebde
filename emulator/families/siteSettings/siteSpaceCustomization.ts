/**
 * A site space's customization overrides (`GET|PATCH|DELETE …/site-spaces/{siteSpaceId}/customization`): the GET and
 * the PATCH answer the effective customization (the overrides over the site's), the PATCH changes only the fields it
 * names (`null` clears one), the DELETE removes them all. The overrides live on the site space's record, so they go
 * with it (and with its section or site).
 */

import { BadRequestError } from "../../errors";
import type { Route, RouteContext } from "../../types";
import { isPlainObject, parseBody } from "../../validate";
import { deleted, ok, requireSite } from "../common";
import type { SiteSpaceRec } from "../siteStructure/records";
import { requireSiteSpace } from "../sites/siteCommon";
import { customization, settings } from "./siteBranding";

const WHOLE = "whole";
/** The official PATCH body: its sections, overridden whole or field by field (with the fields it names). */
const OVERRIDABLE: Readonly<Record<string, typeof WHOLE | readonly string[]>> = {
  title: WHOLE,
  localizedTitle: WHOLE,
  favicon: WHOLE,
  announcement: WHOLE,
  // biome-ignore format: one list
  styling: [
    "theme", "primaryColor", "infoColor", "successColor", "warningColor", "dangerColor", "tint", "corners", "depth",
    "links", "icons", "sidebar", "search", "background", "codeTheme",
  ],
  internationalization: ["locale"],
  header: ["preset", "logo", "primaryLink", "backgroundColor", "linkColor", "links"],
  footer: ["logo", "groups", "copyright"],
  themes: ["default", "toggeable"],
  feedback: ["enabled"],
  externalLinks: ["target"],
  pagination: ["enabled"],
  trademark: ["enabled"],
  privacyPolicy: ["url"],
  socialPreview: ["url"],
};
/** Fields the official document requires in their section (each may still be `null`). */
const REQUIRED = new Set([
  "internationalization.locale",
  "feedback.enabled",
  "externalLinks.target",
  "pagination.enabled",
  "trademark.enabled",
]);
/** Fields that are objects of nullable fields themselves: overridden one level deeper. */
const NESTED = new Set(["styling.sidebar", "styling.codeTheme"]);

type Settings = Record<string, unknown>;

/** `value` written over `base` one field at a time: `null` removes a field; an empty result is `undefined`. */
function patched(base: unknown, value: Settings, nested: (field: string) => boolean): Settings | undefined {
  const out: Settings = isPlainObject(base) ? { ...base } : {};
  for (const [field, part] of Object.entries(value)) {
    if (part === null) delete out[field];
    else if (nested(field) && isPlainObject(part)) {
      const deeper = patched(out[field], part, () => false);
      if (deeper) out[field] = deeper;
      else delete out[field];
    } else out[field] = part;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The overrides after a PATCH body: checks the body's sections and fields against the official document. */
function withBody(overrides: Settings, body: Settings): Settings {
  const out = structuredClone(overrides);
  for (const [name, value] of Object.entries(body)) {
    const fields = OVERRIDABLE[name];
    if (!fields) {
      throw new BadRequestError(`${name}: unknown field (allowed: ${Object.keys(OVERRIDABLE).join(", ")})`);
    }
    if (fields === WHOLE) {
      if (value === null && name === "announcement") throw new BadRequestError("announcement: must not be null");
      if (value === null) delete out[name];
      else out[name] = value;
      continue;
    }
    if (!isPlainObject(value)) throw new BadRequestError(`${name}: must be a JSON object`);
    for (const field of Object.keys(value)) {
      if (!fields.includes(field)) {
        throw new BadRequestError(`${name}.${field}: unknown field (allowed: ${fields.join(", ")})`);
      }
    }
    for (const field of fields) {
      if (REQUIRED.has(`${name}.${field}`) && value[field] === undefined) {
        throw new BadRequestError(`${name}.${field}: is required`);
      }
    }
    const section = patched(out[name], value, (field) => NESTED.has(`${name}.${field}`));
    if (section) out[name] = section;
    else delete out[name];
  }
  return out;
}

/** The site's customization with the overrides written over it (sections field by field, as the PATCH names them). */
function effective(site: Settings, overrides: Settings): Settings {
  const out = structuredClone(site);
  for (const [name, value] of Object.entries(overrides)) {
    if (OVERRIDABLE[name] === WHOLE || !isPlainObject(value)) out[name] = structuredClone(value);
    else out[name] = patched(out[name], value, (field) => NESTED.has(`${name}.${field}`));
  }
  return out;
}

function render(ctx: RouteContext, ss: SiteSpaceRec) {
  const { updatedAt, ...site } = customization(ctx, ss.siteId);
  const shown = effective(site, ss.customization?.overrides ?? {});
  const when = ss.customization?.updatedAt ?? updatedAt;
  return when === undefined ? shown : { ...shown, updatedAt: when };
}

const path = "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization";

export const siteSpaceCustomizationRoutes: Route[] = [
  {
    method: "GET",
    path,
    handler: (ctx) => ok(render(ctx, requireSiteSpace(ctx, requireSite(ctx)))),
  },
  {
    method: "PATCH",
    path,
    handler: (ctx) => {
      const ss = requireSiteSpace(ctx, requireSite(ctx));
      if (!isPlainObject(ctx.body)) throw new BadRequestError("body: must be a JSON object");
      const overrides = withBody(ss.customization?.overrides ?? {}, ctx.body);
      // The overrides must leave a valid customization: each value is checked as the site's PUT checks it.
      const { updatedAt: _site, ...site } = customization(ctx, ss.siteId);
      const shown = parseBody(effective(site, overrides), settings, { required: true });
      if (Object.keys(shown.favicon).length > 1) throw new BadRequestError("favicon: must have either icon or emoji");
      const changed = Object.keys(overrides).length > 0 ? { overrides, updatedAt: ctx.store.now() } : undefined;
      ctx.store.update("siteSpaces", ss, { customization: changed });
      return ok(render(ctx, ss));
    },
  },
  {
    method: "DELETE",
    path,
    handler: (ctx) => {
      const ss = requireSiteSpace(ctx, requireSite(ctx));
      const existed = ss.customization !== undefined;
      ctx.store.update("siteSpaces", ss, { customization: undefined });
      return deleted(existed);
    },
  },
];
