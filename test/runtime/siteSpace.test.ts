import { describe, expect, it } from "vitest";
import type { Props } from "../../provider/framework/kind";
import { UNKNOWN } from "../../provider/framework/unknown";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import {
  checked,
  created,
  describeLifecycle,
  expectEachLimitRejected,
  type LimitCase,
  updateTo,
} from "../support/lifecycle";
import { pageIdAt } from "../support/pages";

const fixture = useEmulator();

async function siteSpacesOf(site: string) {
  const answer = await fixture.api("GET", `/orgs/${fixture.org()}/sites/${site}/site-spaces`);
  return (answer.body as { items: { id: string; default: boolean; section?: string }[] }).items;
}

/** A site with a section whose default is another space, so the site space under test starts as not the default. */
async function baseInputs(): Promise<Props> {
  const siteId = await fixture.makeSite();
  const sectionId = await fixture.makeSection(siteId, fixture.space(1));
  return {
    organizationId: fixture.org(),
    siteId,
    spaceId: fixture.space(0),
    sectionId,
    path: "start",
    condition: "visitor.claims.beta === true",
  };
}

let adoptSite: string | undefined;

describeLifecycle(
  {
    kind: "SiteSpace",
    inputs: baseInputs,
    created: (state) => {
      expect(state).toMatchObject({ spaceId: fixture.space(0), path: "start", default: null });
      expect(state.condition).toBe("visitor.claims.beta === true");
      expect(state.sectionId).toEqual(expect.any(String));
      expect(fixture.lastRequestBody("POST", /\/site-spaces$/)).toEqual({
        spaceId: fixture.space(0),
        sectionId: state.sectionId,
      });
    },
    updates: [
      {
        name: "spaceId (retarget)",
        inputs: (_f, p) => ({ ...p, spaceId: fixture.space(2) }),
        expect: (s) => {
          expect(s.spaceId).toBe(fixture.space(2));
          expect(fixture.lastRequestBody("PATCH", /\/site-spaces\/[^/]+$/)).toEqual({ spaceId: fixture.space(2) });
        },
      },
      updateTo("path", "begin"),
      updateTo("hidden", true),
      updateTo("draft", true, "draft (true stages the site space)"),
      {
        name: "pageId (a page of its space)",
        inputs: (f, p) => ({ ...p, pageId: pageIdAt(f, p.spaceId as string, "reference") }),
        expect: (s) => {
          expect(s.pageId).toBe(pageIdAt(fixture, s.spaceId as string, "reference"));
          expect(fixture.lastRequestBody("PATCH", /\/site-spaces\/[^/]+$/)).toEqual({ pageId: s.pageId });
        },
      },
      updateTo("condition", "visitor.claims.plan === 'pro'"),
      {
        name: "condition (null removes it)",
        inputs: (_f, p) => ({ ...p, condition: null }),
        expect: (s) => {
          expect(s.condition).toBeNull();
          expect(fixture.lastRequestBody("PATCH", /\/site-spaces\/[^/]+$/)).toEqual({ condition: null });
        },
      },
      {
        name: "default (true makes it its section's default)",
        inputs: (_f, p) => ({ ...p, default: true }),
        expect: async (s) => {
          expect(s.default).toBe(true);
          expect(fixture.lastRequestBody("PATCH", /\/sections\/[^/]+$/)).toEqual({
            defaultSiteSpace: expect.any(String),
          });
          const defaults = (await siteSpacesOf(s.siteId as string)).filter((x) => x.default);
          expect(defaults.map((x) => x.section)).toEqual([s.sectionId]);
        },
      },
    ],
    replaces: [
      { property: "siteId", inputs: async (_f, p) => ({ ...p, siteId: await fixture.makeSite() }) },
      {
        property: "sectionId",
        inputs: async (_f, p) => ({ ...p, sectionId: await fixture.makeSection(p.siteId as string, fixture.space(2)) }),
      },
      { property: "organizationId", inputs: (f, p) => ({ ...p, organizationId: f.emulator.secondOrganizationId }) },
    ],
    outOfBand: {
      change: async (id) => {
        const site = fixture.emulator.store.siteSpaces.get(id)?.siteId;
        const answer = await fixture.api("PATCH", `/orgs/${fixture.org()}/sites/${site}/site-spaces/${id}`, {
          path: "moved",
        });
        expect(answer.status).toBe(200);
      },
      expect: (state) => expect(state.path).toBe("moved"),
    },
    adopt: {
      existing: async () => {
        adoptSite = await fixture.makeSite({ spaces: [fixture.space(3)] });
        return (await nonEmpty(siteSpacesOf(adoptSite)))[0].id;
      },
      inputs: async () => ({
        organizationId: fixture.org(),
        siteId: adoptSite ?? (await fixture.makeSite()),
        spaceId: fixture.space(3),
        path: "adopted",
      }),
      expect: (state) => expect(state).toMatchObject({ path: "adopted", spaceId: fixture.space(3), sectionId: null }),
    },
  },
  fixture,
);

