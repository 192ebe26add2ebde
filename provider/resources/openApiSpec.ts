import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  type ApiOpenApiSpec,
  createOpenApiSpec,
  deleteOpenApiSpec,
  getLatestOpenApiSpecText,
  getOpenApiSpec,
  type HttpClient,
  type OpenApiSource,
  putOpenApiSpecSource,
} from "../client";
import { type AdoptionArgs, type ArgsOf, DocsResource } from "../framework/resource";
import { defineResource } from "../framework/spec";
import { UNKNOWN } from "../framework/unknown";

const inputs = z
  .strictObject({
    organizationId: z.string().min(1),
    /**
     * The spec's lowercase pattern, not the official one that also allows capitals: a lowercase slug is valid under
     * both, while a capital one risks a service that folds case, and slug forces a replacement on every change.
     */
    slug: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/),
    /** Where the API fetches the document from (over http(s)). Exactly one of sourceUrl and sourceText. */
    sourceUrl: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .optional(),
    /** The document itself, JSON or YAML. */
    sourceText: z.string().min(1).optional(),
    /** Provider setting, never sent: how long `up` waits for the API to process a new source. */
    processingTimeoutSeconds: z.number().positive().max(3600).default(300),
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
  sourceUrl: z.string().nullable().default(null),
  sourceText: z.string().nullable().default(null),
  /** `pending`, `progress` or `complete`. */
  processingState: z.string().default("complete"),
  lastVersionId: z.string().nullable().default(null),
  /** Why the last processing failed (`FETCH_TIMEOUT`, `FETCH_ERROR`, `PARSE_ERROR`), else null. */
  processingErrorCode: z.string().nullable().default(null),
  processingErrors: z.array(z.string()).default([]),
  urls: z.object({ location: z.string(), app: z.string(), published: z.string() }).partial().default({}),
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
  new Error(`OpenApiSpec "${slug}" ${what}: ${(error as Error).message}`, { cause: error });

export const openApiSpecSpec = defineResource<Inputs, State>({
  kind: "OpenApiSpec",
  inputs,
  state,
  settings: ["processingTimeoutSeconds"],
  outputs: ["processingState", "lastVersionId", "processingErrorCode", "processingErrors", "urls"],
  idFormat: "the spec id (API `id`), or its slug; the API is addressed by slug, which the state keeps",
  // Slugs cannot be renamed, and no endpoint moves a spec to another organization.
  replaceOnChanges: ["organizationId", "slug"],

  async create({ client }, news) {
    const spec = await createOpenApiSpec(client, news.organizationId, { slug: news.slug, source: sourceOf(news) });
    try {
      const done = await processed(client, news.organizationId, spec, news.processingTimeoutSeconds);
      return { id: done.id, state: toState(news.organizationId, done, news.sourceText ?? null) };
    } catch (error) {
      // A failed create leaves nothing in the state: remove the spec, or the next `up` would find its slug taken.
      // Whether or not that works, the error to report is the processing failure, not the removal's.
      const removed = await deleteOpenApiSpec(client, news.organizationId, news.slug).then(
        () => true,
        () => false,
      );
      const what = removed
        ? "create (the spec was removed again; fix the source and run `up`)"
        : `create (removing the spec failed too: fix the source and adopt it with importId "${news.slug}")`;
      throw failure(news.slug, what, error);
    }
  },

  async read({ client }, id, known) {
    const organizationId = known.organizationId as string;
    const spec = await getOpenApiSpec(client, organizationId, known.slug as string);
    // Another spec under the same slug is not this resource's object (importId may also name the slug).
    if (spec.id !== id && spec.slug !== id) return undefined;
    // The API does not echo a text source: the latest version's text is what it serves, so drift shows. Each
    // accepted source makes a new version, so while the version is the one last seen the text is too, and a refresh
    // costs one request.
    let sourceText: string | null = null;
    if (typeof known.sourceText === "string" && !spec.sourceURL && spec.lastVersion) {
      sourceText =
        spec.lastVersion === known.lastVersionId
          ? known.sourceText
          : await getLatestOpenApiSpecText(client, organizationId, spec.slug);
    }
    return { id: spec.id, state: toState(organizationId, spec, sourceText) };
  },

  async update({ client }, _id, olds, news) {
    // Only the source changes in place: PUT it and wait for the new version.
    const spec = await putOpenApiSpecSource(client, olds.organizationId, olds.slug, sourceOf(news));
    try {
      const done = await processed(client, olds.organizationId, spec, news.processingTimeoutSeconds);
      return toState(olds.organizationId, done, news.sourceText ?? null);
    } catch (error) {
      throw failure(olds.slug, "update (the state keeps the previous source, so the next `up` tries again)", error);
    }
  },

  delete: ({ client }, _id, olds) => deleteOpenApiSpec(client, olds.organizationId, olds.slug),
});

export type OpenApiSpecArgs = ArgsOf<z.input<typeof inputs>> & AdoptionArgs;

/** An OpenAPI specification of an organization, processed into versions. Id: the spec id. */
export class OpenApiSpec extends DocsResource {
  declare readonly organizationId: pulumi.Output<string>;
  declare readonly slug: pulumi.Output<string>;
  /** The source URL, or null when the source is text or its last processing failed. */
  declare readonly sourceUrl: pulumi.Output<string | null>;
  declare readonly sourceText: pulumi.Output<string | null>;
  declare readonly processingTimeoutSeconds: pulumi.Output<number>;
  declare readonly processingState: pulumi.Output<string>;
  /** Id of the latest successfully processed version. */
  declare readonly lastVersionId: pulumi.Output<string | null>;
  declare readonly processingErrorCode: pulumi.Output<string | null>;
  declare readonly processingErrors: pulumi.Output<string[]>;
  /** `location` (API URL), `app` (the spec in the web app) and, for public specs, `published`. */
  declare readonly urls: pulumi.Output<{ location?: string; app?: string; published?: string }>;

  constructor(name: string, args: OpenApiSpecArgs, opts?: pulumi.CustomResourceOptions) {
    super(openApiSpecSpec, name, args, opts);
  }
}
