import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/framework/unknown";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { created, describeLifecycle, expectEachLimitRejected, type LimitCase, updateTo } from "../support/lifecycle";

const fixture = useEmulator();

describeLifecycle(
  {
    kind: "Collection",
    inputs: () => ({ organizationId: fixture.org(), title: "Handbook", description: "How we work" }),
    created: (state) => {
      expect(state).toMatchObject({
        organizationId: fixture.org(),
        title: "Handbook",
        description: "How we work",
        parentId: null,
      });
      expect((state.urls as { app: string }).app).toMatch(/^https?:\/\//);
    },
    updates: [
      updateTo("title", "Playbook"),
      updateTo("description", ""),
      updateTo("defaultLevel", "read"),
      {
        name: "parentId (move)",
        inputs: async (_f, prev) => ({ ...prev, parentId: await fixture.makeCollection("Parent") }),
        expect: async (state) => {
          expect(fixture.calls().some((r) => /^POST \/v1\/collections\/[^/]+\/move$/.test(r))).toBe(true);
          expect(state.parentId).toBeTruthy();
        },
      },
      {
        name: "organizationId (transfer)",
        inputs: (_f, prev) => ({ ...prev, organizationId: fixture.emulator.secondOrganizationId }),
        expect: (state) => {
          expect(state.organizationId).toBe(fixture.emulator.secondOrganizationId);
          expect(fixture.calls().some((r) => /^POST \/v1\/collections\/[^/]+\/transfer$/.test(r))).toBe(true);
        },
      },
    ],
    replaces: [],
    outOfBand: {
      change: async (id) => {
        expect((await fixture.api("PATCH", `/collections/${id}`, { title: "Renamed by hand" })).status).toBe(200);
      },
      expect: (state) => expect(state.title).toBe("Renamed by hand"),
    },
    adopt: {
      existing: () => fixture.makeCollection("Legacy"),
      inputs: () => ({ organizationId: fixture.org(), title: "Adopted" }),
      expect: (state) => expect(state.title).toBe("Adopted"),
    },
  },
  fixture,
);

describe("Collection check", () => {
  const check = (news: Record<string, unknown>) => lifecycle("Collection").check({}, news);

  it("rejects each limit with the property and the rule, without calling the API", async () => {
    const cases: LimitCase[] = [
      [{ title: "x".repeat(51) }, "title", /at most 50 characters/],
      [{ description: "x".repeat(101) }, "description", /at most 100 characters/],
      [{ defaultLevel: "owner" }, "defaultLevel", /must be one of/],
      [{ titel: "typo" }, "titel", /unknown property titel/],
      [{ organizationId: "" }, "organizationId", /must be an id/],
    ];
    await expectEachLimitRejected("Collection", { organizationId: fixture.org(), title: "ok" }, cases);
    expect(fixture.emulator.requests()).toEqual([]);
  });

  it("accepts values at the exact limits and defaults parentId to the top level", async () => {
    const result = await check({ organizationId: fixture.org(), title: "x".repeat(50), description: "y".repeat(100) });
    expect(result.failures).toBeUndefined();
    expect(result.inputs).toMatchObject({ parentId: null });
  });

  it("applies defaults to the known properties when others are unknown, so the preview compares real values", async () => {
    const result = await check({ organizationId: UNKNOWN, title: "ok" });
    expect(result.inputs).toEqual({ organizationId: UNKNOWN, title: "ok", parentId: null });
  });

  it("lets unknown values through during preview", async () => {
    const result = await check({ organizationId: UNKNOWN, title: "ok", parentId: UNKNOWN });
    expect(result.failures).toBeUndefined();
  });
});

describe("Collection diff", () => {
  const diff = (olds: Record<string, unknown>, news: Record<string, unknown>) =>
    lifecycle("Collection").diff("c1", olds, news);
  const olds = { organizationId: "o", title: "T", description: "", defaultLevel: null, parentId: null, urls: {} };

  it("ignores __provider, importId and undeclared properties", async () => {
    const result = await diff(olds, {
      organizationId: "o",
      title: "T",
      parentId: null,
      importId: "x",
      __provider: "p",
    });
    expect(result).toMatchObject({ changes: false, replaces: [] });
  });

  it("treats an unknown value as a change, and nothing as a replacement", async () => {
    expect(await diff(olds, { organizationId: "o", title: "T", parentId: UNKNOWN })).toMatchObject({
      changes: true,
      replaces: [],
    });
  });

  it("sees a parent set out of band as drift", async () => {
    expect((await diff({ ...olds, parentId: "p1" }, { organizationId: "o", title: "T", parentId: null })).changes).toBe(
      true,
    );
  });
});

describe("Collection errors", () => {
  it("removes the new collection when a step after the POST fails, so the next up makes no duplicate", async () => {
    fixture.emulator.injectFault({ method: "PATCH", path: "^/v1/collections/", count: 5, status: 503 });
    const create = lifecycle("Collection").create({
      organizationId: fixture.org(),
      title: "Half made",
      description: "d",
      parentId: null,
    });
    await expect(create).rejects.toThrow(/PATCH \/v1\/collections\/\S+ failed with 503/);
    const listed = await fixture.api("GET", `/orgs/${fixture.org()}/collections`);
    expect((listed.body as { items: { title: string }[] }).items.map((c) => c.title)).not.toContain("Half made");
  });

  it("names the kind, the operation, the HTTP status, the API's answer and the fix on 404", async () => {
    const { id, state } = await created("Collection", { organizationId: fixture.org(), title: "Gone soon" });
    await fixture.api("DELETE", `/collections/${id}`);
    const news = { ...state, title: "New" };
    await expect(lifecycle("Collection").update(id, state, news)).rejects.toThrow(
      new RegExp(`Collection "${id}" update: PATCH /v1/collections/${id} failed with 404 Not Found: .+pulumi refresh`),
    );
  });

  it("names the token settings on 401 and never shows the token", async () => {
    const saved = process.env.DOCS_API_TOKEN;
    process.env.DOCS_API_TOKEN = "wrong-token-value";
    try {
      const error = await lifecycle("Collection")
        .create({ organizationId: fixture.org(), title: "x", parentId: null })
        .catch((e: Error) => e);
      expect(String(error)).toMatch(/401 Unauthorized.*docs:apiToken.*DOCS_API_TOKEN/);
      expect(String(error)).not.toContain("wrong-token-value");
    } finally {
      process.env.DOCS_API_TOKEN = saved;
    }
  });
});
