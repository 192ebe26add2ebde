import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { documentOf } from "../../provider/client";
import { Operation } from "../../provider/framework/operation";
import { definitions } from "../../provider/registry";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { created, describeLifecycle, expectEachLimitRejected, type LimitCase, updateTo } from "../support/lifecycle";
import { captureLog } from "../support/log";

const fixture = useEmulator();
const logged = captureLog();

async function inOperation<T>(work: (operation: Operation) => Promise<T>): Promise<T> {
  const operation = new Operation(definitions);
  try {
    return await work(operation);
  } finally {
    operation.close();
  }
}
const translationsPath = () => `/orgs/${fixture.org()}/translations`;
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: Error) => error,
  );

const base = () => ({
  organizationId: fixture.org(),
  sourceSpaceId: fixture.space(0),
  sourceLanguage: "en",
  language: "fr",
});

describeLifecycle(
  {
    kind: "Translation",
    inputs: () => ({ ...base(), instructions: "Address readers with vous.\nKeep product names in English." }),
    created: (state) =>
      expect(state).toMatchObject({
        sourceSpaceId: fixture.space(0),
        sourceLanguage: "en",
        language: "fr",
        instructions: "Address readers with vous.\nKeep product names in English.",
        runTrigger: null,
        // The emulator's runs complete at once unless told otherwise (translationStepMs).
        status: "completed",
        resultSpaceId: expect.any(String),
      }),
    updates: [
      updateTo("instructions", "Tutoyer le lecteur."),
      updateTo("instructions", "", "instructions cleared"),
      {
        name: "runTrigger (runs the translation again)",
        inputs: (_f, previous) => ({ ...previous, runTrigger: { release: "2026.12" } }),
        expect: async (state) => {
          expect(state.runTrigger).toEqual({ release: "2026.12" });
          expect(
            fixture
              .calls()
              .filter((call) => call.startsWith("POST"))
              .at(-1),
          ).toBe(`POST /v1${translationsPath()}/${fixture.emulator.store.translations.keys().next().value}/run`);
        },
      },
    ],
    replaces: [
      { property: "sourceSpaceId", inputs: (f, p) => ({ ...p, sourceSpaceId: f.space(1) }) },
      { property: "sourceLanguage", inputs: (_f, p) => ({ ...p, sourceLanguage: "de" }) },
      { property: "language", inputs: (_f, p) => ({ ...p, language: "es" }) },
      { property: "organizationId", inputs: (f, p) => ({ ...p, organizationId: f.emulator.secondOrganizationId }) },
    ],
    outOfBand: {
      change: async (id) => {
        const body = { instructions: documentOf("Changed by hand.") };
        expect((await fixture.api("PUT", `${translationsPath()}/${id}`, body)).status).toBe(200);
      },
      expect: (state) => expect(state.instructions).toBe("Changed by hand."),
    },
    adopt: {
      existing: () =>
        fixture.apiCreate(translationsPath(), {
          source: { space: fixture.space(0), language: "en" },
          language: "fr",
          instructions: documentOf("Old."),
        }),
      inputs: () => ({ ...base(), instructions: "Adopted." }),
      expect: (state) => expect(state).toMatchObject({ instructions: "Adopted.", language: "fr" }),
    },
  },
  fixture,
);

