import { z } from "zod";
import {
  type ApiOpenApiSpec,
  createOpenApiSpec,
  deleteOpenApiSpec,
  getLatestOpenApiSpecText,
  getOpenApiSpec,
  type HttpClient,
  listOpenApiSpecs,
  NotFoundError,
  OPENAPI_VISIBILITIES,
  type OpenApiSource,
  openApiSpecsPath,
  putOpenApiSpecSource,
  setOpenApiSpecVisibility,
} from "../client";
import { undoOnFailure } from "../framework/cleanup";
import { apiId, defineKind, SENSITIVE } from "../framework/kind";
import { readListed } from "../framework/listings";
import { UNKNOWN } from "../framework/unknown";

const inputs = z
  .strictObject({
    organizationId: apiId.describe("The organization the spec belongs to."),
    // The API reference's lowercase pattern, not the official document's that also allows capitals: a lowercase slug
    // is valid under both, while a capital one risks a service that folds case, and a slug change replaces the spec.
    slug: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
      .describe("The spec's name in URLs: lowercase letters and digits in hyphen-separated groups."),
    sourceUrl: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .optional()
      .describe(
        "Where the API fetches the document from (`http` or `https`). Exactly one of `sourceUrl` and `sourceText`.",
      ),
    sourceText: z
      .string()
      .min(1)
      .optional()
      .meta(SENSITIVE)
      .describe("The document itself, JSON or YAML. Exactly one of `sourceUrl` and `sourceText`."),
    visibility: z
      .enum(OPENAPI_VISIBILITIES)
      .optional()
      .describe(
        "`public` publishes the spec's versions to anyone with the link; `private` (the API's default) does not.",
      ),
    processingTimeoutSeconds: z
      .number()
      .positive()
      .max(3600)
      .default(300)
      .describe("How long `up` waits for the API to process a new source. Never sent to the API."),
  })
  .superRefine((news, ctx) => {
    // During preview an unknown source may still turn out to be undefined: judge the pair once both are known.
    if (news.sourceUrl === UNKNOWN || news.sourceText === UNKNOWN) return;
    if ((news.sourceUrl === undefined) !== (news.sourceText === undefined)) return;
    const property = news.sourceUrl === undefined ? "sourceUrl" : "sourceText";
    ctx.addIssue({ code: "custom", path: [property], message: "exactly one of sourceUrl and sourceText must be set" });
  });

const state = z.object({
  organizationId: z.string(),
  slug: z.string(),
  sourceUrl: z
    .string()
    .nullable()
    .default(null)
    .describe("The source URL, or `null` when the source is text or its last processing failed."),
  sourceText: z.string().nullable().default(null).describe("The source text, or `null` for a URL source."),
  visibility: z.string().default("private"),
  processingState: z.string().default("complete").describe("`pending`, `progress` or `complete`."),
  lastVersionId: z.string().nullable().default(null).describe("The id of the latest successfully processed version."),
  processingErrorCode: z
    .string()
    .nullable()
    .default(null)
    .describe("`FETCH_TIMEOUT`, `FETCH_ERROR` or `PARSE_ERROR` when the last processing failed, else `null`."),
  processingErrors: z
    .array(z.string())
    .default([])
    .describe('The processing errors, as `"<code>: <message>"` strings.'),
  urls: z
    .object({ location: z.string(), app: z.string(), published: z.string() })
    .partial()
    .default({})
    .describe("`location` (API URL), `app` (the spec in the web app) and, for a public spec, `published`."),
});

type Inputs = z.output<typeof inputs>;
type State = z.output<typeof state>;

function toState(organizationId: string, spec: ApiOpenApiSpec, sourceText: string | null): State {
  const failed = spec.lastProcessErrorCode ?? null;
  return {
    organizationId,
    slug: spec.slug,
    // A source that failed to process is not what is served: reporting none keeps it a diff, so `up` retries it.
    sourceUrl: failed ? null : (spec.sourceURL ?? null),
    sourceText,
    visibility: spec.visibility ?? "private",
    processingState: spec.processingState,
    lastVersionId: spec.lastVersion ?? null,
    processingErrorCode: failed,
    processingErrors: (spec.lastProcessedErrors ?? []).map((e) => (e.code ? `${e.code}: ${e.message}` : e.message)),
    urls: { location: spec.urls?.location, app: spec.urls?.app, published: spec.urls?.published },
  };
}

