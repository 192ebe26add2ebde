import { z } from "zod";
import { type JsonDocument, JsonDocumentSchema } from "./documentText";
import { listAll } from "./pagination";
import { call } from "./parse";
import type { HttpClient } from "./transport";

/*
 * Translations and the organization's glossary. The official document admits a user's personal API token only to
 * every one of these operations (`security` is `user`): each call says `userTokenOnly`, so that an integration or
 * OAuth token's 401 here leaves it usable elsewhere.
 */

/** The official `TranslationLanguage`: the languages a translation reads and writes. */
// biome-ignore format: one list, kept compact
export const TRANSLATION_LANGUAGES = [
  "en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "zh-tw", "yue", "ko", "ar", "hi", "nl", "pl", "tr",
  "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms", "he", "uk", "sk", "bg", "hr", "lt", "lv",
  "et", "sl",
] as const;
export type TranslationLanguage = (typeof TRANSLATION_LANGUAGES)[number];

export const TranslationSchema = z.object({
  id: z.string(),
  /** `pending`, `running` or `completed`. */
  status: z.string(),
  source: z.object({ space: z.string(), language: z.string() }),
  language: z.string(),
  instructions: JsonDocumentSchema,
  /** Set once a run has made the translated space. */
  result: z.object({ space: z.string() }).partial().nullish(),
  createdAt: z.string().optional(),
});
export type ApiTranslation = z.infer<typeof TranslationSchema>;

export interface TranslationCreate {
  source: { space: string; language: string };
  language: string;
  instructions?: JsonDocument;
}

export function translationsPath(organizationId: string): string {
  return `/orgs/${encodeURIComponent(organizationId)}/translations`;
}

export function translationPath(organizationId: string, id: string): string {
  return `${translationsPath(organizationId)}/${encodeURIComponent(id)}`;
}

export function listTranslations(client: HttpClient, organizationId: string): Promise<ApiTranslation[]> {
  return listAll(client, translationsPath(organizationId), {}, TranslationSchema, { userTokenOnly: true });
}

export async function createTranslation(
  client: HttpClient,
  organizationId: string,
  body: TranslationCreate,
): Promise<ApiTranslation> {
  const path = translationsPath(organizationId);
  return call(client, TranslationSchema, "POST", path, { userTokenOnly: true, body });
}

export async function getTranslation(client: HttpClient, organizationId: string, id: string): Promise<ApiTranslation> {
  const path = translationPath(organizationId, id);
  // Stryker disable next-line StringLiteral: undici sends an empty method as GET (PUT when there is a body)
  return call(client, TranslationSchema, "GET", path, { userTokenOnly: true });
}

/** The PUT's body requires `instructions`, and nothing else of a translation can change. */
export async function updateTranslation(
  client: HttpClient,
  organizationId: string,
  id: string,
  instructions: JsonDocument,
): Promise<ApiTranslation> {
  const path = translationPath(organizationId, id);
  // Stryker disable next-line StringLiteral: undici sends an empty method with a body as PUT
  return call(client, TranslationSchema, "PUT", path, { userTokenOnly: true, body: { instructions } });
}

export function deleteTranslation(client: HttpClient, organizationId: string, id: string): Promise<void> {
  return client.delete(translationPath(organizationId, id), { userTokenOnly: true });
}

/** Starts a run ("Run a translation again"): it sets a state, so a lost answer is retried like a PUT. */
export async function runTranslation(client: HttpClient, organizationId: string, id: string): Promise<void> {
  const path = `${translationPath(organizationId, id)}/run`;
  await client.request("POST", path, { userTokenOnly: true, idempotent: true });
}

/** Values 1..255 characters without a line break (the official `GlossaryTranslations`). */
export const GLOSSARY_TERM_MAX = 255;

export const GlossaryEntrySchema = z.object({
  id: z.string(),
  /** Language code → the term in that language. */
  translations: z.record(z.string(), z.string()),
});
export type ApiGlossaryEntry = z.infer<typeof GlossaryEntrySchema>;

export type GlossaryOperation =
  | { type: "insert"; translations: Record<string, string> }
  | { type: "update"; id: string; translations: Record<string, string> }
  | { type: "delete"; id: string };

export function glossaryPath(organizationId: string): string {
  return `/orgs/${encodeURIComponent(organizationId)}/translations-glossary`;
}

export function listGlossaryEntries(client: HttpClient, organizationId: string): Promise<ApiGlossaryEntry[]> {
  return listAll(client, glossaryPath(organizationId), {}, GlossaryEntrySchema, { userTokenOnly: true });
}

/**
 * One batch of inserts, updates and deletes (204, no body). Not idempotent: a repeated insert makes a second entry,
 * so a lost answer is not retried here; the caller reads the glossary again and sends what is still missing.
 */
export async function updateGlossaryEntries(
  client: HttpClient,
  organizationId: string,
  operations: readonly GlossaryOperation[],
): Promise<void> {
  const path = glossaryPath(organizationId);
  await client.request("PUT", path, { userTokenOnly: true, idempotent: false, body: { operations } });
}
