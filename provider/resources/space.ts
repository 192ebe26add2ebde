import { z } from "zod";
import {
  type ApiSpace,
  createSpace,
  deleteSpace,
  getSpace,
  listSpaces,
  moveSpace,
  SPACE_EDIT_MODES,
  SPACE_LANGUAGES,
  type SpacePatch,
  spacesPath,
  updateSpace,
} from "../client";
import { undoOnFailure } from "../framework/cleanup";
import { apiId, defineKind, idRef } from "../framework/kind";
import { logLine } from "../framework/log";
import { createdSince } from "../framework/recovery";
import { UNKNOWN } from "../framework/unknown";
import { DEFAULT_LEVELS } from "./common";
import {
  COMPUTED_SOURCE_NOTES,
  computedSource,
  computedSourceBody,
  computedSourceState,
  describeComputedSourceChange,
} from "./computedSource";
import { mergeRulesOf, mergeRulesState, spaceMergeRules } from "./mergeRules";

const inputs = z
  .strictObject({
    organizationId: apiId.describe(
      "The organization the space belongs to. A change replaces the space: the official document has no transfer.",
    ),
    title: z.string().max(50).describe("The space's title."),
    emoji: z
      .string()
      .min(1)
      .max(50)
      .nullable()
      .optional()
      .describe(
        "The space's emoji, as the API reports it (a code point such as `1f4d8`, or the character); `null` removes " +
          "the emoji and the icon. Not together with `icon`.",
      ),
    icon: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .nullable()
      .optional()
      .describe(
        "The URL of an image shown in place of an emoji; `null` removes the icon and the emoji. Not together with `emoji`.",
      ),
    editMode: z
      .enum(SPACE_EDIT_MODES)
      .optional()
      .describe("`live` (members edit the content directly) or `locked` (all edits are locked)."),
    defaultLevel: z
      .enum(DEFAULT_LEVELS)
      .nullable()
      .optional()
      .describe(
        "The access every organization member gets: a role, `inherit` (from the parent collection) or `null` (none).",
      ),
    language: z.enum(SPACE_LANGUAGES).optional().describe("The language the space's content is written in."),
    mergeRules: spaceMergeRules,
    computedSource,
    // Omitted means the organization's top level, so a space moved elsewhere out of band is drift.
    parentId: idRef("Collection")
      .nullable()
      .default(null)
      .describe(
        "The collection the space is in; omitted or `null` means the organization's top level. A change moves it.",
      ),
  })
  .superRefine((news, ctx) => {
    // The official PATCH body takes an emoji or an icon, never both: one replaces the other.
    const known = news.emoji !== UNKNOWN && news.icon !== UNKNOWN;
    if (known && typeof news.emoji === "string" && typeof news.icon === "string") {
      ctx.addIssue({ code: "custom", path: ["icon"], message: "must not be set together with emoji" });
    }
  });