const sourceOf = (news: Inputs): OpenApiSource =>
  news.sourceUrl !== undefined ? { url: news.sourceUrl } : { text: news.sourceText ?? "" };

/** Polls (backing off from 100 ms to 5 s) until processing completes; fails with the API's error code. */
async function processed(client: HttpClient, organizationId: string, start: ApiOpenApiSpec, timeoutSeconds: number) {
  const deadline = Date.now() + timeoutSeconds * 1000;
  let spec = start;
  for (let delay = 100; spec.processingState !== "complete"; delay = Math.min(delay * 2, 5000)) {
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new Error(
        `still "${spec.processingState}" after ${timeoutSeconds} s; raise processingTimeoutSeconds or run \`up\` later`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay, left)));
    spec = await getOpenApiSpec(client, organizationId, spec.slug);
  }
  if (spec.lastProcessErrorCode) {
    const errors = (spec.lastProcessedErrors ?? []).map((e) => e.message).join("; ");
    throw new Error(`processing failed with ${spec.lastProcessErrorCode}${errors ? `: ${errors}` : ""}`);
  }
  return spec;
}

const failure = (slug: string, what: string, error: unknown) =>
  new Error(`OpenApiSpec "${slug}" ${what}: ${error instanceof Error ? error.message : String(error)}`, {
    cause: error,
  });