describe("SiteSpace behaviour", () => {
  it("creates a hidden site space with the follow-up PATCH, and sees it shown by hand as drift", async () => {
    const { id, state, inputs } = await created("SiteSpace", { ...(await baseInputs()), hidden: true });
    expect(state.hidden).toBe(true);
    expect(fixture.lastRequestBody("PATCH", /\/site-spaces\/[^/]+$/)).toEqual({
      path: "start",
      condition: "visitor.claims.beta === true",
      hidden: true,
    });
    await fixture.api("PATCH", `/orgs/${fixture.org()}/sites/${state.siteId}/site-spaces/${id}`, { hidden: false });
    const read = await lifecycle("SiteSpace").read(id, state);
    expect(read.props?.hidden).toBe(false);
    expect(await lifecycle("SiteSpace").diff(id, read.props ?? {}, inputs)).toMatchObject({ changes: true });
    // Undeclared, hidden is not managed: the same read is no change.
    const { hidden: _, ...undeclared } = inputs;
    expect((await lifecycle("SiteSpace").diff(id, read.props ?? {}, undeclared)).changes).toBe(false);
  });

  it("sends no hidden on create unless it is true: a new site space is shown", async () => {
    await created("SiteSpace", { ...(await baseInputs()), hidden: false });
    expect(fixture.lastRequestBody("PATCH", /\/site-spaces\/[^/]+$/)).toEqual({
      path: "start",
      condition: "visitor.claims.beta === true",
    });
  });

  it("makes a root-level site space the site's default with the site's defaultSiteSpace", async () => {
    const siteId = await fixture.makeSite({ spaces: [fixture.space(1)] });
    const { id, state, inputs } = await created("SiteSpace", {
      organizationId: fixture.org(),
      siteId,
      spaceId: fixture.space(0),
    });
    expect(state).toMatchObject({ sectionId: null, default: null });
    const { outs } = await lifecycle("SiteSpace").update(
      id,
      state,
      await checked("SiteSpace", { ...inputs, default: true }),
    );
    expect(outs.default).toBe(true);
    expect(fixture.lastRequestBody("PATCH", /\/sites\/[^/]+$/)).toEqual({ defaultSiteSpace: id });
    expect((await siteSpacesOf(siteId)).filter((x) => x.default).map((x) => x.id)).toEqual([id]);
  });

  it("creates a default site space in one go", async () => {
    const { siteId, sectionId } = await baseInputs();
    const { state } = await created("SiteSpace", {
      organizationId: fixture.org(),
      siteId,
      sectionId,
      spaceId: fixture.space(0),
      default: true,
    });
    expect(state.default).toBe(true);
  });

  it("treats default: false as not managed, since the API always keeps one default per level", async () => {
    const siteId = await fixture.makeSite();
    const { id, state, inputs } = await created("SiteSpace", {
      organizationId: fixture.org(),
      siteId,
      spaceId: fixture.space(0),
    });
    expect((await siteSpacesOf(siteId)).find((x) => x.id === id)?.default).toBe(true);
    expect(state.default).toBeNull();
    const next = await checked("SiteSpace", { ...inputs, default: false });
    expect((await lifecycle("SiteSpace").diff(id, state, next)).changes).toBe(false);
  });

  it("drops the site's shared listings after a write, so the next read sees the write", async () => {
    const { id, state, inputs } = await created("SiteSpace", await baseInputs());
    await lifecycle("SiteSpace").read(id, state);
    const { outs } = await lifecycle("SiteSpace").update(id, state, { ...inputs, path: "renamed" });
    expect((await lifecycle("SiteSpace").read(id, outs)).props?.path).toBe("renamed");
  });

  it("leaves sectionId unmanaged when omitted: the API picks the default section", async () => {
    const { siteId, sectionId } = await baseInputs();
    const { id, state, inputs } = await created("SiteSpace", {
      organizationId: fixture.org(),
      siteId,
      spaceId: fixture.space(0),
    });
    expect(state.sectionId).toBe(sectionId);
    expect((await lifecycle("SiteSpace").diff(id, state, inputs)).changes).toBe(false);
  });

  it("removes a new site space whose path the API refuses, so the next up does not duplicate it", async () => {
    const inputs = await baseInputs();
    const [existing] = await nonEmpty(siteSpacesOf(inputs.siteId as string));
    const taken = fixture.emulator.store.siteSpaces.get(existing.id)?.path;
    await expect(lifecycle("SiteSpace").create(await checked("SiteSpace", { ...inputs, path: taken }))).rejects.toThrow(
      /SiteSpace create: PATCH .* 400 Bad Request: path: .* is already used/,
    );
    expect((await siteSpacesOf(inputs.siteId as string)).map((s) => s.id)).toEqual([existing.id]);
  });

  it("reads a site space whose section was deleted as gone (the API deletes it with the section)", async () => {
    const { id, state } = await created("SiteSpace", await baseInputs());
    await fixture.api("DELETE", `/orgs/${fixture.org()}/sites/${state.siteId}/sections/${state.sectionId}`);
    expect((await lifecycle("SiteSpace").read(id, state)).id).toBe("");
  });
});

