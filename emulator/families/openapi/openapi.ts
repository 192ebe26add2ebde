/**
 * OpenAPI specs: list, create (POST), get, create-or-update (PUT: 201 created / 200 updated), visibility (PATCH),
 * delete; versions: list, latest, by id, content, latest content (and raw). The simulated processing of a source
 * is the store's (openApiStore.ts); every spec read settles its job first.
 */
import { BadRequestError, NotFoundError } from "../../errors";
import { paginate } from "../../pagination";
import type { Store } from "../../store";
import type { Env, Route, RouteContext } from "../../types";
import { type Check, isPlainObject, oneOfValues, parseBody, req, str, url } from "../../validate";
import { created, deleted, ok, param, requireOrg } from "../common";
import type { OrgRec } from "../organization/records";
import type { OpenApiSource, OpenApiSpecRec, OpenApiVersionRec } from "./records";

// The API reference's pattern (lowercase only): the official document also allows capitals, but every limit and
// pattern of the API reference is a 400 here, so that the provider is never tested against laxer rules than the
// reference promises (test/contract/deviations.ts, capital-openapi-slugs).
const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const slug = str({
  min: 1,
  max: 100,
  pattern: SLUG_PATTERN,
  patternLabel: "must match ^[a-z0-9]+(?:-[a-z0-9]+)*$ (lowercase letters and digits separated by single hyphens)",
});

const source: Check<OpenApiSource> = (value, path) => {
  if (!isPlainObject(value)) throw new BadRequestError(`${path}: must be an object with either url or text`);
  const keys = Object.keys(value);
  for (const k of keys) {
    if (k !== "url" && k !== "text") throw new BadRequestError(`${path}.${k}: unknown field (allowed: url, text)`);
  }
  if (keys.length !== 1) throw new BadRequestError(`${path}: must have exactly one of url, text`);
  if (keys[0] === "url") return { url: url(value.url, `${path}.url`) };
  return { text: str({ min: 1 })(value.text, `${path}.text`) };
};

const enc = encodeURIComponent;

function specLocation(env: Env, s: OpenApiSpecRec): string {
  return `${env.apiBase}/orgs/${enc(s.orgId)}/openapi/${enc(s.slug)}`;
}

function renderSpec(env: Env, store: Store, spec: OpenApiSpecRec): Record<string, unknown> {
  store.openApiStore.settle(spec);
  const out: Record<string, unknown> = {
    object: "openapi-spec",
    id: spec.id,
    createdAt: spec.createdAt,
    updatedAt: spec.updatedAt,
    slug: spec.slug,
  };
  if (spec.sourceURL) out.sourceURL = spec.sourceURL;
  out.processingState = store.openApiStore.processingState(spec);
  if (spec.visibility) out.visibility = spec.visibility;
  if (spec.lastVersionId) out.lastVersion = spec.lastVersionId;
  if (spec.lastProcessedAt) out.lastProcessedAt = spec.lastProcessedAt;
  if (spec.lastProcessErrorCode) out.lastProcessErrorCode = spec.lastProcessErrorCode;
  if (spec.lastProcessedErrors) out.lastProcessedErrors = spec.lastProcessedErrors.map((e) => ({ ...e }));
  out.lastProcessedErrorCount = spec.lastProcessedErrors?.length ?? 0;
  out.permissions = { view: true, edit: true };
  const urls: Record<string, string> = {
    location: specLocation(env, spec),
    app: `${env.appBase}/o/${enc(spec.orgId)}/openapi/${enc(spec.slug)}`,
  };
  if (spec.visibility === "public") {
    const org = store.orgs.get(spec.orgId);
    urls.published = `https://${org?.hostname ?? "docs"}.gitbook.example/openapi/${enc(spec.slug)}`;
  }
  out.urls = urls;
  return out;
}

function versionUrl(v: OpenApiVersionRec): string {
  return "url" in v.source
    ? v.source.url
    : `https://files.gitbook.example/openapi/${enc(v.specId)}/${enc(v.id)}.${v.format}`;
}

function renderVersion(env: Env, spec: OpenApiSpecRec, v: OpenApiVersionRec): Record<string, unknown> {
  return {
    object: "openapi-spec-version",
    id: v.id,
    createdAt: v.createdAt,
    url: versionUrl(v),
    urls: { location: `${specLocation(env, spec)}/versions/${enc(v.id)}` },
  };
}

function rawText(spec: OpenApiSpecRec, v: OpenApiVersionRec): string {
  if ("text" in v.source) return v.source.text;
  return JSON.stringify({ openapi: "3.0.3", info: { title: spec.slug, version: "1.0.0" }, paths: {} }, null, 2);
}

function renderContent(spec: OpenApiSpecRec, v: OpenApiVersionRec): Record<string, unknown> {
  const name = `openapi.${v.format}`;
  const content = v.parsed ?? rawText(spec, v);
  return {
    filesystem: { [name]: content },
    urls: { source: versionUrl(v), public: spec.visibility === "public" ? versionUrl(v) : null },
  };
}

function requireSpec(ctx: RouteContext): { org: OrgRec; spec: OpenApiSpecRec } {
  const org = requireOrg(ctx);
  const specSlug = param(ctx, "specSlug");
  const spec = ctx.store.openApiStore.openApiSpecBySlug(org.id, specSlug);
  if (!spec) throw new NotFoundError(`OpenAPI spec "${specSlug}" not found in organization "${org.id}"`);
  ctx.store.openApiStore.settle(spec);
  return { org, spec };
}

