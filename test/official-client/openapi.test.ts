import { type OpenAPISpec, OpenAPISpecVisibility } from "@gitbook/api";
import { describe, expect, it } from "vitest";
import { allPages, expectApiError, expectDeleted, expectUnauthorized, useOfficialClient } from "./helpers";

// One processing step (pending → progress → complete) per millisecond, so specs settle quickly.
const f = useOfficialClient({ openApiStepMs: 1 });

const petstore = JSON.stringify({ openapi: "3.1.0", info: { title: "Petstore", version: "1.0.0" }, paths: {} });

async function settled(slug: string): Promise<OpenAPISpec> {
  for (let i = 0; i < 200; i++) {
    const { data } = await f.api.orgs.getOpenApiSpecBySlug(f.org(), slug);
    if (data.processingState === "complete") return data;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`OpenAPI spec ${slug} did not finish processing`);
}

describe("OpenAPI specs through the official client", () => {
  it("creates, gets, lists over several pages, updates and deletes", async () => {
    const created = await f.api.orgs.createOpenApiSpec(f.org(), {
      slug: "petstore",
      source: { url: "https://example.com/petstore.json" },
    });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      object: "openapi-spec",
      slug: "petstore",
      sourceURL: "https://example.com/petstore.json",
    });
    const spec = await settled("petstore");
    expect(spec.lastVersion).toEqual(expect.any(String));

    for (const slug of ["billing", "orders-v2"]) {
      const other = await f.api.orgs.createOpenApiSpec(f.org(), { slug, source: { text: petstore } });
      expect(other.status).toBe(201);
    }
    const { items, pages } = await allPages((page) => f.api.orgs.listOpenApiSpecs(f.org(), { limit: 2, page }));
    expect(pages).toBe(2);
    expect(items.map((s) => s.slug).sort()).toEqual(["billing", "orders-v2", "petstore"]);

    // PUT creates or replaces the source: 200 when the slug exists, 201 when it does not.
    const replaced = await f.api.orgs.createOrUpdateOpenApiSpecBySlug(f.org(), "petstore", {
      source: { text: petstore },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.data.slug).toBe("petstore");
    const put = await f.api.orgs.createOrUpdateOpenApiSpecBySlug(f.org(), "inventory", {
      source: { url: "https://example.com/inventory.yaml" },
    });
    expect(put.status).toBe(201);

    const visible = await f.api.orgs.updateOpenApiSpecBySlug(f.org(), "petstore", {
      visibility: OpenAPISpecVisibility.Public,
    });
    expect(visible.status).toBe(200);
    expect(visible.data.visibility).toBe("public");

    await settled("petstore");
    const versions = await allPages((page) =>
      f.api.orgs.listOpenApiSpecVersions(f.org(), "petstore", { limit: 1, page }),
    );
    expect(versions.pages).toBe(2);
    const latest = await f.api.orgs.getLatestOpenApiSpecVersion(f.org(), "petstore");
    expect(latest.status).toBe(200);
    expect(latest.data).toMatchObject({ object: "openapi-spec-version", id: versions.items[0]!.id });
    const content = await f.api.orgs.getLatestOpenApiSpecVersionContent(f.org(), "petstore");
    expect(content.data.urls.source).toMatch(/^https?:\/\//);
    const byId = await f.api.orgs.getOpenApiSpecVersionById(f.org(), "petstore", versions.items[1]!.id);
    expect(byId.data.id).toBe(versions.items[1]!.id);

    await expectDeleted(() => f.api.orgs.deleteOpenApiSpecBySlug(f.org(), "petstore"));
    await expectApiError(f.api.orgs.getOpenApiSpecBySlug(f.org(), "petstore"), 404, /petstore/);
  });

  it("fails on an unknown slug with 404, bad input or a duplicate with 400 and a missing token with 401", async () => {
    await expectApiError(f.api.orgs.getOpenApiSpecBySlug(f.org(), "unknown-spec"), 404, /unknown-spec/);
    await expectApiError(f.api.orgs.listOpenApiSpecVersions(f.org(), "unknown-spec"), 404, /unknown-spec/);
    await expectApiError(
      f.api.orgs.updateOpenApiSpecBySlug(f.org(), "unknown-spec", { visibility: OpenAPISpecVisibility.Public }),
      404,
      /unknown-spec/,
    );
    await expectApiError(
      f.api.orgs.createOpenApiSpec(f.org(), { slug: "not a slug", source: { url: "https://example.com/a.json" } }),
      400,
      /slug/,
    );
    await expectApiError(f.api.orgs.createOpenApiSpec(f.org(), { slug: "empty", source: { text: "" } }), 400, /source/);
    await f.api.orgs.createOpenApiSpec(f.org(), { slug: "petstore", source: { text: petstore } });
    await expectApiError(
      f.api.orgs.createOpenApiSpec(f.org(), { slug: "petstore", source: { text: petstore } }),
      400,
      /already exists/,
    );
    await expectUnauthorized(f, (api) => api.orgs.listOpenApiSpecs(f.org()));
  });
});