export const openApiSpecKind = defineKind<Inputs, State>({
  kind: "OpenApiSpec",
  docs: {
    description: "An OpenAPI document of an organization, which the API processes into versions.",
    adoption:
      '`importId: "<slug>"` or the spec id. The spec is looked up by the declared `slug`, so `slug` must be the ' +
      "adopted spec's slug. A declared source that differs from the current one is sent and processed.",
    notes: [
      "- `up` waits for processing: after a create or a source change it polls the spec (backing off from 100 ms to " +
        "5 s) until `processingState` is `complete`, for at most `processingTimeoutSeconds`. If processing fails or " +
        "times out on create, the new spec is deleted again (so its slug stays free) and `up` fails with the API's " +
        "error code and messages; on update, `up` fails and the state keeps the previous source, so the next `up` " +
        "sends the new source again.",
      "- Drift: for a text source, refresh compares `sourceText` with the text of the latest processed version " +
        "(`GET …/versions/latest/content/raw`); for a URL source, with the spec's `sourceURL`.",
      "- A URL source is fetched when it is created or changed. If the document behind an unchanged `sourceUrl` " +
        "changes, `up` does not see a change and does not make the API fetch it again.",
      "- `slug` accepts only lowercase letters: the official API document also allows capitals, but the provider uses " +
        "the stricter rule of the API reference so that a slug is valid under both, since every slug change replaces " +
        "the spec.",
      "- Switching from `sourceUrl` to `sourceText`, or back, is an in-place update; so is a change of `visibility` " +
        "(`PATCH /orgs/{organizationId}/openapi/{slug}`), which creates no new version.",
    ],
    example: `const petstore = new docs.OpenApiSpec("petstore", {
  organizationId,
  slug: "petstore",
  sourceUrl: "https://petstore3.swagger.io/api/v3/openapi.json",
});
export const openApiVersion = petstore.lastVersionId;`,
  },
  scope: "organization",
  inputs,
  state,
  providerOptions: ["processingTimeoutSeconds"],
  listing: {
    path: ({ organizationId }) => openApiSpecsPath(String(organizationId)),
    async list(ctx, { ids }) {
      const org = String(ids.organizationId);
      const all = await ctx.listings.get(openApiSpecsPath(org), () => listOpenApiSpecs(ctx.client, org));
      // The API does not echo a text source: a string `sourceText` asks the read for the latest version's text.
      return all.map((s) => ({
        id: s.id,
        title: s.slug,
        known: { ...ids, slug: s.slug, ...(s.sourceURL ? {} : { sourceText: "" }) },
        item: s,
      }));
    },
    noun: "OpenAPI specification",
    unmanaged: true,
  },
  imported: { word: "spec", heading: "OpenAPI specifications." },
  outputs: ["processingState", "lastVersionId", "processingErrorCode", "processingErrors", "urls"],
  idFormat: "the spec id (API `id`), or its slug; the API is addressed by slug, which the state keeps",
  // Slugs cannot be renamed, and no endpoint moves a spec to another organization.
  replaceOnChanges: ["organizationId", "slug"],

  // The slug is unique in the organization: the spec under it is the one the lost request made, whenever it was. It
  // is processed before it is adopted, as a create waits, or the state would keep a `pending` that a refresh changes.
  async findCreated({ client }, news) {
    const spec = await getOpenApiSpec(client, news.organizationId, news.slug).catch((error: unknown) => {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    });
    if (!spec) return [];
    await processed(client, news.organizationId, spec, news.processingTimeoutSeconds);
    return [{ id: spec.id, title: spec.slug }];
  },
  async create({ client }, news) {
    const created = await createOpenApiSpec(client, news.organizationId, { slug: news.slug, source: sourceOf(news) });
    // A failed create leaves nothing in the state: remove the spec, or the next `up` would find its slug taken.
    const done = await undoOnFailure(
      { kind: "OpenApiSpec", id: news.slug, title: news.slug },
      () => deleteOpenApiSpec(client, news.organizationId, news.slug),
      async () => {
        const done = await processed(client, news.organizationId, created, news.processingTimeoutSeconds);
        const { visibility } = news;
        return visibility ? setOpenApiSpecVisibility(client, news.organizationId, news.slug, visibility) : done;
      },
    ).catch((error) => {
      throw failure(news.slug, "create", error);
    });
    return { id: done.id, state: toState(news.organizationId, done, news.sourceText ?? null) };
  },

  async read({ client, listings }, id, known) {
    const { organizationId } = known;
    // One listing of the organization's specs (the same OpenAPISpec objects, `lastVersion` included, as the single
    // GET by slug) serves every spec of a refresh; no spec under the slug in it means gone.
    const spec = await readListed(listings, {
      path: openApiSpecsPath(organizationId),
      list: () => listOpenApiSpecs(client, organizationId),
      matches: (item) => item.slug === known.slug,
      single: () => getOpenApiSpec(client, organizationId, known.slug),
    });
    if (spec === undefined) return undefined;
    // Another spec under the same slug is not this resource's object (importId may also name the slug).
    if (spec.id !== id && spec.slug !== id) return undefined;
    // The API does not echo a text source: the latest version's text is what it serves, so drift shows. Each
    // accepted source makes a new version, so while the version is the one last seen the text is too, and a refresh
    // costs one request.
    let sourceText: string | null = null;
    if (typeof known.sourceText === "string" && !spec.sourceURL && spec.lastVersion) {
      const lastSeen = "lastVersionId" in known ? known.lastVersionId : undefined;
      sourceText =
        spec.lastVersion === lastSeen
          ? known.sourceText
          : await getLatestOpenApiSpecText(client, organizationId, spec.slug);
    }
    return { id: spec.id, state: toState(organizationId, spec, sourceText) };
  },

  async update({ client }, _id, olds, news, changed) {
    let spec: ApiOpenApiSpec | undefined;
    if (changed.has("sourceUrl") || changed.has("sourceText")) {
      // A new source: PUT it and wait for the new version.
      const put = await putOpenApiSpecSource(client, olds.organizationId, olds.slug, sourceOf(news));
      try {
        spec = await processed(client, olds.organizationId, put, news.processingTimeoutSeconds);
      } catch (error) {
        throw failure(olds.slug, "update (the state keeps the previous source, so the next `up` tries again)", error);
      }
    }
    if (changed.has("visibility") && news.visibility) {
      spec = await setOpenApiSpecVisibility(client, olds.organizationId, olds.slug, news.visibility);
    }
    spec ??= await getOpenApiSpec(client, olds.organizationId, olds.slug);
    const sourceText = news.sourceUrl !== undefined ? null : (news.sourceText ?? olds.sourceText);
    return toState(olds.organizationId, spec, sourceText);
  },

  delete: ({ client }, _id, olds) => deleteOpenApiSpec(client, olds.organizationId, olds.slug),
});
