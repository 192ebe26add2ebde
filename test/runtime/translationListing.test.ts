import { describe, expect, it } from "vitest";
import {
  createTranslation,
  deleteTranslation,
  documentOf,
  getTranslation,
  HttpClient,
  listTranslations,
  runTranslation,
  updateGlossaryEntries,
  updateTranslation,
} from "../../provider/client";
import { Operation } from "../../provider/framework/operation";
import { definitions } from "../../provider/registry";
import { lifecycle } from "../../provider/runtime";
import { useEmulator } from "../support/emulator";
import { created } from "../support/lifecycle";
import { captureLog } from "../support/log";

/*
 * The translation kinds' listing facets (what `docs-platform import` and `unmanaged` read), their client's requests,
 * and a translation whose first run has not made its space yet (the emulator's runs stay pending for a minute here).
 */
const fixture = useEmulator({ translationStepMs: 60_000 });
const logged = captureLog();
const translationsPath = () => `/orgs/${fixture.org()}/translations`;
const glossaryPath = () => `/orgs/${fixture.org()}/translations-glossary`;
const definition = (kind: string) => definitions.find((candidate) => candidate.kind === kind)!;
const base = () => ({
  organizationId: fixture.org(),
  sourceSpaceId: fixture.space(0),
  sourceLanguage: "en",
  language: "fr",
});

async function inOperation<T>(work: (operation: Operation) => Promise<T>): Promise<T> {
  const operation = new Operation(definitions);
  try {
    return await work(operation);
  } finally {
    operation.close();
  }
}

const listed = (kind: string) =>
  inOperation((operation) =>
    definition(kind).listing!.list(operation.context(), { ids: { organizationId: fixture.org() }, title: "Org" }),
  );

describe("Translation listing", () => {
  it("lists nothing, and reads no spaces, for an organization without translations", async () => {
    fixture.emulator.clearRequests();
    expect(await listed("Translation")).toEqual([]);
    expect(fixture.calls()).toEqual([`GET /v1${translationsPath()}`]);
  });

  it("titles each translation by its source space's title and its language, or the space's id when unlisted", async () => {
    const french = await created("Translation", base());
    const gone = await fixture.apiCreate(`/orgs/${fixture.org()}/spaces`, { title: "Gone soon" });
    const german = await created("Translation", { ...base(), sourceSpaceId: gone, language: "de" });
    expect((await fixture.api("DELETE", `/spaces/${gone}`)).status).toBe(205);
    const title = fixture.emulator.store.spaces.get(fixture.space(0))!.title;
    fixture.emulator.clearRequests();
    const items = await listed("Translation");
    expect(items.map(({ id, title, known }) => ({ id, title, known }))).toEqual([
      { id: french.id, title: `${title} fr`, known: { organizationId: fixture.org() } },
      { id: german.id, title: `${gone} de`, known: { organizationId: fixture.org() } },
    ]);
    expect(items.map((item) => (item as { item?: { id: string } }).item?.id)).toEqual([french.id, german.id]);
    expect(fixture.calls()).toEqual([`GET /v1${translationsPath()}`, `GET /v1/orgs/${fixture.org()}/spaces`]);
  });
});

describe("TranslationGlossary listing", () => {
  it("lists no glossary for an organization without entries", async () => {
    expect(await listed("TranslationGlossary")).toEqual([]);
  });

  it("lists the organization's one glossary, known by the language its entries are keyed by", async () => {
    const operations = [{ type: "insert", translations: { de: "Seite", fr: "page" } }];
    expect((await fixture.api("PUT", glossaryPath(), { operations })).status).toBe(204);
    expect(await listed("TranslationGlossary")).toEqual([
      { id: fixture.org(), title: "Glossary", known: { organizationId: fixture.org(), sourceLanguage: "de" } },
    ]);
  });
});

describe("a translation before its first run has made its space", () => {
  it("has no resultSpaceId, and deleting it mentions no translated space", async () => {
    const { id, state } = await created("Translation", base());
    expect(state).toMatchObject({ status: "pending", resultSpaceId: null });
    const read = await lifecycle("Translation").read(id, state);
    expect(read.props).toMatchObject({ status: "pending", resultSpaceId: null });
    logged.length = 0;
    await lifecycle("Translation").delete(id, state);
    expect(logged).toEqual([]);
  });
});

describe("the translations client", () => {
  const userClient = () => new HttpClient({ baseUrl: fixture.emulator.url, token: fixture.emulator.token });
  const INTEGRATION_TOKEN = "integration-token-translation-client";
  const integrationClient = () => {
    fixture.emulator.typeToken(INTEGRATION_TOKEN, "integration");
    return new HttpClient({ baseUrl: fixture.emulator.url, token: INTEGRATION_TOKEN });
  };

  it("sends each operation with its method and path", async () => {
    const org = fixture.org();
    const client = userClient();
    const made = await createTranslation(client, org, {
      source: { space: fixture.space(0), language: "en" },
      language: "fr",
    });
    expect((await getTranslation(client, org, made.id)).id).toBe(made.id);
    const updated = await updateTranslation(client, org, made.id, documentOf("Formal."));
    expect(updated.instructions).toEqual(documentOf("Formal."));
    await runTranslation(client, org, made.id);
    await updateGlossaryEntries(client, org, [{ type: "insert", translations: { en: "page" } }]);
    await deleteTranslation(client, org, made.id);
    expect(await listTranslations(client, org)).toEqual([]);
    const path = `/v1${translationsPath()}`;
    expect(fixture.calls()).toEqual([
      `POST ${path}`,
      `GET ${path}/${made.id}`,
      `PUT ${path}/${made.id}`,
      `POST ${path}/${made.id}/run`,
      `PUT /v1${glossaryPath()}`,
      `DELETE ${path}/${made.id}`,
      `GET ${path}`,
    ]);
  });

  it("repeats a run whose answer was lost, since a run sets a state", async () => {
    const org = fixture.org();
    const client = new HttpClient({
      baseUrl: fixture.emulator.url,
      token: fixture.emulator.token,
      retry: { maxAttempts: 2, baseDelayMs: 1 },
    });
    const { id } = await created("Translation", base());
    fixture.emulator.clearRequests();
    fixture.emulator.injectFault({ method: "POST", path: "/run$", count: 1, afterHandling: "drop" });
    await runTranslation(client, org, id);
    expect(fixture.calls()).toEqual([
      `POST /v1${translationsPath()}/${id}/run`,
      `POST /v1${translationsPath()}/${id}/run`,
    ]);
  });

  it("says a user's token is needed when another token's every operation is refused", async () => {
    const org = fixture.org();
    const { id } = await created("Translation", base());
    const client = integrationClient();
    const operations: [string, () => Promise<unknown>][] = [
      ["list", () => listTranslations(client, org)],
      [
        "create",
        () => createTranslation(client, org, { source: { space: fixture.space(0), language: "en" }, language: "de" }),
      ],
      ["get", () => getTranslation(client, org, id)],
      ["update", () => updateTranslation(client, org, id, documentOf("x"))],
      ["delete", () => deleteTranslation(client, org, id)],
      ["run", () => runTranslation(client, org, id)],
      ["glossary", () => updateGlossaryEntries(client, org, [])],
    ];
    for (const [name, operation] of operations) {
      const error = await operation().then(
        () => new Error("expected a failure"),
        (failure: Error) => failure,
      );
      expect(error.name, name).toBe("UserTokenRequiredError");
    }
  });
});
