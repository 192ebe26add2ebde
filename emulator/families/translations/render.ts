/** Renders the translations family's records into API objects carrying every field the official response schemas require. */

import type { Store } from "../../store";
import type { Env } from "../../types";
import type { GlossaryEntryRec, TranslationRec } from "./records";
import { PAGES_PER_RUN, WORDS_PER_RUN } from "./translationStore";

type Json = Record<string, unknown>;

const enc = encodeURIComponent;

export function renderTranslation(env: Env, store: Store, t: TranslationRec): Json {
  const out: Json = {
    object: "translation",
    id: t.id,
    status: store.translationStore.status(t),
    source: { space: t.sourceSpaceId, language: t.sourceLanguage },
    language: t.language,
    instructions: t.instructions,
  };
  if (t.resultSpaceId && t.resultRevision) {
    out.result = { space: t.resultSpaceId, revision: t.resultRevision, language: t.language };
  }
  out.createdAt = t.createdAt;
  out.updatedAt = t.updatedAt;
  // The emulator's runs take no time and translate a fixed amount.
  out.stats = {
    runs: t.runs,
    totalWords: t.runs * WORDS_PER_RUN,
    totalPages: PAGES_PER_RUN,
    totalDuration: 0,
    latestRunDuration: 0,
    latestPages: t.runs > 0 ? PAGES_PER_RUN : 0,
    latestWords: t.runs > 0 ? WORDS_PER_RUN : 0,
  };
  out.permissions = { view: true, edit: true };
  out.urls = { location: `${env.apiBase}/orgs/${enc(t.orgId)}/translations/${enc(t.id)}` };
  return out;
}

export function renderGlossaryEntry(env: Env, e: GlossaryEntryRec): Json {
  return {
    object: "glossary-entry",
    id: e.id,
    translations: e.translations,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
    urls: { location: `${env.apiBase}/orgs/${enc(e.orgId)}/translations-glossary/${enc(e.id)}` },
  };
}
