import { describe, expect, it } from "vitest";
import { spaceKind } from "../../provider/resources/space";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { checked, created } from "../support/lifecycle";
import { captureStderr } from "../support/log";

/**
 * `Space.computedSource`: sent only with the create, never reported back by the API (the official `Space` has no such
 * field), so the state keeps what was created; a change replaces the space, and the preview says why.
 */
const fixture = useEmulator();
const stderr = captureStderr();
const OPENAPI = { type: "builtin:openapi", spec: "petstore", models: true, grouping: "by-operation" } as const;

async function makeSpec(slug: string) {
  await fixture.apiCreate(`/orgs/${fixture.org()}/openapi`, {
    slug,
    source: { url: `https://specs.example/${slug}/openapi.json` },
  });
}

describe("Space.computedSource", () => {
  it("is sent as the document's ComputedContentSourceRevision, kept in the state, and read back without drift", async () => {
    await makeSpec("petstore");
    const { id, state, inputs } = await created("Space", {
      organizationId: fixture.org(),
      title: "API reference",
      computedSource: OPENAPI,
    });
    expect(fixture.lastRequestBody("POST", /\/spaces$/)).toEqual({
      title: "API reference",
      computedSource: {
        type: "builtin:openapi",
        props: { models: true, grouping: "by-operation" },
        dependencies: { spec: { ref: { kind: "openapi", spec: "petstore" } } },
      },
    });
    // The API's answer has no computedSource: the state keeps the declared one.
    const answer = await fixture.api("GET", `/spaces/${id}`);
    expect(answer.body).not.toHaveProperty("computedSource");
    expect(state.computedSource).toEqual(OPENAPI);
    const read = await lifecycle("Space").read(id, state);
    expect(read.props?.computedSource).toEqual(OPENAPI);
    expect((await lifecycle("Space").diff(id, read.props ?? {}, inputs)).changes).toBe(false);
  });

  it("a translation source names the translation", async () => {
    const source = fixture.space(0);
    const translation = await fixture.apiCreate(`/orgs/${fixture.org()}/translations`, {
      source: { space: source, language: "en" },
      language: "fr",
    });
    const { state } = await created("Space", {
      organizationId: fixture.org(),
      title: "Docs (fr)",
      computedSource: { type: "builtin:translation", translationId: translation },
    });
    expect(fixture.lastRequestBody("POST", /\/spaces$/)).toMatchObject({
      computedSource: {
        type: "builtin:translation",
        props: {},
        dependencies: { translation: { ref: { kind: "translation", translation } } },
      },
    });
    expect(state.computedSource).toEqual({ type: "builtin:translation", translationId: translation });
  });

  it("a change replaces the space, and the preview says why on its own line, once", async () => {
    await makeSpec("petstore");
    const { id, state, inputs } = await created("Space", {
      organizationId: fixture.org(),
      title: "API reference",
      computedSource: OPENAPI,
    });
    const next = await checked("Space", { ...inputs, computedSource: { ...OPENAPI, spec: "orders" } });
    for (let i = 0; i < 2; i++) {
      const diff = await lifecycle("Space").diff(id, state, next);
      expect(diff.replaces).toEqual(["computedSource"]);
    }
    const said = stderr
      .join("")
      .split("\n")
      .filter((line) => line.includes("computedSource changes"));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(
      `Space "${id}": computedSource changes from OpenAPI spec "petstore" to OpenAPI spec "orders". The API sets a ` +
        "space's computed source only when the space is created and never reports it back, so this replaces the space",
    );
  });

  it("a refresh cannot see it: the space's other fields drift, the source stays as created", async () => {
    await makeSpec("petstore");
    const { id, state } = await created("Space", {
      organizationId: fixture.org(),
      title: "API reference",
      computedSource: OPENAPI,
    });
    await fixture.api("PATCH", `/spaces/${id}`, { title: "Renamed by hand" });
    const read = await lifecycle("Space").read(id, state);
    expect(read.props).toMatchObject({ title: "Renamed by hand", computedSource: OPENAPI });
  });

  it("adoption keeps the declared source (it cannot be verified) and changes nothing", async () => {
    await makeSpec("petstore");
    const existing = await fixture.apiCreate(`/orgs/${fixture.org()}/spaces`, { title: "Legacy reference" });
    const inputs = await checked("Space", {
      organizationId: fixture.org(),
      title: "Legacy reference",
      computedSource: OPENAPI,
      importId: existing,
    });
    fixture.emulator.clearRequests();
    const { id, outs } = await lifecycle("Space").create(inputs);
    expect(id).toBe(existing);
    expect(outs.computedSource).toEqual(OPENAPI);
    expect(fixture.calls().filter((call) => !call.startsWith("GET "))).toEqual([]);
  });

  it("adopted without it (as `import` declares a generated space), a source added afterwards replaces the space", async () => {
    await makeSpec("petstore");
    const existing = await fixture.apiCreate(`/orgs/${fixture.org()}/spaces`, {
      title: "Generated reference",
      computedSource: {
        type: "builtin:openapi",
        props: { models: true },
        dependencies: { spec: { ref: { kind: "openapi", spec: "petstore" } } },
      },
    });
    const declared = { organizationId: fixture.org(), title: "Generated reference" };
    const { id, outs } = await lifecycle("Space").create(await checked("Space", { ...declared, importId: existing }));
    expect(outs.computedSource).toBeNull();
    expect((await lifecycle("Space").diff(id, outs, await checked("Space", declared))).changes).toBe(false);
    const withSource = await checked("Space", { ...declared, computedSource: OPENAPI });
    expect((await lifecycle("Space").diff(id, outs, withSource)).replaces).toEqual(["computedSource"]);
  });

  it("the API's 400 for a spec the organization does not have fails the create, naming the field", async () => {
    const inputs = await checked("Space", {
      organizationId: fixture.org(),
      title: "API reference",
      computedSource: { ...OPENAPI, spec: "missing" },
    });
    await expect(lifecycle("Space").create(inputs)).rejects.toThrow(/computedSource\.dependencies\.spec\.ref\.spec/);
  });

  it("rejects an unknown type and a missing models offline", async () => {
    for (const computedSource of [{ type: "builtin:other" }, { type: "builtin:openapi", spec: "petstore" }]) {
      const result = await lifecycle("Space").check({}, { organizationId: fixture.org(), title: "X", computedSource });
      expect(result.failures?.map((f) => f.property.split(".")[0])).toContain("computedSource");
    }
    expect(fixture.calls()).toEqual([]);
  });

  it("says nothing for a change that does not touch computedSource", () => {
    const describe = spaceKind.describeChange;
    expect(describe?.("s", { computedSource: null } as never, {} as never, new Set(["title"]))).toBeUndefined();
  });
});
