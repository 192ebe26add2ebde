/**
 * Translations (list, create, get, update, delete, run) and the organization's translation glossary (list, batch
 * update, get). The store (translationStore.ts) simulates runs by the clock and applies glossary batches whole.
 *
 * The official document admits user tokens only to every one of these operations (`security: "user"`).
 */
import { NotFoundError } from "../../errors";
import { paginate } from "../../pagination";
import type { Route, RouteContext } from "../../types";
import {
  arr,
  type Check,
  expectNoBody,
  isPlainObject,
  literal,
  obj,
  oneOfValues,
  opt,
  parseBody,
  queryEnum,
  record,
  req,
  str,
} from "../../validate";
import { created, deleted, noContent, ok, param, requireOrg } from "../common";
import { jsonDocument } from "../siteSettings/siteAgentSettings";
import type { GlossaryEntryRec, TranslationRec } from "./records";
import { renderGlossaryEntry, renderTranslation } from "./render";
import type { GlossaryOperation } from "./translationStore";

/** The official `TranslationLanguage`. */
// biome-ignore format: one list, kept compact
const LANGUAGES = [
  "en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "zh-tw", "yue", "ko", "ar", "hi", "nl", "pl", "tr",
  "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms", "he", "uk", "sk", "bg", "hr", "lt", "lv",
  "et", "sl",
] as const;
const language = oneOfValues(LANGUAGES);

/** The official `GlossaryTranslations`: any key, values of one line, 1..255 characters. */
const glossaryTranslations = record(str({ min: 1, max: 255, pattern: /^[^\n\r]*$/ }));

const glossaryOperation: Check<GlossaryOperation> = (value, at) => {
  const type = isPlainObject(value) ? value.type : undefined;
  if (type === "insert")
    return obj({ type: req(literal("insert")), translations: req(glossaryTranslations) })(value, at);
  if (type === "update") {
    const shape = { type: req(literal("update")), id: req(str()), translations: req(glossaryTranslations) };
    return obj(shape)(value, at);
  }
  return obj({ type: req(literal("delete")), id: req(str()) })(value, at);
};

const translationsPath = "/v1/orgs/{organizationId}/translations";
const glossaryPath = "/v1/orgs/{organizationId}/translations-glossary";

function requireTranslation(ctx: RouteContext): TranslationRec {
  const org = requireOrg(ctx);
  const id = param(ctx, "translationId");
  const translation = ctx.store.translationStore.translation(org.id, id);
  if (!translation) throw new NotFoundError(`Translation "${id}" not found in organization "${org.id}"`);
  return translation;
}

function byLanguage(key: string | undefined) {
  return (a: GlossaryEntryRec, b: GlossaryEntryRec): number => {
    if (key === undefined) return 0;
    const x = a.translations[key] ?? "";
    const y = b.translations[key] ?? "";
    return x < y ? -1 : x > y ? 1 : 0;
  };
}

export const translationRoutes: Route[] = [
  {
    method: "GET",
    path: translationsPath,
    security: "user",
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const all = ctx.store.translationStore.translationsOf(org.id);
      return ok(paginate(ctx, all, (t) => renderTranslation(ctx.env, ctx.store, t)));
    },
  },
  {
    method: "POST",
    path: translationsPath,
    security: "user",
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const body = parseBody(
        ctx.body,
        {
          source: req(obj({ space: req(str({ min: 1 })), language: req(language) })),
          language: req(language),
          instructions: opt(jsonDocument),
        },
        { required: true },
      );
      const translation = ctx.store.translationStore.createTranslation(org.id, {
        sourceSpaceId: body.source.space,
        sourceLanguage: body.source.language,
        language: body.language,
        instructions: body.instructions,
      });
      return created(renderTranslation(ctx.env, ctx.store, translation));
    },
  },
  {
    method: "GET",
    path: `${translationsPath}/{translationId}`,
    security: "user",
    handler: (ctx) => ok(renderTranslation(ctx.env, ctx.store, requireTranslation(ctx))),
  },
  {
    method: "PUT",
    path: `${translationsPath}/{translationId}`,
    security: "user",
    handler: (ctx) => {
      const translation = requireTranslation(ctx);
      const body = parseBody(ctx.body, { instructions: req(jsonDocument) }, { required: true });
      ctx.store.translationStore.setInstructions(translation, body.instructions);
      return ok(renderTranslation(ctx.env, ctx.store, translation));
    },
  },
  {
    method: "DELETE",
    path: `${translationsPath}/{translationId}`,
    security: "user",
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const translation = ctx.store.translationStore.translation(org.id, param(ctx, "translationId"));
      return deleted(translation !== undefined && ctx.store.translationStore.deleteTranslation(translation.id));
    },
  },
  {
    method: "POST",
    path: `${translationsPath}/{translationId}/run`,
    security: "user",
    handler: (ctx) => {
      const translation = requireTranslation(ctx);
      expectNoBody(ctx.body);
      ctx.store.translationStore.run(translation);
      return noContent();
    },
  },
  {
    method: "GET",
    path: glossaryPath,
    security: "user",
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const orderBy = queryEnum(ctx.query, "orderBy", LANGUAGES);
      const all = ctx.store.translationStore.glossaryOf(org.id).sort(byLanguage(orderBy));
      return ok(paginate(ctx, all, (e) => renderGlossaryEntry(ctx.env, e)));
    },
  },
  {
    method: "PUT",
    path: glossaryPath,
    security: "user",
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const body = parseBody(ctx.body, { operations: req(arr(glossaryOperation)) }, { required: true });
      ctx.store.translationStore.applyGlossaryBatch(org.id, body.operations);
      return noContent();
    },
  },
  {
    method: "GET",
    path: `${glossaryPath}/{glossaryEntryId}`,
    security: "user",
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const id = param(ctx, "glossaryEntryId");
      const entry = ctx.store.translationStore.glossaryEntry(org.id, id);
      if (!entry) throw new NotFoundError(`Glossary entry "${id}" not found in organization "${org.id}"`);
      return ok(renderGlossaryEntry(ctx.env, entry));
    },
  },
];
