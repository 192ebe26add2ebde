import { describe, expect, it } from "vitest";
import { walkOrganization } from "../../cli/walk";
import { glossaryOperations, likelySourceLanguage } from "../../provider/resources/translationGlossary";
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

const fixture = useEmulator();
const glossaryPath = () => `/orgs/${fixture.org()}/translations-glossary`;
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: Error) => error,
  );

const WORKSPACE = { term: "workspace", translations: { de: "Arbeitsbereich", fr: "espace de travail" } };
const SPACE = { term: "space", translations: { fr: "espace" } };
const base = () => ({ organizationId: fixture.org(), sourceLanguage: "en", entries: [WORKSPACE, SPACE] });

/** Adds entries out of band, as someone would in the app. */
async function insertByHand(...translations: Record<string, string>[]) {
  const operations = translations.map((t) => ({ type: "insert", translations: t }));
  expect((await fixture.api("PUT", glossaryPath(), { operations })).status).toBe(204);
}

const entriesOfApi = async () =>
  (await fixture.listAll(glossaryPath())).map((e) => e.translations as Record<string, string>);

describeLifecycle(
  {
    kind: "TranslationGlossary",
    inputs: base,
    created: (state) =>
      expect(state).toMatchObject({ sourceLanguage: "en", entries: [SPACE, WORKSPACE], organizationId: fixture.org() }),
    updates: [
      updateTo("entries", [WORKSPACE], "entries (one removed)"),
      updateTo(
        "entries",
        [SPACE, { ...WORKSPACE, translations: { fr: "espace de travail" } }],
        "entries (a language removed)",
      ),
      {
        name: "entries (a translation changed)",
        inputs: (_f, previous) => ({
          ...previous,
          entries: [SPACE, { ...WORKSPACE, translations: { de: "Bereich", fr: "espace de travail" } }],
        }),
        expect: (state) => {
          expect(state.entries).toEqual([
            SPACE,
            { ...WORKSPACE, translations: { de: "Bereich", fr: "espace de travail" } },
          ]);
          const batch = fixture.lastRequestBody("PUT", /translations-glossary$/) as { operations: { type: string }[] };
          expect(batch.operations.map((o) => o.type)).toEqual(["update"]);
        },
      },
      {
        name: "sourceLanguage (entries named by another language)",
        inputs: (_f, previous) => ({
          ...previous,
          sourceLanguage: "fr",
          entries: [{ term: "espace", translations: { en: "space" } }],
        }),
        expect: (state) => expect(state.entries).toEqual([{ term: "espace", translations: { en: "space" } }]),
      },
    ],
    replaces: [
      { property: "organizationId", inputs: (f, p) => ({ ...p, organizationId: f.emulator.secondOrganizationId }) },
    ],
    outOfBand: {
      change: () => insertByHand({ en: "page", fr: "page" }),
      expect: (state) =>
        expect((state.entries as { term: string }[]).map((e) => e.term)).toEqual(["page", "space", "workspace"]),
    },
    adopt: {
      existing: async () => {
        await insertByHand({ en: "space", fr: "espace" }, { en: "old", de: "alt" });
        return fixture.org();
      },
      inputs: base,
      expect: (state) => expect(state.entries).toEqual([SPACE, WORKSPACE]),
    },
    deleteKeepsObject: "every organization has a glossary; delete empties it",
  },
  fixture,
);