const state = z.object({
  organizationId: z.string(),
  computedSource: computedSourceState,
  title: z.string(),
  emoji: z.string().nullable().default(null).describe("The emoji, or `null` when the space has none."),
  icon: z.string().nullable().default(null).describe("The icon's URL, or `null` when the space has none."),
  editMode: z.string().default("live"),
  defaultLevel: z.string().nullable().default(null),
  language: z.string().nullable().default(null).describe("The content's language, or `null` when none is set."),
  parentId: z.string().nullable().default(null),
  mergeRules: mergeRulesState,
  visibility: z
    .string()
    .default("private")
    .describe(
      "Who can read the space: `private`, `in-collection`, `public`, `unlisted`, `share-link` or `visitor-auth`. " +
        "Set through the sites that publish it (the official document has no field to set it on a space).",
    ),
  urls: z
    .object({ location: z.string(), app: z.string(), published: z.string() })
    .partial()
    .default({})
    .describe("`location` (the API URL), `app` (the space in the web app) and `published` when it is published."),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

/** `computedSource` is kept from what was created or declared (`known`): the Space object does not report it. */
function toState(space: ApiSpace, known: { computedSource?: State["computedSource"] | undefined }): State {
  return {
    organizationId: space.organization,
    computedSource: known.computedSource ?? null,
    title: space.title,
    // The API reports `""` for a space without an emoji.
    emoji: space.emoji || null,
    icon: space.urls?.icon ?? null,
    editMode: space.editMode ?? "live",
    defaultLevel: space.defaultLevel ?? null,
    language: space.language ?? null,
    parentId: space.parent ?? null,
    mergeRules: mergeRulesOf(space.mergeRules),
    visibility: space.visibility ?? "private",
    urls: { location: space.urls?.location, app: space.urls?.app, published: space.urls?.published },
  };
}

/**
 * The PATCH body for the changed fields. The API takes `{emoji}`, `{icon}` or `{emoji: null, icon: null}`: an icon
 * or emoji replaces the other, and `null` for either removes both.
 */
function patchOf(news: Inputs, changed: ReadonlySet<string>): SpacePatch | undefined {
  const patch: SpacePatch = {};
  if (changed.has("title")) patch.title = news.title;
  for (const key of ["editMode", "defaultLevel", "language", "mergeRules"] as const) {
    if (changed.has(key) && news[key] !== undefined) Object.assign(patch, { [key]: news[key] });
  }
  const emojiChanged = changed.has("emoji") && news.emoji !== undefined;
  const iconChanged = changed.has("icon") && news.icon !== undefined;
  if (iconChanged && news.icon) patch.icon = news.icon;
  else if (emojiChanged && news.emoji) patch.emoji = news.emoji;
  else if ((emojiChanged && news.emoji === null) || (iconChanged && news.icon === null)) {
    patch.emoji = null;
    patch.icon = null;
  }
  return Object.keys(patch).length > 0 ? patch : undefined;
}

export const spaceKind = defineKind<Inputs, State>({
  kind: "Space",
  docs: {
    description:
      "A space: a container of documentation content (pages, files, change requests), at the top level of an " +
      "organization or in a collection. Deleting it deletes its content (restorable for 7 days).",
    adoption:
      '`importId: "<spaceId>"` — the common case: most spaces exist before the program does. Nothing is written when ' +
      "the declared fields match the space; adopting a space in a collection without declaring its `parentId` moves it " +
      "to the top level. A space of another organization than `organizationId` is refused (no transfer exists).",
    notes: [
      "- **Deleting a space deletes its content.** The API keeps a deleted space for 7 days, during which " +
        "`POST /spaces/{spaceId}/restore` brings it back; the delete's log line says so. Give spaces that hold content " +
        "`protect: true` (no `destroy` or replace removes them) or `retainOnDelete: true` (removing the resource from " +
        "the program leaves the space in place), as in the example.",
      "- Create is `POST /orgs/{organizationId}/spaces` with `title`, `emoji`, `parentId`, `language` and `editMode`, " +
        "followed by one `PATCH` when `defaultLevel` or `icon` is declared (a failed `PATCH` deletes the new space).",
      "- Updates are in place: `PATCH /spaces/{spaceId}` for `title`, `emoji`/`icon`, `editMode`, `defaultLevel` and " +
        "`language`; `POST /spaces/{spaceId}/move` for `parentId`. A change of `organizationId` replaces the space, " +
        "since the official document has no space transfer (the API reference's `POST /spaces/{spaceId}/transfer` is " +
        "not used); with `protect: true` such a change fails instead.",
      "- `parentId` is always managed: a space moved by hand is drift. `visibility` is an output: the official document " +
        "has no field that sets it on a space.",
      "- `mergeRules` is sent with the follow-up `PATCH` of a create and compared order-insensitively; a new space has " +
        "`inherit` (its organization's rules).",
      ...COMPUTED_SOURCE_NOTES,
      "- Not managed: templates of the create body (content, not settings), git sync and visitor authentication " +
        "(their own API objects); the order among sibling spaces and collections: the official move operations take a " +
        "`position` (before or after a sibling), but neither the `Space` nor the `Collection` object reports one and " +
        "their listings document no order, so a reorder by hand could not be seen.",
    ],
    example: `const guides = new docs.Collection("guides", { organizationId, title: "Guides" });
const handbook = new docs.Space(
  "handbook",
  { organizationId, title: "Handbook", emoji: "1f4d8", parentId: guides.id, defaultLevel: "read" },
  { protect: true }, // deleting a space deletes its content
);
// An existing space, adopted; removing it from the program leaves the space in place.
new docs.Space("legacy", { organizationId, title: "Legacy API", importId: "<spaceId>" }, { retainOnDelete: true });`,
  },
  scope: "organization",
  inputs,
  state,
  listing: {
    path: ({ organizationId }) => spacesPath(String(organizationId)),
    async list(ctx, { ids }) {
      const org = String(ids.organizationId);
      const all = await ctx.listings.get(spacesPath(org), () => listSpaces(ctx.client, org));
      return all.map((s) => ({ id: s.id, title: s.title, known: ids, item: s }));
    },
    // The space a translation writes into is the translation's (the API made it).
    managedBy: { byOutput: { kind: "Translation", property: "resultSpaceId" } },
    unmanaged: true,
  },
  imported: {
    word: "space",
    heading: "Spaces: kept when removed from the program or destroyed, since deleting one deletes its content.",
    // A space holds content its deletion takes along: the program adopts spaces and never deletes one.
    resourceOptions: "{ retainOnDelete: true }",
  },
  outputs: ["visibility", "urls"],
  idFormat: "the space id, as in `https://app.gitbook.com/o/<org>/s/<spaceId>`",
  // Moving (parentId) has an endpoint of its own; spaces cannot change organization (no transfer in the official
  // document).
  // computedSource: set only by the create, and never reported back (see computedSource.ts).
  replaceOnChanges: ["organizationId", "computedSource"],
  describeChange: (id, olds, news, changed) => describeComputedSourceChange(id, olds, news, changed),

  // A lost create answer: the spaces with the declared title, under the declared parent, made since the request began.
  async findCreated({ client }, news, since) {
    const all = await listSpaces(client, news.organizationId);
    return all
      .filter(
        (space) =>
          space.title === news.title &&
          (space.parent ?? null) === (news.parentId ?? null) &&
          createdSince(space.createdAt, since),
      )
      .map((space) => ({ id: space.id, title: space.title }));
  },
  async create({ client }, news) {
    const created = await createSpace(client, news.organizationId, {
      title: news.title,
      ...(news.emoji && !news.icon ? { emoji: news.emoji } : {}),
      ...(news.parentId ? { parent: news.parentId } : {}),
      ...(news.language ? { language: news.language } : {}),
      ...(news.editMode ? { editMode: news.editMode } : {}),
      ...(news.computedSource ? { computedSource: computedSourceBody(news.computedSource) } : {}),
    });
    const patch = patchOf(news, new Set(["defaultLevel", "icon", "mergeRules"]));
    const space = patch
      ? await undoOnFailure(
          { kind: "Space", id: created.id },
          () => deleteSpace(client, created.id),
          () => updateSpace(client, created.id, patch),
        )
      : created;
    return { id: space.id, state: toState(space, news) };
  },

  async read({ client }, id, known) {
    return { id, state: toState(await getSpace(client, id), known) };
  },

  async update({ client }, id, olds, news, changed) {
    // Only reachable by adopting a space of another organization (a declared change replaces).
    if (changed.has("organizationId")) {
      throw new Error(
        `Space "${id}" belongs to organization "${olds.organizationId}", not "${news.organizationId}": ` +
          "spaces cannot be transferred; fix organizationId or importId.",
      );
    }
    let space: ApiSpace | undefined;
    if (changed.has("parentId")) space = await moveSpace(client, id, news.parentId);
    const patch = patchOf(news, changed);
    if (patch) space = await updateSpace(client, id, patch);
    return toState(space ?? (await getSpace(client, id)), olds);
  },

  async delete({ client }, id, olds) {
    await deleteSpace(client, id);
    logLine(
      "warn",
      `Space "${id}" ("${olds.title}") was deleted with its content. It can be restored for 7 days: ` +
        `POST /v1/spaces/${id}/restore, then adopt it again with importId.`,
    );
  },
});
