import { describe, expect, it } from "vitest";
import type { Props } from "../../provider/framework/kind";
import { UNKNOWN } from "../../provider/framework/unknown";
import { lifecycle, startOperation } from "../../provider/runtime";
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

async function sectionsOf(site: string) {
  const answer = await fixture.api("GET", `/orgs/${fixture.org()}/sites/${site}/sections`);
  return (answer.body as { items: { id: string; default: boolean; siteSpaces: { id: string }[] }[] }).items;
}

/** A site whose first (default) section already exists, so the section under test starts as not the default. */
async function baseInputs(): Promise<Props> {
  const siteId = await fixture.makeSite();
  await fixture.makeSection(siteId, fixture.space(1), "Existing");
  return {
    organizationId: fixture.org(),
    siteId,
    spaceId: fixture.space(0),
    title: "Guides",
    path: "guides",
    icon: "book",
    condition: "visitor.claims.beta === true",
    description: "All the guides",
  };
}

let adoptSite: string | undefined;

describeLifecycle(
  {
    kind: "SiteSection",
    inputs: baseInputs,
    created: (state) => {
      expect(state).toMatchObject({ title: "Guides", path: "guides", icon: "book", default: null });
      expect(state.condition).toBe("visitor.claims.beta === true");
      expect(state.spaceId).toBe(fixture.space(0));
      expect(state.siteSpaceId).toEqual(expect.any(String));
      // POST takes spaceId, title and icon; path, condition and description follow in one PATCH.
      expect(fixture.lastRequestBody("POST", /\/sections$/)).toEqual({
        spaceId: fixture.space(0),
        title: "Guides",
        icon: "book",
      });
      expect(fixture.lastRequestBody("PATCH", /\/sections\/[^/]+$/)).toEqual({
        path: "guides",
        condition: "visitor.claims.beta === true",
        description: "All the guides",
      });
    },
    updates: [
      updateTo("title", "Manuals"),
      updateTo("path", "manuals"),
      updateTo("icon", "gear"),
      updateTo("icon", null, "icon (null removes it)"),
      updateTo("condition", "visitor.claims.plan === 'pro'"),
      {
        name: "condition (null removes it)",
        inputs: (_f, p) => ({ ...p, condition: null }),
        expect: (s) => {
          expect(s.condition).toBeNull();
          expect(fixture.lastRequestBody("PATCH", /\/sections\/[^/]+$/)).toEqual({ condition: null });
        },
      },
      updateTo("draft", true, "draft (true stages the section)"),
      updateTo("localizedTitle", { fr: "Guides FR", de: "Anleitungen" }),
      updateTo("localizedDescription", { fr: "Tous les guides" }),
      {
        name: "pageId (the own site space's home page)",
        inputs: (f, p) => ({ ...p, pageId: pageIdAt(f, p.spaceId as string, "getting-started") }),
        expect: (s) => {
          expect(s.pageId).toBe(pageIdAt(fixture, s.spaceId as string, "getting-started"));
          expect(fixture.lastRequestBody("PATCH", /\/site-spaces\/[^/]+$/)).toEqual({ pageId: s.pageId });
        },
      },
      updateTo("description", "Step by step"),
      updateTo("description", null, "description (null removes it)"),
      {
        name: "default (true makes it the site's default section)",
        inputs: (_f, p) => ({ ...p, default: true }),
        expect: async (s) => {
          expect(s.default).toBe(true);
          expect(fixture.lastRequestBody("PATCH", /\/sites\/[^/]+$/)).toEqual({
            defaultSiteSection: expect.any(String),
          });
          const defaults = (await sectionsOf(s.siteId as string)).filter((x) => x.default);
          expect(defaults.map((x) => x.id)).toHaveLength(1);
        },
      },
      {
        name: "spaceId (retargets the section's own site space, keeping the section)",
        inputs: (_f, p) => ({ ...p, spaceId: fixture.space(2) }),
        expect: async (s) => {
          expect(s.spaceId).toBe(fixture.space(2));
          expect(fixture.lastRequestBody("PATCH", /\/site-spaces\/[^/]+$/)).toEqual({ spaceId: fixture.space(2) });
          expect(fixture.emulator.requests().filter((r) => r.method === "DELETE")).toEqual([]);
          const ss = fixture.emulator.store.siteSpaces.get(s.siteSpaceId as string);
          expect(ss?.spaceId).toBe(fixture.space(2));
          expect(ss?.sectionId && fixture.emulator.store.sections.has(ss.sectionId)).toBe(true);
        },
      },
    ],
    replaces: [
      { property: "siteId", inputs: async (_f, p) => ({ ...p, siteId: await fixture.makeSite() }) },
      { property: "organizationId", inputs: (f, p) => ({ ...p, organizationId: f.emulator.secondOrganizationId }) },
    ],
    outOfBand: {
      change: async (id) => {
        const site = fixture.emulator.store.sections.get(id)?.siteId;
        const answer = await fixture.api("PATCH", `/orgs/${fixture.org()}/sites/${site}/sections/${id}`, {
          condition: null,
        });
        expect(answer.status).toBe(200);
      },
      expect: (state) => expect(state.condition).toBeNull(),
    },
    adopt: {
      existing: async () => {
        adoptSite = await fixture.makeSite();
        return fixture.makeSection(adoptSite, fixture.space(0), "Legacy");
      },
      inputs: async () => ({
        organizationId: fixture.org(),
        siteId: adoptSite ?? (await fixture.makeSite()),
        spaceId: fixture.space(0),
        title: "Adopted",
      }),
      expect: (state) => expect(state).toMatchObject({ title: "Adopted", spaceId: fixture.space(0), default: null }),
    },
  },
  fixture,
);

