import { z } from "zod";
import {
  type ApiTranslation,
  createTranslation,
  deleteTranslation,
  documentOf,
  getTranslation,
  listSpaces,
  listTranslations,
  runTranslation,
  spacesPath,
  TRANSLATION_LANGUAGES,
  textOf,
  translationsPath,
  updateTranslation,
} from "../client";
import { apiId, defineKind, idRef } from "../framework/kind";
import { readListed } from "../framework/listings";
import { logLine } from "../framework/log";
import { createdSince } from "../framework/recovery";

const language = z.enum(TRANSLATION_LANGUAGES);

const inputs = z
  .strictObject({
    organizationId: apiId.describe("The organization the translation belongs to."),
    sourceSpaceId: idRef("Space").describe("The space whose content is translated."),
    sourceLanguage: language.describe("The language the source space is written in (the official `source.language`)."),
    language: language.describe("The language to translate into; another language than `sourceLanguage`."),
    instructions: z
      .string()
      .optional()
      .describe(
        'Instructions for the translator, as plain text: each line is a paragraph. Left out: not managed; `""` ' +
          "clears them.",
      ),
    runTrigger: z
      .record(z.string(), z.string())
      .optional()
      .describe(
        "Arbitrary values; a change of any of them runs the translation again (like pulumi-random's `keepers`), " +
          'e.g. `{ release: "2026.11" }`. Never sent to the API.',
      ),
  })
  .superRefine((news, ctx) => {
    // Two unknown languages compare equal here; the framework drops an issue at an unknown value.
    if (news.language !== news.sourceLanguage) return;
    ctx.addIssue({
      // Stryker disable next-line StringLiteral: describeIssue reports any code it does not name by the issue's message
      code: "custom",
      path: ["language"],
      message: `"${news.language}" is also sourceLanguage: a translation goes into another language`,
    });
  });

