import { describe, expect, it } from "vitest";
import { walkOrganization } from "../../cli/walk";
import { Operation } from "../../provider/framework/operation";
import { definitions } from "../../provider/registry";
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
import { captureLog } from "../support/log";

const fixture = useEmulator();
const logged = captureLog();
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

  it("sends a batch whose answer is lost twice no third time, and fails at once on a refusal", async () => {
    fixture.emulator.injectFault({ method: "PUT", path: "/translations-glossary$", count: 2, status: 500 });
    await expect(created("TranslationGlossary", base())).rejects.toThrow(
      /PUT \/v1\/orgs\/\w+\/translations-glossary failed with 500/,
    );
    expect(fixture.calls().filter((call) => call.startsWith("PUT"))).toHaveLength(2);

    fixture.emulator.clearRequests();
    fixture.emulator.injectFault({ method: "PUT", path: "/translations-glossary$", count: 1, status: 409 });
    await expect(created("TranslationGlossary", base())).rejects.toThrow(/failed with 409/);
    expect(fixture.calls().filter((call) => call.startsWith("PUT"))).toHaveLength(1);
    expect(await entriesOfApi()).toEqual([]);
  });

  it("names five entries without a sourceLanguage term and counts the others", async () => {
    const { id, state } = await created("TranslationGlossary", base());
    await insertByHand(...["eins", "zwei", "drei", "vier", "neun", "sechs", "sieben"].map((de) => ({ de })));
    const error = await failure(lifecycle("TranslationGlossary").read(id, state));
    expect(error.message).toMatch(
      /: 7 glossary entries have no "en" term \(sourceLanguage\), so no entry of the program can name them: "\w+" \(\{"de":"\w+"\}\), "\w+" \(\{"de":"\w+"\}\), "\w+" \(\{"de":"\w+"\}\), "\w+" \(\{"de":"\w+"\}\), "\w+" \(\{"de":"\w+"\}\), and 2 more\. Give each/,
    );
  });

  it("reads entries sorted by term, their other languages sorted by code, without the source language", async () => {
    const terms = ["zeta", "alpha", "mu", "beta", "omega", "kappa"];
    const { id, state } = await created("TranslationGlossary", { ...base(), entries: [] });
    await insertByHand(...terms.map((en) => ({ fr: `${en}-fr`, en, it: `${en}-it`, de: `${en}-de`, es: `${en}-es` })));
    const read = await lifecycle("TranslationGlossary").read(id, state);
    const entries = read.props?.entries as { term: string; translations: Record<string, string> }[];
    expect(entries.map((entry) => entry.term)).toEqual([...terms].sort());
    expect(entries[0]).toEqual({
      term: "alpha",
      translations: { de: "alpha-de", es: "alpha-es", fr: "alpha-fr", it: "alpha-it" },
    });
    expect(entries.map((entry) => Object.keys(entry.translations))).toEqual(terms.map(() => ["de", "es", "fr", "it"]));
  });

  it("reads no glossary under an id other than its organization's", async () => {
    const { state } = await created("TranslationGlossary", base());
    const definition = definitions.find((kind) => kind.kind === "TranslationGlossary")!;
    const operation = new Operation(definitions);
    try {
      expect(await definition.read(operation.context(), "another-org", state, undefined)).toBeUndefined();
    } finally {
      operation.close();
    }
  });

  it("says on delete that every entry was deleted", async () => {
    const { id, state } = await created("TranslationGlossary", base());
    await lifecycle("TranslationGlossary").delete(id, state);
    expect(logged).toContain(`info: TranslationGlossary "${id}": every entry of the glossary was deleted.`);
  });

  it("rejects entries that are not a list, or an entry without translations, naming the property", async () => {
    const cases: LimitCase[] = [
      [{ entries: "workspace" }, "entries", /must be an array/],
      [{ entries: [null] }, "entries.0", /must be an object/],
      [{ entries: [{ term: "x" }] }, "entries.0.translations", /must be a record/],
    ];
    await expectEachLimitRejected("TranslationGlossary", base(), cases);
  });

  it("checks a program's inputs without a request", async () => {
    await checked("TranslationGlossary", base());
    expect(fixture.emulator.requests()).toEqual([]);
  });
});