describe("SiteSection behaviour", () => {
  it("exposes the site space created with it, which a SiteSpace can adopt", async () => {
    const { state } = await created("SiteSection", await baseInputs());
    const siteSpace = await lifecycle("SiteSpace").create(
      await checked("SiteSpace", {
        organizationId: fixture.org(),
        siteId: state.siteId,
        spaceId: fixture.space(0),
        path: "start",
        importId: state.siteSpaceId,
      }),
    );
    expect(siteSpace.id).toBe(state.siteSpaceId);
    expect(siteSpace.outs).toMatchObject({ sectionId: expect.any(String), path: "start" });
  });

  it("deletes the old section before creating its replacement, since the path must stay unique in the site", async () => {
    const { id, state, inputs } = await created("SiteSection", await baseInputs());
    const diff = await lifecycle("SiteSection").diff(id, state, { ...inputs, siteId: await fixture.makeSite() });
    expect(diff).toMatchObject({ replaces: ["siteId"], deleteBeforeReplace: true });
  });

  it("keeps the section's other site spaces and its URL when spaceId changes", async () => {
    const { id, state, inputs } = await created("SiteSection", await baseInputs());
    const other = await fixture.apiCreate(`/orgs/${fixture.org()}/sites/${state.siteId}/site-spaces`, {
      spaceId: fixture.space(3),
      sectionId: id,
    });
    const next = await checked("SiteSection", { ...inputs, spaceId: fixture.space(2) });
    expect((await lifecycle("SiteSection").diff(id, state, next)).replaces).toEqual([]);
    const { outs } = await lifecycle("SiteSection").update(id, state, next);
    expect(outs).toMatchObject({ siteSpaceId: state.siteSpaceId, spaceId: fixture.space(2), path: state.path });
    expect(fixture.emulator.store.siteSpaces.get(other)?.sectionId).toBe(id);
  });

  it("adds a site space for spaceId when the section no longer has its own", async () => {
    const { id, state, inputs } = await created("SiteSection", await baseInputs());
    await fixture.api("POST", `/orgs/${fixture.org()}/sites/${state.siteId}/site-spaces`, {
      spaceId: fixture.space(3),
      sectionId: id,
    });
    await fixture.api("DELETE", `/orgs/${fixture.org()}/sites/${state.siteId}/site-spaces/${state.siteSpaceId}`);
    const read = await lifecycle("SiteSection").read(id, state);
    expect(read.props).toMatchObject({ spaceId: null, siteSpaceId: null });
    const { outs } = await lifecycle("SiteSection").update(id, read.props as Props, inputs);
    expect(outs).toMatchObject({ spaceId: fixture.space(0), siteSpaceId: expect.any(String) });
    expect(fixture.lastRequestBody("POST", /\/site-spaces$/)).toEqual({ spaceId: fixture.space(0), sectionId: id });
  });

  it("treats default: false as not managed, since the API always keeps one default section", async () => {
    const siteId = await fixture.makeSite();
    const { id, state, inputs } = await created("SiteSection", {
      organizationId: fixture.org(),
      siteId,
      spaceId: fixture.space(0),
    });
    expect((await sectionsOf(siteId)).find((x) => x.id === id)?.default).toBe(true);
    expect(state.default).toBeNull();
    const next = await checked("SiteSection", { ...inputs, default: false });
    expect(next.default).toBeUndefined();
    expect((await lifecycle("SiteSection").diff(id, state, next)).changes).toBe(false);
  });

  it("keeps a sibling's state current when a later section takes the default: only declared defaults are recorded", async () => {
    const siteId = await fixture.makeSite();
    const first = await created("SiteSection", { organizationId: fixture.org(), siteId, spaceId: fixture.space(0) });
    const second = await created("SiteSection", {
      organizationId: fixture.org(),
      siteId,
      spaceId: fixture.space(1),
      default: true,
    });
    expect((await sectionsOf(siteId)).filter((x) => x.default).map((x) => x.id)).toEqual([second.id]);
    expect(second.state.default).toBe(true);
    for (const section of [first, second]) {
      const refreshed = await lifecycle("SiteSection").read(section.id, section.state);
      expect(refreshed.props).toEqual(section.state);
    }
  });

  it("drops the site's shared listings after a write, so the next read sees the write", async () => {
    const { id, state, inputs } = await created("SiteSection", await baseInputs());
    await lifecycle("SiteSection").read(id, state);
    const { outs } = await lifecycle("SiteSection").update(id, state, { ...inputs, title: "Renamed" });
    expect((await lifecycle("SiteSection").read(id, outs)).props?.title).toBe("Renamed");
  });

  it("reads each site's structure once when reading many sections of it, and their site spaces from it too", async () => {
    const siteId = await fixture.makeSite();
    const states = [];
    for (const i of [0, 1, 2])
      states.push(await created("SiteSection", { organizationId: fixture.org(), siteId, spaceId: fixture.space(i) }));
    const sectionId = states[1]!.id;
    const siteSpaceInputs = {
      organizationId: fixture.org(),
      siteId,
      spaceId: fixture.space(0),
      sectionId,
      path: "second",
    };
    const { id: siteSpace, state: siteSpaceState } = await created("SiteSpace", siteSpaceInputs);
    fixture.emulator.clearRequests();
    startOperation();
    const reads = await Promise.all([
      ...states.map(({ id, state }) => lifecycle("SiteSection").read(id, state)),
      lifecycle("SiteSpace").read(siteSpace, siteSpaceState),
    ]);
    expect(reads.map((read) => read.props)).toEqual([...states.map(({ state }) => state), siteSpaceState]);
    expect(fixture.emulator.counters()).toEqual({ "GET /v1/orgs/{organizationId}/sites/{siteId}/structure": 1 });
  });

  it("reads a section whose site was deleted as gone", async () => {
    const { id, state } = await created("SiteSection", await baseInputs());
    await fixture.api("DELETE", `/orgs/${fixture.org()}/sites/${state.siteId}`);
    expect((await lifecycle("SiteSection").read(id, state)).id).toBe("");
    await lifecycle("SiteSection").delete(id, state);
  });

  it("removes a new section whose settings the API refuses, so the next up does not duplicate it", async () => {
    const inputs = await baseInputs();
    const [existing] = await nonEmpty(sectionsOf(inputs.siteId as string));
    const taken = fixture.emulator.store.sections.get(existing.id)?.path;
    const news = await checked("SiteSection", { ...inputs, path: taken });
    await expect(lifecycle("SiteSection").create(news)).rejects.toThrow(
      /SiteSection create: PATCH .* 400 Bad Request: path: .* is already used/,
    );
    expect((await sectionsOf(inputs.siteId as string)).map((s) => s.id)).toEqual([existing.id]);
  });

  it("keeps a failed first section that took in the site's root-level spaces, and says to adopt it", async () => {
    const siteId = await fixture.makeSite({ spaces: [fixture.space(1), fixture.space(2)] });
    const news = await checked("SiteSection", {
      organizationId: fixture.org(),
      siteId,
      spaceId: fixture.space(0),
      path: "x",
    });
    fixture.emulator.injectFault({ method: "PATCH", path: "/sections/[^/]+$", count: 1, status: 400 });
    const error = await lifecycle("SiteSection")
      .create(news)
      .catch((e: Error) => e);
    const [kept] = await nonEmpty(sectionsOf(siteId));
    expect(kept.siteSpaces).toHaveLength(3);
    expect(String(error)).toMatch(
      new RegExp(
        `400 Bad Request.*was kept \\(it holds the site's former root-level site spaces\\): adopt it with importId "${kept.id}"`,
      ),
    );
  });
});