describe("SiteSpace check", () => {
  const check = (news: Record<string, unknown>) => lifecycle("SiteSpace").check({}, news);
  const valid = () => ({ organizationId: fixture.org(), siteId: "site", spaceId: "space" });

  it("rejects each limit with the property and the rule, without calling the API", async () => {
    const cases: LimitCase[] = [
      [{ path: "" }, "path", /at least 1 character/],
      [{ path: "x".repeat(101) }, "path", /at most 100 characters/],
      [{ condition: "" }, "condition", /at least 1 character/],
      [{ condition: "x".repeat(1025) }, "condition", /at most 1024 characters/],
      [{ default: 1 }, "default", /must be a boolean/],
      [{ sectionId: "" }, "sectionId", /must be an id/],
      [{ spaceId: "" }, "spaceId", /must be an id/],
      [{ siteId: "" }, "siteId", /must be an id/],
      [{ organizationId: "" }, "organizationId", /must be an id/],
      [{ title: "t" }, "title", /unknown property title/],
    ];
    await expectEachLimitRejected("SiteSpace", valid(), cases);
    expect(fixture.emulator.requests()).toEqual([]);
  });

  it("accepts values at the exact limits", async () => {
    for (const news of [
      { path: "p", condition: "c" },
      { path: "p".repeat(100), condition: "c".repeat(1024), default: false },
      { condition: null, default: true, sectionId: "s" },
    ]) {
      expect((await check({ ...valid(), ...news })).failures).toBeUndefined();
    }
  });

  it("lets unknown values through during preview", async () => {
    expect((await check({ ...valid(), sectionId: UNKNOWN, path: UNKNOWN })).failures).toBeUndefined();
  });
});

/** A listing that must not be empty, typed so: its first item exists. */
async function nonEmpty<T>(listing: Promise<T[]>): Promise<[T, ...T[]]> {
  const items = await listing;
  const [first, ...rest] = items;
  if (first === undefined) throw new Error("expected a non-empty listing");
  return [first, ...rest];
}
