import { describe, expect, it } from "vitest";
import type { Props } from "../../provider/framework/kind";
import { UNKNOWN } from "../../provider/framework/unknown";
import { lifecycle, startOperation } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { created, describeLifecycle, expectEachLimitRejected, type LimitCase, updateTo } from "../support/lifecycle";

const fixture = useEmulator();
const checkedInputs = async (news: Record<string, unknown>) => {
  const result = await lifecycle("Site").check({}, news);
  expect(result.failures ?? []).toEqual([]);
  return result.inputs as Props;
};
const sitePath = (id: string) => `/orgs/${fixture.org()}/sites/${id}`;

/** A style guide space: the document makes one only through a site's createSiteStyleguideById. */
const styleguideSpace = async (title = "Style holder") => {
  const holder = await fixture.makeSite({ title });
  const answer = await fixture.api("POST", `${sitePath(holder)}/styleguide`);
  expect(answer.status).toBe(200);
  return (answer.body as { id: string }).id;
};

const base = () => ({
  organizationId: fixture.org(),
  title: "Docs",
  type: "basic",
  visibility: "public",
  basename: "docs",
  proxy: "example.com/docs",
});

describeLifecycle(
  {
    kind: "Site",
    inputs: base,
    created: (state) => {
      // defaultLevel, undeclared, reads as the API reports it (a new site's is `inherit`).
      expect(state).toMatchObject({ ...base(), published: false, adaptiveContent: false, defaultLevel: "inherit" });
      expect((state.urls as { app: string }).app).toMatch(/^https?:\/\//);
      expect(state.createdAt).toMatch(/^\d{4}-/);
      // POST takes only type, title and visibility; the rest is one PATCH.
      expect(fixture.lastRequestBody("POST", /\/sites$/)).toEqual({
        title: "Docs",
        type: "basic",
        visibility: "public",
      });
      expect(fixture.lastRequestBody("PATCH", /\/sites\/[^/]+$/)).toEqual({
        basename: "docs",
        proxy: "example.com/docs",
      });
    },
    updates: [
      updateTo("title", "Guides"),
      updateTo("visibility", "share-link"),
      updateTo("basename", "api"),
      updateTo("proxy", "www.example.org/dev/docs"),
      updateTo("defaultLevel", "read"),
      {
        name: "defaultLevel (null: members get no access by default)",
        inputs: (_f, p) => ({ ...p, defaultLevel: null }),
        expect: (s) => {
          expect(s.defaultLevel).toBeNull();
          expect(fixture.lastRequestBody("PATCH", /\/sites\/[^/]+$/)).toEqual({ defaultLevel: null });
        },
      },
      {
        name: "proxy (null removes it)",
        inputs: (_f, p) => ({ ...p, proxy: null }),
        expect: (s) => {
          expect(s.proxy).toBeNull();
          expect(fixture.lastRequestBody("PATCH", /\/sites\/[^/]+$/)).toEqual({ proxy: null });
        },
      },
      {
        name: "styleguide (a style guide space of the organization)",
        inputs: async (_f, p) => ({ ...p, styleguide: await styleguideSpace() }),
        expect: (s) => {
          expect(s.styleguide).toMatch(/^\S+$/);
          expect(fixture.lastRequestBody("PATCH", /\/sites\/[^/]+$/)).toEqual({ styleguide: s.styleguide });
        },
      },
      {
        name: "adaptiveContent",
        inputs: (_f, p) => ({ ...p, adaptiveContent: true }),
        expect: (s) => {
          expect(s.adaptiveContent).toBe(true);
          expect(fixture.lastRequestBody("PATCH", /\/sites\/[^/]+$/)).toEqual({ adaptiveContent: { enabled: true } });
        },
      },
      {
        name: "published (publish)",
        inputs: (_f, p) => ({ ...p, published: true }),
        expect: (s) => {
          expect(s.published).toBe(true);
          expect((s.urls as { published?: string }).published).toMatch(/^https?:\/\//);
          expect(fixture.calls().some((c) => /^POST \/v1\/orgs\/[^/]+\/sites\/[^/]+\/publish$/.test(c))).toBe(true);
        },
      },
    ],
    replaces: [
      { property: "type", inputs: (_f, p) => ({ ...p, type: "premium" }) },
      { property: "organizationId", inputs: (f, p) => ({ ...p, organizationId: f.emulator.secondOrganizationId }) },
    ],
    outOfBand: {
      change: async (id) => {
        expect((await fixture.api("PATCH", sitePath(id), { title: "Renamed by hand" })).status).toBe(200);
      },
      expect: (state) => expect(state.title).toBe("Renamed by hand"),
    },
    adopt: {
      existing: () => fixture.makeSite({ title: "Legacy" }),
      inputs: () => ({ organizationId: fixture.org(), title: "Adopted", visibility: "unlisted" }),
      expect: (state) => expect(state).toMatchObject({ title: "Adopted", visibility: "unlisted" }),
    },
  },
  fixture,
);

describe("Site publishing", () => {
  it("unpublishes with the official unpublish operation", async () => {
    const { id, state, inputs } = await created("Site", { ...base(), published: true });
    expect(state.published).toBe(true);
    fixture.emulator.clearRequests();
    const { outs } = await lifecycle("Site").update(id, state, { ...inputs, published: false });
    expect(outs.published).toBe(false);
    expect(fixture.calls()).toEqual([`POST /v1/orgs/${fixture.org()}/sites/${id}/unpublish`]);
  });

  it("sees a site unpublished out of band as drift", async () => {
    const { id, state, inputs } = await created("Site", { ...base(), published: true });
    await fixture.api("POST", `${sitePath(id)}/unpublish`);
    const read = await lifecycle("Site").read(id, state);
    expect(read.props?.published).toBe(false);
    expect((await lifecycle("Site").diff(id, read.props ?? {}, inputs)).changes).toBe(true);
  });

  it("fails, saying a plan upgrade is needed, when publish answers with a checkout session", async () => {
    const { id, state, inputs } = await created("Site", base());
    fixture.emulator.injectFault({
      method: "POST",
      path: "/publish$",
      count: 1,
      status: 200,
      body: { type: "checkout", sessionId: "cs_test_123" },
    });
    await expect(lifecycle("Site").update(id, state, { ...inputs, published: true })).rejects.toThrow(
      /Site ".+" publish: .*plan.*upgrade.*published: false/,
    );
  });

  it("removes the new site when creating it cannot publish it, so the next up does not duplicate it", async () => {
    fixture.emulator.injectFault({
      method: "POST",
      path: "/publish$",
      count: 1,
      status: 200,
      body: { type: "checkout", sessionId: "cs_test_123" },
    });
    const inputs = await lifecycle("Site").check({}, { ...base(), published: true });
    await expect(lifecycle("Site").create(inputs.inputs ?? {})).rejects.toThrow(/plan/);
    const listed = await fixture.api("GET", `/orgs/${fixture.org()}/sites`);
    expect((listed.body as { items: unknown[] }).items).toEqual([]);
  });
});

describe("Site styleguide", () => {
  const patchBody = () => fixture.lastRequestBody("PATCH", /\/sites\/[^/]+$/);

  it("is sent in the create's PATCH and read back from the site object, with no request of its own", async () => {
    const guide = await styleguideSpace();
    const { id, state, inputs } = await created("Site", { ...base(), styleguide: guide });
    expect(state.styleguide).toBe(guide);
    expect(patchBody()).toEqual({ basename: "docs", proxy: "example.com/docs", styleguide: guide });
    const plain = await created("Site", { ...base(), title: "Plain" });
    expect(plain.state.styleguide).toBeNull();
    // A refresh reads both sites from the one listing: the style guide costs nothing, and no space is read.
    const refresh = async (site: { id: string; state: Props }) => {
      startOperation();
      fixture.emulator.clearRequests();
      const read = await lifecycle("Site").read(site.id, site.state);
      return { props: read.props, calls: fixture.calls() };
    };
    const withGuide = await refresh({ id, state });
    const without = await refresh(plain);
    expect(withGuide.props?.styleguide).toBe(guide);
    expect(withGuide.calls.map((c) => c.replace(id, "{siteId}"))).toEqual(
      without.calls.map((c) => c.replace(plain.id, "{siteId}")),
    );
    expect(withGuide.calls.filter((c) => /styleguide|\/spaces\//.test(c))).toEqual([]);
    expect((await lifecycle("Site").diff(id, withGuide.props ?? {}, inputs)).changes).toBe(false);
  });

  it("null at create sends no PATCH: a new site has neither a style guide to detach nor a proxy to remove", async () => {
    const { title, type, visibility, organizationId } = base();
    fixture.emulator.clearRequests();
    const { state } = await created("Site", { organizationId, title, type, visibility, styleguide: null, proxy: null });
    expect(state).toMatchObject({ styleguide: null, proxy: null });
    expect(fixture.calls().filter((call) => call.startsWith("PATCH"))).toEqual([]);
  });

  it("defaultLevel null at create is sent: a new site's members inherit, and null (no access) differs", async () => {
    const { title, type, visibility, organizationId } = base();
    const { id, state, inputs } = await created("Site", {
      organizationId,
      title,
      type,
      visibility,
      defaultLevel: null,
    });
    expect(state.defaultLevel).toBeNull();
    expect(fixture.lastRequestBody("PATCH", /\/sites\/[^/]+$/)).toEqual({ defaultLevel: null });
    startOperation();
    const read = await lifecycle("Site").read(id, state);
    expect(read.props?.defaultLevel).toBeNull();
    expect((await lifecycle("Site").diff(id, read.props ?? {}, inputs)).changes).toBe(false);
  });

  it("shows another style guide attached by hand as drift, and update puts the declared one back", async () => {
    const [declared, byHand] = [await styleguideSpace("First holder"), await styleguideSpace("Second holder")];
    const { id, state, inputs } = await created("Site", { ...base(), styleguide: declared });
    expect((await fixture.api("PATCH", sitePath(id), { styleguide: byHand })).status).toBe(200);
    startOperation();
    const read = await lifecycle("Site").read(id, state);
    expect(read.props?.styleguide).toBe(byHand);
    const diff = await lifecycle("Site").diff(id, read.props ?? {}, inputs);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    expect(diff.detailedDiff).toHaveProperty("styleguide");
    const { outs } = await lifecycle("Site").update(id, read.props ?? {}, inputs);
    expect(outs.styleguide).toBe(declared);
    expect(patchBody()).toEqual({ styleguide: declared });
  });

  it("null detaches it (the space stays); left out of the program, a style guide set by hand is not a change", async () => {
    const guide = await styleguideSpace();
    const { id, state, inputs } = await created("Site", { ...base(), styleguide: guide });
    const detached = await checkedInputs({ ...inputs, styleguide: null });
    expect((await lifecycle("Site").diff(id, state, detached)).changes).toBe(true);
    const { outs } = await lifecycle("Site").update(id, state, detached);
    expect(outs.styleguide).toBeNull();
    expect(patchBody()).toEqual({ styleguide: null });
    expect((await fixture.api("GET", `/spaces/${guide}`)).status).toBe(200);
    const { styleguide: _omitted, ...unmanaged } = inputs;
    await fixture.api("PATCH", sitePath(id), { styleguide: guide });
    startOperation();
    const read = await lifecycle("Site").read(id, outs);
    expect(read.props?.styleguide).toBe(guide);
    expect((await lifecycle("Site").diff(id, read.props ?? {}, await checkedInputs(unmanaged))).changes).toBe(false);
  });

  it("fails naming the field and the API's answer for a space that is no style guide, or of another organization", async () => {
    const { id, state, inputs } = await created("Site", base());
    await expect(
      lifecycle("Site").update(id, state, await checkedInputs({ ...inputs, styleguide: fixture.space(0) })),
    ).rejects.toThrow(
      new RegExp(
        `^Site "${id}" update: styleguide "${fixture.space(0)}": the API refused it as the site's style guide \\(.*` +
          `styleguide: space "${fixture.space(0)}" is not a style guide.*\\); it must be a style guide space of the ` +
          "site's organization, which only createSiteStyleguideById makes",
      ),
    );
    const elsewhere = await fixture.apiCreate(`/orgs/${fixture.emulator.secondOrganizationId}/spaces`, {
      title: "Elsewhere",
    });
    await expect(
      lifecycle("Site").update(id, state, await checkedInputs({ ...inputs, styleguide: elsewhere })),
    ).rejects.toThrow(/styleguide: space "[^"]+" not found in organization/);
  });
});

describe("Site styleguide: which refusals are explained as the style guide's", () => {
  const EXPLAINED = "the API refused it as the site's style guide";
  /** The message update fails with when the site's PATCH gets `status` with `message` (the API's answer). */
  const updateRefused = async (styleguide: string | null, status: number, message: string) => {
    // Detaching needs a style guide attached first.
    const attached = styleguide === null ? { styleguide: await styleguideSpace() } : {};
    const { id, state, inputs } = await created("Site", { ...base(), ...attached });
    fixture.emulator.injectFault({
      method: "PATCH",
      path: "^/v1/orgs/[^/]+/sites/[^/]+$",
      status,
      body: { error: { code: status, message } },
    });
    const error = await lifecycle("Site")
      .update(id, state, await checkedInputs({ ...inputs, styleguide }))
      .then(
        () => undefined,
        (failure: unknown) => failure,
      );
    expect(error).toBeInstanceOf(Error);
    return (error as Error).message;
  };

  it("explains a 400 that names the style guide or the space, with how a style guide space is made", async () => {
    const guide = fixture.space(0);
    const named = await updateRefused(guide, 400, "styleguide: invalid reference");
    expect(named).toContain(`styleguide "${guide}": ${EXPLAINED} (`);
    expect(named).toContain("styleguide: invalid reference");
    expect(named).toContain(
      "(POST /orgs/{organizationId}/sites/{siteId}/styleguide, on any site): a space made as usual is not one. Make " +
        "it that way once, adopt it as a Space with importId, and set styleguide: <that Space>.id",
    );
    expect(await updateRefused(guide, 400, "Style Guide rules do not apply")).toContain(EXPLAINED);
    expect(await updateRefused(guide, 400, `space ${guide} cannot be used here`)).toContain(EXPLAINED);
  });

  it("leaves any other answer as the API gave it", async () => {
    const guide = fixture.space(0);
    const otherField = await updateRefused(guide, 400, "basename: already in use");
    expect(otherField).toContain("basename: already in use");
    expect(otherField).not.toContain(EXPLAINED);
    // Not a 400: a conflict is not a refused reference.
    const conflict = await updateRefused(guide, 409, "styleguide: the site is being updated");
    expect(conflict).toContain("409 Conflict");
    expect(conflict).not.toContain(EXPLAINED);
    // Detaching names no space to explain.
    const detach = await updateRefused(null, 400, "styleguide: cannot be detached");
    expect(detach).toContain("styleguide: cannot be detached");
    expect(detach).not.toContain(EXPLAINED);
  });
});

describe("Site agentsContext (API reference only; absent from the official document)", () => {
  it("is never sent, and a state written when it was managed reads back without it and with no change", async () => {
    const { id, state, inputs } = await created("Site", { ...base(), adaptiveContent: true, published: true });
    const sent = fixture.emulator.requests().filter((r) => r.requestBody && typeof r.requestBody === "object");
    expect(sent.length).toBeGreaterThan(0);
    for (const request of sent) expect(request.requestBody).not.toHaveProperty("agentsContext");
    const older = { ...state, agentsContext: "included" };
    const read = await lifecycle("Site").read(id, older);
    expect(read.props).not.toHaveProperty("agentsContext");
    expect((await lifecycle("Site").diff(id, read.props ?? {}, inputs)).changes).toBe(false);
  });
});

describe("Site check", () => {
  const check = (news: Record<string, unknown>) => lifecycle("Site").check({}, news);

  it("rejects each limit and pattern with the property and the rule, without calling the API", async () => {
    const cases: LimitCase[] = [
      [{ title: "x" }, "title", /at least 2 characters/],
      [{ title: "x".repeat(129) }, "title", /at most 128 characters/],
      [{ basename: "" }, "basename", /at least 1 character/],
      [{ basename: "x".repeat(101) }, "basename", /at most 100 characters/],
      [{ proxy: `example.com/${"x".repeat(501)}` }, "proxy", /at most 512 characters/],
      [{ proxy: "example.com" }, "proxy", /must match the pattern/],
      [{ proxy: "https://example.com/docs" }, "proxy", /must match the pattern/],
      [{ type: "enterprise" }, "type", /must be one of/],
      [{ visibility: "private" }, "visibility", /must be one of/],
      [{ defaultLevel: "guest" }, "defaultLevel", /must be one of/],
      // The API reference's agentsContext is not in the official document: not an input (see the Site notes).
      [{ agentsContext: "included" }, "agentsContext", /unknown property agentsContext/],
      [{ published: "yes" }, "published", /must be a boolean/],
      [{ adaptiveContent: 1 }, "adaptiveContent", /must be a boolean/],
      [{ allowReplace: "yes" }, "allowReplace", /must be a boolean/],
      [{ organizationId: "" }, "organizationId", /must be an id/],
      [{ titel: "typo" }, "titel", /unknown property titel/],
    ];
    await expectEachLimitRejected("Site", { organizationId: fixture.org(), title: "ok" }, cases);
    expect(fixture.emulator.requests()).toEqual([]);
  });

  it("accepts values at the exact limits", async () => {
    const proxy = `example.com/${"x".repeat(500)}`;
    expect(proxy).toHaveLength(512);
    for (const news of [
      { title: "xy", basename: "b" },
      { title: "x".repeat(128), basename: "b".repeat(100), proxy },
      { title: "ok", proxy: null, type: "ultimate", visibility: "visitor-auth" },
    ]) {
      expect((await check({ organizationId: fixture.org(), ...news })).failures).toBeUndefined();
    }
  });

  it("lets unknown values through during preview", async () => {
    expect((await check({ organizationId: UNKNOWN, title: UNKNOWN, proxy: UNKNOWN })).failures).toBeUndefined();
  });
});

describe("Site create-only type and organizationId", () => {
  const olds = () => ({ organizationId: fixture.org(), title: "Docs", type: "basic" });
  const check = (previous: Record<string, unknown>, news: Record<string, unknown>) =>
    lifecycle("Site").check(previous, news);

  it("refuses a change of type at preview, saying what a replacement destroys and how to opt in", async () => {
    const result = await check(olds(), { ...olds(), type: "premium" });
    expect(result.failures).toEqual([
      {
        property: "type",
        reason: expect.stringMatching(
          /^Site\.type: changing it from "basic" to "premium" replaces the Site: the site is deleted with everything under it .* new URLs\. Put type back to "basic", or set allowReplace: true/,
        ),
      },
    ]);
    expect(fixture.emulator.requests()).toEqual([]);
  });

  it("refuses a move to another organization the same way", async () => {
    const other = fixture.emulator.secondOrganizationId;
    const result = await check(olds(), { ...olds(), organizationId: other });
    expect(result.failures?.map((f) => f.property)).toEqual(["organizationId"]);
  });

  it("lets the change through with allowReplace: true, and then diff replaces the site", async () => {
    const { id, state, inputs } = await created("Site", { ...base(), type: "basic" });
    const result = await check(inputs, { ...inputs, type: "premium", allowReplace: true });
    expect(result.failures).toBeUndefined();
    const diff = await lifecycle("Site").diff(id, state, result.inputs as Props);
    expect(diff.replaces).toEqual(["type"]);
  });

  it("never makes allowReplace itself a diff", async () => {
    const { id, state, inputs } = await created("Site", base());
    expect((await lifecycle("Site").diff(id, state, { ...inputs, allowReplace: true })).changes).toBe(false);
  });

  it("accepts a create, an unchanged type, a type added to the program, and unknown values", async () => {
    expect((await check({}, { ...olds(), type: "premium" })).failures).toBeUndefined();
    expect((await check(olds(), { ...olds(), title: "Renamed" })).failures).toBeUndefined();
    const { type: _type, ...withoutType } = olds();
    expect((await check(withoutType, olds())).failures).toBeUndefined();
    expect((await check(olds(), { ...olds(), type: UNKNOWN })).failures).toBeUndefined();
  });
});