describe("SiteSection check", () => {
  const check = (news: Record<string, unknown>) => lifecycle("SiteSection").check({}, news);
  const valid = () => ({ organizationId: fixture.org(), siteId: "site", spaceId: "space" });

  it("rejects each limit with the property and the rule, without calling the API", async () => {
    const cases: LimitCase[] = [
      [{ title: "x" }, "title", /at least 2 characters/],
      [{ title: "x".repeat(129) }, "title", /at most 128 characters/],
      [{ path: "" }, "path", /at least 1 character/],
      [{ path: "x".repeat(101) }, "path", /at most 100 characters/],
      [{ condition: "" }, "condition", /at least 1 character/],
      [{ condition: "x".repeat(1025) }, "condition", /at most 1024 characters/],
      [{ description: "x".repeat(257) }, "description", /at most 256 characters/],
      [{ icon: "x".repeat(51) }, "icon", /at most 50 characters/],
      [{ default: "yes" }, "default", /must be a boolean/],
      [{ spaceId: "" }, "spaceId", /must be an id/],
      [{ siteId: "" }, "siteId", /must be an id/],
      [{ organizationId: "" }, "organizationId", /must be an id/],
      [{ sectionGroup: "g" }, "sectionGroup", /unknown property sectionGroup/],
    ];
    await expectEachLimitRejected("SiteSection", valid(), cases);
    expect(fixture.emulator.requests()).toEqual([]);
  });

  it("accepts values at the exact limits", async () => {
    for (const news of [
      { title: "xy", path: "p", condition: "c", description: "", icon: "" },
      { title: "x".repeat(128), path: "p".repeat(100), condition: "c".repeat(1024), description: "d".repeat(256) },
      { icon: "i".repeat(50), condition: null, description: null, default: true },
    ]) {
      expect((await check({ ...valid(), ...news })).failures).toBeUndefined();
    }
  });

  it("lets unknown values through during preview", async () => {
    expect((await check({ ...valid(), siteId: UNKNOWN, spaceId: UNKNOWN, title: UNKNOWN })).failures).toBeUndefined();
  });
});

/** A listing that must not be empty, typed so: its first item exists. */
async function nonEmpty<T>(listing: Promise<T[]>): Promise<[T, ...T[]]> {
  const items = await listing;
  const [first, ...rest] = items;
  if (first === undefined) throw new Error("expected a non-empty listing");
  return [first, ...rest];
}
