import { z } from "zod";
import {
  type ApiGlossaryEntry,
  GLOSSARY_TERM_MAX,
  type GlossaryOperation,
  glossaryPath,
  type HttpClient,
  listGlossaryEntries,
  outcomeUnknown,
  TRANSLATION_LANGUAGES,
  updateGlossaryEntries,
} from "../client";
import { apiId, defineKind } from "../framework/kind";
import { logLine } from "../framework/log";

const language = z.enum(TRANSLATION_LANGUAGES);
// The official GlossaryTranslations' values: 1..255 characters, no line break.
const term = z
  .string()
  .min(1)
  .max(GLOSSARY_TERM_MAX)
  .regex(/^[^\n\r]*$/, "must be one line (no line break)");

const entry = z.strictObject({
  term: term.describe("The term in `sourceLanguage`: what names the entry."),
  translations: z
    .partialRecord(language, term)
    .describe("The term in other languages, by language code (`fr`, `de`, …)."),
});

const inputs = z
  .strictObject({
    organizationId: apiId.describe("The organization whose glossary this is."),
    sourceLanguage: language.describe(
      "The language the entries' `term`s are in: the language key that names each of the glossary's entries.",
    ),
    entries: z
      .array(entry)
      .superRefine((entries, ctx) => {
        const first = new Map<string, number>();
        entries.forEach(({ term }, index) => {
          const earlier = first.get(term);
          if (earlier === undefined) first.set(term, index);
          else
            ctx.addIssue({
              // Stryker disable next-line StringLiteral: describeIssue reports any code it does not name by the issue's message
              code: "custom",
              path: [index, "term"],
              message: `"${term}" is also the term of entries[${earlier}]: a term names one entry`,
            });
        });
      })
      .describe(
        "Every entry of the organization's glossary (order does not matter). An entry of the glossary missing from " +
          "this list is deleted; `[]` deletes them all. Previews show the entries by term.",
      ),
  })
  .superRefine((news, ctx) => {
    // zod 4 runs this refinement only when every property parsed (a type error anywhere skips it), so entries is an
    // array of entries here; the guards keep a malformed value from throwing should that ever change.
    // Stryker disable next-line ConditionalExpression: unreachable with zod 4 (see above)
    if (!Array.isArray(news.entries)) return;
    news.entries.forEach((declared, index) => {
      // Stryker disable next-line OptionalChaining: unreachable with zod 4 (see above)
      if (declared?.translations?.[news.sourceLanguage] === undefined) return;
      ctx.addIssue({
        // Stryker disable next-line StringLiteral: describeIssue reports any code it does not name by the issue's message
        code: "custom",
        path: ["entries", index, "translations", news.sourceLanguage],
        message: `the term itself is the entry's "${news.sourceLanguage}" (sourceLanguage): leave this key out`,
      });
    });
  });

const entryState = { term: z.string(), translations: z.record(z.string(), z.string()).default({}) };

const state = z.object({
  organizationId: z.string(),
  sourceLanguage: z.string(),
  entries: z.array(z.object(entryState)).default([]),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;
type Entry = State["entries"][number];

const byTerm = (a: Entry, b: Entry) => {
  // Stryker disable next-line EqualityOperator: `<=` only reorders entries of one term (two made in the app), which up then deletes but one of
  if (a.term < b.term) return -1;
  // Stryker disable next-line EqualityOperator,ConditionalExpression: sort only asks whether the result is below 0, so 0 and 1 are alike
  return a.term > b.term ? 1 : 0;
};

/** The API's `translations` of a declared entry: the term under the source language, then the others. */
function translationsOf(declared: Entry, sourceLanguage: string): Record<string, string> {
  return { [sourceLanguage]: declared.term, ...declared.translations };
}

// Stryker disable next-line EqualityOperator: the keys of one object never compare equal
const byCode = ([a]: [string, string], [b]: [string, string]) => (a < b ? -1 : 1);

/** An entry's languages other than `sourceLanguage`, by language code. */
function otherLanguages(api: ApiGlossaryEntry, sourceLanguage: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(api.translations)
      .filter(([key]) => key !== sourceLanguage)
      .sort(byCode),
  );
}

const sameMap = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([key, value]) => b[key] === value);

