/**
 * OpenAPI specs and their versions, with the simulated processing: every accepted source starts a job that is
 * `pending` for one step (`openApiStepMs`), `progress` for a second one and then `complete`. A successful job
 * records a version (the spec's latest); a failed one sets `lastProcessErrorCode`. Nothing is fetched: a `url`
 * source succeeds unless its host is `*.unreachable.invalid` / `unreachable.invalid` (FETCH_ERROR) or
 * `timeout.invalid` (FETCH_TIMEOUT); a `text` source must be a JSON object or YAML whose first statement is
 * `openapi:` / `swagger:` (else PARSE_ERROR). A job is settled lazily when its spec is read, so no timers are left
 * behind. Composed over the tables like every store (store.ts).
 */
import { BadRequestError } from "../../errors";
import type { Tables } from "../../tables";
import { isPlainObject } from "../../validate";
import type { OpenApiErrorCode, OpenApiSource, OpenApiSpecRec, OpenApiVersionRec } from "./records";

export type ProcessingState = "pending" | "progress" | "complete";

export class OpenApiStore {
  private readonly tables: Tables;
  /** Time per processing step (EmulatorOptions.openApiStepMs). */
  private readonly stepMs: number;

  constructor(tables: Tables, stepMs: number) {
    this.tables = tables;
    this.stepMs = stepMs;
  }

  openApiSpecBySlug(orgId: string, slug: string): OpenApiSpecRec | undefined {
    for (const s of this.tables.openApiSpecs.values()) if (s.orgId === orgId && s.slug === slug) return s;
    return undefined;
  }

  /** A new spec without a source yet; a slug names one spec per organization (400 otherwise, as the official POST). */
  createOpenApiSpec(orgId: string, slug: string): OpenApiSpecRec {
    if (this.openApiSpecBySlug(orgId, slug)) {
      throw new BadRequestError(`slug: an OpenAPI spec "${slug}" already exists in organization "${orgId}"`);
    }
    const now = this.tables.now();
    const spec: OpenApiSpecRec = { id: this.tables.newId(), orgId, slug, createdAt: now, updatedAt: now };
    this.tables.openApiSpecs.set(spec.id, spec);
    return spec;
  }

  versionsOf(specId: string): OpenApiVersionRec[] {
    return [...this.tables.openApiVersions.values()].filter((v) => v.specId === specId);
  }

  /** Starts processing a source. A job still running is superseded: it completes now, so every source is processed. */
  acceptSource(spec: OpenApiSpecRec, src: OpenApiSource): void {
    const nowMs = this.tables.clock();
    if (spec.job) this.complete(spec, nowMs);
    spec.job = { acceptedAtMs: nowMs, source: src, versionId: this.tables.newId() };
    spec.sourceURL = "url" in src ? src.url : undefined;
    spec.updatedAt = new Date(nowMs).toISOString();
  }

  /** Completes the job of `spec` if its time has come (two steps after it was accepted). */
  settle(spec: OpenApiSpecRec, nowMs = this.tables.clock()): void {
    if (spec.job && nowMs >= spec.job.acceptedAtMs + 2 * this.stepMs) {
      this.complete(spec, spec.job.acceptedAtMs + 2 * this.stepMs);
    }
  }

  /** Where the spec's job stands; call `settle` first so that a finished job reads `complete`. */
  processingState(spec: OpenApiSpecRec): ProcessingState {
    if (!spec.job) return "complete";
    return this.tables.clock() < spec.job.acceptedAtMs + this.stepMs ? "pending" : "progress";
  }

  private complete(spec: OpenApiSpecRec, atMs: number): void {
    if (!spec.job) return;
    const outcome = processSource(spec.job.source);
    this.finishOpenApiJob(
      spec,
      new Date(atMs).toISOString(),
      outcome.ok
        ? { format: outcome.format, parsed: outcome.parsed }
        : { code: outcome.code, message: outcome.message ?? "Processing failed" },
    );
  }

  /** Ends a spec's processing job: success records a version (the spec's latest), failure the error. */
  finishOpenApiJob(
    spec: OpenApiSpecRec,
    at: string,
    outcome: { format: "json" | "yaml"; parsed?: unknown } | { code?: OpenApiErrorCode; message: string },
  ): void {
    const job = spec.job;
    if (!job) return;
    if ("format" in outcome) {
      const version: OpenApiVersionRec = {
        id: job.versionId,
        specId: spec.id,
        createdAt: at,
        source: job.source,
        ...outcome,
      };
      this.tables.openApiVersions.set(version.id, version);
      spec.lastVersionId = version.id;
      spec.lastProcessErrorCode = undefined;
      spec.lastProcessedErrors = undefined;
    } else {
      spec.lastProcessErrorCode = outcome.code;
      spec.lastProcessedErrors = [{ message: outcome.message, code: outcome.code }];
    }
    spec.lastProcessedAt = at;
    spec.job = undefined;
  }

  /** Deletes a spec with its versions. */
  deleteOpenApiSpec(id: string): boolean {
    return this.tables.remove("openApiSpecs", id);
  }
}

interface Outcome {
  ok: boolean;
  code?: OpenApiErrorCode;
  message?: string;
  format: "json" | "yaml";
  parsed?: unknown;
}

function processSource(src: OpenApiSource): Outcome {
  if ("url" in src) {
    const host = new URL(src.url).hostname.toLowerCase();
    const format = /\.ya?ml(\?|#|$)/i.test(src.url) ? "yaml" : "json";
    if (host === "unreachable.invalid" || host.endsWith(".unreachable.invalid")) {
      return { ok: false, code: "FETCH_ERROR", message: `Could not fetch ${src.url}`, format };
    }
    if (host === "timeout.invalid" || host.endsWith(".timeout.invalid")) {
      return { ok: false, code: "FETCH_TIMEOUT", message: `Timed out fetching ${src.url}`, format };
    }
    return { ok: true, format };
  }
  const text = src.text;
  try {
    const parsed: unknown = JSON.parse(text);
    if (isPlainObject(parsed)) return { ok: true, format: "json", parsed };
    return { ok: false, code: "PARSE_ERROR", message: "The document must be a JSON object", format: "json" };
  } catch {
    // not JSON: maybe YAML
  }
  const firstStatement = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l !== "" && !l.startsWith("#") && l !== "---");
  if (firstStatement && /^(openapi|swagger)\s*:/.test(firstStatement)) return { ok: true, format: "yaml" };
  return {
    ok: false,
    code: "PARSE_ERROR",
    message: "The document is neither valid JSON nor OpenAPI YAML",
    format: "json",
  };
}
