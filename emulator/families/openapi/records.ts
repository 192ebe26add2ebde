/** The records of the openapi family's tables (declared in index.ts); routes render them (render.ts). */

export type OpenApiSource = { url: string } | { text: string };

export type OpenApiErrorCode = "FETCH_TIMEOUT" | "FETCH_ERROR" | "PARSE_ERROR";

export interface OpenApiJob {
  acceptedAtMs: number;
  source: OpenApiSource;
  versionId: string;
}

export interface OpenApiSpecRec {
  id: string;
  orgId: string;
  slug: string;
  createdAt: string;
  updatedAt: string;
  visibility?: "private" | "public";
  sourceURL?: string;
  /** Processing job in flight (processingState pending/progress while it runs). */
  job?: OpenApiJob;
  lastVersionId?: string;
  lastProcessedAt?: string;
  lastProcessErrorCode?: OpenApiErrorCode;
  lastProcessedErrors?: { message: string; code?: string }[];
}

export interface OpenApiVersionRec {
  id: string;
  specId: string;
  createdAt: string;
  source: OpenApiSource;
  format: "json" | "yaml";
  parsed?: unknown;
}