describe("Translation behaviour", () => {
  it("runs again only when runTrigger changes, and sends the instructions only when they change", async () => {
    const { id, state, inputs } = await created("Translation", { ...base(), runTrigger: { release: "1" } });
    const provider = lifecycle("Translation");
    fixture.emulator.clearRequests();
    await provider.update(id, state, { ...inputs, instructions: "Short sentences." });
    expect(fixture.calls()).toEqual([`PUT /v1${translationsPath()}/${id}`]);
    expect(fixture.lastRequestBody("PUT", /translations\//)).toEqual({ instructions: documentOf("Short sentences.") });

    fixture.emulator.clearRequests();
    const { outs } = await provider.update(id, state, { ...inputs, runTrigger: { release: "2" } });
    expect(fixture.calls()).toEqual([`POST /v1${translationsPath()}/${id}/run`, `GET /v1${translationsPath()}/${id}`]);
    expect(fixture.emulator.store.translations.get(id)?.runs).toBe(2);
    expect(outs).toMatchObject({ runTrigger: { release: "2" }, status: "completed" });
  });

  it("leaves instructions out of the create when they are not declared, and reads them as text", async () => {
    const { state } = await created("Translation", base());
    const post = fixture.lastRequestBody("POST", /\/translations$/);
    expect(post).toEqual({ source: { space: fixture.space(0), language: "en" }, language: "fr" });
    expect(state.instructions).toBe("");
  });

  it("keeps stats out of the state, and names the translated space", async () => {
    const { id, state } = await created("Translation", base());
    expect(
      Object.keys(state)
        .filter((key) => !key.startsWith("__"))
        .sort(),
    ).toEqual(
      [
        "instructions",
        "language",
        "organizationId",
        "resultSpaceId",
        "runTrigger",
        "sourceLanguage",
        "sourceSpaceId",
        "status",
      ].sort(),
    );
    const translated = fixture.emulator.store.spaces.get(String(state.resultSpaceId));
    expect(translated?.language).toBe("fr");
    // Deleting the translation leaves its space.
    await lifecycle("Translation").delete(id, state);
    expect(fixture.emulator.store.liveSpace(String(state.resultSpaceId))).toBeDefined();
  });

  it("reads every translation of an organization from one listing in a refresh", async () => {
    const made = [];
    for (const language of ["fr", "de", "es"]) made.push(await created("Translation", { ...base(), language }));
    fixture.emulator.clearRequests();
    const reads = await Promise.all(made.map(({ id, state }) => lifecycle("Translation").read(id, state)));
    expect(reads.map((read) => read.props?.language)).toEqual(["fr", "de", "es"]);
    expect(fixture.calls()).toEqual([`GET /v1${translationsPath()}`]);
  });

  it("fails an importId naming a translation of another space, naming what differs and the fix", async () => {
    const other = await fixture.apiCreate(translationsPath(), {
      source: { space: fixture.space(1), language: "en" },
      language: "fr",
    });
    const inputs = { ...base(), importId: other };
    const checkedInputs = (await lifecycle("Translation").check({}, inputs)).inputs;
    const error = await failure(lifecycle("Translation").create(checkedInputs ?? {}));
    expect(error.message).toContain(
      `Translation "${other}": importId names a translation whose sourceSpaceId differ from the inputs ` +
        `(sourceSpaceId "${fixture.space(1)}"); declare those values, or remove importId to create a new translation.`,
    );
  });

  it("finds the translation a lost create made, by its space and languages", async () => {
    const definition = definitions.find((kind) => kind.kind === "Translation")!;
    const since = new Date(Date.now() - 1000);
    const { id } = await created("Translation", base());
    await created("Translation", { ...base(), language: "de" });
    const { Operation } = await import("../../provider/framework/operation");
    const operation = new Operation(definitions);
    try {
      const inputs = (await lifecycle("Translation").check({}, base())).inputs;
      expect(await definition.findCreated!(operation.context(), inputs, since)).toEqual([
        { id, title: `${fixture.space(0)} fr` },
      ]);
      expect(await definition.findCreated!(operation.context(), inputs, new Date(Date.now() + 60_000))).toEqual([]);
    } finally {
      operation.close();
    }
  });

  it("finds a lost create only among translations of the same space and both languages", async () => {
    const definition = definitions.find((kind) => kind.kind === "Translation")!;
    const { id } = await created("Translation", base());
    await created("Translation", { ...base(), sourceSpaceId: fixture.space(1) });
    await created("Translation", { ...base(), sourceLanguage: "de" });
    const inputs = (await lifecycle("Translation").check({}, base())).inputs;
    const found = await inOperation((operation) => definition.findCreated!(operation.context(), inputs, new Date(0)));
    expect(found.map((candidate) => candidate.id)).toEqual([id]);
  });

  it("names every value an importId's translation differs in", async () => {
    const other = await fixture.apiCreate(translationsPath(), {
      source: { space: fixture.space(1), language: "en" },
      language: "de",
    });
    const checkedInputs = (await lifecycle("Translation").check({}, { ...base(), importId: other })).inputs;
    const error = await failure(lifecycle("Translation").create(checkedInputs ?? {}));
    expect(error.message).toContain(
      `importId names a translation whose sourceSpaceId, language differ from the inputs ` +
        `(sourceSpaceId "${fixture.space(1)}", language "de"); declare those values`,
    );
  });

  it("sends no instructions when they are unchanged or no longer declared, and logs a new run", async () => {
    const { id, state, inputs } = await created("Translation", { ...base(), instructions: "Formal." });
    fixture.emulator.clearRequests();
    logged.length = 0;
    await lifecycle("Translation").update(id, state, { ...inputs, runTrigger: { release: "2" } });
    expect(fixture.calls()).toEqual([`POST /v1${translationsPath()}/${id}/run`, `GET /v1${translationsPath()}/${id}`]);
    expect(logged).toEqual([`info: Translation "${id}": a new run was started (runTrigger changed).`]);

    fixture.emulator.clearRequests();
    const definition = definitions.find((kind) => kind.kind === "Translation")!;
    const undeclared = (await lifecycle("Translation").check({}, base())).inputs;
    const after = await inOperation((operation) =>
      definition.update(operation.context(), id, state as never, undeclared as never, new Set(["instructions"])),
    );
    expect(fixture.calls()).toEqual([`GET /v1${translationsPath()}/${id}`]);
    expect(after).toMatchObject({ instructions: "Formal." });
  });

  it("says on delete that the translated space is left in place", async () => {
    const { id, state } = await created("Translation", base());
    logged.length = 0;
    await lifecycle("Translation").delete(id, state);
    expect(logged).toEqual([
      `info: Translation "${id}": its translated space "${state.resultSpaceId}" is left in place.`,
    ]);
  });

  it("reads a translation on its own when the organization's listing fails", async () => {
    const { id, state } = await created("Translation", base());
    fixture.emulator.clearRequests();
    fixture.emulator.injectFault({ method: "GET", path: "/translations$", count: 1, status: 404 });
    const read = await lifecycle("Translation").read(id, state);
    expect(read.props).toMatchObject({ language: "fr", status: "completed" });
    expect(fixture.calls()).toEqual([`GET /v1${translationsPath()}`, `GET /v1${translationsPath()}/${id}`]);
  });

  it("an API refusal names the resource, the field, the API's answer and the fix", async () => {
    const inputs = (await lifecycle("Translation").check({}, { ...base(), sourceSpaceId: "gone-space" })).inputs;
    const error = await failure(lifecycle("Translation").create(inputs ?? {}));
    expect(error.message).toMatch(
      new RegExp(
        `^Translation create: POST /v1${translationsPath()} failed with 400 Bad Request: source\\.space: space ` +
          `"gone-space" not found in organization "${fixture.org()}"`,
      ),
    );
    expect(error.message).toContain("An id in the inputs names no object the API knows: check it.");
  });

  it("rejects each malformed value at preview, with no request", async () => {
    const cases: LimitCase[] = [
      [{ language: "klingon" }, "language", /^Translation.language: must be one of "en", "fr", /],
      [{ sourceLanguage: "xx" }, "sourceLanguage", /must be one of "en", /],
      [{ language: "en" }, "language", /"en" is also sourceLanguage: a translation goes into another language/],
      [{ runTrigger: { release: 1 } }, "runTrigger.release", /must be a string/],
      [{ instructions: 42 }, "instructions", /must be a string/],
    ];
    await expectEachLimitRejected("Translation", base(), cases);
    expect(fixture.emulator.requests()).toEqual([]);
  });
});

describe("Translation with a token that is not a user's", () => {
  const INTEGRATION_TOKEN = "integration-token-translations";
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env.DOCS_API_TOKEN;
    fixture.emulator.typeToken(INTEGRATION_TOKEN, "integration");
  });
  afterEach(() => {
    process.env.DOCS_API_TOKEN = saved;
  });

  it("fails with the fix (a personal token), for a translation and for the glossary", async () => {
    const translation = await created("Translation", base());
    process.env.DOCS_API_TOKEN = INTEGRATION_TOKEN;
    const error = await failure(lifecycle("Translation").read(translation.id, translation.state));
    expect(error.name).toBe("UserTokenRequiredError");
    expect(error.message).toMatch(
      new RegExp(`^Translation "${translation.id}" read: GET /v1${translationsPath()} failed with 401 Unauthorized: `),
    );
    expect(error.message).toContain("Use a personal API token of an organization admin");

    const glossary = await failure(
      lifecycle("TranslationGlossary").create(
        (
          await lifecycle("TranslationGlossary").check(
            {},
            { organizationId: fixture.org(), sourceLanguage: "en", entries: [] },
          )
        ).inputs ?? {},
      ),
    );
    expect(glossary.name).toBe("UserTokenRequiredError");
    expect(glossary.message).toContain("Use a personal API token of an organization admin");
  });
});