const state = z.object({
  organizationId: z.string(),
  sourceSpaceId: z.string(),
  sourceLanguage: z.string(),
  language: z.string(),
  instructions: z.string().default(""),
  runTrigger: z.record(z.string(), z.string()).nullable().default(null),
  status: z.string().default("pending").describe("Where the latest run stands: `pending`, `running` or `completed`."),
  resultSpaceId: z
    .string()
    .nullable()
    .default(null)
    .describe("The space the translation writes into, once a run has made it (`null` before)."),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

function toState(translation: ApiTranslation, organization: string, runTrigger: State["runTrigger"]): State {
  return {
    organizationId: organization,
    sourceSpaceId: translation.source.space,
    sourceLanguage: translation.source.language,
    language: translation.language,
    instructions: textOf(translation.instructions),
    runTrigger,
    status: translation.status,
    // `stats` are left out: they change with every run, and a refresh would report them each time.
    resultSpaceId: translation.result?.space ?? null,
  };
}

/** Only the instructions can be written (PUT); everything else names another translation. */
const REPLACING = ["organizationId", "sourceSpaceId", "sourceLanguage", "language"] as const;

export const translationKind = defineKind<Inputs, State>({
  kind: "Translation",
  docs: {
    description:
      "A translation of a space's content into another language, with instructions for the translator " +
      "(`/orgs/{organizationId}/translations`). The API makes the translated space and writes into it on each run.",
    adoption:
      '`importId: "<translationId>"`: the translation is read, and a PUT is sent only when the declared ' +
      "`instructions` differ.",
    notes: [
      "- The source space, the source language and the target language cannot change: a change of any of them " +
        "replaces the translation (the official `PUT` takes only `instructions`).",
      "- Running a translation is an action, not configuration: creating one starts its first run, and a change of " +
        "`runTrigger` runs it again (`POST …/run`). Nothing else runs it, so editing the source space does not " +
        "re-translate it until `runTrigger` changes (or someone runs it in the app).",
      "- `resultSpaceId` is the space the API translates into; it appears once a run has made it. That space is " +
        "the translation's: `docs-platform unmanaged` does not report it, and deleting the Translation leaves it " +
        "(and its content) in place. `docs-platform import` declares it as a Space like any other (kept on " +
        "delete), so that a SiteSpace publishing it can refer to it.",
      "- `instructions` is plain text, compared as text: instructions formatted in the app read as their words, one " +
        "block per line, and stay as they are until the program's text differs.",
      "- `status` and `resultSpaceId` are read on every refresh; the run's statistics (`stats`) are not kept, since " +
        "they change with every run.",
      "- The official document admits only a user's personal API token to every translation operation.",
    ],
    example: `new docs.Translation("handbook-fr", {
  organizationId,
  sourceSpaceId: handbook.id,
  sourceLanguage: "en",
  language: "fr",
  instructions: "Address readers with vous.\\nKeep product names in English.",
  runTrigger: { release: "2026.11" },
});`,
  },
  scope: "organization",
  inputs,
  state,
  listing: {
    path: ({ organizationId }) => translationsPath(String(organizationId)),
    async list(ctx, { ids }) {
      const org = String(ids.organizationId);
      const all = await ctx.listings.get(translationsPath(org), () => listTranslations(ctx.client, org));
      if (all.length === 0) return [];
      // A translation has no title of its own: its source space's (from the listing the spaces share) and language.
      const spaces = await ctx.listings.get(spacesPath(org), () => listSpaces(ctx.client, org));
      const titles = new Map(spaces.map((s) => [s.id, s.title]));
      return all.map((t) => ({
        id: t.id,
        title: `${titles.get(t.source.space) ?? t.source.space} ${t.language}`,
        known: ids,
        item: t,
      }));
    },
    unmanaged: true,
  },
  imported: { word: "translation", heading: "Translations of spaces." },
  outputs: ["status", "resultSpaceId"],
  idFormat: "the translation id (API `id`); the organization comes from `organizationId`",
  replaceOnChanges: [...REPLACING],

  async findCreated({ client }, news, since) {
    const all = await listTranslations(client, news.organizationId);
    return all
      .filter(
        (t) =>
          t.source.space === news.sourceSpaceId &&
          t.source.language === news.sourceLanguage &&
          t.language === news.language &&
          createdSince(t.createdAt, since),
      )
      .map((t) => ({ id: t.id, title: `${t.source.space} ${t.language}` }));
  },
  async create({ client }, news) {
    const translation = await createTranslation(client, news.organizationId, {
      source: { space: news.sourceSpaceId, language: news.sourceLanguage },
      language: news.language,
      ...(news.instructions !== undefined ? { instructions: documentOf(news.instructions) } : {}),
    });
    return { id: translation.id, state: toState(translation, news.organizationId, news.runTrigger ?? null) };
  },

  // One listing of the organization's translations (the same Translation objects as the single GET) serves every
  // translation of a refresh; one missing from it is gone.
  async read({ client, listings }, id, known) {
    const { organizationId } = known;
    const translation = await readListed(listings, {
      path: translationsPath(organizationId),
      list: () => listTranslations(client, organizationId),
      matches: (item) => item.id === id,
      single: () => getTranslation(client, organizationId, id),
    });
    return translation && { id, state: toState(translation, organizationId, known.runTrigger ?? null) };
  },

  async update({ client }, id, olds, news, changed) {
    const organization = olds.organizationId;
    // Only reachable by adopting with an importId naming another translation (a declared change replaces).
    const other = REPLACING.filter((key) => changed.has(key));
    if (other.length > 0) {
      throw new Error(
        `Translation "${id}": importId names a translation whose ${other.join(", ")} differ from the inputs ` +
          `(${other.map((key) => `${key} "${olds[key]}"`).join(", ")}); declare those values, or remove importId ` +
          "to create a new translation.",
      );
    }
    let translation: ApiTranslation | undefined;
    if (changed.has("instructions") && news.instructions !== undefined) {
      translation = await updateTranslation(client, organization, id, documentOf(news.instructions));
    }
    if (changed.has("runTrigger")) {
      await runTranslation(client, organization, id);
      logLine("info", `Translation "${id}": a new run was started (runTrigger changed).`);
      translation = undefined;
    }
    return toState(
      translation ?? (await getTranslation(client, organization, id)),
      organization,
      news.runTrigger ?? null,
    );
  },

  async delete({ client }, id, olds) {
    await deleteTranslation(client, olds.organizationId, id);
    if (olds.resultSpaceId) {
      logLine("info", `Translation "${id}": its translated space "${olds.resultSpaceId}" is left in place.`);
    }
  },
});