/**
 * The batch that turns the glossary into `desired`: entries matched by their term in `sourceLanguage`. An entry that
 * keeps all its languages is updated in place; one that loses a language is deleted and inserted again, since the
 * official document does not say whether `update` replaces an entry's translations or merges into them. Entries
 * without a term in `sourceLanguage`, and second entries of one term, are deleted.
 */
export function glossaryOperations(
  current: readonly ApiGlossaryEntry[],
  desired: readonly Entry[],
  sourceLanguage: string,
): GlossaryOperation[] {
  const wanted = new Map(desired.map((d) => [d.term, translationsOf(d, sourceLanguage)]));
  const operations: GlossaryOperation[] = [];
  const matched = new Set<string>();
  for (const api of current) {
    const term = api.translations[sourceLanguage];
    // Stryker disable next-line ConditionalExpression: the map has no undefined key, so wanted.get(undefined) is undefined too
    const translations = term === undefined ? undefined : wanted.get(term);
    // Stryker disable next-line ConditionalExpression: an undefined term has undefined translations, tested next
    if (term === undefined || translations === undefined || matched.has(term)) {
      operations.push({ type: "delete", id: api.id });
      continue;
    }
    matched.add(term);
    if (sameMap(api.translations, translations)) continue;
    if (Object.keys(api.translations).every((key) => key in translations)) {
      operations.push({ type: "update", id: api.id, translations });
    } else {
      operations.push({ type: "delete", id: api.id }, { type: "insert", translations });
    }
  }
  for (const [term, translations] of wanted) {
    if (!matched.has(term)) operations.push({ type: "insert", translations });
  }
  return operations;
}

/**
 * Brings the glossary to `desired` with one batch (nothing is sent when it matches). The batch is not idempotent (a
 * repeated insert makes a second entry): after a lost answer the glossary is read again and what still differs is
 * sent, once.
 */
async function applyEntries(client: HttpClient, org: string, desired: readonly Entry[], sourceLanguage: string) {
  for (let attempt = 1; ; attempt++) {
    const operations = glossaryOperations(await listGlossaryEntries(client, org), desired, sourceLanguage);
    if (operations.length === 0) return;
    try {
      await updateGlossaryEntries(client, org, operations);
      return;
    } catch (error) {
      if (attempt >= 2 || !outcomeUnknown(error)) throw error;
    }
  }
}

/** The glossary in `sourceLanguage` terms; entries without a term in that language cannot be named, and fail. */
function toState(org: string, sourceLanguage: string, entries: readonly ApiGlossaryEntry[]): State {
  const named: Entry[] = [];
  const unnamed: ApiGlossaryEntry[] = [];
  for (const api of entries) {
    const term = api.translations[sourceLanguage];
    if (term === undefined) unnamed.push(api);
    else named.push({ term, translations: otherLanguages(api, sourceLanguage) });
  }
  if (unnamed.length > 0) {
    const shown = unnamed.slice(0, 5).map((api) => `"${api.id}" (${JSON.stringify(api.translations)})`);
    const more = unnamed.length > shown.length ? `, and ${unnamed.length - shown.length} more` : "";
    throw new Error(
      `TranslationGlossary "${org}": ${unnamed.length} glossary entries have no "${sourceLanguage}" term ` +
        `(sourceLanguage), so no entry of the program can name them: ${shown.join(", ")}${more}. Give each a ` +
        `"${sourceLanguage}" term in the app or delete it there, or declare the sourceLanguage every entry has.`,
    );
  }
  return { organizationId: org, sourceLanguage, entries: named.sort(byTerm) };
}

async function applyDeclared(client: HttpClient, news: Inputs): Promise<State> {
  const { organizationId: org, sourceLanguage } = news;
  await applyEntries(client, org, news.entries, sourceLanguage);
  return toState(org, sourceLanguage, await listGlossaryEntries(client, org));
}

