/**
 * The fields the four navigation items of a site share where the official document has them: `draft` (staged
 * navigation), `localizedTitle`/`localizedDescription` (labels per language) and `pageId` (a custom home page).
 */
import { z } from "zod";
import { flattenPages, isNotFound, listPages, SPACE_LANGUAGES, spacePagesPath } from "../client";
import type { PreflightApi, PreflightFailure } from "../framework/kind";
import { containsUnknown } from "../framework/unknown";

/** Official `LocalizedString128`/`LocalizedString256`: overrides for languages other than the site's default. */
const localized = (max: number, what: string) =>
  z
    .partialRecord(z.enum(SPACE_LANGUAGES), z.string().min(1).max(max))
    .optional()
    .describe(
      `The ${what} per language other than the site's default, e.g. \`{ fr: "Guides", de: "Anleitungen" }\` ` +
        "(at most " +
        max +
        " characters each). The whole object is managed: a language left out is removed; `{}` removes them all.",
    );

export const localizedTitle = localized(128, "title");
export const localizedDescription = localized(256, "description");

export const draft = z
  .boolean()
  .optional()
  .describe(
    "`true` keeps the item a draft: editors see it in the site's structure, visitors do not (the published structure " +
      "leaves it out). `false` makes it live. Left out: not managed.",
  );

/** A page id of the space the item shows; preflight checks it against the space's pages. */
export const pageId = (of: string) =>
  z
    .string()
    .min(1)
    .nullable()
    .optional()
    .describe(
      `A page of ${of} shown at the item's root instead of the space's first page (find it with \`getPage\`); ` +
        "`null` removes it. Left out: not managed.",
    );

export const draftState = z.boolean().default(false).describe("Whether the item is a draft (not live).");
export const localizedState = z.record(z.string(), z.string()).default({});

/** The API reports no overrides as an absent field. */
export const localizedOf = (value: Record<string, string> | null | undefined): Record<string, string> => ({
  ...(value ?? {}),
});

/**
 * Preflight of `pageId`: a page of `spaceId` (listPages, once per space and operation). A space that does not exist is
 * reported on `spaceId`.
 */
export async function checkPageId(
  kind: string,
  api: PreflightApi,
  inputs: { spaceId: string; pageId?: string | null },
): Promise<PreflightFailure[]> {
  const { spaceId, pageId } = inputs;
  if (typeof pageId !== "string" || containsUnknown(pageId) || containsUnknown(spaceId)) return [];
  const load = async () => flattenPages(await listPages(api.client, spaceId)).map((page) => page.id);
  try {
    if (await api.exists(spacePagesPath(spaceId), pageId, load)) return [];
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
  return [
    {
      property: "pageId",
      reason:
        `${kind}.pageId: preflight: space "${spaceId}" has no page with the id "${pageId}". Give the id of one of its ` +
        `pages: find it by path with \`getPage({ spaceId: "${spaceId}", path: "<page path>" })\`, or list them with ` +
        `\`GET /spaces/${spaceId}/content/pages\`.`,
    },
  ];
}
