import { beforeEach, describe, expect, it } from "vitest";
import { type Json, useEmulator } from "../support/emulator";

/** The emulator's clock, advanced by hand: a run's states are deterministic. */
const STEP = 1000;
let now = Date.parse("2026-11-01T00:00:00Z");
const h = useEmulator({ provider: false, translationStepMs: STEP, clock: () => now });
beforeEach(() => {
  now = Date.parse("2026-11-01T00:00:00Z");
});

const translationsPath = () => `/orgs/${h.org()}/translations`;
const glossaryPath = () => `/orgs/${h.org()}/translations-glossary`;

const documentOf = (text: string) => ({
  object: "document",
  data: {},
  nodes: [
    {
      object: "block",
      type: "paragraph",
      data: {},
      nodes: [{ object: "text", leaves: [{ object: "leaf", text, marks: [] }] }],
    },
  ],
});

async function createTranslation(body: Record<string, unknown> = {}): Promise<Json> {
  const res = await h.call("POST", translationsPath(), {
    source: { space: h.space(0), language: "en" },
    language: "fr",
    ...body,
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const get = async (id: string) => (await h.call("GET", `${translationsPath()}/${id}`)).body;

describe("translations", () => {
  it("runs by the clock: pending, running, completed; the first completed run makes the translated space", async () => {
    const created = await createTranslation();
    expect(created).toMatchObject({ object: "translation", status: "pending", language: "fr" });
    expect(created.result).toBeUndefined();
    expect(created.instructions).toEqual({ object: "document", data: {}, nodes: [] });
    expect(created.stats.runs).toBe(0);

    now += STEP;
    expect((await get(created.id)).status).toBe("running");
    now += STEP;
    const done = await get(created.id);
    expect(done.status).toBe("completed");
    expect(done.stats).toMatchObject({ runs: 1, totalWords: 100 });
    const space = h.emulator.store.spaces.get(done.result.space);
    expect(space).toMatchObject({ language: "fr", orgId: h.org() });
    expect(space?.title).toMatch(/ \(fr\)$/);
  });

  it("runs again on POST …/run, back to pending, into the same space with a new revision", async () => {
    const { id } = await createTranslation();
    now += 2 * STEP;
    const first = await get(id);
    const run = await h.call("POST", `${translationsPath()}/${id}/run`);
    expect(run.status).toBe(204);
    expect((await get(id)).status).toBe("pending");
    now += 2 * STEP;
    const second = await get(id);
    expect(second).toMatchObject({ status: "completed", stats: { runs: 2 } });
    expect(second.result.space).toBe(first.result.space);
    expect(second.result.revision).not.toBe(first.result.revision);
  });

  it("counts a run still under way when another starts, so that every run has a result", async () => {
    const { id } = await createTranslation();
    expect((await h.call("POST", `${translationsPath()}/${id}/run`)).status).toBe(204);
    const translation = await get(id);
    expect(translation.stats.runs).toBe(1);
    expect(translation.result.space).toEqual(expect.any(String));
  });

  it("replaces the instructions with PUT, which requires them", async () => {
    const { id } = await createTranslation({ instructions: documentOf("Tutoyer.") });
    const put = await h.call("PUT", `${translationsPath()}/${id}`, { instructions: documentOf("Vouvoyer.") });
    expect(put.status).toBe(200);
    expect(put.body.instructions).toEqual(documentOf("Vouvoyer."));
    const empty = await h.call("PUT", `${translationsPath()}/${id}`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe("instructions: is required");
  });

  it("refuses a source space that is not one of the organization's", async () => {
    const other = await h.call("POST", translationsPath(), {
      source: { space: "no-such-space", language: "en" },
      language: "fr",
    });
    expect(other.status).toBe(400);
    expect(other.body.error.message).toBe(`source.space: space "no-such-space" not found in organization "${h.org()}"`);
  });

  it("deletes (205, then 204) and leaves the translated space", async () => {
    const { id } = await createTranslation();
    now += 2 * STEP;
    const { result } = await get(id);
    expect((await h.call("DELETE", `${translationsPath()}/${id}`)).status).toBe(205);
    expect((await h.call("DELETE", `${translationsPath()}/${id}`)).status).toBe(204);
    expect((await h.call("GET", `${translationsPath()}/${id}`)).status).toBe(404);
    expect(h.emulator.store.liveSpace(result.space)).toBeDefined();
  });
});

describe("the translation glossary", () => {
  const batch = (operations: unknown[]) => h.call("PUT", glossaryPath(), { operations });

  it("inserts, updates (replacing the translations) and deletes in one batch, answering 204", async () => {
    expect((await batch([{ type: "insert", translations: { en: "space", fr: "espace", de: "Raum" } }])).status).toBe(
      204,
    );
    const [entry] = await h.listAll(glossaryPath());
    expect(entry).toMatchObject({ object: "glossary-entry", translations: { en: "space", fr: "espace", de: "Raum" } });
    const res = await batch([
      { type: "update", id: entry!.id, translations: { en: "space", fr: "espace" } },
      { type: "insert", translations: { en: "page", fr: "page" } },
    ]);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    const got = await h.call("GET", `${glossaryPath()}/${entry!.id}`);
    expect(got.body.translations).toEqual({ en: "space", fr: "espace" });
    expect((await batch([{ type: "delete", id: entry!.id }])).status).toBe(204);
    expect((await h.listAll(glossaryPath())).map((e) => e.translations.en)).toEqual(["page"]);
  });

  it("checks the whole batch first: an unknown id, or one an earlier operation deletes, changes nothing", async () => {
    await batch([{ type: "insert", translations: { en: "space" } }]);
    const [entry] = await h.listAll(glossaryPath());
    const unknown = await batch([
      { type: "insert", translations: { en: "page" } },
      { type: "delete", id: "no-such-entry" },
    ]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe(
      `operations[1].id: glossary entry "no-such-entry" not found in organization "${h.org()}"`,
    );
    const deletedFirst = await batch([
      { type: "delete", id: entry!.id },
      { type: "update", id: entry!.id, translations: { en: "room" } },
    ]);
    expect(deletedFirst.status).toBe(400);
    expect(deletedFirst.body.error.message).toBe(
      `operations[1].id: glossary entry "${entry!.id}" not found in organization "${h.org()}"`,
    );
    expect((await h.listAll(glossaryPath())).map((e) => e.translations)).toEqual([{ en: "space" }]);
  });

  it("refuses a translation of two lines or over 255 characters", async () => {
    const twoLines = await batch([{ type: "insert", translations: { en: "a\nb" } }]);
    expect(twoLines.status).toBe(400);
    expect(twoLines.body.error.message).toMatch(/^operations\[0\]\.translations\.en: must match pattern/);
    const long = await batch([{ type: "insert", translations: { en: "a".repeat(256) } }]);
    expect(long.body.error.message).toBe("operations[0].translations.en: must be at most 255 characters");
  });

  it("sorts by a language's terms with orderBy, and keeps entries per organization", async () => {
    await batch([
      { type: "insert", translations: { en: "b" } },
      { type: "insert", translations: { en: "a" } },
    ]);
    const sorted = await h.call("GET", `${glossaryPath()}?orderBy=en`);
    expect(sorted.body.items.map((e: Json) => e.translations.en)).toEqual(["a", "b"]);
    const other = await h.call("GET", `/orgs/${h.emulator.secondOrganizationId}/translations-glossary`);
    expect(other.body.items).toEqual([]);
  });
});