function versionsNewestFirst(store: Store, spec: OpenApiSpecRec): OpenApiVersionRec[] {
  return store.openApiStore.versionsOf(spec.id).reverse();
}

function requireVersion(ctx: RouteContext, spec: OpenApiSpecRec): OpenApiVersionRec {
  const id = param(ctx, "versionId");
  const v = ctx.store.openApiVersions.get(id);
  if (!v || v.specId !== spec.id) throw new NotFoundError(`Version "${id}" of OpenAPI spec "${spec.slug}" not found`);
  return v;
}

function latestVersion(ctx: RouteContext, spec: OpenApiSpecRec): OpenApiVersionRec {
  const v = spec.lastVersionId ? ctx.store.openApiVersions.get(spec.lastVersionId) : undefined;
  if (!v) throw new NotFoundError(`OpenAPI spec "${spec.slug}" has no processed version yet`);
  return v;
}

const base = "/v1/orgs/{organizationId}/openapi";

export const openApiRoutes: Route[] = [
  {
    method: "GET",
    path: base,
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const specs = [...ctx.store.openApiSpecs.values()].filter((s) => s.orgId === org.id);
      return ok(paginate(ctx, specs, (s) => renderSpec(ctx.env, ctx.store, s)));
    },
  },
  {
    method: "POST",
    path: base,
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const body = parseBody(ctx.body, { slug: req(slug), source: req(source) }, { required: true });
      const spec = ctx.store.openApiStore.createOpenApiSpec(org.id, body.slug);
      ctx.store.openApiStore.acceptSource(spec, body.source);
      return created(renderSpec(ctx.env, ctx.store, spec));
    },
  },
  {
    method: "GET",
    path: `${base}/{specSlug}`,
    handler: (ctx) => {
      const { spec } = requireSpec(ctx);
      return ok(renderSpec(ctx.env, ctx.store, spec));
    },
  },
  {
    method: "PUT",
    path: `${base}/{specSlug}`,
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const specSlug = slug(param(ctx, "specSlug"), "specSlug");
      const body = parseBody(ctx.body, { source: req(source) }, { required: true });
      const specs = ctx.store.openApiStore;
      let spec = specs.openApiSpecBySlug(org.id, specSlug);
      const isNew = !spec;
      if (!spec) spec = specs.createOpenApiSpec(org.id, specSlug);
      else specs.settle(spec);
      specs.acceptSource(spec, body.source);
      const rendered = renderSpec(ctx.env, ctx.store, spec);
      return isNew ? created(rendered) : ok(rendered);
    },
  },
  {
    method: "PATCH",
    path: `${base}/{specSlug}`,
    handler: (ctx) => {
      const { spec } = requireSpec(ctx);
      const body = parseBody(
        ctx.body,
        { visibility: req(oneOfValues(["private", "public"] as const)) },
        { required: true },
      );
      ctx.store.update("openApiSpecs", spec, { visibility: body.visibility, updatedAt: ctx.store.now() });
      return ok(renderSpec(ctx.env, ctx.store, spec));
    },
  },
  {
    method: "DELETE",
    path: `${base}/{specSlug}`,
    handler: (ctx) => {
      const org = requireOrg(ctx);
      const spec = ctx.store.openApiStore.openApiSpecBySlug(org.id, param(ctx, "specSlug"));
      return deleted(spec !== undefined && ctx.store.openApiStore.deleteOpenApiSpec(spec.id));
    },
  },
  {
    method: "GET",
    path: `${base}/{specSlug}/versions`,
    handler: (ctx) => {
      const { spec } = requireSpec(ctx);
      return ok(paginate(ctx, versionsNewestFirst(ctx.store, spec), (v) => renderVersion(ctx.env, spec, v)));
    },
  },
  {
    method: "GET",
    path: `${base}/{specSlug}/versions/latest`,
    handler: (ctx) => {
      const { spec } = requireSpec(ctx);
      return ok(renderVersion(ctx.env, spec, latestVersion(ctx, spec)));
    },
  },
  {
    method: "GET",
    path: `${base}/{specSlug}/versions/latest/content`,
    handler: (ctx) => {
      const { spec } = requireSpec(ctx);
      return ok(renderContent(spec, latestVersion(ctx, spec)));
    },
  },
  {
    method: "GET",
    path: `${base}/{specSlug}/versions/latest/content/raw`,
    handler: (ctx) => {
      const { spec } = requireSpec(ctx);
      const v = latestVersion(ctx, spec);
      return ok({ text: rawText(spec, v), format: "text" in v.source ? v.format : "json" });
    },
  },
  {
    method: "GET",
    path: `${base}/{specSlug}/versions/{versionId}`,
    handler: (ctx) => {
      const { spec } = requireSpec(ctx);
      return ok(renderVersion(ctx.env, spec, requireVersion(ctx, spec)));
    },
  },
  {
    method: "GET",
    path: `${base}/{specSlug}/versions/{versionId}/content`,
    handler: (ctx) => {
      const { spec } = requireSpec(ctx);
      return ok(renderContent(spec, requireVersion(ctx, spec)));
    },
  },
];
