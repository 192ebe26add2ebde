import { describe, expect, it } from "vitest";
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
import { captureLog } from "../support/log";

const fixture = useEmulator();
const ICON = "https://cdn.example/handbook.png";

const writes = () => fixture.calls().filter((c) => !c.startsWith("GET "));

const logged = captureLog();

describeLifecycle(
  {
    kind: "Space",
    inputs: () => ({ organizationId: fixture.org(), title: "Handbook", emoji: "1f4d8" }),
    created: (state) => {
      expect(state).toMatchObject({
        organizationId: fixture.org(),
        title: "Handbook",
        emoji: "1f4d8",
        icon: null,
        editMode: "live",
        parentId: null,
        visibility: "private",
      });
      expect((state.urls as { app: string }).app).toMatch(/^https?:\/\//);
    },
    updates: [
      updateTo("title", "Playbook"),
      updateTo("mergeRules", { type: "rules", rules: [{ rule: "require_all_reviews_approved" }] }),
      updateTo("mergeRules", { type: "none" }, "mergeRules (none; a new space has inherit)"),
      updateTo("emoji", "1f389"),
      {
        name: "icon (replaces the emoji)",
        inputs: (_f, prev) => ({ ...prev, emoji: undefined, icon: ICON }),
        expect: (state) => expect(state).toMatchObject({ icon: ICON, emoji: null }),
      },
      {
        name: "emoji: null (removes it)",
        inputs: (_f, prev) => ({ ...prev, emoji: null }),
        expect: (state) => expect(state).toMatchObject({ icon: null, emoji: null }),
      },
      updateTo("editMode", "locked"),
      updateTo("defaultLevel", "read"),
      updateTo("defaultLevel", null, "defaultLevel: null"),
      updateTo("language", "fr"),
      {
        name: "parentId (move)",
        inputs: async (_f, prev) => ({ ...prev, parentId: await fixture.makeCollection("Guides") }),
        expect: (state) => {
          expect(fixture.calls().some((r) => /^POST \/v1\/spaces\/[^/]+\/move$/.test(r))).toBe(true);
          expect(fixture.calls().some((r) => /^PATCH /.test(r))).toBe(false);
          expect(state.parentId).toBeTruthy();
        },
      },
    ],
    replaces: [
      {
        property: "computedSource",
        inputs: (_f, prev) => ({
          ...prev,
          computedSource: { type: "builtin:openapi", spec: "petstore", models: true },
        }),
      },
      {
        property: "organizationId",
        inputs: (_f, prev) => ({ ...prev, organizationId: fixture.emulator.secondOrganizationId }),
      },
    ],
    outOfBand: {
      change: async (id) => {
        expect((await fixture.api("PATCH", `/spaces/${id}`, { title: "Renamed by hand" })).status).toBe(200);
      },
      expect: (state) => expect(state.title).toBe("Renamed by hand"),
    },
    adopt: {
      existing: () => fixture.apiCreate(`/orgs/${fixture.org()}/spaces`, { title: "Legacy" }),
      inputs: () => ({ organizationId: fixture.org(), title: "Adopted", editMode: "locked" }),
      expect: (state) => expect(state).toMatchObject({ title: "Adopted", editMode: "locked" }),
    },
  },
  fixture,
);

describe("Space create, adopt and delete", () => {
  it("creates in a collection with one POST, then one PATCH for defaultLevel and icon", async () => {
    const parentId = await fixture.makeCollection("Guides");
    fixture.emulator.clearRequests();
    const { state } = await created("Space", {
      organizationId: fixture.org(),
      title: "API",
      icon: ICON,
      parentId,
      language: "de",
      editMode: "locked",
      defaultLevel: "comment",
    });
    expect(writes()).toEqual([`POST /v1/orgs/${fixture.org()}/spaces`, expect.stringMatching(/^PATCH \/v1\/spaces\//)]);
    expect(state).toMatchObject({ parentId, icon: ICON, emoji: null, language: "de", defaultLevel: "comment" });
  });

  it("adopts a space that matches the declared fields with no write at all", async () => {
    const parentId = await fixture.makeCollection("Guides");
    const id = await fixture.apiCreate(`/orgs/${fixture.org()}/spaces`, {
      title: "Legacy",
      emoji: "1f4d8",
      parent: parentId,
    });
    fixture.emulator.clearRequests();
    const inputs = await checked("Space", {
      organizationId: fixture.org(),
      title: "Legacy",
      emoji: "1f4d8",
      parentId,
      importId: id,
    });
    const result = await lifecycle("Space").create(inputs);
    expect(result.id).toBe(id);
    expect(fixture.calls()).toEqual([`GET /v1/spaces/${id}`]);
  });

  it("refuses to adopt a space of another organization, naming both and the fix", async () => {
    const id = await fixture.apiCreate(`/orgs/${fixture.emulator.secondOrganizationId}/spaces`, { title: "B" });
    const inputs = await checked("Space", { organizationId: fixture.org(), title: "B", importId: id });
    await expect(lifecycle("Space").create(inputs)).rejects.toThrow(
      new RegExp(
        `belongs to organization "${fixture.emulator.secondOrganizationId}", not "${fixture.org()}".*fix organizationId`,
      ),
    );
    expect(writes()).toEqual([`POST /v1/orgs/${fixture.emulator.secondOrganizationId}/spaces`]);
  });

  it("logs that a deleted space can be restored for 7 days, and the restore brings it back", async () => {
    const { id, state } = await created("Space", { organizationId: fixture.org(), title: "Old docs" });
    await lifecycle("Space").delete(id, state);
    expect(logged).toEqual([
      expect.stringMatching(/^warn: Space ".+" \("Old docs"\) was deleted.*restored for 7 days/),
    ]);
    expect(logged[0]).toContain(`POST /v1/spaces/${id}/restore`);
    expect((await fixture.api("POST", `/spaces/${id}/restore`)).status).toBe(200);
    expect((await lifecycle("Space").read(id, state)).id).toBe(id);
  });

  it("removes the new space when the PATCH after the POST fails, so the next up makes no duplicate", async () => {
    fixture.emulator.injectFault({ method: "PATCH", path: "^/v1/spaces/", count: 5, status: 503 });
    const create = lifecycle("Space").create(
      await checked("Space", { organizationId: fixture.org(), title: "Half made", defaultLevel: "read" }),
    );
    await expect(create).rejects.toThrow(/PATCH \/v1\/spaces\/\S+ failed with 503/);
    const listed = await fixture.api("GET", `/orgs/${fixture.org()}/spaces`);
    expect((listed.body as { items: { title: string }[] }).items.map((s) => s.title)).not.toContain("Half made");
  });

  it("sees a space moved by hand as drift of parentId", async () => {
    const { id, state, inputs } = await created("Space", { organizationId: fixture.org(), title: "Moved" });
    const parent = await fixture.makeCollection("Elsewhere");
    expect((await fixture.api("POST", `/spaces/${id}/move`, { parent })).status).toBe(200);
    const read = await lifecycle("Space").read(id, state);
    expect(read.props).toMatchObject({ parentId: parent });
    expect((await lifecycle("Space").diff(id, read.props as Record<string, unknown>, inputs)).changes).toBe(true);
  });
});

describe("Space check", () => {
  it("rejects each limit with the property and the rule, without calling the API", async () => {
    const cases: LimitCase[] = [
      [{ title: "x".repeat(51) }, "title", /at most 50 characters/],
      [{ emoji: "x".repeat(51) }, "emoji", /at most 50 characters/],
      [{ emoji: "" }, "emoji", /at least 1 character/],
      [{ icon: "ftp://x.example/i.png" }, "icon", /URL/i],
      [{ icon: `https://x.example/${"i".repeat(2048)}` }, "icon", /at most 2048 characters/],
      [{ emoji: "1f4d8", icon: ICON }, "icon", /must not be set together with emoji/],
      [{ editMode: "open" }, "editMode", /live.*locked/],
      [{ defaultLevel: "owner" }, "defaultLevel", /must be one of/],
      [{ language: "xx" }, "language", /must be one of/],
      [{ parentId: "../x" }, "parentId", /must be an id/],
      [{ organizationId: "" }, "organizationId", /must be an id/],
      [{ visibility: "public" }, "visibility", /unknown property visibility/],
    ];
    await expectEachLimitRejected("Space", { organizationId: fixture.org(), title: "ok" }, cases);
    expect(fixture.emulator.requests()).toEqual([]);
  });

  it("accepts values at the exact limits, and an unknown emoji with an icon during preview", async () => {
    await checked("Space", { organizationId: fixture.org(), title: "x".repeat(50), emoji: "y".repeat(50) });
    await checked("Space", { organizationId: fixture.org(), title: "t", emoji: UNKNOWN, icon: ICON });
  });

  it("replaces only on organizationId; emoji and parentId change in place", async () => {
    const olds = {
      organizationId: "o",
      title: "T",
      emoji: null,
      icon: null,
      editMode: "live",
      defaultLevel: null,
      language: null,
      parentId: null,
      visibility: "private",
      urls: {},
    };
    const diff = (news: Record<string, unknown>) =>
      lifecycle("Space").diff("s1", olds, { organizationId: "o", title: "T", parentId: null, ...news });
    expect(await diff({ emoji: "1f4d8", parentId: "c1" })).toMatchObject({ changes: true, replaces: [] });
    expect(await diff({ organizationId: "o2" })).toMatchObject({ changes: true, replaces: ["organizationId"] });
    expect(await diff({})).toMatchObject({ changes: false });
  });
});