describe("TranslationGlossary behaviour", () => {
  it("create deletes the entries it does not list (authoritative), in one batch", async () => {
    await insertByHand({ en: "legacy", fr: "héritage" }, { de: "nur Deutsch" });
    fixture.emulator.clearRequests();
    await created("TranslationGlossary", base());
    expect(fixture.calls()).toEqual([
      `GET /v1${glossaryPath()}`,
      `PUT /v1${glossaryPath()}`,
      `GET /v1${glossaryPath()}`,
    ]);
    expect((await entriesOfApi()).sort((a, b) => (a.en! < b.en! ? -1 : 1))).toEqual([
      { en: "space", fr: "espace" },
      { en: "workspace", de: "Arbeitsbereich", fr: "espace de travail" },
    ]);
  });

  it("adopting a glossary that already matches sends nothing", async () => {
    await insertByHand(
      { en: "workspace", de: "Arbeitsbereich", fr: "espace de travail" },
      { en: "space", fr: "espace" },
    );
    fixture.emulator.clearRequests();
    await created("TranslationGlossary", { ...base(), importId: fixture.org() });
    expect(fixture.writes()).toEqual([]);
  });

  it("delete removes every entry", async () => {
    await insertByHand({ de: "nur Deutsch" });
    const { id, state } = await created("TranslationGlossary", base());
    await insertByHand({ de: "wieder" });
    await lifecycle("TranslationGlossary").delete(id, state);
    expect(await entriesOfApi()).toEqual([]);
  });

  it("after a lost answer, reads the glossary again and sends only what is still missing", async () => {
    // The batch reaches the API, its answer is lost: repeating it would insert every entry twice.
    fixture.emulator.injectFault({ method: "PUT", path: "/translations-glossary$", count: 1, afterHandling: "drop" });
    await created("TranslationGlossary", base());
    expect(await entriesOfApi()).toHaveLength(2);
    expect(fixture.calls().filter((call) => call.startsWith("PUT"))).toHaveLength(1);
  });

  it("an entry without a term in sourceLanguage fails a refresh or import, naming it and the fix", async () => {
    const { id, state } = await created("TranslationGlossary", base());
    await insertByHand({ de: "nur Deutsch" });
    const entry = (await fixture.listAll(glossaryPath())).find((e) => !(e.translations as { en?: string }).en)!;
    const error = await failure(lifecycle("TranslationGlossary").read(id, state));
    expect(error.message).toContain(
      `TranslationGlossary "${fixture.org()}": 1 glossary entries have no "en" term (sourceLanguage), so no entry ` +
        `of the program can name them: "${entry.id}" ({"de":"nur Deutsch"}). Give each a "en" term in the app or ` +
        "delete it there, or declare the sourceLanguage every entry has.",
    );
  });

  it("docs-platform import declares the glossary keyed by the language every entry has, and fails naming one without it", async () => {
    await insertByHand({ fr: "espace", en: "space" }, { fr: "page", de: "Seite" });
    const walk = await walkOrganization({ organizationId: fixture.org(), kinds: ["TranslationGlossary"] });
    expect(walk.objects).toEqual([
      {
        kind: "TranslationGlossary",
        id: fixture.org(),
        title: "Glossary",
        inputs: {
          organizationId: fixture.org(),
          sourceLanguage: "fr",
          entries: [
            { term: "espace", translations: { en: "space" } },
            { term: "page", translations: { de: "Seite" } },
          ],
        },
      },
    ]);
    await insertByHand({ de: "nur Deutsch" });
    // Another run of import: another operation, whose listings are read anew.
    startOperation();
    const failed = walkOrganization({ organizationId: fixture.org(), kinds: ["TranslationGlossary"] });
    await expect(failed).rejects.toThrow(
      /1 glossary entries have no "fr" term \(sourceLanguage\), so no entry of the program can name them: "\w+" \(\{"de":"nur Deutsch"\}\)/,
    );
  });

  it("rejects each malformed value at preview, with no request", async () => {
    const cases: LimitCase[] = [
      [{ sourceLanguage: "xx" }, "sourceLanguage", /must be one of "en", /],
      [
        { entries: [WORKSPACE, WORKSPACE] },
        "entries.1.term",
        /"workspace" is also the term of entries\[0\]: a term names one entry/,
      ],
      [{ entries: [{ term: "", translations: {} }] }, "entries.0.term", /at least 1/],
      [{ entries: [{ term: "a".repeat(256), translations: {} }] }, "entries.0.term", /at most 255/],
      [{ entries: [{ term: "two\nlines", translations: {} }] }, "entries.0.term", /must be one line/],
      [{ entries: [{ term: "x", translations: { fr: "" } }] }, "entries.0.translations.fr", /at least 1/],
      [
        { entries: [{ term: "x", translations: { en: "x" } }] },
        "entries.0.translations.en",
        /the term itself is the entry's "en" \(sourceLanguage\): leave this key out/,
      ],
      [{ entries: [{ term: "x", translations: { klingon: "x" } }] }, "entries.0.translations", /klingon/],
    ];
    await expectEachLimitRejected("TranslationGlossary", base(), cases);
    expect(fixture.emulator.requests()).toEqual([]);
  });

  it("keys an import by the language every entry has, en first", () => {
    const entry = (id: string, translations: Record<string, string>) => ({ id, translations });
    expect(likelySourceLanguage([])).toBe("en");
    expect(likelySourceLanguage([entry("1", { en: "a", fr: "b" }), entry("2", { en: "c" })])).toBe("en");
    expect(likelySourceLanguage([entry("1", { de: "a", fr: "b" }), entry("2", { fr: "c" })])).toBe("fr");
  });

  it("updates an entry that keeps its languages, deletes and inserts one that loses a language", () => {
    const current: { id: string; translations: Record<string, string> }[] = [
      { id: "a", translations: { en: "space", fr: "espace" } },
      { id: "b", translations: { en: "workspace", fr: "espace de travail", de: "Arbeitsbereich" } },
      { id: "c", translations: { en: "space", fr: "doublon" } },
      { id: "d", translations: { de: "nur Deutsch" } },
    ];
    const desired: { term: string; translations: Record<string, string> }[] = [
      { term: "space", translations: { fr: "espace", de: "Raum" } },
      { term: "workspace", translations: { fr: "espace de travail" } },
      { term: "page", translations: {} },
    ];
    expect(glossaryOperations(current, desired, "en")).toEqual([
      { type: "update", id: "a", translations: { en: "space", fr: "espace", de: "Raum" } },
      { type: "delete", id: "b" },
      { type: "insert", translations: { en: "workspace", fr: "espace de travail" } },
      { type: "delete", id: "c" },
      { type: "delete", id: "d" },
      { type: "insert", translations: { en: "page" } },
    ]);
    expect(glossaryOperations([current[0]!], [{ term: "space", translations: { fr: "espace" } }], "en")).toEqual([]);
  });

  it("checks a program's inputs without a request", async () => {
    await checked("TranslationGlossary", base());
    expect(fixture.emulator.requests()).toEqual([]);
  });
});