/** The language every entry has a term in (the most common one otherwise), `en` first: what an import keys by. */
export function likelySourceLanguage(entries: readonly ApiGlossaryEntry[]): string {
  const counts = new Map<string, number>();
  for (const api of entries)
    for (const key of Object.keys(api.translations)) counts.set(key, (counts.get(key) ?? 0) + 1);
  let best = "en";
  for (const [key, count] of counts) if (count > (counts.get(best) ?? 0)) best = key;
  return best;
}

export const translationGlossaryKind = defineKind<Inputs, State>({
  kind: "TranslationGlossary",
  docs: {
    description:
      "The organization's translation glossary, as one authoritative list: how each term is translated into each " +
      "language (`/orgs/{organizationId}/translations-glossary`). An organization has one.",
    adoption:
      '`importId: "<organizationId>"`: the glossary is read, and one batch sends only the entries that differ ' +
      "(nothing when none does).",
    notes: [
      "- **Authoritative:** the list owns every entry of the glossary. Creating a TranslationGlossary deletes the " +
        "entries it does not list, an entry added or removed by hand shows as a change in `pulumi preview --refresh`, " +
        "and the next `up` puts the list back.",
      "- **Deleting a TranslationGlossary deletes every entry of the glossary.** Use `retainOnDelete: true` to stop " +
        "managing them and keep them.",
      "- An entry is named by its term in `sourceLanguage`. An entry of the glossary without a term in that language " +
        "cannot be named: a refresh or an import fails naming it (give it one in the app, or delete it there); " +
        "`up` deletes it as an entry the list does not hold.",
      "- Applied with the official batch `PUT …/translations-glossary`: one request carries the inserts, updates and " +
        "deletes. The batch is not idempotent (a repeated insert makes a second entry), so after a lost answer the " +
        "glossary is read again and only what still differs is sent. An entry that loses a language is deleted and " +
        "inserted again (the official document does not say whether an update merges).",
      "- Language keys are the 39 `TranslationLanguage` codes, checked at preview: stricter than the official " +
        "document, which leaves the keys free.",
      "- The official document admits only a user's personal API token to the glossary operations.",
    ],
    example: `new docs.TranslationGlossary("glossary", {
  organizationId,
  sourceLanguage: "en",
  entries: [
    { term: "workspace", translations: { fr: "espace de travail", de: "Arbeitsbereich" } },
    { term: "Docs Platform", translations: { fr: "Docs Platform", de: "Docs Platform" } },
  ],
});`,
  },
  scope: "organization",
  inputs,
  state,
  id: "parent",
  listing: {
    path: ({ organizationId }) => glossaryPath(String(organizationId)),
    async list(ctx, { ids }) {
      const org = String(ids.organizationId);
      const entries = await ctx.listings.get(glossaryPath(org), () => listGlossaryEntries(ctx.client, org));
      // An organization without any entry has no glossary to declare.
      if (entries.length === 0) return [];
      const known = { ...ids, sourceLanguage: likelySourceLanguage(entries) };
      // One per organization: its name in a program needs nothing more.
      return [{ id: org, title: "Glossary", known }];
    },
    // Listed only when it has entries (an organization's glossary starts empty): a glossary kept by hand is reported.
    unmanaged: true,
  },
  imported: { word: "glossary" },
  outputs: [],
  setProperties: ["entries"],
  keyedProperties: { entries: "term" },
  idFormat: "the organization id (an organization has one glossary)",
  replaceOnChanges: ["organizationId"],
  programRules: { uniqueBy: ["organizationId"] },

  // No findCreated: create is the batch PUT, recomputed from a new read after a lost answer (applyEntries).
  async create({ client }, news) {
    return { id: news.organizationId, state: await applyDeclared(client, news) };
  },

  async read({ client, listings }, id, known) {
    if (id !== known.organizationId) return undefined;
    const entries = await listings.get(glossaryPath(id), () => listGlossaryEntries(client, id));
    return { id, state: toState(id, known.sourceLanguage, entries) };
  },

  update: ({ client }, _id, _olds, news) => applyDeclared(client, news),

  async delete({ client }, id, olds) {
    await applyEntries(client, olds.organizationId, [], olds.sourceLanguage);
    logLine("info", `TranslationGlossary "${id}": every entry of the glossary was deleted.`);
  },
});
