import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator";
import { census } from "../support/census";
import { callApi, startTestEmulator } from "../support/emulator";
import { changes, makeProject, makeStack, runPulumi, upConsistent } from "./harness";

/**
 * A space's translation and the organization's glossary through the real CLI: created, a no-change preview, a hand
 * edit of each seen and put back, a run started by `runTrigger`, a translation made by hand adopted with `importId`,
 * and destroy (translations deleted, their translated spaces kept; the glossary emptied).
 */
const program = `
const pulumi = require("@pulumi/pulumi");
const docs = require("pulumi-docs-platform");

const config = new pulumi.Config();
const organizationId = config.require("organizationId");

const guides = new docs.Space("guides", { organizationId, title: "Guides" });
const french = new docs.Translation("guides-fr", {
  organizationId,
  sourceSpaceId: guides.id,
  sourceLanguage: "en",
  language: "fr",
  instructions: "Address readers with vous.\\nKeep product names in English.",
  runTrigger: { release: config.get("release") ?? "1" },
});
new docs.TranslationGlossary("glossary", {
  organizationId,
  sourceLanguage: "en",
  entries: [
    { term: "workspace", translations: { fr: "espace de travail", de: "Arbeitsbereich" } },
    { term: "Acme", translations: { fr: "Acme" } },
  ],
});
const adopted = config.get("adoptTranslationId");
if (adopted) {
  new docs.Translation("guides-de", {
    organizationId,
    sourceSpaceId: guides.id,
    sourceLanguage: "en",
    language: "de",
    importId: adopted,
  });
}

exports.spaceId = guides.id;
exports.translationId = french.id;
exports.frenchSpaceId = french.resultSpaceId;
`;

describe("a translation and the glossary through the Pulumi CLI", () => {
  let emulator: RunningEmulator;
  let stack: Stack;

  const api = (method: string, path: string, body?: unknown) => callApi(emulator, method, path, body);
  const output = async (name: string) => (await stack.outputs())[name]?.value as string;
  const translationsPath = () => `/orgs/${emulator.organizationId}/translations`;
  const glossaryPath = () => `/orgs/${emulator.organizationId}/translations-glossary`;
  const writes = () => emulator.requests().filter((r) => r.method !== "GET");
  const glossaryTerms = async () =>
    ((await api("GET", `${glossaryPath()}?limit=1000`)).body.items as { translations: Record<string, string> }[])
      .map((entry) => entry.translations.en)
      .sort();

  beforeAll(async () => {
    emulator = await startTestEmulator({ port: 0 });
    stack = await makeStack(await makeProject("translations", { "index.js": program }), emulator);
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await emulator?.close();
  });

  it("creates the translation (its first run makes the French space) and the glossary, then previews no change", async () => {
    await upConsistent(stack);
    const translation = (await api("GET", `${translationsPath()}/${await output("translationId")}`)).body;
    expect(translation).toMatchObject({
      source: { space: await output("spaceId"), language: "en" },
      language: "fr",
      status: "completed",
      result: { space: await output("frenchSpaceId") },
    });
    expect(await glossaryTerms()).toEqual(["Acme", "workspace"]);
    emulator.clearRequests();
    const preview = await runPulumi(stack, ["preview", "--expect-no-changes", "--diff"]);
    expect(preview.code, preview.output).toBe(0);
    expect(writes()).toEqual([]);
  });

  it("sees instructions and a glossary entry changed by hand in preview --refresh, and puts both back", async () => {
    const id = await output("translationId");
    const byHand = {
      object: "document",
      data: {},
      nodes: [
        {
          object: "block",
          type: "paragraph",
          data: {},
          nodes: [{ object: "text", leaves: [{ object: "leaf", text: "Tutoyer.", marks: [] }] }],
        },
      ],
    };
    expect((await api("PUT", `${translationsPath()}/${id}`, { instructions: byHand })).status).toBe(200);
    const inserted = await api("PUT", glossaryPath(), {
      operations: [{ type: "insert", translations: { en: "scratch", fr: "brouillon" } }],
    });
    expect(inserted.status).toBe(204);
    const preview = await stack.preview({ refresh: true, diff: true });
    expect(changes(preview.changeSummary)).toEqual({ update: 2 });
    expect(preview.stdout).toMatch(/instructions/);
    expect(preview.stdout).toMatch(/scratch/);
    emulator.clearRequests();
    await upConsistent(stack, { refresh: true });
    expect(
      writes()
        .map((r) => `${r.method} ${r.route}`)
        .sort(),
    ).toEqual([
      "PUT /v1/orgs/{organizationId}/translations-glossary",
      "PUT /v1/orgs/{organizationId}/translations/{translationId}",
    ]);
    expect(await glossaryTerms()).toEqual(["Acme", "workspace"]);
    const clean = await runPulumi(stack, ["refresh", "--expect-no-changes", "--yes"]);
    expect(clean.code, clean.output).toBe(0);
  });

  it("runs the translation again when runTrigger changes, and only then", async () => {
    await stack.setConfig("release", { value: "2" });
    emulator.clearRequests();
    await upConsistent(stack);
    expect(writes().map((r) => `${r.method} ${r.route}`)).toEqual([
      "POST /v1/orgs/{organizationId}/translations/{translationId}/run",
    ]);
    const translation = (await api("GET", `${translationsPath()}/${await output("translationId")}`)).body;
    expect(translation.stats.runs).toBe(2);
  });

  it("adopts a translation made by hand with importId, writing nothing", async () => {
    const made = await api("POST", translationsPath(), {
      source: { space: await output("spaceId"), language: "en" },
      language: "de",
    });
    expect(made.status).toBe(201);
    await stack.setConfig("adoptTranslationId", { value: made.body.id });
    emulator.clearRequests();
    const result = await upConsistent(stack);
    expect(changes(result.summary.resourceChanges)).toMatchObject({ create: 1 });
    // Its instructions are not declared, so they are not managed.
    expect(writes()).toEqual([]);
    const clean = await runPulumi(stack, ["preview", "--expect-no-changes"]);
    expect(clean.code, clean.output).toBe(0);
  });

  it("destroy deletes the translations and empties the glossary; the translated spaces stay", async () => {
    const frenchSpace = await output("frenchSpaceId");
    await stack.destroy();
    expect((await census(emulator)).Translation).toEqual([]);
    expect(await glossaryTerms()).toEqual([]);
    expect((await api("GET", `/spaces/${frenchSpace}`)).status).toBe(200);
  });
});
